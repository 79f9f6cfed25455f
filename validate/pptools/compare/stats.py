"""Cross-run statistics of validate/compare: is a row's time different between
two sets of runs, beyond the run-to-run variation?

Each result file is one process (one run of the binary). The samples inside one
process share its machine state (clocks, placement, neighbours on a busy
machine), so they say nothing about how much the next process will differ: a
row's observation is the median of one process's samples, one per file.

Per row, with nb base runs and nn new runs (log of each run's median):
  d   = mean(log new medians) - mean(log base medians)   ratio = exp(d)
  se  = sqrt(var_b / nb + var_n / nn)                     (sample variances)
  df  = Welch-Satterthwaite degrees of freedom
  interval = exp(d -+ t(1 - a/2, df) * se)
Logs, because run-to-run variation is a factor (a busy machine slows a run by a
few %, whatever its length). Welch, because a change can also change the
spread. Fewer than 2 runs on a side: no variance, no verdict.

A row is a regression when its interval lies above 1 + threshold, an
improvement when it lies below 1 - threshold: slower (faster) by more than the
threshold, with the stated confidence. Otherwise "same" when the interval
lies inside 1 +- threshold, else "unclear" (more runs would decide). The row's
p-value is that of the test behind the call: twice the smaller of
P(T > (d - log(1+thr)) / se) and P(T < (d - log(1-thr)) / se), so p < a
exactly when the interval at level 1 - a lies beyond a bound. Testing against
the threshold rather than against 1 keeps two draws of one distribution from
being called (run-to-run variation rarely fakes more than the threshold with
confidence), at the price of needing more runs for a real change: see
tests/tools/test_compare_stats.py for the rates.

Many rows: at 95% per row, 100 rows would give false calls. The rows of one
invocation are one family; Benjamini-Hochberg at q = 1 - confidence over the
testable rows controls the false discovery rate (the expected share of calls
that are wrong), and with no real change anywhere the chance of any call at
all is at most q. The R rows it calls are those whose intervals at level
1 - R*q/m lie beyond the threshold (m testable rows); every row's interval is
shown at that level (1 - q/m when it calls none), so interval and verdict
agree. per_row=True instead tests each row at the plain confidence
(per-comparison error).
"""
import math

NOT_ENOUGH = "not enough runs to call"


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def _beta_cf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= c * d
        if abs(c * d - 1.0) < 1e-14:
            break
    return h


def beta_inc(a, b, x):
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lf = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lf) * _beta_cf(a, b, x) / a
    return 1.0 - math.exp(lf) * _beta_cf(b, a, 1.0 - x) / b


def t_cdf(t, df):
    """P(T <= t), T Student's t with df (> 0, not necessarily whole) degrees of freedom."""
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * beta_inc(0.5 * df, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_ppf(p, df):
    """t with P(T <= t) = p (bisection: the CDF is monotone)."""
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_ppf(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-10 * hi:
            break
    return 0.5 * (lo + hi)


def _mean_var(xs):
    n = len(xs)
    m = sum(xs) / n
    return m, sum((x - m) ** 2 for x in xs) / (n - 1)


def welch(base_meds, new_meds, threshold):
    """Log-ratio statistics of one row from its per-run medians (>= 2 per side):
    {"d", "se", "df", "p"}; p as in the module docstring."""
    xb = [math.log(x) for x in base_meds]
    xn = [math.log(x) for x in new_meds]
    mb, vb = _mean_var(xb)
    mn, vn = _mean_var(xn)
    eb, en = vb / len(xb), vn / len(xn)
    d, se = mn - mb, math.sqrt(eb + en)
    up, down = math.log1p(threshold), math.log1p(-threshold)
    if se <= abs(d) * 1e-12 or se == 0.0:  # identical medians on each side: no spread to weigh d by
        return {"d": d, "se": 0.0, "df": float(len(xb) + len(xn) - 2), "p": 0.0 if d > up or d < down else 1.0}
    df = (eb + en) ** 2 / (eb * eb / (len(xb) - 1) + en * en / (len(xn) - 1))
    p_reg = 1.0 - t_cdf((d - up) / se, df)
    p_imp = t_cdf((d - down) / se, df)
    return {"d": d, "se": se, "df": df, "p": min(1.0, 2.0 * min(p_reg, p_imp))}


def row_stats(base_runs, new_runs, threshold):
    """One row from the samples of each run ([[samples of run 1], ...] per side):
    {"ratio", "nb", "nn", "base", "new"} plus welch()'s keys when both sides
    have >= 2 runs with samples. base/new: geometric mean of the runs' medians."""
    mb = [median(s) for s in base_runs if s]
    mn = [median(s) for s in new_runs if s]
    out = {"nb": len(mb), "nn": len(mn), "ratio": None, "base": None, "new": None}
    if not mb or not mn:
        return out
    gb = math.exp(sum(math.log(x) for x in mb) / len(mb))
    gn = math.exp(sum(math.log(x) for x in mn) / len(mn))
    out.update(base=gb, new=gn, ratio=gn / gb)
    if len(mb) >= 2 and len(mn) >= 2:
        out.update(welch(mb, mn, threshold))
    return out


def call(stats, confidence, threshold, per_row=False):
    """Verdicts of a family of rows (row_stats() results, changed in place):
    adds "lo", "hi" (interval of the ratio, None without one), "verdict" and
    returns the interval level used (see the module docstring)."""
    alpha = 1.0 - confidence
    tested = [s for s in stats if "p" in s]
    m = len(tested)
    if per_row or m <= 1:
        level_alpha, cut = alpha, alpha
    else:
        ps = sorted(s["p"] for s in tested)
        r = max((k for k in range(1, m + 1) if ps[k - 1] <= k * alpha / m), default=0)
        level_alpha = max(r, 1) * alpha / m
        cut = ps[r - 1] if r else -1.0
    up, down = math.log1p(threshold), math.log1p(-threshold)
    for s in stats:
        s["lo"] = s["hi"] = None
        if s["ratio"] is None:
            s["verdict"] = "no samples"
            continue
        if "p" not in s:
            s["verdict"] = NOT_ENOUGH
            continue
        w = t_ppf(1.0 - level_alpha / 2.0, s["df"]) * s["se"] if s["se"] > 0 else 0.0
        s["lo"], s["hi"] = math.exp(s["d"] - w), math.exp(s["d"] + w)
        if s["p"] <= cut:
            s["verdict"] = "regression" if s["d"] > 0 else "improvement"
        elif s["d"] - w >= down and s["d"] + w <= up:
            s["verdict"] = "same"
        else:
            s["verdict"] = "unclear"
    return 1.0 - level_alpha

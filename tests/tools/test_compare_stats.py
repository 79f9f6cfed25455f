"""validate/compare's calls on synthetic runs whose truth is known, 100 seeded trials per case.

Each trial draws whole processes (tests/fixtures/make_compare_runs.py process_samples:
~2% machine state shared by a process's rows, ~1.5% per row, 1% sample noise,
5% of samples slowed by an interruption), i.e. run-to-run variation a few
times the noise of one process's median. Calls at the defaults (confidence
0.95, threshold 0.02, Benjamini-Hochberg over the rows).

Cases and what must hold (seen at these seeds in brackets):
  same distribution, 6 rows, 3 and 5 runs a side: no call in >= 95 of 100 [99, 100]
  same distribution, 30 rows, 5 runs a side:      no call in >= 95 of 100 [99]
  every row 10% slower, 3 runs a side:  >= 40% of rows called [55%; the rest "unclear"]
                        5 runs a side:  >= 95% of rows called [99%; all 6 in 94 trials]
                        8 runs a side:  >= 95% of rows called [100%]
                        never called an improvement
  one row of 6 10% slower, 5 runs a side: called in >= 75 of 100 [81]
                           8 runs a side: called in >= 95 of 100 [100]
                           no other row called in >= 95 of 100 [99, 100]
  one run a side (and 1 against 3): "not enough runs to call" on every row
PP_COMPARE_METHOD=naive calls from one process's samples per side (the percentile
bootstrap compare used before): the same-distribution cases must then fail.
"""
import os
import random

import pytest

from pptools.compare import stats as cs

import make_compare_runs as mk

CALLS = ("regression", "improvement")
THRESHOLD, CONFIDENCE, TRIALS = 0.02, 0.95, 100


def welch_verdicts(base, new):
    """base/new: per row, the list of its runs' samples."""
    stats = [cs.row_stats(b, n, THRESHOLD) for b, n in zip(base, new)]
    cs.call(stats, CONFIDENCE, THRESHOLD)
    return [s["verdict"] for s in stats]


def naive_verdicts(base, new):
    """One process per side, its samples bootstrapped (no run-to-run variation)."""
    from pptools.compare import command
    out = []
    for i, (b, n) in enumerate(zip(base, new)):
        _, lo, hi = command.bootstrap_ratio(b[0], n[0], 100, CONFIDENCE, i)
        out.append("regression" if lo > 1 + THRESHOLD else "improvement" if hi < 1 - THRESHOLD else "same")
    return out


@pytest.fixture(scope="module")
def verdicts():
    method = os.environ.get("PP_COMPARE_METHOD", "welch")
    assert method in ("welch", "naive"), f"PP_COMPARE_METHOD={method}: welch or naive"
    return naive_verdicts if method == "naive" else welch_verdicts


def trial(verdicts, seed, nb, nn, times_base, times_new):
    """Verdicts of one trial: nb base processes, nn new ones."""
    rng = random.Random(seed)
    base = [mk.process_samples(rng, times_base) for _ in range(nb)]
    new = [mk.process_samples(rng, times_new) for _ in range(nn)]
    rows = range(len(times_base))
    return verdicts([[p[i] for p in base] for i in rows], [[p[i] for p in new] for i in rows])


def rows_times(nrows, factor=1.0, slow=()):
    """nrows true times (the synthetic app's, repeated), row i times factor if i in slow."""
    t = mk.true_times(1.0)
    return [t[i % len(t)] * (1 + i // len(t)) * (factor if i in slow else 1.0) for i in range(nrows)]


@pytest.mark.parametrize("p, df, want", [(0.975, 1, 12.7062), (0.975, 2, 4.3027), (0.975, 4, 2.7764),
                                         (0.975, 10, 2.2281), (0.975, 1e6, 1.9600), (0.9975, 4, 5.5976)])
def test_t_quantile(p, df, want):
    """The t quantiles behind every interval (tables: 12.706, 4.303, 2.776, 2.228, 1.960; 0.9975 at 4: 5.598)."""
    got = cs.t_ppf(p, df)
    assert abs(got - want) < 1e-3, f"t quantile {p} df {df:g}: {got:.4f} (table {want})"


@pytest.mark.parametrize("seed0, nrows, n", [(1000, 6, 3), (2000, 6, 5), (3000, 30, 5)])
def test_same_distribution(verdicts, seed0, nrows, n):
    times = rows_times(nrows)
    quiet = sum(not any(v in CALLS for v in trial(verdicts, seed0 + s, n, n, times, times)) for s in range(TRIALS))
    assert quiet >= 95, f"same distribution, {nrows} rows, {n} runs a side: no call in {quiet} of {TRIALS} trials (need >= 95)"


@pytest.mark.parametrize("n, seed0, need", [(3, 4000, 0.4), (5, 5000, 0.95), (8, 6000, 0.95)])
def test_every_row_slower(verdicts, n, seed0, need):
    base, slow = rows_times(6), rows_times(6, 1.10, range(6))
    vs = [trial(verdicts, seed0 + s, n, n, base, slow) for s in range(TRIALS)]
    rows = sum(v.count("regression") for v in vs)
    allc = sum(all(x == "regression" for x in v) for v in vs)
    wrong = sum(v.count("improvement") for v in vs)
    assert rows >= need * 6 * TRIALS and not wrong, \
        (f"every row 10% slower, {n} runs a side: {rows} of {6 * TRIALS} rows called ({rows / (6 * TRIALS):.0%}, "
         f"need >= {need:.0%}), all 6 in {allc} of {TRIALS} trials, {wrong} called improvements")


@pytest.mark.parametrize("n, seed0, need", [(5, 7000, 75), (8, 8000, 95)])
def test_one_row_slower(verdicts, n, seed0, need):
    base, one = rows_times(6), rows_times(6, 1.10, (2,))
    vs = [trial(verdicts, seed0 + s, n, n, base, one) for s in range(TRIALS)]
    hit = sum(v[2] == "regression" for v in vs)
    other = sum(not any(x in CALLS for i, x in enumerate(v) if i != 2) for v in vs)
    assert hit >= need and other >= 95, (f"one row of 6 10% slower, {n} runs a side: called in {hit} of {TRIALS} "
                                         f"(need >= {need}); no other row called in {other} (need >= 95)")


@pytest.mark.parametrize("nb, nn", [(1, 1), (1, 3)])
def test_too_few_runs_not_called(verdicts, nb, nn):
    base, slow = rows_times(6), rows_times(6, 1.10, range(6))
    v = trial(verdicts, 9000 + nb + nn, nb, nn, base, slow)
    assert all(x == cs.NOT_ENOUGH for x in v), f"{nb} run(s) against {nn}: " + ", ".join(sorted(set(v)))

"""The same-method arithmetic of the peers table: plain functions of the
measured times, so that a test can check them on a hand-made example.

XSBench: one run per process on each side (XSBench times exactly one; it has no
warm-up), host wall clock. Two lookup counts L1 < L2 give each side's time
model t(L) = F + L / r: r, the marginal rate (fixed costs removed), and F, the
fixed cost, whose share of t(L2) says whether L2 amortises it (< 2%).

TestSNAP: its duration over N steps includes the first, cold step; the steady
state per step is (D(N2) - D(N1)) / (N2 - N1), which ProxyPort measures
directly as the mean of N2 - N1 steps after N1 warm-up steps.
"""
from .. import runset

FIXED_LIMIT = 0.02  # a lookup count whose fixed costs are under 2% of the time
# the statistics a side can give: a best (minimum) time, a mean of per-iteration
# times, or one mean of a loop timed as a whole (its best is not known)
BEST, MEAN, LOOP_MEAN = "best", "mean", "loop mean"


def comparable(public, proxyport):
    """Why two statistics must not be set against each other, or None: a best
    time is never compared with a mean (a loop's or the iterations')."""
    means = (MEAN, LOOP_MEAN)
    if (public == BEST) != (proxyport == BEST) or (public in means) != (proxyport in means):
        return f"not like for like: the public code's {public} against ProxyPort's {proxyport}"
    return None


median = runset.median  # the repeats' figure, as every tool takes it


def marginal(l1, t1, l2, t2):
    """Two (count, seconds) points of one code: (rate r per second, fixed cost F s,
    share of F in t2). None where the times do not grow with the count."""
    if not (l2 > l1 > 0) or t1 is None or t2 is None or not t2 > t1 > 0:
        return None
    r = (l2 - l1) / (t2 - t1)
    f = t1 - l1 / r
    return {"rate": r, "fixed_s": f, "fixed_share": f / t2}


def steady_step(d1, n1, d2, n2):
    """Seconds per step from the durations of n1 and n2 > n1 steps."""
    if not (n2 > n1 >= 0) or d1 is None or d2 is None:
        return None
    return (d2 - d1) / (n2 - n1)


def ms_per_atom_step(step_s, atoms):
    return None if step_s is None else 1000.0 * step_s / atoms


def ratio(ours, theirs, higher_is_better=True):
    """ProxyPort's advantage: > 1 where ProxyPort is faster."""
    if not ours or not theirs:
        return None
    return ours / theirs if higher_is_better else theirs / ours


def y_products(twojmax):
    """(products TestSNAP's compute_yi forms, products ProxyPort's forms): the
    na x nb Clebsch-Gordan products summed per Z element, over every Z element
    (TestSNAP) or over those whose Y element is ever read (ProxyPort skips the
    elements of half weight 0: j even, mb = j/2, ma > mb), with the index
    ranges of LAMMPS's SNA (testsnap/tables.c)."""
    every = read = 0
    for j1 in range(twojmax + 1):
        for j2 in range(j1 + 1):
            for j in range(j1 - j2, min(twojmax, j1 + j2) + 1, 2):
                for mb in range(j // 2 + 1):
                    for ma in range(j + 1):
                        ma1min = max(0, (2 * ma - j - j2 + j1) // 2)
                        na = min(j1, (2 * ma - j + j2 + j1) // 2) - ma1min + 1
                        mb1min = max(0, (2 * mb - j - j2 + j1) // 2)
                        nb = min(j1, (2 * mb - j + j2 + j1) // 2) - mb1min + 1
                        every += na * nb
                        if not (2 * mb == j and ma > mb):
                            read += na * nb
    return every, read

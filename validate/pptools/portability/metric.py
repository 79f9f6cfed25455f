"""Efficiencies and the performance-portability metric.

Pennycook, Sewall and Lee, "A Metric for Performance Portability" (2016):
for an application a solving problem p on the platforms of a set H,

    PP(a, p, H) = |H| / sum over i in H of 1 / e_i(a, p)   if a runs on every i in H,
                = 0                                        otherwise,

the harmonic mean of its efficiencies. Here a platform is a machine, an
application is a programming model's implementation of one row (app, case,
kernel, size, variant), and "does not run" includes not built, not run and
failed validation: each of those gives e = 0 and so PP = 0.

Application efficiency: the model's FOM over the best validated FOM of any
model on that machine for the same row (inverted for lower-is-better FOMs).
Architectural efficiency: the row's own fraction of the measured copy
ceiling (bandwidth-bound rows), or achieved FLOP/s over a FLOP roof given
per machine; None where neither applies.
"""


def app_efficiency(fom, best, higher_is_better):
    """fom against the best on its machine (1 for the best); None without both."""
    if fom is None or best is None or fom <= 0 or best <= 0:
        return None
    return fom / best if higher_is_better else best / fom


def best_fom(foms, higher_is_better):
    """The best of the validated FOMs (positive ones), or None."""
    ok = [f for f in foms if f is not None and f > 0]
    if not ok:
        return None
    return max(ok) if higher_is_better else min(ok)


def pp(effs):
    """The harmonic mean of effs, or 0 when one is missing or 0 (the model
    does not run there); None for an empty set."""
    effs = list(effs)
    if not effs:
        return None
    if any(e is None or e <= 0 for e in effs):
        return 0.0
    return len(effs) / sum(1.0 / e for e in effs)


def cascade(effs):
    """Sewall et al., "Interpreting and Visualizing Performance Portability
    Metrics" (2020): [(machine, efficiency, PP of the first k)] with the
    machines sorted by efficiency, highest first (effs: {machine: e or None};
    None counts as 0: the model does not run there). Ties keep the given order."""
    order = sorted(effs.items(), key=lambda kv: -(kv[1] or 0.0))
    out = []
    for k in range(1, len(order) + 1):
        out.append((order[k - 1][0], order[k - 1][1] or 0.0, pp(e for _, e in order[:k])))
    return out

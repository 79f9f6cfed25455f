"""Repeats combined: the one place where the tools turn the rows of repeated
runs into one row, and a launch-shape sweep into its best shape.

A run set is the result files of repeats of one run, each a separate process
(a suite run folder's <app>/run<k>.json). The rows of one key (kernel, model
label, size, variant, and what else the tool keys on: app, case, ranks) are
gathered over the files; the combined row's figure of merit is the median over
the repeats of each process's FOM (its fraction of the copy ceiling, its time:
medians too). Launch shapes ("tpb=N", result.family) of one row are one family
whose best member stands for it; what "best" is the tool says (rank).

Used by the suite's summary (suite/summary.py), the portability analysis
(portability/load.py) and the peers step's medians (peers/method.py).
"""
import statistics


def gather(pairs):
    """{key: [item, ...]} from (key, item) pairs, keys in the order first seen."""
    groups = {}
    for key, item in pairs:
        groups.setdefault(key, []).append(item)
    return groups


def median(values):
    """The median of values, or None when there are none."""
    values = list(values)
    return statistics.median(values) if values else None


def foms(rows):
    """The FOMs of the repeats that have one (a FOM that was not finite is null)."""
    return [r["fom"] for r in rows if r.get("fom") is not None]


def copy_fraction(rows):
    """The median fraction of the copy ceiling over the repeats that measured one."""
    return median(r["fraction_of_copy_ceiling"] for r in rows if r.get("fraction_of_copy_ceiling") is not None)


def spread(values):
    """Run-to-run spread, (max - min) / median; None for fewer than two values or a zero median."""
    med = median(values)
    return (max(values) - min(values)) / med if med and len(values) > 1 else None


def fom_rank(fom, higher_is_better):
    """A key that orders FOMs best last, whichever way the FOM goes."""
    return fom if higher_is_better else -fom


def best_shape(entries, family_key, rank):
    """{family_key(key): entry}: of the entries ({key: entry}) of one family, the one
    of highest rank(entry); on a tie the first seen stays. Families keep the order
    of their first member."""
    best = {}
    for key, entry in entries.items():
        fam = family_key(key)
        old = best.get(fam)
        if old is None or rank(entry) > rank(old):
            best[fam] = entry
    return best

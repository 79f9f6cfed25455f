"""suite_summary's ratios to the published rows: the headline row is the largest size, but
the published comparison takes the run's row at the published row's size (microbench's
reference case runs 2^24..2^26, the published file has 2^24), and says at which."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "validate"))
from pptools.suite import summary as suite_summary  # noqa: E402

fails = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        fails.append(what)


def row(kernel, model, size, fom, variant="tpb=256"):
    return {"kernel": kernel, "model": model, "label": model, "size": size, "variant": variant,
            "fom": fom, "fom_unit": "GB/s", "fom_higher_is_better": True, "valid": True,
            "fraction_of_copy_ceiling": None}


run = {"results": [row("triad", "cuda", 2**24, 3000.0), row("triad", "cuda", 2**26, 3100.0),
                   row("triad", "omp", 2**24, 2400.0), row("triad", "omp", 2**26, 2700.0),
                   row("triad", "omp", 2**26, 2750.0, "tpb=512"),
                   row("dot", "omp", 2**26, 900.0)]}
published = {"results": [row("triad", "cuda", 2**24, 4000.0), row("triad", "omp", 2**24, 2000.0),
                         row("triad", "omp", 2**12, 100.0), row("dot", "omp", 2**24, 450.0)]}
rows = suite_summary.headline([run])
suite_summary.add_ratios(rows, suite_summary.per_size([run]), suite_summary.headline([published]), True)
omp = rows[("triad", "omp", "")]
check(omp["size"] == 2**26 and omp["fom"] == 2750.0, "headline: the largest size, best launch shape")
check(abs(omp["ratio_to_native"] - 2750.0 / 3100.0) < 1e-12, "ratio to native at the headline size")
check(omp["ratio_to_published"] == 2400.0 / 2000.0 and omp["published_size"] == 2**24,
      "ratio to published: the run's row at the published size (2^24), and it says so")
check(rows[("triad", "cuda", "")]["ratio_to_published"] == 3000.0 / 4000.0, "cuda likewise")
check(rows[("dot", "omp", "")]["ratio_to_published"] is None,
      "no run row at the published size: no ratio (never across sizes)")
check(suite_summary.published_at(omp) == f" (at {2**24})", "summary.md names the size compared")
rows2 = suite_summary.headline([run])
suite_summary.add_ratios(rows2, suite_summary.per_size([run]), suite_summary.headline([published]), False)
check(rows2[("triad", "omp", "")]["ratio_to_published"] is None, "another GPU: no published ratio")
print("test_suite_summary:", "FAIL" if fails else "PASS")
sys.exit(1 if fails else 0)

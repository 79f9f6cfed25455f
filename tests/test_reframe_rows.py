#!/usr/bin/env python3
"""validate/pptools/reframe_rows.py: the ReFrame checks' sanity and performance
reading of a result file, without ReFrame. The planted fault: a run that
exits 0 with one row not validated must still fail the sanity check."""
import copy
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "validate"))
from pptools import reframe_rows as pp_rows  # noqa: E402
from pptools.suite import cases as suite_cases  # noqa: E402


def row(kernel, model, valid=True, variant="", size=10, fom=1.0, unit="GB/s", higher=True):
    return {"kernel": kernel, "model": model, "variant": variant, "size": size, "fom": fom,
            "fom_unit": unit, "fom_higher_is_better": higher, "valid": valid, "check": "c"}


GOOD = {"results": [row("spmv", "host"), row("spmv", "omp", fom=2.0),
                    row("event", "omp", variant="sorted-energy (-k 6)", size=200, unit="lookups/s")]}
failed = []


def check(what, cond):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failed.append(what)


check("all rows valid, exit 0: no problem", pp_rows.problems(GOOD, "omp", 0) == [])
bad = copy.deepcopy(GOOD)
bad["results"][1]["valid"] = False  # the planted fault: exit code 0, one row not validated
p = pp_rows.problems(bad, "omp", 0)
check("an invalid row fails even with exit 0", len(p) == 1 and "1 of 2 omp row(s) not validated: spmv@10" in p[0])
check("another model's rows are not looked at", pp_rows.problems(bad, "host", 0) == [])
check("exit code 1 fails", any("exit code 1" in x for x in pp_rows.problems(GOOD, "omp", 1)))
check("no row of the model fails", any("no result row for model 'cuda'" in x
                                       for x in pp_rows.problems(GOOD, "cuda", 0)))
check("no result file fails", any("no JSON" in x for x in pp_rows.problems(None, "omp", 0)))
check("performance names", set(pp_rows.perf_rows(GOOD, "omp")) == {"spmv@10", "event[sorted-energy]@200"})
energetic = copy.deepcopy(GOOD)
energetic["results"][1]["energy"] = {"fom_per_joule": 0.25, "fom_per_joule_unit": "GB/J", "watts": 300.0}
energetic["results"][2]["energy"] = "not available: no counter"
check("energy performance variables of the rows that have energy",
      pp_rows.energy_rows(energetic, "omp") == {"spmv@10_per_J": (0.25, "GB/J", True), "spmv@10_W": (300.0, "W", False)})
ref = pp_rows.references({"results": [row("a", "omp", fom=5.0), row("b", "omp", fom=3.0, unit="ms", higher=False)]},
                         "omp", 0.1)
check("higher is better: -10%, no upper bound", ref["a@10"] == (5.0, -0.1, None, "GB/s"))
check("lower is better: no lower bound, +10%", ref["b@10"] == (3.0, None, 0.1, "ms"))
# references apply only where the run saw the published GPU
run = {"devices": [{"model": "omp", "ran": True, "is_gpu": True,
                    "name": "NVIDIA H100 80GB HBM3 (OpenMP offload device 0 of 1)"},
                   {"model": "cuda", "ran": False, "is_gpu": True, "name": "NVIDIA H200"}],
       "system": [{"devices": [{"is_gpu": True, "name": "NVIDIA H100 80GB HBM3"}]}]}
check("GPU names of a run", pp_rows.gpu_names(run) == {"NVIDIA H100 80GB HBM3"})
check("a CPU-only run saw no GPU", pp_rows.gpu_names({"devices": [{"ran": True, "is_gpu": False, "name": "x"}]}) == set())
# every published reference file gives distinct names for each model's rows
for app in suite_cases.apps():
    doc = pp_rows.load(os.path.join(REPO, "results", "nvidia-h200", suite_cases.case(app)["published"]))
    for m in sorted({r["model"] for r in doc["results"]}):  # every model of the published run
        rows = pp_rows.model_rows(doc, m)
        check(f"{app} {m}: {len(rows)} published rows, names distinct",
              len(rows) > 0 and len(pp_rows.references(doc, m, 0.1)) == len(rows))
sys.exit(1 if failed else 0)

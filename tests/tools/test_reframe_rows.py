"""validate/pptools/reframe_rows.py: the ReFrame checks' sanity and performance
reading of a result file, without ReFrame. The planted fault: a run that
exits 0 with one row not validated must still fail the sanity check."""
import copy
import os

import pytest

from pptools import reframe_rows as pp_rows
from pptools.suite import cases as suite_cases

from conftest import REPO


def row(kernel, model, valid=True, variant="", size=10, fom=1.0, unit="GB/s", higher=True):
    return {"kernel": kernel, "model": model, "variant": variant, "size": size, "fom": fom,
            "fom_unit": unit, "fom_higher_is_better": higher, "valid": valid, "check": "c"}


GOOD = {"results": [row("spmv", "host"), row("spmv", "omp", fom=2.0),
                    row("event", "omp", variant="sorted-energy (-k 6)", size=200, unit="lookups/s")]}


@pytest.fixture
def bad():
    b = copy.deepcopy(GOOD)
    b["results"][1]["valid"] = False  # the planted fault: exit code 0, one row not validated
    return b


def test_all_valid_no_problem():
    assert pp_rows.problems(GOOD, "omp", 0) == []


def test_invalid_row_fails_with_exit_0(bad):
    p = pp_rows.problems(bad, "omp", 0)
    assert len(p) == 1 and "1 of 2 omp row(s) not validated: spmv@10" in p[0]


def test_other_models_rows_not_looked_at(bad):
    assert pp_rows.problems(bad, "host", 0) == []


def test_exit_1_fails():
    assert any("exit code 1" in x for x in pp_rows.problems(GOOD, "omp", 1))


def test_no_row_of_the_model_fails():
    assert any("no result row for model 'cuda'" in x for x in pp_rows.problems(GOOD, "cuda", 0))


def test_no_result_file_fails():
    assert any("no JSON" in x for x in pp_rows.problems(None, "omp", 0))


def test_performance_names():
    assert set(pp_rows.perf_rows(GOOD, "omp")) == {"spmv@10", "event[sorted-energy]@200"}


def test_energy_variables_of_rows_with_energy():
    energetic = copy.deepcopy(GOOD)
    energetic["results"][1]["energy"] = {"fom_per_joule": 0.25, "fom_per_joule_unit": "GB/J", "watts": 300.0}
    energetic["results"][2]["energy"] = "not available: no counter"
    assert pp_rows.energy_rows(energetic, "omp") == {"spmv@10_per_J": (0.25, "GB/J", True),
                                                     "spmv@10_W": (300.0, "W", False)}


def test_references_bounds():
    ref = pp_rows.references({"results": [row("a", "omp", fom=5.0), row("b", "omp", fom=3.0, unit="ms", higher=False)]},
                             "omp", 0.1)
    assert ref["a@10"] == (5.0, -0.1, None, "GB/s"), "higher is better: -10%, no upper bound"
    assert ref["b@10"] == (3.0, None, 0.1, "ms"), "lower is better: no lower bound, +10%"


def test_gpu_names():
    # references apply only where the run saw the published GPU
    run = {"devices": [{"model": "omp", "ran": True, "is_gpu": True,
                        "name": "NVIDIA H100 80GB HBM3 (OpenMP offload device 0 of 1)"},
                       {"model": "cuda", "ran": False, "is_gpu": True, "name": "NVIDIA H200"}],
           "system": [{"devices": [{"is_gpu": True, "name": "NVIDIA H100 80GB HBM3"}]}]}
    assert pp_rows.gpu_names(run) == {"NVIDIA H100 80GB HBM3"}
    assert pp_rows.gpu_names({"devices": [{"ran": True, "is_gpu": False, "name": "x"}]}) == set(), "a CPU-only run saw no GPU"


@pytest.mark.parametrize("app", suite_cases.apps())
def test_published_rows_have_distinct_names(app):
    """Every published reference file gives distinct names for each model's rows."""
    doc = pp_rows.load(os.path.join(REPO, "results", "nvidia-h200", suite_cases.case(app)["published"]))
    for m in sorted({r["model"] for r in doc["results"]}):  # every model of the published run
        rows = pp_rows.model_rows(doc, m)
        assert len(rows) > 0 and len(pp_rows.references(doc, m, 0.1)) == len(rows), \
            f"{app} {m}: {len(rows)} published rows, names distinct"

"""The suite summary (validate/pptools/suite/summary.py) on synthetic rows and a real
small run:
  - its ratios to the published rows: the headline row is the largest size, but the
    published comparison takes the run's row at the published row's size (microbench's
    reference case runs 2^24..2^26, the published file has 2^24), and says at which;
  - ratios spanning more than 10x are drawn on a log axis, those within 10x on a linear one;
  - every text of the figure (title, tick labels, bar values, legend) lies inside it;
  - a CPU-scale run says its numbers are smoke-test numbers, not performance
    (summary.md, summary.json, the line printed), and a reference run on a GPU does not;
  - a run the suite never reached (an interrupted run summarized) is said so, never "exit None"."""
import json
import os
import subprocess
import sys

import pytest

from pptools.suite import cases as suite_cases
from pptools.suite import summary as suite_summary

from conftest import have_matplotlib, tool_path


def row(kernel, model, size, fom, variant="tpb=256"):
    return {"kernel": kernel, "model": model, "label": model, "size": size, "variant": variant,
            "fom": fom, "fom_unit": "GB/s", "fom_higher_is_better": True, "valid": True,
            "fraction_of_copy_ceiling": None}


RUN = {"results": [row("triad", "cuda", 2**24, 3000.0), row("triad", "cuda", 2**26, 3100.0),
                   row("triad", "omp", 2**24, 2400.0), row("triad", "omp", 2**26, 2700.0),
                   row("triad", "omp", 2**26, 2750.0, "tpb=512"),
                   row("dot", "omp", 2**26, 900.0)]}
PUBLISHED = {"results": [row("triad", "cuda", 2**24, 4000.0), row("triad", "omp", 2**24, 2000.0),
                         row("triad", "omp", 2**12, 100.0), row("dot", "omp", 2**24, 450.0)]}


def ratios(same_gpu):
    rows = suite_summary.headline([RUN])
    suite_summary.add_ratios(rows, suite_summary.per_size([RUN]), suite_summary.headline([PUBLISHED]), same_gpu)
    return rows


def test_published_ratios():
    rows = ratios(True)
    omp = rows[("triad", "omp", "")]
    assert omp["size"] == 2**26 and omp["fom"] == 2750.0, "headline: the largest size, best launch shape"
    assert abs(omp["ratio_to_native"] - 2750.0 / 3100.0) < 1e-12, "ratio to native at the headline size"
    assert omp["ratio_to_published"] == 2400.0 / 2000.0 and omp["published_size"] == 2**24, \
        "ratio to published: the run's row at the published size (2^24), and it says so"
    assert rows[("triad", "cuda", "")]["ratio_to_published"] == 3000.0 / 4000.0, "cuda likewise"
    assert rows[("dot", "omp", "")]["ratio_to_published"] is None, \
        "no run row at the published size: no ratio (never across sizes)"
    assert suite_summary.published_at(omp) == f" (at {2**24})", "summary.md names the size compared"


def test_another_gpu_no_published_ratio():
    assert ratios(False)[("triad", "omp", "")]["ratio_to_published"] is None


# ---- the figure -----------------------------------------------------------------

def fig_row(kernel, label, ratio, variant=""):
    return {"kernel": kernel, "label": label, "model": label, "variant": variant, "size": 1,
            "fraction_of_copy_ceiling": 0.5, "ratio_to_cuda": ratio}


def clipped(fig):
    """How far (inches) what the figure draws reaches outside it: 0 when no label is
    clipped. get_tightbbox takes the drawn texts only (ticks within the view)."""
    fig.canvas.draw()
    tb, box = fig.get_tightbbox(fig.canvas.get_renderer()), fig.bbox_inches
    return max(0.0, box.x0 - tb.x0, box.y0 - tb.y0, tb.x1 - box.x1, tb.y1 - box.y1)


KERNELS = ["compute_deidrj_long_kernel_name", "compute_yi", "lookups_event_based", "triad"]
needs_matplotlib = pytest.mark.skipif(not have_matplotlib(), reason=f"matplotlib is not installed for {sys.executable}")


@needs_matplotlib
def test_figure_log_axis_past_10x():
    wide = [fig_row(k, m, v) for k in KERNELS for m, v in (("cuda", 1.0), ("omp", 0.04), ("ompx", 0.9))]
    fig = suite_summary.draw_figure("testsnap", wide, "cuda", smoke="scale 'small'")
    assert fig.axes[0].get_yscale() == "log", "ratios over 25x: log axis"
    bad = clipped(fig)
    assert bad < 0.02, f"no text outside the figure (reaches {bad:.2f} in outside)"
    assert "smoke-test numbers, not performance" in fig.axes[0].get_title(), "the figure's title says smoke test"


@needs_matplotlib
def test_figure_linear_axis_within_10x():
    narrow = [fig_row(k, m, v) for k in KERNELS for m, v in (("cuda", 1.0), ("omp", 0.5), ("ompx", 1.8))]
    fig = suite_summary.draw_figure("testsnap", narrow, "cuda")
    assert fig.axes[0].get_yscale() == "linear", "ratios within 4x: linear axis"
    assert clipped(fig) < 0.02, "no text outside the figure (linear)"
    assert "smoke" not in fig.axes[0].get_title(), "no smoke-test word where there is none"


# ---- the smoke-test word ------------------------------------------------------------

GPU = {"devices": [{"model": "cuda", "ran": True, "is_gpu": True}]}
CPU = {"devices": [{"model": "host", "ran": True, "is_gpu": False}]}


@pytest.mark.parametrize("scale, devices, smoke", [("small", GPU, True), ("reference", CPU, True),
                                                   ("reference", GPU, False)],
                         ids=["scale small: smoke test", "no GPU ran: smoke test", "reference on a GPU: performance"])
def test_smoke_test(scale, devices, smoke):
    assert (suite_summary.smoke_test({"scale": scale}, [(None, devices)]) is not None) == smoke


@needs_matplotlib
def test_small_run_says_smoke_test(bin_dir, tmp_path):
    """A real small run (spmv, --fast): the word in summary.md, summary.json and the printed line;
    only where the build's models can run here (a GPU build on a machine without its GPU cannot)."""
    offload = suite_cases.build_record(os.path.join(bin_dir, "spmv")).get("offload", "")
    if offload in ("nvidia", "amd") and not (os.path.exists("/dev/nvidia0") or os.path.exists("/dev/kfd")):
        pytest.skip(f"a build offloading to {offload}, and no such GPU here")
    out = str(tmp_path / "suite")
    p = subprocess.run([sys.executable, tool_path("suite"), "--bin", bin_dir, "--apps", "spmv", "--fast", "--out", out],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, f"suite --apps spmv --fast exits 0 (got {p.returncode}: {p.stderr[-300:]})"
    md = open(os.path.join(out, "summary.md")).read()
    assert "**Smoke-test numbers, not performance.**" in md.split("\n- command")[0], "summary.md says it first"
    assert json.load(open(os.path.join(out, "summary.json"))).get("smoke_test"), "summary.json: smoke_test"
    assert "(smoke-test numbers, not performance)" in p.stdout, "the printed summary line says it"


@pytest.mark.parametrize("run, res, want", [
    ({"app": "spmv", "repeat": 2}, None, "did not run (the suite run stopped before it: interrupted?)"),
    ({"app": "spmv", "repeat": 1, "exit": 3}, None, "exit 3: runtime or device error"),
    ({"app": "spmv", "repeat": 1, "exit": 0}, None, "exit 0 but no result file"),
    ({"app": "spmv", "repeat": 1, "exit": 0}, {"validated": False}, "not validated"),
    ({"app": "spmv", "repeat": 1}, {"validated": True}, None),
])
def test_run_problem(run, res, want):
    assert suite_summary.run_problem(run, res) == want, f"{run}, result {res}: {want!r}"

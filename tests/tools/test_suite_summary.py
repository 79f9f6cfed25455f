"""The suite summary (validate/pptools/suite/summary.py) on synthetic rows and a real
small run:
  - its ratios to the published rows: the headline row is the largest size, but the
    published comparison takes the run's row at the published row's size (microbench's
    reference case runs 2^24..2^26, the published file has 2^24), and says at which;
  - the figure: one log axis for every app; each bar's ratio beside its FOM and unit; every
    text at 8 pt or more and inside the figure; rows whose ratio means nothing on the node
    (pptools/suite/comparable.py: launch overhead without a GPU or of host code, a host time
    under 100 us) drawn as a gray note, never as a bar;
  - a CPU-scale run says its numbers are smoke-test numbers, not performance
    (summary.md, summary.json, the line printed), and a reference run on a GPU does not;
  - summary.md says the suite validates here only when every run did.
  - a run the suite never reached (an interrupted run summarized) is said so, never "exit None"."""
import json
import os
import subprocess
import sys

import pytest

from pptools import project
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

def fig_row(kernel, label, ratio, variant="", fom=100.0, unit="GB/s", not_comparable=None):
    return {"kernel": kernel, "label": label, "model": label, "variant": variant, "size": 1, "fom": fom,
            "fom_unit": unit, "fraction_of_copy_ceiling": 0.5, "ratio_to_cuda": ratio, "not_comparable": not_comparable}


def clipped(fig):
    """How far (inches) what the figure draws reaches outside it: 0 when no label is
    clipped. get_tightbbox takes the drawn texts only (ticks within the view)."""
    fig.canvas.draw()
    tb, box = fig.get_tightbbox(fig.canvas.get_renderer()), fig.bbox_inches
    return max(0.0, box.x0 - tb.x0, box.y0 - tb.y0, tb.x1 - box.x1, tb.y1 - box.y1)


def texts(fig):
    """Every text the figure draws: titles, tick labels, values beside bars, legend."""
    fig.canvas.draw()
    return [t for t in fig.findobj(lambda o: hasattr(o, "get_text") and hasattr(o, "get_fontsize"))
            if t.get_visible() and t.get_text().strip()]


KERNELS = ["compute_deidrj_long_kernel_name", "compute_yi", "lookups_event_based", "triad"]
needs_matplotlib = pytest.mark.skipif(not have_matplotlib(), reason=f"matplotlib is not installed for {sys.executable}")


@needs_matplotlib
@pytest.mark.parametrize("span", [(1.0, 0.04, 0.9), (1.0, 0.5, 1.8)], ids=["over 25x", "within 4x"])
def test_figure_one_log_axis_for_every_app(span):
    # the native model, then the two OpenMP models (the project's lists)
    models = project.native_models()[:1] + tuple(m for m in project.device_models() if m not in project.native_models())
    rows = [fig_row(k, m, v) for k in KERNELS for m, v in zip(models, span)]
    fig = suite_summary.draw_figure("testsnap", rows, "cuda", smoke="scale 'small'")
    assert fig.axes[0].get_xscale() == "log", "the ratio axis is log whatever the span: one convention"
    bad = clipped(fig)
    assert bad < 0.02, f"no text outside the figure (reaches {bad:.2f} in outside)"
    assert "smoke-test numbers, not performance" in fig._suptitle.get_text(), "the title says smoke test"
    small = [t.get_text() for t in texts(fig) if t.get_fontsize() < 8]
    assert not small, f"every text at 8 pt or more: {small[:3]}"


@needs_matplotlib
def test_figure_shows_fom_and_unit_beside_ratio():
    rows = [fig_row("triad", "cuda", 1.0, fom=3100.0), fig_row("triad", "omp", 0.887, fom=2750.0)]
    shown = [t.get_text() for t in texts(suite_summary.draw_figure("microbench", rows, "cuda"))]
    assert any("0.887x" in t and "2750 GB/s" in t for t in shown), f"ratio, FOM and unit side by side: {shown}"


@needs_matplotlib
def test_figure_leaves_out_not_comparable_rows():
    rows = [fig_row("launch_empty", "cuda", 1.0, unit="us/launch"),
            fig_row("launch_empty", "host", 3310.0, unit="us/launch", not_comparable="launch overhead of host code")]
    fig = suite_summary.draw_figure("microbench", rows, "cuda")
    widths = [p.get_width() for p in fig.axes[0].patches]
    assert 3310.0 not in widths, "no bar for a ratio that means nothing here"
    assert fig.axes[0].get_xlim()[1] < 3310.0, "nor does it stretch the axis"
    assert any("not comparable here (launch overhead of host code)" in t.get_text() for t in texts(fig)), \
        "the row is marked, with its reason"


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


@pytest.mark.parametrize("failures, validates", [([], True), (["spmv repeat 1: exit 1"], False)],
                         ids=["every run validated", "a run failed"])
def test_smoke_note_says_validates_only_when_it_did(failures, validates):
    note = suite_summary.smoke_note("no GPU model ran", failures)
    assert ("validates here" in note) == validates, note
    assert validates or "1 run(s) failed" in note, "a failed run is counted, not hidden"


def test_no_matplotlib_says_tools_venv(monkeypatch, tmp_path):
    """Without matplotlib, summary.md's line says the route that works without root
    (scripts/tools-venv), never a package that needs root or pip install --user."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    why = suite_summary.figure("spmv", [], "native", str(tmp_path / "spmv.png"))
    assert why and "scripts/tools-venv" in why, why
    assert "python3-matplotlib" not in why and "--user" not in why, why


# ---- ratios that mean nothing on the node --------------------------------------------

def crow(model, unit="GB/s", time_s=1e-2):
    return {"model": model, "fom_unit": unit, "time_s": time_s}


@pytest.mark.parametrize("row, base, gpu_ran, why", [
    (crow("omp", "us/launch"), crow("host", "us/launch"), False, "no GPU ran"),
    (crow("omp", "us/kernel"), crow("cuda", "us/kernel"), True, None),
    (crow("host", "us/launch"), crow("cuda", "us/launch"), True, "function call"),
    (crow("omp", "ms/atom-step"), crow("host", "ms/atom-step", time_s=5e-6), False, "under 100 us"),
    (crow("omp", "ms/atom-step", time_s=4e-5), crow("host", "ms/atom-step"), False, "under 100 us"),
    (crow("omp", "ms/atom-step"), crow("host", "ms/atom-step"), False, None),
    (crow("omp", "GB/s", time_s=1e-5), crow("cuda", "GB/s", time_s=1e-5), True, None),
], ids=["launch, no GPU", "launch on a GPU", "host launch on a GPU", "tiny host base", "tiny time vs host",
        "host base long enough", "short GPU times vs native"])
def test_not_comparable(row, base, gpu_ran, why):
    from pptools.suite import comparable
    got = comparable.reason(row, base, gpu_ran)
    assert (got is None) == (why is None) and (why is None or why in got), got


@pytest.mark.parametrize("ratio, gpu_ran, comparable_", [(76.0, False, False), (1 / 76.0, False, True),
                                                         (12.0, False, True), (76.0, True, True)],
                         ids=["76x on 2 CPUs", "1/76 on 2 CPUs (a slow-down is a finding)", "12x on 2 CPUs (vectors)",
                              "76x with a GPU"])
def test_not_comparable_beyond_the_cores(ratio, gpu_ran, comparable_):
    from pptools.suite import comparable
    got = comparable.reason(crow("omp"), crow("host"), gpu_ran, ratio=ratio, cpus=2)
    assert (got is None) == comparable_, got


@pytest.mark.parametrize("run, res, want", [
    ({"app": "spmv", "repeat": 2}, None, "did not run (the suite run stopped before it: interrupted?)"),
    ({"app": "spmv", "repeat": 1, "exit": 3}, None, "exit 3: runtime or device error"),
    ({"app": "spmv", "repeat": 1, "exit": 0}, None, "exit 0 but no result file"),
    ({"app": "spmv", "repeat": 1, "exit": 0}, {"validated": False}, "not validated"),
    ({"app": "spmv", "repeat": 1}, {"validated": True}, None),
])
def test_run_problem(run, res, want):
    assert suite_summary.run_problem(run, res) == want, f"{run}, result {res}: {want!r}"

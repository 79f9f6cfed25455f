"""The suite summary's figure and its smoke-test word (validate/pptools/suite/summary.py):
  - ratios spanning more than 10x are drawn on a log axis, those within 10x on a linear one;
  - every text of the figure (title, tick labels, bar values, legend) lies inside it;
  - a CPU-scale run says its numbers are smoke-test numbers, not performance
    (summary.md, summary.json, the line printed), and a reference run on a GPU does not.
Usage: test_suite_figures.py BIN OUT (BIN: the apps; OUT: a scratch folder)."""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "validate"))
from pptools.suite import summary as suite_summary  # noqa: E402

try:
    import matplotlib  # noqa: F401
except ImportError:
    print(f"skipped: matplotlib is not installed for {sys.executable}")
    sys.exit(77)

fails = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        fails.append(what)


def row(kernel, label, ratio, variant=""):
    return {"kernel": kernel, "label": label, "model": label, "variant": variant, "size": 1,
            "fraction_of_copy_ceiling": 0.5, "ratio_to_cuda": ratio}


def clipped(fig):
    """How far (inches) what the figure draws reaches outside it: 0 when no label is
    clipped. get_tightbbox takes the drawn texts only (ticks within the view)."""
    fig.canvas.draw()
    tb, box = fig.get_tightbbox(fig.canvas.get_renderer()), fig.bbox_inches
    return max(0.0, box.x0 - tb.x0, box.y0 - tb.y0, tb.x1 - box.x1, tb.y1 - box.y1)


kernels = ["compute_deidrj_long_kernel_name", "compute_yi", "lookups_event_based", "triad"]
wide = [row(k, m, v) for k in kernels for m, v in (("cuda", 1.0), ("omp", 0.04), ("ompx", 0.9))]
narrow = [row(k, m, v) for k in kernels for m, v in (("cuda", 1.0), ("omp", 0.5), ("ompx", 1.8))]
fig = suite_summary.draw_figure("testsnap", wide, "cuda", smoke="scale 'small'")
check(fig.axes[0].get_yscale() == "log", "ratios over 25x: log axis")
bad = clipped(fig)
check(bad < 0.02, f"no text outside the figure (reaches {bad:.2f} in outside)")
check("smoke-test numbers, not performance" in fig.axes[0].get_title(), "the figure's title says smoke test")
fig = suite_summary.draw_figure("testsnap", narrow, "cuda")
check(fig.axes[0].get_yscale() == "linear", "ratios within 4x: linear axis")
check(clipped(fig) < 0.02, "no text outside the figure (linear)")
check("smoke" not in fig.axes[0].get_title(), "no smoke-test word where there is none")

# smoke_test: the plan's scale and the devices that ran.
gpu = {"devices": [{"model": "cuda", "ran": True, "is_gpu": True}]}
cpu = {"devices": [{"model": "host", "ran": True, "is_gpu": False}]}
check(suite_summary.smoke_test({"scale": "small"}, [(None, gpu)]) is not None, "scale small: smoke test")
check(suite_summary.smoke_test({"scale": "reference"}, [(None, cpu)]) is not None, "no GPU ran: smoke test")
check(suite_summary.smoke_test({"scale": "reference"}, [(None, gpu)]) is None, "reference on a GPU: performance")

# A real small run (spmv, --fast): the word in summary.md, summary.json and the printed line;
# only where the build's models can run here (a GPU build on a machine without its GPU cannot).
bindir, out = sys.argv[1:3]
shutil.rmtree(out, ignore_errors=True)
from pptools.suite import cases as suite_cases  # noqa: E402

offload = suite_cases.build_record(os.path.join(bindir, "spmv")).get("offload", "")
if offload in ("nvidia", "amd") and not (os.path.exists("/dev/nvidia0") or os.path.exists("/dev/kfd")):
    print(f"the real run: left out (a build offloading to {offload}, and no such GPU here)")
    print("test_suite_figures:", "FAIL" if fails else "PASS")
    sys.exit(1 if fails else 0)
p = subprocess.run([sys.executable, os.path.join(HERE, "..", "validate", "suite"), "--bin", bindir, "--apps", "spmv",
                    "--fast", "--out", out], capture_output=True, text=True, timeout=120)
check(p.returncode == 0, f"suite --apps spmv --fast exits 0 (got {p.returncode}: {p.stderr[-300:]})")
if p.returncode == 0:
    md = open(os.path.join(out, "summary.md")).read()
    check("**Smoke-test numbers, not performance.**" in md.split("\n- command")[0], "summary.md says it first")
    check(json.load(open(os.path.join(out, "summary.json"))).get("smoke_test"), "summary.json: smoke_test")
    check("(smoke-test numbers, not performance)" in p.stdout, "the printed summary line says it")
print("test_suite_figures:", "FAIL" if fails else "PASS")
sys.exit(1 if fails else 0)

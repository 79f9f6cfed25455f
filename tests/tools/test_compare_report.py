"""validate/compare --report on the synthetic compiler runs of make_compare_runs.py,
checked against what was planted (the heat map, the flag effects, the facts and
energy beside the rows, its figures); and compare's reader going away
(`compare ... | head -1`)."""
import json
import os
import signal
import subprocess
import sys

import pytest

from conftest import have_matplotlib, tool_path


@pytest.fixture(scope="module")
def report(compare_runs):
    """compare --report of clang-19, gcc-12 and clang-19+lto with clang-19's facts: (process, folder)."""
    out = os.path.join(compare_runs, "report-cc")
    r = subprocess.run([sys.executable, tool_path("compare"), "--report", out, "--facts",
                        os.path.join(compare_runs, "facts-clang.json")]
                       + [os.path.join(compare_runs, f) for f in ("cc-clang.json", "cc-gcc.json", "cc-clang-lto.json")],
                       capture_output=True, text=True)
    print(r.stdout + r.stderr)
    return r, out


@pytest.fixture(scope="module")
def md(report):
    with open(os.path.join(report[1], "report.md"), encoding="utf-8") as f:
        return f.read()


def test_report_exit_0(report):
    assert report[0].returncode == 0


def test_heat_map(report):
    with open(os.path.join(report[1], "heatmap.json"), encoding="utf-8") as f:
        h = json.load(f)
    assert h["rows"] == ["omp[clang-19]", "ompx[clang-19]", "omp[clang-19+lto]", "ompx[clang-19+lto]", "omp[gcc-12]"], \
        "heat map rows"
    assert len(h["cols"]) == 6 and "synthetic:a (k2)" in h["cols"], "heat map cols"
    assert len(h["values"]) == 5 and all(len(v) == 6 for v in h["values"]), "heat map shape"
    assert all(9.5 < v < 10.5 for v in h["values"][4]), "omp[gcc-12] planted at 10x cuda"
    assert all(1.2 < v < 1.3 for v in h["values"][0]), "omp[clang-19] planted at 1.25x"


def test_flag_effects(report):
    with open(os.path.join(report[1], "flags.json"), encoding="utf-8") as f:
        fl = json.load(f)
    assert fl["rows"] == ["omp[clang-19+lto]", "ompx[clang-19+lto]"], "flag rows"
    assert all(0.85 < v < 0.95 for v in fl["values"][0]), "lto planted at 0.9x"


def test_report_md(md):
    assert md.count("| omp[clang-19+lto] | omp[clang-19] |") == 6 and md.count("| **faster** |") == 6, "lto flagged faster"
    assert md.count("| ompx[clang-19+lto] | ompx[clang-19] |") == 6 and "**slower**" not in md, "ompx lto not flagged"
    assert "`ompx[gcc-12]`: none: kernel mode" in md, "ompx gcc noted"
    assert "regs 40 smem 0 stack 8 spill 8:8" in md, "facts beside rows"
    energy = md.split("## synthetic")[1].split("Energy: work per joule")[1]
    assert "| a | 0.8 | 0.909 | 0.889 | 0.909 | 0.1 |" in energy, \
        "energy table: omp[gcc-12] 0.1 of cuda's work per joule, omp[clang-19] 0.8"
    assert "| a | 4096 |" in md and "tpb=" not in md.split("## synthetic")[1], "tuning variant collapsed"


@pytest.mark.skipif(not have_matplotlib(), reason="matplotlib is not installed or does not import")
@pytest.mark.parametrize("name", ["synthetic-native.png", "heatmap.png", "flags.png"])
def test_report_figures(report, name):
    p = os.path.join(report[1], name)
    assert os.path.exists(p) and open(p, "rb").read(8) == b"\x89PNG\r\n\x1a\n", f"{name} is a PNG"


def test_broken_pipe(compare_runs):
    """`validate/compare ... | head -1`: the tool's reader goes away. It must end as
    cat or grep do, killed by SIGPIPE (the shell's 141) with nothing on stderr,
    never a BrokenPipeError traceback. The pipe's read end is closed before the
    tool starts, so its first write fails every time (no race with head)."""
    runs = os.path.join(compare_runs, "runs")
    base = [os.path.join(runs, f"base-{i}.json") for i in range(1, 6)]
    slow = [os.path.join(runs, f"slow10-{i}.json") for i in range(1, 6)]
    r, w = os.pipe()
    os.close(r)
    p = subprocess.run([sys.executable, tool_path("compare"), "--base", *base, "--new", *slow],
                       stdout=w, stderr=subprocess.PIPE, text=True, timeout=30)
    os.close(w)
    assert p.returncode == -signal.SIGPIPE and p.stderr == "", \
        f"exit {p.returncode} (want {-signal.SIGPIPE}: SIGPIPE), stderr {len(p.stderr)} chars (want 0): {p.stderr[-2000:]}"

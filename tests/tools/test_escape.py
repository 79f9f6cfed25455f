"""The tools shown a hostile name (a file name, kernel, model, variant or site-file
string holding ESC ] 0 ; ... BEL, a newline, DEL) print it escaped, \\xNN, as the C
apps do (common/src/escape.c, validate/pptools/text.py): nothing a tool writes to
the terminal (stdout, stderr, matplotlib's warnings) nor to its Markdown may hold a
raw control character but newline and tab, and the escaped name must be there
(shown, not dropped). Before validate/pptools/text.py each case printed ESC ] 0 ;
... BEL as given (and matplotlib warned of the glyphs, raw, on stderr)."""
import json
import os
import re
import subprocess
import sys

import pytest

from conftest import tool_path

TIME_LIMIT_S = 120
ESC = "\x1b]0;pwn\x07"               # sets a terminal's title
NAME = f"tri{ESC}ad\nFAKE LINE\x7f"  # and forges a line
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def result(kernel="cg_solve", model="host", variant="", app="cgsolve", samples=(1.0, 1.1, 0.9)):
    return {"schema": "proxyport-result-1", "app": app, "mpi_ranks": 1, "validated": True,
            "command": app, "build": {"git_revision": "abc", "git_dirty": False}, "devices": [], "system": [],
            "results": [{"kernel": kernel, "model": model, "label": model, "size": 10, "variant": variant,
                         "samples": list(samples), "time_s": {"median": 1.0}, "fom": 1.0, "fom_unit": "GFLOP/s",
                         "fom_higher_is_better": True, "valid": True, "check": "ok",
                         "metrics": {"relres_rel": 1e-12, "x_err_rel": 1e-12}}]}


def write(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def failed(doc):
    """doc with its row failed: the tools name it (compare's INVALID line)."""
    doc["results"][0]["valid"], doc["validated"] = False, False
    return doc


def suite_run(w, doc):
    d = os.path.join(w, "run")
    write(os.path.join(d, "suite.json"), {"runs": [{"app": "cgsolve", "repeat": 1, "json": "cgsolve/run1.json",
                                                    "exit": 0}], "apps": ["cgsolve"], "run_type": "baseline",
                                          "declared": {}, "command": f"suite {ESC}"})
    write(os.path.join(d, "cgsolve", "run1.json"), doc)
    return d


def bindir(w):
    """The build's bin folder through a symbolic link whose name is hostile."""
    if not os.path.isdir(os.environ.get("PP_TEST_BIN") or ""):
        pytest.skip("needs a build's bin folder (--pp-bin DIR or PP_TEST_BIN)")
    link = os.path.join(w, f"bin{ESC}")
    os.symlink(os.environ["PP_TEST_BIN"], link)
    return link


SITE = ('format = "proxyport-site/1"\n[site]\nname = "x"\n[[build]]\nname = "a"\npreset = "cpu"\n'
        'cc = "gcc\\u001b]0;pwn\\u0007"\n')

# name: (tool, lambda w: (argv, files whose text must be clean too))
CASES = {
    # a file name in an error line
    "compare_file_name": ("compare", lambda w: ([write(os.path.join(w, f"r{ESC}.json"), "not json"),
                                                 write(os.path.join(w, "b.json"), result())], [])),
    # kernel and variant names in the table, the INVALID line, the Markdown and the figure
    "compare_kernel_name": ("compare", lambda w: (
        [write(os.path.join(w, "a.json"), result(kernel=NAME, variant=ESC)),
         write(os.path.join(w, "b.json"), failed(result(kernel=NAME, variant=ESC, samples=(1.2, 1.3)))),
         "--markdown", os.path.join(w, "c.md"), "--png", os.path.join(w, "c")], [os.path.join(w, "c.md")])),
    # the compiler report (--report): its tables, heat map and bars
    "compare_report_names": ("compare", lambda w: (
        ["--report", os.path.join(w, "rep"), write(os.path.join(w, "a.json"), result(kernel=NAME, model="cuda")),
         write(os.path.join(w, "b.json"), result(kernel=NAME, model=f"omp[x{ESC}]"))],
        [os.path.join(w, "rep", "report.md")])),
    # an argument argparse does not know
    "compare_unknown_argument": ("compare", lambda w: ([f"--bogus{ESC}"], [])),
    # the summary of a suite run: its log line, summary.md and the figure's labels
    "suite_summary_names": ("suite", lambda w: (
        ["--summarize", suite_run(w, result(kernel=NAME, variant=ESC, model="host"))],
        [os.path.join(w, "run", "summary.md")])),
    # a --bin path in the suite's commands
    "suite_dry_run_path": ("suite", lambda w: (["--bin", bindir(w), "--dry-run", "--apps", "microbench"], [])),
    # a series named by its file
    "scaling_series_name": ("scaling", lambda w: (
        [os.path.dirname(write(os.path.join(w, "sc", f"cgsolve-s{ESC}-1.json"), result())), "--no-figures"],
        [os.path.join(w, "sc", "scaling.md")])),
    # a site file's string: refused, and shown escaped in the refusal (validate/site)
    "site_check_string": ("site", lambda w: (["check", write(os.path.join(w, "s.toml"), SITE)], [])),
    # a folder that is not there, in portability's refusal
    "portability_folder": ("portability", lambda w: ([f"m1={w}/no{ESC}", f"m2={w}/no2"], [])),
}


@pytest.mark.parametrize("case", list(CASES))
def test_names_shown_escaped(case, tmp_path):
    tool, args = CASES[case]
    tool_args, files = args(str(tmp_path))
    try:
        r = subprocess.run([sys.executable, tool_path(tool)] + tool_args, capture_output=True, text=True,
                           errors="surrogateescape", stdin=subprocess.DEVNULL, timeout=TIME_LIMIT_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{case}: still running after {TIME_LIMIT_S} s")
    out = r.stdout + r.stderr
    print(f"{case}: exit {r.returncode}")
    print(RAW.sub(lambda m: f"<{ord(m.group()):02x}>", out)[-3000:])
    assert not RAW.search(out), "raw control characters in the output (shown above as <NN>)"
    for f in files:
        text = open(f, errors="surrogateescape").read() if os.path.exists(f) else ""
        assert text, f"{os.path.basename(f)}: not written"
        assert not RAW.search(text), f"{os.path.basename(f)}: raw control characters"
    assert "\\x1b" in out + "".join(open(f, errors="replace").read() for f in files if os.path.exists(f)), \
        "the name is not shown escaped (\\x1b) anywhere"
    assert r.returncode in (0, 1, 2) and "Traceback" not in out, f"exit {r.returncode} (a crash)"

"""validate/suite on a build: a fast small run of every app (summary.md/json; without
matplotlib, which is optional, each app says why it has no figure), then on copies of
that run: the reportable checks after a run (a failed row, a missing system record, a
binary of another revision, each found only where planted), and the summary's work per
joule (planted energy).

  test_small_figures_*   the run's figures (skipped, with the reason, without matplotlib)
  test_no_matplotlib_*   the run summarized again where matplotlib does not import: the
                         summary checks pass and the figure tests are skipped, not failed

CTest runs the figures and the no-matplotlib cases as tests of their own
(tools_suite_small_figures, tools_suite_small_no_matplotlib) on tools_suite_run's run
(--pp-suite-run DIR); without that option the module makes its own run."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from pptools import project
from pptools.suite import cases as suite_cases

from conftest import REPO, matplotlib_missing, tool_path


def suite(*args, env=None):
    r = subprocess.run([sys.executable, tool_path("suite"), *args], capture_output=True, text=True, env=env)
    return r.returncode, r.stdout + r.stderr


@pytest.fixture(scope="module")
def small_run(request):
    """suite --scale small --repeat 2 --fast into WORK/suite-small: (exit, output, folder);
    or the run --pp-suite-run names, made (and its exit checked) by an earlier test."""
    given = request.config.getoption("--pp-suite-run")
    if given:
        if not os.path.isfile(os.path.join(given, "summary.json")):
            pytest.fail(f"--pp-suite-run {given}: no summary.json (tools_suite_run makes the run)")
        return 0, "", given
    bin_dir, work = request.getfixturevalue("bin_dir"), request.getfixturevalue("work")
    out = os.path.join(work, "suite-small")
    shutil.rmtree(out, ignore_errors=True)
    rc, text = suite("--bin", bin_dir, "--scale", "small", "--repeat", "2", "--fast", "--out", out)
    print(text[-3000:])
    return rc, text, out


@pytest.fixture(scope="module")
def summary(small_run):
    assert small_run[0] == 0, "the small run exits 0"
    return json.load(open(os.path.join(small_run[2], "summary.json")))


def test_small_run_exits_0(small_run):
    assert small_run[0] == 0, "small fast run of all apps exits 0"


# ---- what every summary of the small run says (its figures aside) --------------------

def test_summary_has_every_app(summary):
    assert sorted(summary["apps"]) == sorted(suite_cases.apps()), "summary.json has every app of apps.txt"


@pytest.mark.parametrize("app", suite_cases.apps())
def test_summary_app_runs(summary, app):
    a = summary["apps"][app]
    assert a["runs"] == 2 and a["rows"] and all(r["valid"] and r["runs"] == 2 for r in a["rows"]), \
        f"{app}: 2 runs, every headline row valid in both"


def test_summary_md(small_run, summary):
    md = open(os.path.join(small_run[2], "summary.md")).read()
    if matplotlib_missing():  # the figures are the optional part: test_small_figures checks them where drawn
        assert all(a["figure"] is None for a in summary["apps"].values()) and \
            md.count("(no figure: matplotlib is missing") == len(summary["apps"]), \
            "without matplotlib: no figure, and summary.md says why for every app"
    assert md.count("| kernel | model |") == len(suite_cases.apps()) and "every app validated: yes" in md, \
        "summary.md: a table per app, every app validated"
    assert "host model: run as the reference" in md, "summary.md says why the host model ran"


# ---- the run's figures (matplotlib is optional: skipped, with the reason, without it) --

@pytest.mark.parametrize("app", suite_cases.apps())
def test_small_figures(summary, small_run, app):
    why = matplotlib_missing()
    if why:
        pytest.skip(why)
    a = summary["apps"][app]
    assert a["figure"] and os.path.getsize(os.path.join(small_run[2], a["figure"])) > 1000, f"{app}: figure written"


# ---- the run summarized again where matplotlib does not import -------------------------

@pytest.fixture(scope="module")
def no_matplotlib(small_run, summary, tmp_path_factory):
    """A copy of the small run summarized where matplotlib does not import (a package that
    raises ImportError first on the path): (exit, stderr, the copy, that environment)."""
    d = str(tmp_path_factory.mktemp("suite-nompl"))
    shutil.copytree(small_run[2], d, dirs_exist_ok=True)
    block = os.path.join(str(tmp_path_factory.mktemp("nompl")), "matplotlib")
    os.makedirs(block)
    with open(os.path.join(block, "__init__.py"), "w") as f:
        f.write('raise ImportError("matplotlib made absent by tests/tools/test_suite_run.py")\n')
    env = dict(os.environ, PYTHONPATH=os.path.dirname(block))
    r = subprocess.run([sys.executable, tool_path("suite"), "--summarize", d], capture_output=True, text=True, env=env)
    return r.returncode, r.stderr, d, env


def pytest_here(run, env, select):
    """This module's tests selected by -k, on the run folder `run`, in the environment env."""
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-ra",
                           "-c", os.path.join(REPO, "pyproject.toml"), "--rootdir", REPO,
                           "--pp-suite-run", run, os.path.abspath(__file__), "-k", select],
                          capture_output=True, text=True, env=env, timeout=300)


def test_no_matplotlib_summarized(no_matplotlib):
    rc, err, _, _ = no_matplotlib
    assert rc == 0, f"summarized without matplotlib ({rc}: {err.strip()[-300:]})"


def test_no_matplotlib_checks(no_matplotlib):
    """The summary checks pass on it, the figure checks skipped with the reason."""
    _, _, d, env = no_matplotlib
    r = pytest_here(d, env, "test_summary_ or test_small_figures")
    print(r.stdout[-3000:])
    assert r.returncode == 0 and " passed" in r.stdout and " failed" not in r.stdout, \
        f"the summary checks without matplotlib: exit {r.returncode}, expected 0"
    assert f"{len(suite_cases.apps())} skipped" in r.stdout and "made absent by tests/tools/test_suite_run.py" in r.stdout, \
        "the figure checks skipped, with the reason"


def test_no_matplotlib_figures_skipped(no_matplotlib):
    """The figure tests alone: every one skipped (CTest reports such a test skipped), none failed."""
    _, _, d, env = no_matplotlib
    r = pytest_here(d, env, "test_small_figures")
    print(r.stdout[-3000:])
    all_skipped = re.search(r"\n[0-9]+ skipped(, [0-9]+ deselected)? in [0-9.]+s\n?$", r.stdout)  # as pytest.cmake reads it
    assert r.returncode == 0 and all_skipped and "matplotlib" in r.stdout, \
        f"the figures without matplotlib: exit {r.returncode}, expected every test skipped, with the reason"


# ---- reportable after the run (copies of it, each with one fault planted) -----------

def copy_of(small_run, tmp_path, mutate=None, plan=None):
    d = str(tmp_path / "copy")
    shutil.copytree(small_run[2], d, dirs_exist_ok=True)
    if plan:
        p = json.load(open(os.path.join(d, "suite.json")))
        plan(p)
        json.dump(p, open(os.path.join(d, "suite.json"), "w"))
    if mutate:
        f = os.path.join(d, "spmv", "run1.json")
        res = json.load(open(f))
        mutate(res)
        json.dump(res, open(f, "w"))
    return d


def fail_row(res):
    res["results"][0]["valid"] = False
    res["validated"] = False


def test_after_control(small_run, summary, tmp_path):
    rc, control = suite("--summarize", copy_of(small_run, tmp_path), "--reportable")
    assert rc == 1 and "not the reference case" in control, "control: a small run is not reportable"
    assert "FAILED validation" not in control and "no system record" not in control, \
        "control: no failed row and a system record in every file"


def test_after_failed_row(small_run, summary, tmp_path):
    rc, text = suite("--summarize", copy_of(small_run, tmp_path, fail_row), "--reportable")
    assert rc == 1 and "spmv repeat 1: 1 row(s) FAILED validation" in text, "a failed row: not reportable"


def test_after_no_system_record(small_run, summary, tmp_path):
    rc, text = suite("--summarize", copy_of(small_run, tmp_path, lambda res: res.pop("system", None)), "--reportable")
    assert rc == 1 and "spmv repeat 1: no system record" in text, "no system record: not reportable"


def interrupted(p):  # stopped before its last run: no exit status, no result file
    for k in ("exit", "json", "seconds"):
        p["runs"][-1].pop(k, None)


def test_after_interrupted(small_run, summary, tmp_path):
    d = copy_of(small_run, tmp_path, plan=interrupted)
    rc, text = suite("--summarize", d)
    md = open(os.path.join(d, "summary.md")).read()
    last = json.load(open(os.path.join(small_run[2], "suite.json")))["runs"][-1]
    want = f"{last['app']} repeat {last['repeat']}: did not run (the suite run stopped before it"
    assert rc == 1 and f"suite: not validated: {want}" in text and want in md, "the run not reached is said so"
    assert "exit None" not in text + md, "never 'exit None'"


def stamp_only(p):  # the run as if made with --binary-stamp-only
    p["stamp_only"] = True


def test_after_stamp_only_control(small_run, summary, tmp_path):
    rc, text = suite("--summarize", copy_of(small_run, tmp_path, lambda res: None, stamp_only), "--reportable")
    assert "binary built at git" not in text, "--binary-stamp-only control: the binaries agree"


def test_after_stamp_only_other_revision(small_run, summary, tmp_path):
    d = copy_of(small_run, tmp_path, lambda res: res["build"].update(git_revision="0123456789ab"), stamp_only)
    rc, text = suite("--summarize", d, "--reportable")
    assert rc == 1 and "spmv repeat 1: binary built at git 0123456789ab, the suite's first binary" in text, \
        "--binary-stamp-only: a binary of another revision is not reportable"


# ---- work per joule ------------------------------------------------------------------

@pytest.fixture(scope="module")
def energy_summary(small_run, summary, tmp_path_factory):
    """The summary of a copy of the small run whose rows carry planted energy: the
    reference model's rows 10 units per joule, the others 5 (ratio 0.5), spmv's below
    the counter's resolution."""
    d = str(tmp_path_factory.mktemp("energy"))
    shutil.copytree(small_run[2], d, dirs_exist_ok=True)
    ref = project.reference_model()
    for app in suite_cases.apps():
        for f in sorted(os.listdir(os.path.join(d, app))):
            if not f.endswith(".json"):
                continue
            p = os.path.join(d, app, f)
            res = json.load(open(p))
            for r in res["results"]:
                r["energy"] = {"joules_per_rep": 1.0, "watts": 40.0, "idle_watts": 20.0,
                               "fom_per_joule": 10.0 if r["model"] == ref else 5.0, "fom_per_joule_unit": "x/J",
                               "region_s": 1.0, "region_runs": 1, "calls_per_run": 1,
                               "repeated_for_resolution": False, "counter_error": 0.01,
                               "below_counter_resolution": app == "spmv"}
            json.dump(res, open(p, "w"))
    rc, text = suite("--summarize", d)
    return (rc, json.load(open(os.path.join(d, "summary.json"))), open(os.path.join(d, "summary.md")).read(), d)


def test_energy_summarized(energy_summary):
    assert energy_summary[0] == 0, "summarized"


def test_energy_per_joule_and_ratio(energy_summary):
    _, s, _, _ = energy_summary
    ref = project.reference_model()
    base = next(iter(s["apps"].values()))["ratio_base"]
    rows = [r for a in s["apps"].values() for r in a["rows"]]
    assert rows and all(r["per_joule"] == (10.0 if r["model"] == ref else 5.0) for r in rows), \
        "every headline row has its work per joule (median of the runs)"
    assert all(r["per_joule_ratio_to_" + base] == (1.0 if r["model"] == ref else 0.5) for r in rows), \
        "work per joule over the reference model's: 1 for it, 0.5 for the others"


def test_energy_tables(energy_summary):
    _, s, md, d = energy_summary
    assert md.count(": work per joule") == len(s["apps"]) and "| x/J | 40 | 20 |" in md, \
        "summary.md: a work-per-joule table per app with watts and idle watts"
    assert "below the counter resolution" in md.split("### spmv: work per joule")[1].split("##")[0], \
        "spmv's rows marked below the counter's resolution"


def test_energy_figures(energy_summary):
    why = matplotlib_missing()
    if why:
        pytest.skip(f"the energy figure check ({why})")
    _, s, md, d = energy_summary
    assert all(a.get("energy_figure") and os.path.getsize(os.path.join(d, a["energy_figure"])) > 1000
               for a in s["apps"].values()), "an energy figure per app"


def test_no_energy_says_why(small_run, summary, tmp_path):
    d2 = str(tmp_path / "noenergy")  # the run as it is: no counter on a CPU machine
    shutil.copytree(small_run[2], d2, dirs_exist_ok=True)
    suite("--summarize", d2)
    md = open(os.path.join(d2, "summary.md")).read()
    assert "Work per joule: none (" in md, "without energy in the files: the reason, no table"

#!/usr/bin/env python3
"""CTest checks of validate/suite (the suite run and its run rules).

  suite_test.py run BIN OUT          a fast small run of every app: summary.md/json (without
                                     matplotlib: each app says why it has no figure)
  suite_test.py figures OUT          the run's figures (exit 77, skipped, without matplotlib)
  suite_test.py checks OUT           run's checks of the summary of OUT, without running
  suite_test.py no-matplotlib OUT    OUT summarized again without matplotlib: checks pass,
                                     figures skipped
  suite_test.py refusals BIN         --reportable refuses a dirty tree, a non-reference size,
                                     too few repeats, an undeclarable option; a clean tree at the
                                     reference size with 3 repeats is accepted (the control)
  suite_test.py after OUT            --summarize --reportable of OUT (made by `run`) finds a failed
                                     row and a missing system record, each only where planted
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(HERE)
SUITE = os.path.join(ROOT, "validate", "suite")
sys.path.insert(0, os.path.join(HERE, "..", "validate"))
from pptools.suite import cases as suite_cases  # noqa: E402  (the build record of a binary)
from pptools import project  # noqa: E402
failures = []


def matplotlib_missing():
    """Why the figures cannot be drawn here (matplotlib, optional, does not import), or None."""
    try:
        import matplotlib.pyplot  # noqa: F401
        return None
    except Exception as e:  # ImportError, or a matplotlib built for another numpy
        return f"matplotlib does not import for {sys.executable} ({type(e).__name__}: {e})"


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def suite(*args):
    r = subprocess.run([sys.executable, SUITE, *args], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def git_tree(dirty, rev):
    """A clone of this project at `rev` (the binaries' revision), clean or with a change."""
    d = tempfile.mkdtemp(prefix="pp-suite-")
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", ROOT, d], check=True)
    subprocess.run(["git", "-C", d, "-c", "advice.detachedHead=false", "checkout", "-q", rev], check=True)
    if dirty:
        open(os.path.join(d, "README.md"), "a").write("changed\n")
    return d


def fake_git(message):
    """A folder with a `git` that fails as git does on a tree it will not read."""
    d = tempfile.mkdtemp(prefix="pp-fakegit-")
    with open(os.path.join(d, "git"), "w") as f:
        f.write(f"#!/bin/sh\necho \"fatal: {message}\" >&2\nexit 128\n")
    os.chmod(os.path.join(d, "git"), 0o755)
    return d


def run(bindir, out):
    shutil.rmtree(out, ignore_errors=True)
    rc, text = suite("--bin", bindir, "--scale", "small", "--repeat", "2", "--fast", "--out", out)
    print(text[-3000:])
    check(rc == 0, "small fast run of all apps exits 0")
    summary_checks(out)


def summary_checks(out):
    """What every summary of the small run must say (its figures aside: `figures`)."""
    s = json.load(open(os.path.join(out, "summary.json")))
    check(sorted(s["apps"]) == sorted(suite_cases.apps()), "summary.json has every app of apps.txt")
    md = open(os.path.join(out, "summary.md")).read()
    for app, a in s["apps"].items():
        check(a["runs"] == 2 and a["rows"] and all(r["valid"] and r["runs"] == 2 for r in a["rows"]),
              f"{app}: 2 runs, every headline row valid in both")
    why = matplotlib_missing()
    if why:  # the figures are the optional part: `figures` checks them where they can be drawn
        check(all(a["figure"] is None for a in s["apps"].values()) and
              md.count("(no figure: matplotlib is missing") == len(s["apps"]),
              "without matplotlib: no figure, and summary.md says why for every app")
        print(f"skipped: the figure checks ({why}; suite_test.py figures checks them)")
    check(md.count("| kernel | model |") == 5 and "every app validated: yes" in md,
          "summary.md: a table per app, every app validated")
    check("host model: run as the reference" in md, "summary.md says why the host model ran")


def no_matplotlib(out):
    """The small run summarized again where matplotlib does not import (a package that
    raises ImportError first on the path): the summary is written, each app saying why it
    has no figure, and `figures` is skipped (77), not failed."""
    d = tempfile.mkdtemp(prefix="pp-suite-nompl-")
    shutil.copytree(out, d, dirs_exist_ok=True)
    block = os.path.join(tempfile.mkdtemp(prefix="pp-nompl-"), "matplotlib")
    os.makedirs(block)
    with open(os.path.join(block, "__init__.py"), "w") as f:
        f.write('raise ImportError("matplotlib made absent by tests/suite_test.py")\n')
    env = dict(os.environ, PYTHONPATH=os.path.dirname(block))
    r = subprocess.run([sys.executable, SUITE, "--summarize", d], capture_output=True, text=True, env=env)
    check(r.returncode == 0, f"summarized without matplotlib ({r.returncode}: {r.stderr.strip()[-300:]})")
    for mode, want in (("checks", 0), ("figures", 77)):
        r = subprocess.run([sys.executable, os.path.abspath(__file__), mode, d], capture_output=True, text=True,
                           env=env)
        print(r.stdout[-1500:])
        check(r.returncode == want and "skipped" in r.stdout, f"suite_test.py {mode} without matplotlib: exit "
              f"{r.returncode}, expected {want}, with the reason")


def figures(out):
    """The small run's figures: one per app, drawn (exit 77 where matplotlib is missing)."""
    why = matplotlib_missing()
    if why:
        print(f"skipped: {why}")
        sys.exit(77)
    s = json.load(open(os.path.join(out, "summary.json")))
    for app, a in s["apps"].items():
        check(a["figure"] and os.path.getsize(os.path.join(out, a["figure"])) > 1000, f"{app}: figure written")


def refusals(bindir):
    stamp = suite_cases.build_record(os.path.join(bindir, "spmv")).get("git revision", "")
    clean_build = bool(stamp) and not stamp.endswith("-dirty")
    rev = stamp.replace("-dirty", "")
    known = subprocess.run(["git", "-C", ROOT, "cat-file", "-e", rev + "^{commit}"], capture_output=True)
    if not rev or known.returncode != 0:  # a source tarball (a Spack build): no history to clone
        print(f"skipped: the binaries' revision '{stamp}' is not a commit of a git checkout at {ROOT}")
        sys.exit(77)
    clean, dirty = git_tree(False, rev), git_tree(True, rev)
    base = ["--bin", bindir, "--reportable", "--dry-run", "--scale", "reference"]
    rc, text = suite(*base, "--repo", clean)
    check(rc == (0 if clean_build else 2), f"control: the binaries' own clean tree, reference sizes, "
          f"3 repeats: {'accepted' if clean_build else 'refused (binaries built from a dirty tree)'}\n{text}")
    # the tree's state must be established, the binaries of its revision, every app run
    rc, text = suite(*base, "--repo", tempfile.mkdtemp(prefix="pp-nogit-"))
    check(rc == 2 and "state cannot be established" in text, "not a git checkout: refused")
    env = dict(os.environ, PATH=fake_git("detected dubious ownership in repository") + os.pathsep + os.environ["PATH"])
    r = subprocess.run([sys.executable, SUITE, *base, "--repo", clean], capture_output=True, text=True, env=env)
    check(r.returncode == 2 and "dubious ownership" in r.stderr and "cannot be established" in r.stderr,
          "git refusing the repository (dubious ownership): refused, with git's reason")
    if os.geteuid() == 0:  # the real thing: a tree of another user
        other = git_tree(False, rev)
        subprocess.run(["chown", "-R", "65534:65534", other], check=True)
        rc, text = suite(*base, "--repo", other)
        check(rc == 2 and "dubious ownership" in text, "another user's tree (chown nobody): refused")
    older = git_tree(False, rev + "~1")
    rc, text = suite(*base, "--repo", older)
    check(rc == 2 and "the tree is at" in text and ": rebuild" in text,
          "binaries of another revision than the tree: refused before the run")
    rc, text = suite(*base, "--repo", clean, "--apps", "spmv")
    check(rc == 2 and "--apps leaves out" in text, "--apps subset: refused (every app of apps.txt)")
    rc, text = suite(*base, "--repo", dirty)
    check(rc == 2 and "uncommitted changes" in text, "dirty tree: refused")
    rc, text = suite(*base[:-2], "--scale", "small", "--repo", clean)
    check(rc == 2 and "not the reference sizes" in text, "non-reference size: refused")
    rc, text = suite(*base, "--repeat", "2", "--repo", clean)
    check(rc == 2 and "at least 3 separate processes" in text, "2 repeats: refused")
    opt = os.path.join(clean, "..", os.path.basename(clean) + "-opt.json")
    json.dump({"spmv": ["--deck", "x.deck"]}, open(opt, "w"))
    rc, text = suite(*base, "--repo", clean, "--optimized", opt)
    check(rc == 2 and "--deck may not change" in text, "an optimized run changing the deck: refused")
    json.dump({"xsbench_like": ["--sort", "vendor"]}, open(opt, "w"))
    rc, text = suite(*base, "--repo", dirty, "--optimized", opt)
    check(rc == 2 and "changes outside kernel files" in text, "optimized run, change outside kernels: refused")
    rc, text = suite(*base, "--repo", clean, "--optimized", opt)
    check(rc == 0, "control: optimized run declaring --sort vendor: accepted")
    # a copy of the tree on a GPU node: the binaries' build record decides, not the tree's git
    rc, text = suite(*base, "--repo", dirty, "--binary-stamp-only")
    check(rc == (0 if clean_build else 2), f"--binary-stamp-only on a dirty copy: decided by the binaries' stamp ({stamp})")
    rc, text = suite(*base, "--repo", clean, "--binary-stamp-only", "--optimized", opt)
    check(rc == 2 and "kernel diff is recorded from the tree" in text, "--binary-stamp-only optimized: refused")
    rc, text = suite("--bin", bindir, "--dry-run", "--no-energy")
    cmds = [ln for ln in text.splitlines() if "--backend" in ln]
    check(rc == 0 and cmds and all(ln.endswith("--no-energy") for ln in cmds),
          f"--no-energy: every app's command ends with --no-energy\n{text}")
    rc, text = suite("--bin", bindir, "--binary-stamp-only", "--dry-run")
    check(rc == 2 and "goes with --reportable" in text, "--binary-stamp-only alone: usage error")


def after(out):
    def verdict(mutate):
        d = tempfile.mkdtemp(prefix="pp-suite-after-")
        shutil.copytree(out, d, dirs_exist_ok=True)
        f = os.path.join(d, "spmv", "run1.json")
        res = json.load(open(f))
        mutate(res)
        json.dump(res, open(f, "w"))
        return suite("--summarize", d, "--reportable")

    def fail_row(res):
        res["results"][0]["valid"] = False
        res["validated"] = False

    rc, control = verdict(lambda res: None)
    check(rc == 1 and "not the reference case" in control, "control: a small run is not reportable")
    check("FAILED validation" not in control and "no system record" not in control,
          "control: no failed row and a system record in every file")
    rc, text = verdict(fail_row)
    check(rc == 1 and "spmv repeat 1: 1 row(s) FAILED validation" in text, "a failed row: not reportable")
    rc, text = verdict(lambda res: res.pop("system", None))
    check(rc == 1 and "spmv repeat 1: no system record" in text, "no system record: not reportable")

    def stamp_only(mutate):  # the run as if made with --binary-stamp-only
        d = tempfile.mkdtemp(prefix="pp-suite-stamp-")
        shutil.copytree(out, d, dirs_exist_ok=True)
        plan = json.load(open(os.path.join(d, "suite.json")))
        plan["stamp_only"] = True
        json.dump(plan, open(os.path.join(d, "suite.json"), "w"))
        f = os.path.join(d, "spmv", "run1.json")
        res = json.load(open(f))
        mutate(res)
        json.dump(res, open(f, "w"))
        return suite("--summarize", d, "--reportable")
    rc, text = stamp_only(lambda res: None)
    check("binary built at git" not in text, "--binary-stamp-only control: the binaries agree")
    rc, text = stamp_only(lambda res: res["build"].update(git_revision="0123456789ab"))
    check(rc == 1 and "spmv repeat 1: binary built at git 0123456789ab, the suite's first binary" in text,
          "--binary-stamp-only: a binary of another revision is not reportable")


def energy(out):
    """The summary's work per joule on a copy of the small run whose rows carry planted
    energy: the reference model's rows 10 units per joule, the others 5 (ratio 0.5),
    spmv's below the counter's resolution; and none where no row has energy."""
    d = tempfile.mkdtemp(prefix="pp-suite-energy-")
    shutil.copytree(out, d, dirs_exist_ok=True)
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
    s = json.load(open(os.path.join(d, "summary.json")))
    md = open(os.path.join(d, "summary.md")).read()
    base = next(iter(s["apps"].values()))["ratio_base"]
    rows = [r for a in s["apps"].values() for r in a["rows"]]
    check(rows and all(r["per_joule"] == (10.0 if r["model"] == ref else 5.0) for r in rows),
          "every headline row has its work per joule (median of the runs)")
    check(all(r["per_joule_ratio_to_" + base] == (1.0 if r["model"] == ref else 0.5) for r in rows),
          "work per joule over the reference model's: 1 for it, 0.5 for the others")
    check(md.count(": work per joule") == len(s["apps"]) and "| x/J | 40 | 20 |" in md,
          "summary.md: a work-per-joule table per app with watts and idle watts")
    check("below the counter resolution" in md.split("### spmv: work per joule")[1].split("##")[0],
          "spmv's rows marked below the counter's resolution")
    why = matplotlib_missing()
    if why:
        print(f"skipped: the energy figure check ({why})")
    else:
        check(all(a.get("energy_figure") and os.path.getsize(os.path.join(d, a["energy_figure"])) > 1000
                  for a in s["apps"].values()), "an energy figure per app")
    check(rc == 0, "summarized")
    d2 = tempfile.mkdtemp(prefix="pp-suite-noenergy-")  # the run as it is: no counter on a CPU machine
    shutil.copytree(out, d2, dirs_exist_ok=True)
    rc, text = suite("--summarize", d2)
    md = open(os.path.join(d2, "summary.md")).read()
    check("Work per joule: none (" in md, "without energy in the files: the reason, no table")


cmd = sys.argv[1]
{"run": lambda: run(sys.argv[2], sys.argv[3]), "refusals": lambda: refusals(sys.argv[2]),
 "figures": lambda: figures(sys.argv[2]), "checks": lambda: summary_checks(sys.argv[2]),
 "no-matplotlib": lambda: no_matplotlib(sys.argv[2]),
 "after": lambda: after(sys.argv[2]), "energy": lambda: energy(sys.argv[2])}[cmd]()
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)

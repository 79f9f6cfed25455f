"""The tools' bad-input contract (validate/pptools): one hostile input to one of
the validate/ tools, which must refuse it with exit 2 and exactly one line on
stderr (never a traceback, a hang or reading without end); or, for the *_atomic
cases, a write that must replace its target by a rename. Each failed before
validate/pptools.

The tool runs with a time limit (a FIFO must not block it: a regression fails
here instead of hanging CTest) and an address-space limit (a file without end
must not be read into memory).
"""
import json
import os
import re
import resource
import shutil
import stat
import subprocess
import sys

import pytest

from conftest import REPO, VALIDATE

TIME_LIMIT_S = 20
MEMORY_LIMIT = 2 << 30


def result(rows=None, **top):
    """A small result file that every tool accepts (one cgsolve host row)."""
    doc = {"schema": "proxyport-result-1", "app": "cgsolve", "mpi_ranks": 1, "validated": True,
           "command": "cgsolve", "build": {"git_revision": "abc", "git_dirty": False},
           "devices": [], "system": [],
           "results": rows if rows is not None else [
               {"kernel": "cg_solve", "model": "host", "label": "host", "size": 10, "variant": "",
                "samples": [1.0, 1.1, 0.9], "time_s": {"median": 1.0}, "fom": 1.0, "fom_unit": "GFLOP/s",
                "fom_higher_is_better": True, "valid": True, "check": "ok",
                "metrics": {"relres_rel": 1e-12, "x_err_rel": 1e-12}}]}
    doc.update(top)
    return doc


def write(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def deep(n=200000):
    return '{"results": ' + "[" * n + "]" * n + "}"


SITE = 'format = "proxyport-site/1"\n[site]\nname = "x"\n[[build]]\nname = "a"\npreset = "cpu"\n'


def deep_toml(n=3000, table=False):
    """A site file with a value nested n deep: arrays, or inline tables."""
    v = "{a=" * n + "1" + "}" * n if table else "[" * n + "]" * n
    return "x = " + v + "\n" + SITE


def long_kernel(w):
    """A suite run whose one result row has a kernel name of a million characters."""
    run = result()
    run["results"][0]["kernel"] = "k" * 1000000
    return suite_dir(w, run=run)


def fifo(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.lexists(path):
        os.unlink(path)
    os.mkfifo(path)
    return path


def readonly_dir(w):
    """A folder this process cannot write in: chmod 555, or, for root (whom modes do not
    stop), a folder of /proc."""
    if os.geteuid() == 0:
        return "/proc/self"
    d = os.path.join(w, "readonly")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, stat.S_IRUSR | stat.S_IXUSR)
    return d


def published_copy(src, w, mutate):
    """A copy of results/ whose nvidia-h200/microbench/run1.json is mutate(doc) (the table's first case)."""
    dst = os.path.join(w, "results")
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(os.path.join(src, "results", "nvidia-h200"), os.path.join(dst, "nvidia-h200"))
    path = os.path.join(dst, "nvidia-h200", "microbench", "run1.json")
    with open(path) as f:
        doc = json.load(f)
    write(path, mutate(doc))
    return dst


def drop_fom(doc):
    for r in doc["results"]:
        r.pop("fom", None)
    return doc


def bindir(w):
    """The build's bin folder (PP_TEST_BIN, from CTest), so that the suite's checks of the
    binaries pass and the hostile option is what it meets; else an empty folder."""
    return os.environ.get("PP_TEST_BIN") or w


def suite_dir(w, plan=None, run=None):
    d = os.path.join(w, "suite-run")
    shutil.rmtree(d, ignore_errors=True)
    write(os.path.join(d, "suite.json"), plan if plan is not None else
          {"runs": [{"app": "cgsolve", "repeat": 1, "json": "cgsolve/run1.json", "exit": 0}],
           "apps": ["cgsolve"], "run_type": "baseline", "declared": {}})
    write(os.path.join(d, "cgsolve", "run1.json"), run if run is not None else result())
    return d


def scaling_dir(w, doc=None, name="cgsolve-s-1.json", as_fifo=False):
    d = os.path.join(w, "scaling-" + name.replace(".json", "") + ("-fifo" if as_fifo else ""))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    if as_fifo:
        fifo(os.path.join(d, name))
    else:
        write(os.path.join(d, name), doc if doc is not None else result())
    return d


def small_suite(w):
    """A short suite run of this build (what a refusal must stop before it starts)."""
    return ["--bin", bindir(w), "--apps", "microbench", "--scale", "small", "--fast", "--no-energy",
            "--out", os.path.join(w, "out")]


def empty_dir(w):
    os.makedirs(os.path.join(w, "refs"), exist_ok=True)
    return os.path.join(w, "refs")


def good(w):
    return write(os.path.join(w, "good.json"), result())


def good2(w):
    return write(os.path.join(w, "good2.json"), result(rows=[dict(result()["results"][0], samples=[1.2, 1.3])]))


def symlinked(w, name):
    target = write(os.path.join(w, name + ".target"), "old\n")
    link = os.path.join(w, name)
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(target, link)
    return link


# name: (tool, lambda src, w: argv, stderr regex); every case: exit 2, one line.
CASES = {
    "compare_deep": ("compare", lambda s, w: [write(os.path.join(w, "deep.json"), deep()), good(w)],
                     r"deep\.json: .*(nest|deep)"),
    "compare_build_str": ("compare", lambda s, w: [write(os.path.join(w, "b.json"), result(build="x")), good(w)],
                          r"b\.json: .*build"),
    "compare_samples_1e308": ("compare", lambda s, w: [
        write(os.path.join(w, "big.json"), result(rows=[dict(result()["results"][0], samples=[1e308] * 5)])),
        good(w)], r"big\.json: .*samples.*range"),
    "compare_fifo": ("compare", lambda s, w: [fifo(os.path.join(w, "cmp.fifo")), good(w)],
                     r"cmp\.fifo: .*not a regular file"),
    "compare_dev_zero": ("compare", lambda s, w: ["/dev/zero", good(w)], r"/dev/zero: .*not a regular file"),
    "compare_directory": ("compare", lambda s, w: [w, good(w)], r": not a regular file"),
    "compare_markdown_symlink": ("compare", lambda s, w: ["--markdown", symlinked(w, "cmp.md"), good(w), good2(w)],
                                 r"--markdown .*cmp\.md: .*symbolic link"),
    "scaling_array": ("scaling", lambda s, w: [scaling_dir(w, [])], r"cgsolve-s-1\.json: .*not a ProxyPort result"),
    "scaling_int_rows": ("scaling", lambda s, w: [scaling_dir(w, result(rows=[1, 2]))],
                         r"cgsolve-s-1\.json: results\[0\]"),
    "scaling_out_file": ("scaling", lambda s, w: [scaling_dir(w), "--no-figures", "--out", good(w)],
                         r"--out .*good\.json: .*not a folder"),
    "scaling_out_readonly": ("scaling", lambda s, w: [scaling_dir(w), "--no-figures", "--out", readonly_dir(w)],
                             r"--out .*: "),
    "scaling_fifo": ("scaling", lambda s, w: [scaling_dir(w, as_fifo=True)], r"cgsolve-s-1\.json: .*not a regular file"),
    "table_array": ("results-table.py", lambda s, w: ["--results", published_copy(s, w, lambda d: [])],
                    r"microbench/run1\.json: .*not a ProxyPort result"),
    "table_int_rows": ("results-table.py", lambda s, w: ["--results", published_copy(s, w, lambda d: dict(d, results=[1]))],
                       r"microbench/run1\.json: results\[0\]"),
    "table_no_fom": ("results-table.py", lambda s, w: ["--results", published_copy(s, w, drop_fom)],
                     r"microbench/run1\.json: .*fom"),
    "table_doc_dev_full": ("results-table.py", lambda s, w: ["--update-readme", "--readme", "/dev/full"],
                           r"/dev/full: .*not a regular file"),
    "table_doc_symlink": ("results-table.py", lambda s, w: ["--update", "--doc", symlinked(w, "doc.md")],
                          r"doc\.md: .*symbolic link"),
    "suite_apps_empty": ("suite", lambda s, w: ["--bin", bindir(w), "--apps", ""], r"--apps .*no app"),
    "suite_optimized_deep": ("suite", lambda s, w: ["--bin", bindir(w), "--dry-run", "--optimized",
                                                    write(os.path.join(w, "opt.json"), deep())],
                             r"opt\.json: .*(nest|deep)"),
    "suite_optimized_fifo": ("suite", lambda s, w: ["--bin", bindir(w), "--dry-run", "--optimized",
                                                    fifo(os.path.join(w, "opt.fifo"))],
                             r"opt\.fifo: not a regular file"),
    "suite_summarize_plan": ("suite", lambda s, w: ["--summarize", suite_dir(w, plan={"runs": [1], "apps": 5})],
                             r"suite\.json: "),
    "suite_summarize_deep": ("suite", lambda s, w: ["--summarize", suite_dir(w, plan=deep())],
                             r"suite\.json: .*(nest|deep)"),
    "suite_summarize_result": ("suite", lambda s, w: ["--summarize", suite_dir(w, run=result(rows=[{"kernel": 1}]))],
                               r"run1\.json: results\[0\]"),
    "suite_repeat_huge": ("suite", lambda s, w: ["--bin", bindir(w), "--dry-run", "--repeat", "99999999999"],
                          r"--repeat 99999999999: "),
    # a name that reaches a figure is bounded: before, matplotlib ran out of memory after 28 s
    "suite_summarize_long_name": ("suite", lambda s, w: ["--summarize", long_kernel(w)],
                                  r"run1\.json: results\[0\]\.kernel: a name of 1000000 characters"),
    # the peers step runs after the whole suite: its folder is checked before anything runs
    # (before: the suite ran, then exit 1 with nothing on stderr; --dry-run exited 0)
    "suite_peers_fifo": ("suite", lambda s, w: small_suite(w) + ["--peers", fifo(os.path.join(w, "peers.fifo"))],
                         r"--peers: .*peers\.fifo: a FIFO: "),
    "suite_peers_file": ("suite", lambda s, w: small_suite(w) + ["--peers", good(w)],
                         r"--peers: .*good\.json: a regular file: "),
    "suite_peers_dry_run": ("suite", lambda s, w: ["--bin", bindir(w), "--dry-run", "--peers", good(w)],
                            r"--peers: .*good\.json: a regular file: "),
    "suite_peers_nothing_built": ("suite", lambda s, w: small_suite(w) + ["--peers", empty_dir(w)],
                                  r"--peers: nothing to run: no public build in .*/refs/bin"),
    # the site reader (validate/site, pptools.site): before, a RecursionError of 3,000 lines, exit 1
    "site_toml_deep": ("site", lambda s, w: ["check", write(os.path.join(w, "deep.toml"), deep_toml())],
                       r"deep\.toml: nested more than 64 levels deep"),
    "site_toml_deep_tables": ("site", lambda s, w: [
        "check", write(os.path.join(w, "deep.toml"), deep_toml(table=True))], r"deep\.toml: nested more than 64"),
    "site_toml_deep_65": ("site", lambda s, w: [
        "check", write(os.path.join(w, "deep.toml"), deep_toml(65))], r"deep\.toml: nested more than 64"),
    # check is as strict as the consumers: the suite's --repeat takes no 3.0, cmake --preset no
    # unknown preset (before: both accepted, exit 0)
    "site_repeat_float": ("site", lambda s, w: [
        "check", write(os.path.join(w, "r.toml"), SITE + "[run]\nrepeat = 3.0\n")],
        r"r\.toml: run/repeat: 3\.0 is not of type 'integer'"),
    "site_gpus_float": ("site", lambda s, w: [
        "check", write(os.path.join(w, "g.toml"), SITE + "[scheduler]\ntype = \"slurm\"\ngpus_per_node = 4.0\n")],
        r"g\.toml: scheduler/gpus_per_node: 4\.0 is not of type 'integer'"),
    "site_unknown_preset": ("site", lambda s, w: [
        "check", write(os.path.join(w, "p.toml"), SITE.replace('"cpu"', '"nvidia-sm99"'))],
        r"p\.toml: build/0/preset: unknown preset 'nvidia-sm99' \(CMakePresets\.json: cpu, "),
    "site_unknown_matrix_preset": ("site", lambda s, w: [
        "check", write(os.path.join(w, "m.toml"), SITE + "matrix_presets = [\"cpu\", \"cpux\"]\n")],
        r"m\.toml: build/0/matrix_presets/1: unknown preset 'cpux'"),
}


# name: (tool, lambda src, w: (argv, target)): exit 0, and the target written by a
# rename (a new inode) with no temporary file left beside it: a reader never
# sees half a file. The target exists before (the old one is replaced).
ATOMIC = {
    "compare_markdown_atomic": ("compare", lambda s, w: (
        ["--quiet", "--markdown", write(os.path.join(w, "cmp.md"), "old\n"), good(w), good2(w)],
        os.path.join(w, "cmp.md"))),
    "table_doc_atomic": ("results-table.py", lambda s, w: (
        ["--update-readme", "--readme", shutil.copy(os.path.join(s, "docs", "results.md"), os.path.join(w, "results.md"))],
        os.path.join(w, "results.md"))),
}



def limits():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@pytest.fixture
def w(tmp_path):
    yield str(tmp_path)
    for root, dirs, _ in os.walk(tmp_path):  # a case's read-only folder, removable again
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)


@pytest.mark.parametrize("case", list(CASES))
def test_refused_with_one_line(case, w):
    tool, args, want = CASES[case]
    tool_args = args(REPO, w)
    links = [p for p in tool_args if os.path.islink(p) and os.readlink(p).endswith(".target")]
    try:
        r = subprocess.run([sys.executable, os.path.join(VALIDATE, tool)] + tool_args, capture_output=True, text=True,
                           errors="replace", stdin=subprocess.DEVNULL, timeout=TIME_LIMIT_S, preexec_fn=limits)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{case}: still running after {TIME_LIMIT_S} s (a FIFO or a file without end blocks it)")
    err = r.stderr.splitlines()
    print(f"{case}: exit {r.returncode}, stderr {len(err)} line(s):\n" + "\n".join("  " + x for x in err[-8:]))
    assert r.returncode == 2, f"exit {r.returncode}, expected 2"
    assert len(err) == 1, f"{len(err)} stderr lines, expected one"
    assert re.search(want, err[0]), f"stderr does not match /{want}/"
    for p in links:  # a refused write leaves the link and its target as they were
        with open(os.path.realpath(p)) as f:
            assert os.path.islink(p) and f.read() == "old\n", f"{p}: written through the symbolic link"


@pytest.mark.parametrize("case", list(ATOMIC))
def test_written_atomically(case, w):
    tool, args = ATOMIC[case]
    argv, target = args(REPO, w)
    ino = os.stat(target).st_ino
    r = subprocess.run([sys.executable, os.path.join(VALIDATE, tool)] + argv, capture_output=True,
                       text=True, stdin=subprocess.DEVNULL, timeout=TIME_LIMIT_S)
    print(r.stdout + r.stderr)
    assert r.returncode == 0, f"exit {r.returncode}, expected 0"
    assert os.stat(target).st_ino != ino, f"{target}: written in place (same inode), not replaced"
    left = [f for f in os.listdir(w) if ".tmp-" in f]
    assert not left, f"temporary files left: {left}"

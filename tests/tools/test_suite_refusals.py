"""validate/suite --reportable's refusals before a run (RUNRULES.md): a dirty
tree, a tree whose state cannot be established, binaries of another revision,
a subset of the apps, a non-reference size, too few repeats, an undeclarable
option of an optimized run; a clean tree at the reference size with 3 repeats
is accepted (the control). Skipped where the binaries' revision is no commit of
this checkout (a source tarball: no history to clone trees from)."""
import json
import os
import subprocess
import sys

import pytest

from pptools.suite import cases as suite_cases

from conftest import REPO, tool_path


def suite(*args, env=None):
    r = subprocess.run([sys.executable, tool_path("suite"), *args], capture_output=True, text=True, env=env)
    return r.returncode, r.stdout + r.stderr


@pytest.fixture(scope="module")
def stamp(bin_dir):
    """(the binaries' git stamp, their revision, whether built from a clean tree)."""
    s = suite_cases.build_record(os.path.join(bin_dir, "spmv")).get("git revision", "")
    rev = s.replace("-dirty", "")
    known = subprocess.run(["git", "-C", REPO, "cat-file", "-e", rev + "^{commit}"], capture_output=True)
    if not rev or known.returncode != 0:
        pytest.skip(f"the binaries' revision '{s}' is not a commit of a git checkout at {REPO}")
    return s, rev, bool(s) and not s.endswith("-dirty")


@pytest.fixture(scope="module")
def tree(stamp, tmp_path_factory):
    """tree(dirty, rev=None): a clone of this project at rev (default: the binaries'), clean or changed."""
    def make(dirty, rev=None):
        d = str(tmp_path_factory.mktemp("tree"))
        subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", REPO, d], check=True)
        subprocess.run(["git", "-C", d, "-c", "advice.detachedHead=false", "checkout", "-q", rev or stamp[1]], check=True)
        if dirty:
            open(os.path.join(d, "README.md"), "a").write("changed\n")
        return d
    return make


@pytest.fixture(scope="module")
def clean(tree):
    return tree(False)


@pytest.fixture(scope="module")
def dirty(tree):
    return tree(True)


@pytest.fixture(scope="module")
def base(bin_dir):
    return ["--bin", bin_dir, "--reportable", "--dry-run", "--scale", "reference"]


@pytest.fixture
def optimized(tmp_path):
    def write(decl):
        p = str(tmp_path / "opt.json")
        json.dump(decl, open(p, "w"))
        return p
    return write


def test_control_clean_tree_accepted(base, clean, stamp):
    rc, text = suite(*base, "--repo", clean)
    assert rc == (0 if stamp[2] else 2), (f"control: the binaries' own clean tree, reference sizes, 3 repeats: "
                                          f"{'accepted' if stamp[2] else 'refused (binaries built from a dirty tree)'}\n{text}")


def test_not_a_checkout_refused(base, stamp, tmp_path):
    rc, text = suite(*base, "--repo", str(tmp_path))
    assert rc == 2 and "state cannot be established" in text


def test_git_refusing_the_repository(base, clean, tmp_path):
    """git refusing the repository (dubious ownership): refused, with git's reason."""
    with open(tmp_path / "git", "w") as f:
        f.write("#!/bin/sh\necho \"fatal: detected dubious ownership in repository\" >&2\nexit 128\n")
    os.chmod(tmp_path / "git", 0o755)
    env = dict(os.environ, PATH=str(tmp_path) + os.pathsep + os.environ["PATH"])
    r = subprocess.run([sys.executable, tool_path("suite"), *base, "--repo", clean], capture_output=True, text=True, env=env)
    assert r.returncode == 2 and "dubious ownership" in r.stderr and "cannot be established" in r.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a tree to another user")
def test_another_users_tree_refused(base, tree):
    other = tree(False)
    subprocess.run(["chown", "-R", "65534:65534", other], check=True)
    rc, text = suite(*base, "--repo", other)
    assert rc == 2 and "dubious ownership" in text, "another user's tree (chown nobody): refused"


def test_binaries_of_another_revision_refused(base, tree, stamp):
    rc, text = suite(*base, "--repo", tree(False, stamp[1] + "~1"))
    assert rc == 2 and "the tree is at" in text and ": rebuild" in text, \
        "binaries of another revision than the tree: refused before the run"


@pytest.mark.parametrize("extra, want", [
    (["--apps", "spmv"], "--apps leaves out"),   # every app of apps.txt
    (["--repeat", "2"], "at least 3 separate processes")],
    ids=["--apps subset", "2 repeats"])
def test_clean_tree_refusals(base, clean, extra, want):
    rc, text = suite(*base, "--repo", clean, *extra)
    assert rc == 2 and want in text


def test_dirty_tree_refused(base, dirty):
    rc, text = suite(*base, "--repo", dirty)
    assert rc == 2 and "uncommitted changes" in text


def test_non_reference_size_refused(base, clean):
    rc, text = suite(*base[:-2], "--scale", "small", "--repo", clean)
    assert rc == 2 and "not the reference sizes" in text


def test_optimized_changing_the_deck_refused(base, clean, optimized):
    rc, text = suite(*base, "--repo", clean, "--optimized", optimized({"spmv": ["--deck", "x.deck"]}))
    assert rc == 2 and "--deck may not change" in text


def test_optimized_change_outside_kernels_refused(base, dirty, optimized):
    rc, text = suite(*base, "--repo", dirty, "--optimized", optimized({"xsbench_like": ["--sort", "vendor"]}))
    assert rc == 2 and "changes outside kernel files" in text


def test_optimized_control_accepted(base, clean, optimized):
    rc, text = suite(*base, "--repo", clean, "--optimized", optimized({"xsbench_like": ["--sort", "vendor"]}))
    assert rc == 0, "control: optimized run declaring --sort vendor: accepted"


def test_binary_stamp_only_decides(base, dirty, stamp):
    """A copy of the tree on a GPU node: the binaries' build record decides, not the tree's git."""
    rc, text = suite(*base, "--repo", dirty, "--binary-stamp-only")
    assert rc == (0 if stamp[2] else 2), f"--binary-stamp-only on a dirty copy: decided by the binaries' stamp ({stamp[0]})"


def test_binary_stamp_only_optimized_refused(base, clean, optimized):
    rc, text = suite(*base, "--repo", clean, "--binary-stamp-only", "--optimized",
                     optimized({"xsbench_like": ["--sort", "vendor"]}))
    assert rc == 2 and "kernel diff is recorded from the tree" in text


def test_no_energy_in_every_command(bin_dir):
    rc, text = suite("--bin", bin_dir, "--dry-run", "--no-energy")
    cmds = [ln for ln in text.splitlines() if "--backend" in ln]
    assert rc == 0 and cmds and all(ln.endswith("--no-energy") for ln in cmds), \
        f"--no-energy: every app's command ends with --no-energy\n{text}"


def test_binary_stamp_only_alone_is_usage_error(bin_dir):
    rc, text = suite("--bin", bin_dir, "--binary-stamp-only", "--dry-run")
    assert rc == 2 and "goes with --reportable" in text

"""validate/portability on the hand-computed example of tests/fixtures/portability/:
three machines (alpha: result files; beta: a suite run of 3 repeats; gamma:
result files), three models, spmv at size 10 on all three and size 20 on alpha.

By hand (application efficiency = FOM / best validated FOM on that machine):
  alpha  omp 50/100 = 0.5   ompx 80/100 = 0.8   cuda 1
  beta   (medians of the repeats) omp 90/120 = 0.75, ompx failed validation
         in repeat 2, cuda 1
  gamma  omp 40/100 = 0.4   ompx 1              cuda not built
  PP omp  = 3 / (1/0.5 + 1/0.75 + 1/0.4) = 18/35 (the arithmetic mean is 0.55)
  PP ompx = 0 (failed validation on beta), PP cuda = 0 (not built on gamma)
  architectural (copy fraction) PP omp = 3 / (1/0.4 + 1/0.6 + 1/0.3) = 0.4
Size 20 (alpha only: omp 1000, the others 10) must not leak into size 10:
there omp is 1, ompx and cuda 0.01, over alpha alone.

A suite run whose repeat crashed: its models did not run there, PP 0.
The vendors' own models as one (--by native): cuda on two machines, hip on a third.
Bad input: exit 2 and one line.
"""
import json
import os
import shutil

import pytest

from conftest import TESTS, run_tool

FIX = os.path.join(TESTS, "fixtures", "portability")
MACHINES = [os.path.join(FIX, m) for m in ("alpha", "beta", "gamma")]


def close(a, b):
    return a is not None and abs(a - b) <= 1e-12


def tool(*args):
    r = run_tool("portability", *args)
    return r.returncode, r.stdout, r.stderr


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """portability.json and portability.md of the three machines."""
    out = str(tmp_path_factory.mktemp("portability"))
    rc, so, se = tool(*MACHINES, "--out", out, "--no-figures", "--min-machines", "1")
    assert rc == 0, f"the example is read (exit {rc}: {se.strip()})"
    with open(os.path.join(out, "portability.json")) as f:
        doc = json.load(f)
    with open(os.path.join(out, "portability.md")) as f:
        md = f.read()
    return doc, md


def rows_of(doc, size):
    cs = [c for c in doc["comparisons"] if c["size"] == size]
    assert len(cs) == 1, f"one comparison of size {size} (got {len(cs)})"
    return cs[0], {r["model"]: r for r in cs[0]["rows"]}


@pytest.fixture(scope="module")
def size10(example):
    return rows_of(example[0], "10")


def test_hand_machines(size10):
    c, _ = size10
    assert c["machines"] == ["alpha", "beta", "gamma"], f"size 10 compared on alpha, beta, gamma: {c['machines']}"


def test_hand_omp_efficiencies(size10):
    c, r = size10
    effs = {m: r["omp"]["cells"][m]["app_eff"] for m in c["machines"]}
    assert close(effs["alpha"], 0.5) and close(effs["beta"], 0.75) and close(effs["gamma"], 0.4), \
        f"omp application efficiencies 0.5, 0.75 (suite medians 90/120), 0.4: {effs}"


def test_hand_pp(size10):
    _, r = size10
    assert close(r["omp"]["pp_app"], 18 / 35), f"PP omp = 18/35 = 0.514286 (harmonic): {r['omp']['pp_app']}"
    assert close(r["omp"]["pp_arch"], 0.4) and r["omp"]["arch_basis"] == "copy ceiling", \
        f"architectural PP omp = 0.4 against the copy ceiling: {r['omp']['pp_arch']} {r['omp']['arch_basis']}"
    assert r["ompx"]["pp_app"] == 0 and r["ompx"]["cells"]["beta"]["status"].startswith("failed validation"), \
        f"PP ompx = 0, failed validation on beta: {r['ompx']['pp_app']} {r['ompx']['cells']['beta']['status']}"
    assert close(r["ompx"]["cells"]["gamma"]["app_eff"], 1.0), "ompx is gamma's best (cuda not built there)"
    assert r["cuda"]["pp_app"] == 0 and r["cuda"]["cells"]["gamma"]["status"].startswith("not built"), \
        f"PP cuda = 0, not built on gamma: {r['cuda']['pp_app']} {r['cuda']['cells']['gamma']['status']}"


def test_hand_cascade(size10):
    casc = size10[1]["omp"]["cascade_app"]
    assert [m for m, _, _ in casc] == ["beta", "alpha", "gamma"] and close(casc[1][2], 2 / (1 / 0.75 + 1 / 0.5)), \
        f"omp cascade: beta, alpha, gamma; PP of the first 2 = 0.6: {casc}"


def test_hand_table(example):
    md = example[1]
    assert "| 0.514 |" in md, "the table shows PP omp 0.514"
    assert "| not built | **0** (not built on gamma) |" in md, "the table says cuda is not built on gamma, PP 0"
    assert "| failed validation |" in md and "**0** (failed validation on beta)" in md, \
        "the table says ompx failed validation on beta, PP 0"


def test_sizes_kept_apart(example):
    doc = example[0]
    c20, r20 = rows_of(doc, "20")
    assert c20["machines"] == ["alpha"], f"size 20 only on alpha: {c20['machines']}"
    assert close(r20["omp"]["cells"]["alpha"]["app_eff"], 1.0) and close(r20["cuda"]["cells"]["alpha"]["app_eff"], 0.01), \
        "size 20: omp 1, cuda 0.01 against its own best"
    _, r10 = rows_of(doc, "10")
    assert close(r10["cuda"]["cells"]["alpha"]["app_eff"], 1.0) and close(r10["omp"]["cells"]["alpha"]["app_eff"], 0.5), \
        "size 10 on alpha: cuda 1, omp 0.5 (size 20's omp 1000 is not its best)"
    assert len(doc["comparisons"]) == 2, f"two comparisons (sizes 10 and 20), not one: {len(doc['comparisons'])}"


def copy_machine(tmp_path, name, edit):
    """A copy of a machine of the example, edited: edit(folder)."""
    d = str(tmp_path / name)
    shutil.copytree(os.path.join(FIX, name), d)
    edit(d)
    return d


def edit_json(path, change):
    with open(path) as f:
        doc = json.load(f)
    change(doc)
    with open(path, "w") as f:
        json.dump(doc, f)


def size10_rows(out):
    with open(os.path.join(out, "portability.json")) as f:
        c = next(c for c in json.load(f)["comparisons"] if c["size"] == "10")
    return {x["model"]: x for x in c["rows"]}


def test_crashed_repeat(tmp_path):
    """beta's repeat 3 exited 1 and left no file: every model "did not run" there, PP 0."""
    def crash(d):
        os.unlink(os.path.join(d, "spmv", "run3.json"))
        edit_json(os.path.join(d, "suite.json"), lambda plan: plan["runs"][2].update(exit=1))
    beta = copy_machine(tmp_path, "beta", crash)
    out = str(tmp_path / "out")
    rc, so, se = tool(MACHINES[0], beta, MACHINES[2], "--out", out, "--no-figures")
    assert rc == 0, f"read with a crashed repeat (exit {rc}: {se.strip()})"
    r = size10_rows(out)
    st = r["omp"]["cells"]["beta"]["status"]
    assert st.startswith("did not run: repeat 3 exit 1") and r["omp"]["pp_app"] == 0, \
        f"omp on beta: did not run (repeat 3 exit 1), PP 0: {st!r} {r['omp']['pp_app']}"


def test_null_fom_failed(tmp_path):
    """A row whose FOM was not finite (null in the file) and failed: PP 0, not refused."""
    gamma = copy_machine(tmp_path, "gamma", lambda d: edit_json(
        os.path.join(d, "spmv-n10.json"), lambda doc: doc["results"][0].update(fom=None, valid=False, check="rel L2 err nan")))
    out = str(tmp_path / "out")
    rc, so, se = tool(*MACHINES[:2], gamma, "--out", out, "--no-figures")
    assert rc == 0, f"read with a null FOM (exit {rc}: {se.strip()})"
    st = size10_rows(out)["omp"]["cells"]["gamma"]["status"]
    assert st.startswith("failed validation") and size10_rows(out)["omp"]["pp_app"] == 0, f"omp, null FOM on gamma: {st!r}, PP 0"


def test_native_as_one(tmp_path):
    """gamma with a hip row (the best there) and cuda not built: by model, cuda and
    hip are each 0 somewhere; --by native counts them as one model, PP 1."""
    def add_hip(doc):
        doc["results"].append(dict(doc["results"][1], model="hip", label="hip", fom=125.0))
        doc["devices"].append({"model": "hip", "label": "hip", "ran": True, "name": "GPU C", "is_gpu": True})
    gamma = copy_machine(tmp_path, "gamma", lambda d: edit_json(os.path.join(d, "spmv-n10.json"), add_hip))
    got = {}
    for by in ("model", "native"):
        out = str(tmp_path / by)
        rc, so, se = tool(MACHINES[0], MACHINES[1], gamma, "--out", out, "--no-figures", "--by", by)
        assert rc == 0, f"--by {by} (exit {rc}: {se.strip()})"
        got[by] = size10_rows(out)
    m = got["model"]
    assert m["cuda"]["pp_app"] == 0 and m["hip"]["pp_app"] == 0 and m["hip"]["cells"]["alpha"]["status"].startswith("not run"), \
        "by model: cuda 0 (not built on gamma), hip 0 (not run on alpha)"
    n = got["native"]
    assert "cuda" not in n and close(n["native"]["pp_app"], 1.0) and n["native"]["cells"]["gamma"]["label"] == "hip", \
        f"--by native: cuda on alpha and beta, hip on gamma, PP 1: {n.get('native', {}).get('pp_app')}"
    assert close(n["omp"]["cells"]["gamma"]["app_eff"], 40 / 125), "omp on gamma against hip's 125: 0.32"


@pytest.mark.parametrize("args, want", [
    ([os.path.join(FIX, "no-such-machine")], "not a folder"),
    (["--ranks", "x", *MACHINES], ""),
    (["--bogus", *MACHINES], ""),
    (["--flop-roof", "nosuch=1000", *MACHINES], "--flop-roof")],
    ids=["a missing folder", "--ranks x", "an unknown option", "a roof of no machine"])
def test_bad_input_one_line(args, want):
    rc, so, se = tool(*args)
    assert rc == 2 and se.count("\n") == 1 and want in se, f"exit 2, one line: {rc} {se!r}"


def test_row_twice_in_one_folder_refused(tmp_path):
    """One folder holding the same row twice (two files of one case) is refused, not averaged."""
    twice = tmp_path / "twice"
    twice.mkdir()
    src = os.path.join(FIX, "alpha", "spmv-n10.json")
    for n in ("a.json", "b.json"):
        shutil.copy(src, twice / n)
    rc, so, se = tool(str(twice))
    assert rc == 2 and "both hold the row" in se and se.count("\n") == 1, f"a row twice in one folder: {rc} {se!r}"

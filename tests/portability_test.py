"""validate/portability on the hand-computed example of tests/portability/:
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

A suite run whose repeat crashed (crashed): its models did not run there, PP 0.
The vendors' own models as one (native): cuda on two machines, hip on a third.

Usage: portability_test.py CHECK OUT_DIR   (CHECK: hand, sizes, bad, crashed or native)
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
TOOL = os.path.join(HERE, "..", "validate", "portability")
FIX = os.path.join(HERE, "portability")
MACHINES = [os.path.join(FIX, m) for m in ("alpha", "beta", "gamma")]
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def close(a, b):
    return a is not None and abs(a - b) <= 1e-12


def tool(*args):
    r = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def analyse(out):
    rc, so, se = tool(*MACHINES, "--out", out, "--no-figures", "--min-machines", "1")
    check(rc == 0, f"the example is read (exit {rc}: {se.strip()})")
    if rc:
        sys.exit(1)
    with open(os.path.join(out, "portability.json")) as f:
        doc = json.load(f)
    with open(os.path.join(out, "portability.md")) as f:
        md = f.read()
    return doc, md


def rows_of(doc, size):
    cs = [c for c in doc["comparisons"] if c["size"] == size]
    check(len(cs) == 1, f"one comparison of size {size} (got {len(cs)})")
    return cs[0], {r["model"]: r for r in cs[0]["rows"]} if cs else {}


def hand(out):
    doc, md = analyse(out)
    c, r = rows_of(doc, "10")
    check(c["machines"] == ["alpha", "beta", "gamma"], f"size 10 compared on alpha, beta, gamma: {c['machines']}")
    effs = {m: r["omp"]["cells"][m]["app_eff"] for m in c["machines"]}
    check(close(effs["alpha"], 0.5) and close(effs["beta"], 0.75) and close(effs["gamma"], 0.4),
          f"omp application efficiencies 0.5, 0.75 (suite medians 90/120), 0.4: {effs}")
    check(close(r["omp"]["pp_app"], 18 / 35), f"PP omp = 18/35 = 0.514286 (harmonic): {r['omp']['pp_app']}")
    check(close(r["omp"]["pp_arch"], 0.4) and r["omp"]["arch_basis"] == "copy ceiling",
          f"architectural PP omp = 0.4 against the copy ceiling: {r['omp']['pp_arch']} {r['omp']['arch_basis']}")
    check(r["ompx"]["pp_app"] == 0 and r["ompx"]["cells"]["beta"]["status"].startswith("failed validation"),
          f"PP ompx = 0, failed validation on beta: {r['ompx']['pp_app']} {r['ompx']['cells']['beta']['status']}")
    check(close(r["ompx"]["cells"]["gamma"]["app_eff"], 1.0), "ompx is gamma's best (cuda not built there)")
    check(r["cuda"]["pp_app"] == 0 and r["cuda"]["cells"]["gamma"]["status"].startswith("not built"),
          f"PP cuda = 0, not built on gamma: {r['cuda']['pp_app']} {r['cuda']['cells']['gamma']['status']}")
    casc = r["omp"]["cascade_app"]
    check([m for m, _, _ in casc] == ["beta", "alpha", "gamma"] and close(casc[1][2], 2 / (1 / 0.75 + 1 / 0.5)),
          f"omp cascade: beta, alpha, gamma; PP of the first 2 = 0.6: {casc}")
    check("| 0.514 |" in md, "the table shows PP omp 0.514")
    check("| not built | **0** (not built on gamma) |" in md, "the table says cuda is not built on gamma, PP 0")
    check("| failed validation |" in md and "**0** (failed validation on beta)" in md,
          "the table says ompx failed validation on beta, PP 0")


def crashed(out):
    """beta's repeat 3 exited 1 and left no file: every model "did not run" there, PP 0."""
    beta = os.path.join(out, "beta")
    shutil.rmtree(beta, ignore_errors=True)
    shutil.copytree(os.path.join(FIX, "beta"), beta)
    os.unlink(os.path.join(beta, "spmv", "run3.json"))
    with open(os.path.join(beta, "suite.json")) as f:
        plan = json.load(f)
    plan["runs"][2]["exit"] = 1
    with open(os.path.join(beta, "suite.json"), "w") as f:
        json.dump(plan, f)
    rc, so, se = tool(MACHINES[0], beta, MACHINES[2], "--out", out, "--no-figures")
    check(rc == 0, f"read with a crashed repeat (exit {rc}: {se.strip()})")
    with open(os.path.join(out, "portability.json")) as f:
        c = next(c for c in json.load(f)["comparisons"] if c["size"] == "10")
    r = {x["model"]: x for x in c["rows"]}
    st = r["omp"]["cells"]["beta"]["status"]
    check(st.startswith("did not run: repeat 3 exit 1") and r["omp"]["pp_app"] == 0,
          f"omp on beta: did not run (repeat 3 exit 1), PP 0: {st!r} {r['omp']['pp_app']}")
    # a row whose FOM was not finite (null in the file) and failed: PP 0, not refused
    gamma = os.path.join(out, "gamma")
    shutil.rmtree(gamma, ignore_errors=True)
    shutil.copytree(os.path.join(FIX, "gamma"), gamma)
    path = os.path.join(gamma, "spmv-n10.json")
    with open(path) as f:
        doc = json.load(f)
    doc["results"][0].update(fom=None, valid=False, check="rel L2 err nan")
    with open(path, "w") as f:
        json.dump(doc, f)
    rc, so, se = tool(*MACHINES[:2], gamma, "--out", out, "--no-figures")
    check(rc == 0, f"read with a null FOM (exit {rc}: {se.strip()})")
    with open(os.path.join(out, "portability.json")) as f:
        c = next(c for c in json.load(f)["comparisons"] if c["size"] == "10")
    r = {x["model"]: x for x in c["rows"]}
    st = r["omp"]["cells"]["gamma"]["status"]
    check(st.startswith("failed validation") and r["omp"]["pp_app"] == 0, f"omp, null FOM on gamma: {st!r}, PP 0")


def native(out):
    """gamma with a hip row (the best there) and cuda not built: by model, cuda and
    hip are each 0 somewhere; --by native counts them as one model, PP 1."""
    gamma = os.path.join(out, "gamma")
    shutil.rmtree(gamma, ignore_errors=True)
    shutil.copytree(os.path.join(FIX, "gamma"), gamma)
    path = os.path.join(gamma, "spmv-n10.json")
    with open(path) as f:
        doc = json.load(f)
    hip = dict(doc["results"][1], model="hip", label="hip", fom=125.0)
    doc["results"].append(hip)
    doc["devices"].append({"model": "hip", "label": "hip", "ran": True, "name": "GPU C", "is_gpu": True})
    with open(path, "w") as f:
        json.dump(doc, f)
    got = {}
    for by in ("model", "native"):
        rc, so, se = tool(MACHINES[0], MACHINES[1], gamma, "--out", os.path.join(out, by), "--no-figures", "--by", by)
        check(rc == 0, f"--by {by} (exit {rc}: {se.strip()})")
        with open(os.path.join(out, by, "portability.json")) as f:
            c = next(c for c in json.load(f)["comparisons"] if c["size"] == "10")
        got[by] = {r["model"]: r for r in c["rows"]}
    m = got["model"]
    check(m["cuda"]["pp_app"] == 0 and m["hip"]["pp_app"] == 0 and m["hip"]["cells"]["alpha"]["status"].startswith("not run"),
          "by model: cuda 0 (not built on gamma), hip 0 (not run on alpha)")
    n = got["native"]
    check("cuda" not in n and close(n["native"]["pp_app"], 1.0) and n["native"]["cells"]["gamma"]["label"] == "hip",
          f"--by native: cuda on alpha and beta, hip on gamma, PP 1: {n.get('native', {}).get('pp_app')}")
    check(close(n["omp"]["cells"]["gamma"]["app_eff"], 40 / 125), "omp on gamma against hip's 125: 0.32")


def sizes(out):
    doc, md = analyse(out)
    c20, r20 = rows_of(doc, "20")
    check(c20["machines"] == ["alpha"], f"size 20 only on alpha: {c20['machines']}")
    check(close(r20["omp"]["cells"]["alpha"]["app_eff"], 1.0) and close(r20["cuda"]["cells"]["alpha"]["app_eff"], 0.01),
          "size 20: omp 1, cuda 0.01 against its own best")
    c10, r10 = rows_of(doc, "10")
    check(close(r10["cuda"]["cells"]["alpha"]["app_eff"], 1.0) and close(r10["omp"]["cells"]["alpha"]["app_eff"], 0.5),
          "size 10 on alpha: cuda 1, omp 0.5 (size 20's omp 1000 is not its best)")
    check(len(doc["comparisons"]) == 2, f"two comparisons (sizes 10 and 20), not one: {len(doc['comparisons'])}")


def bad(out):
    rc, so, se = tool(os.path.join(FIX, "no-such-machine"))
    check(rc == 2 and se.count("\n") == 1 and "not a folder" in se, f"a missing folder: exit 2, one line: {rc} {se!r}")
    rc, so, se = tool("--ranks", "x", *MACHINES)
    check(rc == 2 and se.count("\n") == 1, f"--ranks x: exit 2, one line: {rc} {se!r}")
    rc, so, se = tool("--bogus", *MACHINES)
    check(rc == 2 and se.count("\n") == 1, f"an unknown option: exit 2, one line: {rc} {se!r}")
    rc, so, se = tool("--flop-roof", "nosuch=1000", *MACHINES)
    check(rc == 2 and se.count("\n") == 1 and "--flop-roof" in se, f"a roof of no machine: exit 2, one line: {rc} {se!r}")
    # one folder holding the same row twice (two files of one case) is refused, not averaged
    twice = os.path.join(out, "twice")
    os.makedirs(twice, exist_ok=True)
    src = os.path.join(FIX, "alpha", "spmv-n10.json")
    for n in ("a.json", "b.json"):
        with open(src) as f, open(os.path.join(twice, n), "w") as g:
            g.write(f.read())
    rc, so, se = tool(twice)
    check(rc == 2 and "both hold the row" in se and se.count("\n") == 1, f"a row twice in one folder: {rc} {se!r}")


def main():
    what, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    {"hand": hand, "sizes": sizes, "bad": bad, "crashed": crashed, "native": native}[what](out)
    print(f"portability {what}: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""validate/scaling on real 1- and 2-rank runs of the host model, then with
planted faults in copies of those files, each of which must be caught.

Usage: scaling_test.py BIN_DIR OUT_DIR MPIRUN...   (MPIRUN: the launcher and
its options before the rank count flag's value, e.g. mpiexec -n)
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
SCALING = os.path.join(HERE, "..", "validate", "scaling")
INPUTS = os.path.join(HERE, "..", "inputs")
# --ceiling-mib 8: the copy ceiling (no part of a scaling table) measured with
# buffers of 8 MiB, not the default that scales with the last-level cache: each
# run took 17-40 s with it on a busy 2-core machine, under 3 s without.
FAST = ["--backend", "host", "--warmup", "0", "--quiet", "--bootstrap", "0", "--ceiling-mib", "8"]
J8 = os.path.join(INPUTS, "testsnap", "W_2J8_2000_disp")

# <app>-<series> and its arguments (small: seconds on 2 cores)
RUNS = {
    "cgsolve-s16": ["--size", "16", "--samples", "1", "--max-iters", "10"],  # relres > 1e-10
    "cgsolve-s12-weak": ["--size", "12", "--scaling", "weak", "--samples", "1"],
    "xsbench_like-small": ["-s", "small", "-l", "20000", "--variant", "baseline,sorted-energy",
                           "--samples", "1"],
    # the sorted variant split by energy band: 2 ranks must compute the 1-rank checksum
    "xsbench_like-small-split-energy": ["-s", "small", "-l", "20000", "--variant", "sorted-energy",
                                        "--split", "energy", "--samples", "1"],
    # --phases: a row per phase besides the whole, each its own series (not one key for all)
    "xsbench_like-small-phases": ["-s", "small", "-l", "20000", "--variant", "sorted-energy",
                                  "--split", "energy", "--phases", "--samples", "1"],
    "testsnap-lat4": ["--lattice", "4", "--steps", "1",
                      "--coeff", os.path.join(J8, "W_2940_2017_2.snapcoeff"),
                      "--param", os.path.join(J8, "W_2940_2017_2.snapparam")],
}


def scaling(folder):
    r = subprocess.run([sys.executable, SCALING, folder, "--no-figures"], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def edit(src, dst, name, change):
    """Copy folder src to dst, apply change(result) to file name there."""
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    path = os.path.join(dst, name)
    with open(path) as f:
        res = json.load(f)
    change(res)
    with open(path, "w") as f:
        json.dump(res, f)
    return dst


def rows(res, kernel=None):
    return [r for r in res["results"] if kernel is None or r["kernel"] == kernel]


def gpu_binding(uuids):
    """A change making every rank's host device look like a GPU with the given UUIDs."""
    def change(res):
        for rec, u in zip(res["system"], uuids):
            for d in rec["devices"]:
                d.update(is_gpu=True, uuid=u)
    return change


def main():
    bindir, out, mpirun = sys.argv[1], sys.argv[2], sys.argv[3:]
    good = os.path.join(out, "good")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(good)
    for series, args in RUNS.items():
        app = series.split("-")[0]
        for p in (1, 2):
            cmd = mpirun + [str(p), os.path.join(bindir, app)] + FAST + args + [
                "--json", os.path.join(good, f"{series}-{p}.json")]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                print(" ".join(cmd), r.stdout[-2000:], r.stderr[-2000:], sep="\n")
                return 1

    fails = []
    rc, text = scaling(good)
    print(text)
    with open(os.path.join(good, "scaling.json")) as f:
        doc = json.load(f)
    # one series per distinct row of each run (xsbench_like-small: two variants; -phases: the whole and each phase)
    want = {}
    for series in RUNS:
        with open(os.path.join(good, f"{series}-1.json")) as f:
            want[series] = sorted({(r.get("label") or r["model"], r["variant"], r["kernel"])
                                   for r in rows(json.load(f))
                                   if series.startswith("xsbench_like") or r["kernel"] in ("cg_solve", "step")})
    got = {}
    for s in doc["series"]:
        got.setdefault(f"{s['app']}-{s['series']}", []).append((s["label"], s["variant"], s["kernel"]))
    if rc != 0 or {k: sorted(v) for k, v in got.items()} != want:
        fails.append(f"the real runs must give one series per row and no failure: got {got}, want {want}")
    if len(want["xsbench_like-small-phases"]) < 4 or "event_sort" not in text:
        fails.append(f"--phases must give the whole and its phases (event_sort among them): {want}")
    for s in doc["series"]:
        one, two = s["points"][0], s["points"][1]
        want = one["time_s"] / two["time_s"] / (1 if s["mode"] == "weak" else 2)
        if abs(two["efficiency"] - want) > 1e-12 * want:
            fails.append(f"{s['series']}: efficiency {two['efficiency']} != {want}")
    if not any(s["mode"] == "weak" for s in doc["series"]):
        fails.append("the -weak series must be scaled as weak scaling")

    def bump_checksum(res):
        for r in rows(res):
            r["metrics"]["checksum_"] += 1
    # the binding check itself passes on distinct UUIDs (same host)
    distinct = edit(good, os.path.join(out, "distinct"), "cgsolve-s16-2.json", gpu_binding(["GPU-a", "GPU-b"]))
    planted = {
        "checksum": ("xsbench_like-small-2.json", bump_checksum),
        "split-energy-2": ("xsbench_like-small-split-energy-2.json", bump_checksum),  # its checksum
        "total energy": ("testsnap-lat4-2.json",
                         lambda res: [r["metrics"].__setitem__("energy_total_eV", r["metrics"]["energy_total_eV"] + 1e-6)
                                      for r in rows(res, "step")]),
        "relres_rel": ("cgsolve-s16-2.json",
                       lambda res: rows(res, "cg_solve")[0]["metrics"].__setitem__(
                           "relres_rel", rows(res, "cg_solve")[0]["metrics"]["relres_rel"] * 1.001)),
        "share GPU": ("cgsolve-s16-2.json", gpu_binding(["GPU-a", "GPU-a"])),
        "not validated": ("cgsolve-s12-weak-2.json", lambda res: rows(res, "cg_dot")[0].update(valid=False)),
        "without a UUID": ("xsbench_like-small-1.json", gpu_binding([None])),
    }
    rc, text = scaling(distinct)
    if rc != 0:
        fails.append(f"distinct GPUs per rank must pass:\n{text}")
    # a weak series solves another problem per rank count (xsbench_like: P times the lookups,
    # another checksum): its rows' own validation stands, no comparison with 1 rank
    weak = edit(good, os.path.join(out, "weak_xs"), "xsbench_like-small-2.json", bump_checksum)
    for p in (1, 2):
        os.rename(os.path.join(weak, f"xsbench_like-small-{p}.json"),
                  os.path.join(weak, f"xsbench_like-small-weak-{p}.json"))
    rc, text = scaling(weak)
    if rc != 0:
        fails.append(f"a weak xsbench_like series with another checksum at 2 ranks must pass:\n{text}")
    # "weak" is a word of the name, wherever it stands (scaling-run.sh's n255-weak-halo-host)
    mid = edit(good, os.path.join(out, "weak_mid"), "cgsolve-s12-weak-1.json", lambda r: None)
    for p in (1, 2):
        os.rename(os.path.join(mid, f"cgsolve-s12-weak-{p}.json"), os.path.join(mid, f"cgsolve-s12-weak-halo-host-{p}.json"))
    rc, text = scaling(mid)
    with open(os.path.join(mid, "scaling.json")) as f:
        modes = {s["series"]: s["mode"] for s in json.load(f)["series"]}
    if rc != 0 or modes.get("s12-weak-halo-host") != "weak":
        fails.append(f"s12-weak-halo-host must be scaled as weak scaling (got {modes}):\n{text}")
    # a cgsolve series whose name says strong while its runs say weak (the fault that named
    # n255-weak-halo-host strong) is a failure, not an efficiency of T1/(P TP)
    lying = edit(good, os.path.join(out, "misnamed"), "cgsolve-s12-weak-1.json", lambda r: None)
    for p in (1, 2):
        os.rename(os.path.join(lying, f"cgsolve-s12-weak-{p}.json"), os.path.join(lying, f"cgsolve-s12-weakish-{p}.json"))
    rc, text = scaling(lying)
    if rc != 1 or "the series name says strong scaling, the run says weak" not in text:
        fails.append(f"a weak run in a series named strong must fail:\n{text}")
    for why, (name, change) in planted.items():
        rc, text = scaling(edit(good, os.path.join(out, why.replace(" ", "_")), name, change))
        if rc != 1 or why not in text:
            fails.append(f"planted '{why}' in {name}: exit {rc}, expected 1 and a line naming it:\n{text}")
    os.remove(os.path.join(edit(good, os.path.join(out, "no_one"), "cgsolve-s16-1.json", lambda r: None),
                           "cgsolve-s16-1.json"))
    rc, text = scaling(os.path.join(out, "no_one"))
    if rc != 1 or "no 1-rank run" not in text:
        fails.append(f"a series without its 1-rank run must fail:\n{text}")
    for f in fails:
        print("FAIL", f)
    print("scaling_test:", "FAIL" if fails else "PASS")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

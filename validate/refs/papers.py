#!/usr/bin/env python3
"""Issue 45's seeds, run side: the figures of the papers' CGSolve, TestSNAP on the
kernel-mode Kokkos fork, XSBench's OpenMP offload port and ProxyPort's cgsolve, and
the tables that put them side by side (validate/refs/papers.sh runs them).

usage: papers.py KIND FILE [ARG]        print one output's figures as JSON; exit 1
                                        with the reason if the output is refused
       papers.py --collect [--partial] RESULTS [RESULTS2]
                                        RESULTS/papers.{json,csv,md} from RESULTS/runs.tsv
                                        (and RESULTS2's: papers.sh --part 19 and --part 22
                                        run in two sessions); exit 1 if a run failed, an
                                        output was refused, a binary is missing without a
                                        recorded reason, or (without --partial, which one
                                        part's own tables use) a run of the other part is
                                        in neither folder; RESULTS/papers.png: the papers'
                                        figure repeated (papers_figure.py; needs matplotlib)
       papers.py --normb N              ||b|| of the papers' miniFE vector for N
KIND: cgsolve-paper (BINARY: its build's name, CGSolve-kokkos-..., which says the rows
      it must print) | cgsolve-pp (FILE: cgsolve's --csv; its stdout beside it, .txt) |
      testsnap | xsbench-omp | xsbench-cuda

The papers' CGSolve (kokkos/code-examples europar2024, papers/europar-2024/cgsolve)
prints, per size N = 150, 255, 325 (in that order, one process) and per path
(KK: Kokkos's kernels; OMPT: OpenMP written by hand), "Initial Residual", the SpMV's
data per call and GB/s, and the whole solve's iterations and time. It prints no
final residual: its runs are timed, not validated. What is checked: every expected
path at every size in order, "Initial Residual" = ||b|| of N's miniFE vector (x0 = 0,
so the first residual is b: the right problem, and the first SpMV, axpby and dot
ran), the data per SpMV call = 664 (N+1)^3 bytes (its count: 27 (N+1)^3 stored
entries, int64 columns and offsets), the execution space, finite positive figures,
1 <= iterations <= ITERS, a solve no shorter than its iterations + 1 SpMV calls.

Normalization (the GH200 paper's Fig. 4 divides SpMV bandwidth by Kokkos-native's
at N = 150, 255, 325): the ratios are of time per SpMV call (at one byte count, the
same as of bandwidth) to Kokkos CUDA's (CGSolve-kokkos-cuda, KK) at the same N, and
of whole-solve time per iteration. ProxyPort's rows are cgsolve's cg_spmv and
cg_solve medians (cg_spmv from a solve that synchronizes around every call, as the
papers' spmv() fences). The GB/s column is each code's own count: the papers' 664
(N+1)^3 bytes per call (int64 columns and offsets, 27 slots a row); ProxyPort's
minimum traffic (int32 columns, the real entries: ~3/4 of those bytes), so at equal
bandwidth ProxyPort's SpMV takes ~3/4 of the time: its ratios measure its data layout
as well as its model.
"""
import csv
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import papers_figure  # noqa: E402
import parse  # noqa: E402  (validate/refs/parse.py: TestSNAP's and XSBench's formats)
from parse import Malformed  # noqa: E402
from pptools import project  # noqa: E402
from pptools.peers import public  # noqa: E402

# ProxyPort's models beside the papers' builds: the GPU models of NVIDIA nodes (PP_MODELS)
PP_MODELS_RUN = tuple(m for m in project.device_models() if m != "hip")
commas = public.commas


def field(text, pattern, what, conv=str):
    """The peers' field reader, its refusal this script's (Malformed)."""
    try:
        return public.field(text, pattern, what, conv)
    except public.Rejected as e:
        raise Malformed(str(e)) from None

SIZES = (150, 255, 325)
ITERS = 200                 # CG iterations, as miniFE and cgsolve's decks
XS_L1, XS_L2 = 17_000_000, 170_000_000
XS_L1_CHECKSUM = 952131     # XSBench's own for -m event -s large (its "Valid")
BASE_CG = ("CGSolve-kokkos-cuda", "KK")
SPACES = {"cuda": "N6Kokkos4CudaE", "omptarget": "N6Kokkos12Experimental12OpenMPTargetE"}


def normb(n):
    """||b|| of generate_miniFE_vector(n) (generate_matrix.hpp): (n+1)^2 blocks of
    n+1 entries 0, a/n^3 (n-2 times), a/n^3 + b/n, 1, in superblocks of n+1 blocks."""
    def block(a, b):
        return (n - 2) * (a / n / n / n) ** 2 + (a / n / n / n + b / n) ** 2 + 1.0

    def sb(a, b, c):
        return 2 * block(0.0, 0.0) + 2 * block(a, b) + (n - 3) * block(a, c)
    return math.sqrt(2 * sb(0.0, 0.0, 0.0) + 2 * sb(1.0, 5.0 / 12, 8.0 / 12) + (n - 3) * sb(1.0, 8.0 / 12, 1.0))


def spmv_bytes(n):
    """The papers' count for one SpMV: rows*8 + 3 * nnz*8 + rows*8, nnz = 27 rows."""
    rows = (n + 1) ** 3
    return 664 * rows


def expected_paths(binary):
    """The paths a CGSolve build prints, and its Kokkos execution space."""
    if binary.endswith("-ompx"):  # main.cpp as pinned: cgsolve_ompx.hpp, OMPT only
        return ("OMPT",), None
    if binary == "CGSolve-kokkos-cuda":
        return ("KK",), SPACES["cuda"]
    return ("KK", "OMPT"), SPACES["omptarget"]


def finite_pos(x, what):
    if not (math.isfinite(x) and x > 0):
        raise Malformed("%s not a positive number: %r" % (what, x))
    return x


NUM = r"([-+0-9.eEnaif]+)"


def parse_cgsolve_paper(text, binary="CGSolve-kokkos-ompt", sizes=SIZES, iters=ITERS):
    """One CGSolve output: {"rows": [{path, N, ...}], "exec_space"}. Raises Malformed."""
    paths, space = expected_paths(binary)
    blocks, cur = [], None
    for line in text.splitlines():
        m = re.match(r"^Initial Residual = %s\s*$" % NUM, line)
        if m:
            if cur is not None:
                raise Malformed("a solve without its result line before %r" % line)
            cur = {"initial_residual": float(m.group(1))}
            continue
        m = re.match(r"^(KK|OMPT) : SPMV : Data Transfered = %s GBs\s*$" % NUM, line)
        if m:
            if cur is None or "path" in cur:
                raise Malformed("SpMV data line out of place: %r" % line)
            cur["path"], cur["spmv_gb"] = m.group(1), float(m.group(2))
            continue
        m = re.match(r"^(KK|OMPT): SPMV Performance: %s GFlop/s %s GB/s\s*$" % (NUM, NUM), line)
        if m:
            if cur is None or cur.get("path") != m.group(1) or "spmv_gbs" in cur:
                raise Malformed("SpMV performance line out of place: %r" % line)
            cur["spmv_gbs"] = float(m.group(3))
            continue
        m = re.match(r"^(KK|OMPT): CGSolve for 3D \((\d+) (\d+) (\d+)\); (\d+) iterations; %s time\s*$" % NUM, line)
        if m:
            if cur is None or cur.get("path") != m.group(1) or "spmv_gbs" not in cur:
                raise Malformed("CGSolve line without its SpMV lines: %r" % line)
            n = int(m.group(2))
            if not (n == int(m.group(3)) == int(m.group(4))):
                raise Malformed("not a cube: %r" % line)
            cur.update(N=n, iterations=int(m.group(5)), solve_s=float(m.group(6)))
            blocks.append(cur)
            cur = None
    if cur is not None:
        raise Malformed("output ends inside a solve (%s)" % cur.get("path", "before its SpMV lines"))
    want = [(n, p) for n in sizes for p in paths]
    got = [(b["N"], b["path"]) for b in blocks]
    if got != want:
        raise Malformed("solves %s, expected %s" % (
            ", ".join("%s N=%d" % (p, n) for n, p in got) or "none",
            ", ".join("%s N=%d" % (p, n) for n, p in want)))
    sp = re.findall(r"^Kokkos::ExecutionSpace = (\S+)", text, re.M)
    if space and sp != [space] * len(sizes):
        raise Malformed("execution space %s, expected %s" % (sorted(set(sp)) or "not printed", space))
    rows = []
    for b in blocks:
        n, what = b["N"], "%s N=%d" % (b["path"], b["N"])
        for k in ("initial_residual", "spmv_gb", "spmv_gbs", "solve_s"):
            finite_pos(b[k], "%s %s" % (what, k))
        ref = normb(n)
        if abs(b["initial_residual"] - ref) > 1e-5 * ref:
            raise Malformed("%s: Initial Residual %g, but ||b|| of N=%d's vector is %.6g" % (
                what, b["initial_residual"], n, ref))
        gb = spmv_bytes(n) / 2 ** 30
        if abs(b["spmv_gb"] - gb) > 1e-5 * gb:
            raise Malformed("%s: SpMV data %g GB, expected %.6f for N=%d" % (what, b["spmv_gb"], gb, n))
        if not 1 <= b["iterations"] <= iters:
            raise Malformed("%s: %d iterations, outside 1..%d" % (what, b["iterations"], iters))
        spmv_s = b["spmv_gb"] / b["spmv_gbs"]
        # its SpMV timers run inside its solve timer: iterations + 1 calls
        if b["solve_s"] < 0.99 * (b["iterations"] + 1) * spmv_s:
            raise Malformed("%s: solve %g s shorter than its %d SpMV calls (%g s)" % (
                what, b["solve_s"], b["iterations"] + 1, (b["iterations"] + 1) * spmv_s))
        rows.append({"path": b["path"], "N": n, "iterations": b["iterations"], "solve_s": b["solve_s"],
                     "solve_ms_per_iter": 1e3 * b["solve_s"] / b["iterations"],
                     "spmv_ms": 1e3 * spmv_s, "spmv_gbs": b["spmv_gbs"],
                     "initial_residual": b["initial_residual"]})
    return {"rows": rows, "exec_space": space and sp[0]}


def parse_cgsolve_pp(csv_path, sizes=None, models=PP_MODELS_RUN):
    """ProxyPort's cgsolve --csv (and its stdout, CSV path with .txt): per model,
    the cg_solve and cg_spmv medians, each row PASS."""
    try:
        rows = list(csv.DictReader(open(csv_path, newline="")))
    except OSError as e:
        raise Malformed("no CSV: %s" % e)
    if not rows or "time_median_s" not in rows[0]:
        raise Malformed("not a cgsolve CSV (no time_median_s column)")
    txt = os.path.splitext(csv_path)[0] + ".txt"
    text = open(txt, errors="replace").read() if os.path.exists(txt) else ""
    out = []
    for m in models:
        got = {}
        for r in rows:
            if r.get("app") != "cgsolve" or r.get("model") != m or r.get("kernel") not in ("cg_solve", "cg_spmv"):
                continue
            if r.get("valid") != "PASS":
                raise Malformed("%s %s N=%s: %s %s" % (m, r["kernel"], r.get("size"), r.get("valid"), r.get("check", "")))
            got[r["kernel"]] = r
        if set(got) != {"cg_solve", "cg_spmv"}:
            raise Malformed("model %s: rows %s, expected cg_solve and cg_spmv" % (m, sorted(got) or "none"))
        n = int(got["cg_solve"]["size"])
        if sizes and n not in sizes:
            raise Malformed("model %s: N=%d, expected %s" % (m, n, sizes))
        it = re.findall(r"\] %s: (\d+) iterations, .*PASS\s*$" % re.escape(m), text, re.M)
        iters = int(it[-1]) if it else ITERS
        solve_s = finite_pos(float(got["cg_solve"]["time_median_s"]), "%s cg_solve time" % m)
        spmv_s = finite_pos(float(got["cg_spmv"]["time_median_s"]), "%s cg_spmv time" % m)
        if got["cg_spmv"].get("fom_unit") != "GB/s":
            raise Malformed("model %s: cg_spmv in %s, expected GB/s" % (m, got["cg_spmv"].get("fom_unit")))
        out.append({"path": m, "N": n, "iterations": iters, "solve_s": solve_s,
                    "solve_ms_per_iter": 1e3 * solve_s / iters, "spmv_ms": 1e3 * spmv_s,
                    "spmv_gbs": finite_pos(float(got["cg_spmv"]["fom"]), "%s cg_spmv GB/s" % m),
                    "samples": int(got["cg_solve"].get("samples") or 0)})
    return {"rows": out}


def parse_xsbench_omp(text, lookups=None):
    """XSBench's openmp-offload output. At its default count (17M) its own "Valid";
    at XS_L2 (170M, no published checksum: it says invalid and exits 1) the checksum
    XSBench printed for that run (validate/xsbench/checksums.txt)."""
    r = {
        "model": field(text, r"^Programming Model:\s+(.+?)\s*$", "programming model"),
        "method": field(text, r"^Simulation Method:\s+(.+?)\s*$", "simulation method"),
        "size": field(text, r"^H-M Benchmark Size:\s+(\S+)", "benchmark size"),
        "runtime_s": field(text, r"^Runtime:\s+(\S+) seconds", "runtime", float),
        "lookups": field(text, r"^Lookups:\s+(\S+)\s*$", "lookups", commas),
        "lookups_per_s": field(text, r"^Lookups/s:\s+(\S+)\s*$", "lookups/s", commas),
        "checksum": field(text, r"^Verification checksum: (\d+) ", "checksum", int),
    }
    return xs_check(r, text, lookups)


def parse_xsbench_cuda(text, lookups=None):
    r = {
        "model": "CUDA",
        "method": field(text, r"^Simulation Method:\s+(.+?)\s*$", "simulation method"),
        "size": field(text, r"^H-M Benchmark Size:\s+(\S+)", "benchmark size"),
        "runtime_s": field(text, r"^Runtime:\s+(\S+) seconds", "runtime", float),
        "lookups": field(text, r"^Lookups:\s+(\S+)\s*$", "lookups", commas),
        "lookups_per_s": field(text, r"^Lookups/s:\s+(\S+)\s*$", "lookups/s", commas),
        "checksum": field(text, r"^Verification checksum: (\d+) ", "checksum", int),
    }
    return xs_check(r, text, lookups)


def recorded_l2():
    path = os.path.join(os.path.dirname(HERE), "xsbench", "checksums.txt")
    for line in open(path):
        w = [x.strip() for x in line.split("|")]
        if w[0] == "large-event-unionized-l%d" % XS_L2:
            return int(w[2])
    raise Malformed("%s: no checksum recorded for %d lookups" % (path, XS_L2))


def xs_check(r, text, lookups):
    if r["method"] != "Event Based" or r["size"] != "large":
        raise Malformed("%s / %s, expected Event Based / large" % (r["method"], r["size"]))
    if lookups and r["lookups"] != lookups:
        raise Malformed("%d lookups, expected %d" % (r["lookups"], lookups))
    finite_pos(r["runtime_s"], "runtime")
    finite_pos(r["lookups_per_s"], "lookups/s")
    if r["lookups"] == XS_L1:
        want = XS_L1_CHECKSUM
        if not re.search(r"^Verification checksum: \d+ \(Valid\)", text, re.M):
            raise Malformed("checksum %d not valid" % r["checksum"])
    elif r["lookups"] == XS_L2:
        want = recorded_l2()
    else:
        raise Malformed("no checksum known for %d lookups" % r["lookups"])
    if r["checksum"] != want:
        raise Malformed("checksum %d, XSBench's is %d" % (r["checksum"], want))
    r["valid"] = True
    return r


def parse_testsnap(text, steps=None):
    r = parse.parse_testsnap(text)
    if r["natoms"] != 2000 or r["twojmax"] != 14:
        raise Malformed("natoms %d twojmax %d, expected 2000 and 14" % (r["natoms"], r["twojmax"]))
    if steps and r["nsteps"] != steps:
        raise Malformed("%d steps, expected %d" % (r["nsteps"], steps))
    return r


def parse_file(kind, path, arg=None):
    try:
        if kind == "cgsolve-pp":
            return parse_cgsolve_pp(path, sizes=[int(arg)] if arg else None)
        text = open(path, errors="replace").read()
        if kind == "cgsolve-paper":
            return parse_cgsolve_paper(text, arg or "CGSolve-kokkos-ompt")
        if kind == "testsnap":
            return parse_testsnap(text, int(arg) if arg else None)
        if kind == "xsbench-omp":
            return parse_xsbench_omp(text, int(arg) if arg else None)
        if kind == "xsbench-cuda":
            return parse_xsbench_cuda(text, int(arg) if arg else None)
    except Malformed as e:
        raise Malformed("%s: %s" % (path, e))
    except OSError as e:
        raise Malformed("%s: %s" % (path, e))
    raise Malformed("unknown kind %s" % kind)


# ---- the tables

def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def read_runs(res):
    """runs.tsv (papers.sh): name, kind, arg, state, exit, output, command, note, wall_s.
    state: ran | not-built (versions.txt gave the reason) | missing (no binary, no
    record: an error) | no-runtime (the binary's offload runtime was not found) |
    other-part (papers.sh --part ran the other part; note: that part)."""
    runs = []
    for line in open(os.path.join(res, "runs.tsv")):
        w = line.rstrip("\n").split("\t")
        if len(w) != 9:
            raise SystemExit("papers.py: %s/runs.tsv: bad line %r" % (res, line))
        name, kind, arg, state, rc, out, cmd, note, wall = w
        runs.append({"name": name, "kind": kind, "arg": arg, "state": state, "command": cmd, "note": note,
                     "output": out, "exit": rc, "wall_s": float(wall), "dir": res})
    return runs


def merge(folders, partial):
    """One list of runs from the folders' runs.tsv, in the first's order: a run that
    ran (or was found not built) in one folder replaces its other-part line in another."""
    order, by = [], {}
    for res in folders:
        for run in read_runs(res):
            old = by.get(run["name"])
            if old is None:
                order.append(run["name"])
            if old is None or old["state"] == "other-part":
                by[run["name"]] = run
            elif run["state"] != "other-part":
                raise SystemExit("papers.py: %s ran in %s and in %s" % (run["name"], old["dir"], res))
    runs = [by[n] for n in order]
    for run in runs:
        if run["state"] == "other-part" and not partial:
            run["state"] = "missing"
            run["note"] = ("not run: it runs with papers.sh --part %s, and no folder given has it "
                           "(papers.py --collect RES19 RES22)" % run["note"])
    return runs


def collect(res, more=(), partial=False):
    """The tables from RESULTS (and more folders of the other part) into RESULTS."""
    runs, bad = merge([res] + list(more), partial), 0
    for run in runs:
        out, rc, state, kind, arg, name = (run["output"], run["exit"], run["state"], run["kind"],
                                           run["arg"], run["name"])
        if run["dir"] != res:
            run["output"] = os.path.relpath(os.path.join(run["dir"], out), res)
        res_run = run.pop("dir")
        if state == "ran":
            run["exit"] = int(rc)
            try:
                ok_rc = {0} | ({1} if kind.startswith("xsbench") and arg == str(XS_L2) else set())
                if run["exit"] not in ok_rc:
                    tail = ""
                    p = os.path.join(res_run, os.path.splitext(out)[0] + ".txt")
                    if os.path.exists(p):
                        lines = [l for l in open(p, errors="replace").read().splitlines() if l.strip()]
                        tail = ": " + lines[-1][:200] if lines else ""
                    raise Malformed("exit status %d%s" % (run["exit"], tail))
                run["figures"] = parse_file(kind, os.path.join(res_run, out), arg or None)
            except Malformed as e:
                run["error"] = str(e)
                print("papers.py: %s: %s" % (name, e), file=sys.stderr)
                bad += 1
        elif state in ("not-built", "other-part"):
            pass
        else:
            run["error"] = run["note"]
            print("papers.py: %s: %s" % (name, run["note"]), file=sys.stderr)
            bad += 1
    tables = {"cgsolve": cg_table(runs), "testsnap": ts_table(runs), "xsbench": xs_table(runs)}
    doc = {"runs": runs, "tables": tables}
    vpath = os.path.join(res, "versions.txt")
    if os.path.exists(vpath):
        doc["versions"] = [l.rstrip("\n") for l in open(vpath) if l.strip()]
    with open(os.path.join(res, "papers.json"), "w") as o:
        json.dump(doc, o, indent=1)
        o.write("\n")
    write_csv(os.path.join(res, "papers.csv"), tables)
    why = papers_figure.draw(tables, os.path.join(res, "papers.png"))
    with open(os.path.join(res, "papers.md"), "w") as o:
        o.write(markdown(tables))
        o.write("\n## The figure\n\n" + (f"papers.png {why}\n" if why else "![the papers' figure repeated](papers.png)\n"))
    return bad


def status_of(run):
    if run["state"] == "not-built":
        return "not built: " + run["note"]
    if run["state"] == "other-part":
        return "in part %s (papers.sh --part %s)" % (run["note"], run["note"])
    if "error" in run:
        return ("failed: " if run["state"] == "ran" else "not run: ") + run["error"]
    return "ok"


def cg_table(runs):
    rows = []
    for run in runs:
        if not run["kind"].startswith("cgsolve"):
            continue
        code = run["name"] if run["kind"] == "cgsolve-paper" else "ProxyPort cgsolve"
        fig = run.get("figures")
        if fig:
            for r in fig["rows"]:
                rows.append(dict(r, code=code, status="ok", run=run["name"]))
        elif run["kind"] == "cgsolve-paper":
            paths, _ = expected_paths(run["name"])
            for n in SIZES:
                for p in paths:
                    rows.append({"code": code, "path": p, "N": n, "status": status_of(run), "run": run["name"]})
        else:
            for p in PP_MODELS_RUN:
                rows.append({"code": code, "path": p, "N": int(run["arg"]) if run["arg"] else None,
                             "status": status_of(run), "run": run["name"]})
    base = {r["N"]: r for r in rows if (r["code"], r["path"]) == BASE_CG and r["status"] == "ok"}
    for r in rows:
        b = base.get(r["N"])
        r["spmv_vs_kokkos_cuda"] = b["spmv_ms"] / r["spmv_ms"] if b and "spmv_ms" in r else None
        r["solve_vs_kokkos_cuda"] = (b["solve_ms_per_iter"] / r["solve_ms_per_iter"]
                                     if b and "solve_ms_per_iter" in r else None)
    rows.sort(key=lambda r: (r["N"] or 0))
    return rows


def ts_table(runs):
    by = {}
    for run in runs:
        if run["kind"] == "testsnap":
            by.setdefault(run["name"].rsplit("-ns", 1)[0], []).append(run)
    rows = []
    for code, rr in by.items():
        st = [status_of(r) for r in rr if status_of(r) != "ok"]
        row = {"code": code, "status": st[0] if st else "ok"}
        if not st:
            f = {int(r["arg"]): r["figures"] for r in rr}
            lo, hi = min(f), max(f)
            row.update(steps=hi, grind_ms=f[hi]["grind_ms_per_atom_step"], exec_space=f[hi]["exec_space"],
                       rms_force_dev=f[hi]["rms_force_dev"])
            if hi > lo:  # its steady state: the difference of two runs
                row["steady_grind_ms"] = 1e3 * (f[hi]["duration_s"] - f[lo]["duration_s"]) / (
                    (hi - lo) * f[hi]["natoms"])
        rows.append(row)
    base = next((r for r in rows if r["code"] == "TestSNAP-kokkos-cuda" and r["status"] == "ok"), None)
    for r in rows:
        r["vs_kokkos_cuda"] = base["grind_ms"] / r["grind_ms"] if base and "grind_ms" in r else None
        r["steady_vs_kokkos_cuda"] = (base["steady_grind_ms"] / r["steady_grind_ms"]
                                      if base and r.get("steady_grind_ms") and base.get("steady_grind_ms") else None)
    return rows


def xs_table(runs):
    rows = []
    for run in runs:
        if not run["kind"].startswith("xsbench"):
            continue
        f = run.get("figures") or {}
        rows.append({"code": run["name"].rsplit("-l", 1)[0], "lookups": int(run["arg"]), "status": status_of(run),
                     "runtime_s": f.get("runtime_s"), "lookups_per_s": f.get("lookups_per_s"),
                     "checksum": f.get("checksum")})
    base = {r["lookups"]: r for r in rows if r["code"] == "XSBench-cuda" and r["status"] == "ok"}
    for r in rows:
        b = base.get(r["lookups"])
        r["vs_xsbench_cuda"] = r["lookups_per_s"] / b["lookups_per_s"] if b and r["lookups_per_s"] else None
    return rows


CG_COLS = ("N", "code", "path", "spmv_ms", "spmv_gbs", "spmv_vs_kokkos_cuda", "iterations", "solve_s",
           "solve_ms_per_iter", "solve_vs_kokkos_cuda", "status")
TS_COLS = ("code", "steps", "grind_ms", "vs_kokkos_cuda", "steady_grind_ms", "steady_vs_kokkos_cuda",
           "rms_force_dev", "status")
XS_COLS = ("code", "lookups", "runtime_s", "lookups_per_s", "vs_xsbench_cuda", "checksum", "status")


def write_csv(path, tables):
    with open(path, "w", newline="") as o:
        w = csv.writer(o)
        for name, cols in (("cgsolve", CG_COLS), ("testsnap", TS_COLS), ("xsbench", XS_COLS)):
            w.writerow(["table"] + list(cols))
            for r in tables[name]:
                w.writerow([name] + ["" if r.get(c) is None else r.get(c) for c in cols])


def markdown(t):
    out = ["# Issue 45 seeds: the papers' codes beside ProxyPort", "",
           "## CGSolve (miniFE 27-point, %d CG iterations at most)" % ITERS, "",
           "Ratios to Kokkos CUDA (CGSolve-kokkos-cuda KK) at the same N, > 1 faster (SpMV: time "
           "per call; solve: time per iteration). GB/s: each code's own count (the papers': 664 (N+1)^3 "
           "bytes a call, int64 columns; ProxyPort's: its minimum traffic, int32 columns, ~3/4 of "
           "those bytes). KK: Kokkos's kernels (on the fork: its kernel mode); OMPT: OpenMP by hand "
           "(cgsolve.hpp: plain target teams; -ompx builds: cgsolve_ompx.hpp's ompx_bare SpMV); "
           "ProxyPort: cgsolve --backend cuda,omp,ompx medians. The papers' code prints no final "
           "residual: its runs are timed, not validated (its first residual is checked).", "",
           "| N | code | path | SpMV ms | SpMV GB/s (own count) | SpMV vs Kokkos CUDA | iters | solve s | ms/iter | solve vs Kokkos CUDA | status |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in t["cgsolve"]:
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["N"], r["code"], r["path"], fmt(r.get("spmv_ms"), ".4f"), fmt(r.get("spmv_gbs"), ".1f"),
            fmt(r.get("spmv_vs_kokkos_cuda"), ".3f"), fmt(r.get("iterations"), "d"), fmt(r.get("solve_s"), ".4f"),
            fmt(r.get("solve_ms_per_iter"), ".4f"), fmt(r.get("solve_vs_kokkos_cuda"), ".3f"), r["status"]))
    out += ["", "## TestSNAP W_2J14, 2000 atoms", "",
            "grind time: TestSNAP's own (mean over all steps, the first included); steady: the "
            "difference of two runs (-ns 110 minus -ns 10) per atom-step; ratios to Kokkos CUDA, > 1 faster.", "",
            "| code | steps | grind ms/atom-step | vs Kokkos CUDA | steady ms/atom-step | vs Kokkos CUDA | RMS force dev | status |",
            "|---|---|---|---|---|---|---|---|"]
    for r in t["testsnap"]:
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["code"], fmt(r.get("steps"), "d"), fmt(r.get("grind_ms"), ".5f"), fmt(r.get("vs_kokkos_cuda"), ".3f"),
            fmt(r.get("steady_grind_ms"), ".5f"), fmt(r.get("steady_vs_kokkos_cuda"), ".3f"),
            fmt(r.get("rms_force_dev"), ".1e"), r["status"]))
    out += ["", "## XSBench -m event -s large -k 0", "",
            "Its own timer (openmp-offload: the target region with its maps of the ~5.7 GB of data "
            "and the results; CUDA: one cold run); lookups/s ratio to XSBench's CUDA version.", "",
            "| code | lookups | runtime s | lookups/s | vs XSBench CUDA | checksum | status |",
            "|---|---|---|---|---|---|---|"]
    for r in t["xsbench"]:
        out.append("| %s | %d | %s | %s | %s | %s | %s |" % (
            r["code"], r["lookups"], fmt(r.get("runtime_s"), ".3f"), fmt(r.get("lookups_per_s"), ",d"),
            fmt(r.get("vs_xsbench_cuda"), ".3f"), fmt(r.get("checksum"), "d"), r["status"]))
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) >= 3 and argv[1] == "--collect":
        partial = argv[2] == "--partial"
        folders = argv[3:] if partial else argv[2:]
        if not 1 <= len(folders) <= 2:
            sys.stderr.write(__doc__)
            return 2
        return 1 if collect(folders[0], folders[1:], partial) else 0
    if len(argv) == 3 and argv[1] == "--normb":
        print("%.9g" % normb(int(argv[2])))
        return 0
    kinds = ("cgsolve-paper", "cgsolve-pp", "testsnap", "xsbench-omp", "xsbench-cuda")
    if len(argv) not in (3, 4) or argv[1] not in kinds:
        sys.stderr.write(__doc__)
        return 2
    try:
        print(json.dumps(parse_file(argv[1], argv[2], argv[3] if len(argv) == 4 else None), indent=1))
    except Malformed as e:
        print("papers.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

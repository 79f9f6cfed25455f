"""BabelStream (5.0: its CUDA and OpenMP builds, and the OpenMP build without
-foffload-lto) beside microbench's copy and triad: the builds, the runs, the one
reader of BabelStream's output, the rows and the device-time figure.

Runs: 2^24 doubles, 100 iterations, in its --order Isolated (each kernel 100
times in a row, as ProxyPort repeats one kernel: the same-method figure) and in
its default Classic order (its own figure); microbench runs cuda and omp at each
model's launch shape (conditions.TPB) in one process. A run is rejected when its
own validation failed or it ran another problem.
"""
import os
import re

from . import devtime, kerneltime, method, rows
from .conditions import PEER_MODELS, PP_COMMON, TPB
from .kerneltime import Unavailable
from .public import Rejected

GROUP = "babelstream"
PUBLIC_BINS = ["BabelStream-cuda", "BabelStream-omp", "BabelStream-omp-nolto"]
# the build shown beside the others for the difference (without -foffload-lto): missing, its
# rows say "not built" without making the step fail
OPTIONAL_BINS = ("BabelStream-omp-nolto",)
PP_BIN = "microbench"

SIZE = 1 << 24         # doubles per array, the size of ProxyPort's published triad claim
TIMES = 100            # BabelStream's default; its statistics leave out the first
# BabelStream's orders: Isolated runs each kernel TIMES times in a row, as ProxyPort repeats
# one kernel (the same work, the same cache state); Classic, its default and its own figure, runs
# copy, mul, add, triad, dot in turn (copy starts with part of a in L2, left by dot)
ORDERS = ("Isolated", "Classic")
KERNELS = ("Copy", "Mul", "Add", "Triad", "Dot")  # what it runs and prints, in its order
PP_KERNELS = {"copy": "Copy", "triad": "Triad"}    # microbench's kernel: BabelStream's
BYTES = {"copy": 2 * 8 * SIZE, "triad": 3 * 8 * SIZE}  # as BabelStream counts them


# ---- the runs ------------------------------------------------------------------

def round_runs(rb, pb, r, orders=ORDERS):
    def pub(model, order):
        return {"group": GROUP, "side": "public", "code": f"BabelStream {model}", "round": r,
                "want": {"elements": SIZE, "times": TIMES, "order": order},
                "argv": [os.path.join(rb, f"BabelStream-{model}"), "-s", str(SIZE),
                         "-n", str(TIMES), "--csv"] + (["--order", order] if order != "Classic" else [])}
    pp = {"group": GROUP, "side": "proxyport", "code": "microbench cuda,omp", "round": r,
          "want": {"size": SIZE},
          "argv": [os.path.join(pb, "microbench"), "--backend", "cuda,omp", "--kernels", "copy,triad",
                   "--size", str(SIZE), "--tpb", ",".join(str(t) for t in sorted(set(TPB.values()))),
                   "--timer", "wall", "--warmup", "1", "--samples", str(TIMES - 1)] + PP_COMMON}
    # omp-nolto: BabelStream's OpenMP build without -foffload-lto (ProxyPort's has it)
    out = []
    for order in orders:
        out += [pub("cuda", order), dict(pp), pub("omp", order), pub("omp-nolto", order)]
    return out


def device_round(rb, pb, r):
    """The device-time view's processes of one round: the same-method (Isolated) public
    runs, and microbench one model a process at its launch shape."""
    bs = round_runs(rb, pb, r, orders=("Isolated",))
    out = [x for x in bs if x["side"] == "public"]
    for m in PEER_MODELS:
        argv = list(bs[1]["argv"])
        argv[argv.index("--backend") + 1] = m
        argv[argv.index("--tpb") + 1] = str(TPB[m])
        out.append(dict(bs[1], code=f"microbench {m}", want={"size": SIZE, "model": m}, argv=argv))
    return out


# ---- the output ----------------------------------------------------------------

_CSV_HEAD = re.compile(r"^function,num_times,n_elements,sizeof,max_(\w+)_per_sec,min_runtime,"
                       r"max_runtime,avg_runtime\s*$", re.M)
_TABLE_HEAD = re.compile(r"^Function\s+(\S+)/s\s+Min", re.M)


def _int_of(text, pattern):
    m = re.search(pattern, text, re.M)
    return int(m.group(1)) if m else None


def read(text):
    """What BabelStream printed, in either layout, or Rejected (its own validation
    failed, no result table, a malformed result row): layout ("csv" with --csv,
    else "table"), unit (of its bandwidth column: MB), and rows in its order, each
    {name, per_s, min_s, max_s, avg_s, line} and, in the csv layout, num_times,
    n_elements, sizeof. The table layout's header lines: elements, precision and
    times (None where absent)."""
    if "FAILED validation" in text or "Validation failed" in text:
        raise Rejected("its validation failed")
    out = {"elements": _int_of(text, r"^Number of elements: (\d+)\s*$"),
           "precision": None, "times": _int_of(text, r"^Running .* (\d+) times in"), "rows": []}
    m = re.search(r"^Precision: (\w+)", text, re.M)
    out["precision"] = m.group(1) if m else None
    head = _CSV_HEAD.search(text)
    if head:
        out.update(layout="csv", unit=head.group(1))
        for line in text[head.end():].splitlines():
            w = line.strip().split(",")
            if len(w) != 8:
                continue
            try:
                row = {"name": w[0], "num_times": int(w[1]), "n_elements": int(w[2]), "sizeof": int(w[3])}
                row.update(zip(("per_s", "min_s", "max_s", "avg_s"), map(float, w[4:])))
            except ValueError:
                raise Rejected(f"bad result row: {line!r}") from None
            out["rows"].append(dict(row, line=line))
        return out
    head = _TABLE_HEAD.search(text)
    if not head:
        raise Rejected("no result table (BabelStream --csv header)")
    out.update(layout="table", unit=head.group(1))
    for line in text[head.end():].splitlines()[1:]:  # [0]: the rest of the header line
        w = line.split()
        if not w:
            continue
        try:
            if len(w) != 5:
                raise ValueError
            row = {"name": w[0]}
            row.update(zip(("per_s", "min_s", "max_s", "avg_s"), map(float, w[1:])))
        except ValueError:
            raise Rejected(f"bad result row: {line!r}") from None
        out["rows"].append(dict(row, line=line))
    return out


def figures(text, want):
    """want: {"elements": N, "times": 100}. Per kernel: GB/s of its minimum time
    (its own figure, MB/s / 1000) and of its mean time, both over iterations
    2..times, as it computes them, and `loop_mean`: its minimum, maximum and
    mean are one figure (--order Isolated times each kernel's loop as a whole
    and writes that mean into every iteration: no best time exists). Read from
    its --csv rows (6 significant digits; its table prints the times with 5
    decimals, too coarse here)."""
    x = read(text)
    if x["layout"] != "csv":
        raise Rejected("no result table (BabelStream --csv header)")
    if x["unit"] != "MB":
        raise Rejected(f"bandwidth unit {x['unit']}, not MB")
    kernels = {}
    for r in x["rows"]:
        mbs, tmin, tmax, tavg = r["per_s"], r["min_s"], r["max_s"], r["avg_s"]
        if r["n_elements"] != want["elements"]:
            raise Rejected(f"another problem: {r['n_elements']} elements, not {want['elements']}")
        if r["sizeof"] != 8:
            raise Rejected(f"another problem: {r['sizeof']}-byte elements, not double")
        if r["num_times"] != want["times"]:
            raise Rejected(f"another problem: {r['num_times']} iterations, not {want['times']}")
        # its csv has 6 significant digits: equal times (a profiled run) may print the mean above
        # the maximum in the last digit
        if not (mbs > 0 and 0 < tmin <= tavg * (1 + 1e-5) and tavg <= tmax * (1 + 1e-5)):
            raise Rejected(f"inconsistent result row: {r['line']!r}")
        one = abs(tmax - tmin) <= 1e-5 * tmax and abs(tavg - tmin) <= 1e-5 * tmax
        kernels[r["name"]] = {"GB_per_s": mbs / 1000.0, "min_s": tmin, "avg_s": tavg,
                              "GB_per_s_mean": mbs * tmin / tavg / 1000.0, "loop_mean": one}
    missing = [k for k in KERNELS if k not in kernels]
    if missing:
        raise Rejected(f"kernels missing: {', '.join(missing)} (truncated output?)")
    return {"kernels": kernels}


def exit_accepted(text, exit_status):
    return exit_status == 0


def proxyport_figures(rs, want):
    """{model: {kernel: {GB_per_s, GB_per_s_mean, by_tpb}}} of microbench's rows at each
    model's launch shape (by_tpb: at every shape run), or Rejected."""
    figs = {}
    for m, tpb in TPB.items():
        figs[m] = {}
        for k in PP_KERNELS:
            r = rows.valid(rows.find(rs, kernel=k, model=m, variant=f"tpb={tpb}"))
            if r.get("size") != want["size"]:
                raise Rejected(f"another problem: {r.get('size')} elements, not {want['size']}")
            b = r["bytes_per_run"]
            figs[m][k] = {"GB_per_s": b / min(r["samples"]) / 1e9,
                          "GB_per_s_mean": b / r["time_s"]["mean"] / 1e9,
                          "by_tpb": {x.get("variant"): {"GB_per_s": x["bytes_per_run"] / min(x["samples"]) / 1e9,
                                                        "GB_per_s_mean": x["bytes_per_run"] / x["time_s"]["mean"] / 1e9}
                                     for x in rs if x["kernel"] == k and x["model"] == m
                                     and x.get("valid") and x.get("samples") and x.get("bytes_per_run")}}
    return figs


# ---- the rows ------------------------------------------------------------------

def table_rows(runs, missing=()):
    out = []
    names = {"BabelStream cuda": "CUDA", "BabelStream omp": "OpenMP",
             "BabelStream omp-nolto": "OpenMP without -foffload-lto"}
    for m, build in (("cuda", "BabelStream cuda"), ("omp", "BabelStream omp"), ("omp", "BabelStream omp-nolto")):
        if not rows.shown(build, runs, missing, OPTIONAL_BINS):
            continue
        allpub = rows.accepted(runs, group=GROUP, side="public", code=build)
        iso = [r for r in allpub if r["want"].get("order") == "Isolated"]
        classic = [r for r in allpub if r["want"].get("order", "Classic") == "Classic"]
        same = iso or classic  # a step before the Isolated runs ran the default order only
        order = (f"BabelStream --order Isolated (each kernel {TIMES} times in a row, as ProxyPort "
                 "repeats one kernel)" if iso else "BabelStream in its default Classic order (copy right after dot)")
        for k, bk in PP_KERNELS.items():
            pubs = [r["figures"]["kernels"][bk] for r in same]
            pps = [r["figures"][m][k] for r in rows.accepted(runs, group=GROUP, side="proxyport")]
            own = [r["figures"]["kernels"][bk]["GB_per_s"] for r in classic]
            # a loop timed whole has one figure: its mean, set against ProxyPort's mean
            loop = bool(pubs) and any(p.get("loop_mean") for p in pubs)
            stat = (method.LOOP_MEAN, method.MEAN) if loop else (method.BEST, method.BEST)
            key = "GB_per_s_mean" if loop else "GB_per_s"
            how = (f"the mean time of iterations 2..{TIMES} on both sides (BabelStream times the "
                   f"loop as a whole and prints that one mean as min, max and average: no best exists on "
                   f"its side); ProxyPort --timer wall --warmup 1 --samples {TIMES - 1}, host wall "
                   f"clock around each launch and its synchronisation" if loop else
                   f"host wall clock around each kernel launch and its synchronisation, best of "
                   f"iterations 2..{TIMES} on both sides (BabelStream's statistic; ProxyPort "
                   f"--timer wall --warmup 1 --samples {TIMES - 1})")
            row = rows.row_doc(f"BabelStream {names[build]} {bk} vs microbench {m} {k}",
                               GROUP, "GB/s", True, [p[key] for p in pubs],
                               [p[key] for p in pps],
                               f"2^24 doubles; {order}; {how}, tpb {TPB[m]}; bytes as BabelStream counts them",
                               statistic=stat,
                               own={"value": method.median(own), "unit": "GB/s", "runs": len(own),
                                    "how": "BabelStream's printed MB/s / 1000 in its default Classic order "
                                           "(copy, mul, add, triad, dot in turn: copy starts with part of a "
                                           "in L2, left by dot), its own host clock, best of 99"})
            if build.endswith("nolto"):
                row["notes"].append(rows.NOLTO_NOTE.format(code="BabelStream") + "; the build the earlier "
                                    "comparisons used")
            pm = method.median([p["GB_per_s_mean"] for p in pps])
            bm = method.median([p["GB_per_s_mean"] for p in pubs])
            row["ratio_of_means"] = method.ratio(pm, bm)
            if pm and bm and not loop:
                row["notes"].append(f"by mean times instead of best: {method.ratio(pm, bm):.3f}x")
            tpbs = sorted({v for p in pps for v in p.get("by_tpb", {})})
            for v in tpbs:
                if v != f"tpb={TPB[m]}":
                    g = method.median([p["by_tpb"][v][key] for p in pps if v in p.get("by_tpb", {})])
                    q = method.ratio(g, row["public"])
                    row["notes"].append(f"ProxyPort at {v}: {g:.0f} GB/s" + (f" ({q:.3f}x)" if q else ""))
            row["device_key"] = [GROUP, build, m, k]
            out.append(rows.not_built(row, rows.public_bin(build), missing, OPTIONAL_BINS))
    return out


# ---- device time ---------------------------------------------------------------

DEVICE_METHOD = ("the kernel's best per-launch time (by its mean in brackets) over all "
                 f"{TIMES} launches -> GB/s with BabelStream's bytes; ProxyPort one model "
                 "a process at the row's tpb")


def _bandwidth(kernel, mean):
    def fig(druns, rnd, code, **want):
        k = kerneltime.named(devtime.kernels_of(druns, rnd, code, **want), kernel)
        t = k["total_ns"] / k["count"] if mean else k["min_ns"]
        if not t > 0:
            raise Unavailable(f"{code}: a {kernel} kernel of 0 ns")
        return BYTES[kernel] / (t * 1e-9) / 1e9
    return fig


def device_cell(druns, key):
    """key: [group, public code, ProxyPort's model, microbench's kernel]: best and mean."""
    build, m, k = key[1], key[2], key[3]
    best = devtime.cell(druns, DEVICE_METHOD, "GB/s", True, (_bandwidth(k, False), build, {}),
                        (_bandwidth(k, False), f"microbench {m}", {}))
    mean = devtime.cell(druns, DEVICE_METHOD, "GB/s", True, (_bandwidth(k, True), build, {}),
                        (_bandwidth(k, True), f"microbench {m}", {}))
    best["mean"] = {x: mean[x] for x in ("public", "proxyport", "ratio")}
    return best

"""XSBench (20, its CUDA build) beside xsbench_like: the builds, the runs, the
one reader of XSBench's output, the rows and the device-time figure.

Runs: event-based lookups of the large problem, -k 0 (baseline) and -k 6
(sorted by energy), at XSBench's default count L1 (its published checksum, its
own figure) and at L2, where fixed costs are amortised; xsbench_like runs both
variants in one process at each count. A run of XSBench is rejected when it
ran another problem or kernel, or printed a checksum that is not its published
one at L1; ProxyPort's checksum must equal XSBench's at each count (the
analysis compares them across the sides).
"""
import os
import re

from . import devtime, kerneltime, method, rows
from .conditions import PP_COMMON
from .kerneltime import Unavailable
from .public import Rejected, commas, field

GROUP = "xsbench"
PUBLIC_BINS = ["XSBench-cuda"]
OPTIONAL_BINS = ()
PP_BIN = "xsbench_like"  # ProxyPort's side (an app of apps.txt)

L1 = 17_000_000        # XSBench's default count: its published checksum, its own figure
L2 = 170_000_000       # fixed costs amortised (checked: their share is measured)
PUBLISHED = L1         # the one count with a published checksum
# XSBench's checksum at L2 (validate/xsbench/checksums.txt, from XSBench itself): given to
# xsbench_like (--expect-checksum), which then computes no host reference (30 s per process);
# the analysis still asserts each run's printed checksum equals XSBench's
L2_RECORDED = "large-event-unionized-l170000000"
KERNELS = {0: None, 6: "Optimization 6 -"}  # -k id: its "Simulation Kernel" line begins so (none for 0)
VARIANTS = {0: "baseline (-k 0)", 6: "sorted-energy (-k 6)"}  # xsbench_like's row of each
PP_NAMES = {0: "baseline", 6: "sorted-energy"}


# ---- the runs ------------------------------------------------------------------

def recorded_checksum(name):
    """The checksum XSBench printed for run `name` (validate/xsbench/checksums.txt)."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        "xsbench", "checksums.txt")
    with open(path) as f:
        for line in f:
            w = [x.strip() for x in line.split("|")]
            if w[0] == name:
                return int(w[2])
    raise KeyError(f"{path}: no run {name}")


def round_runs(rb, pb, r, fixed_rounds):
    """One round: XSBench -k 0, xsbench_like, XSBench -k 6 at L2; at L1 too in the
    first fixed_rounds rounds."""
    def pub(k, n):
        return {"group": GROUP, "side": "public", "code": f"XSBench -k {k}", "round": r,
                "want": {"kernel": k, "lookups": n},
                "argv": [os.path.join(rb, "XSBench-cuda"), "-m", "event", "-s", "large",
                         "-k", str(k), "-l", str(n)]}

    def pp(n):
        expect = ["--expect-checksum", str(recorded_checksum(L2_RECORDED))] if n == L2 else []
        return {"group": GROUP, "side": "proxyport", "code": "xsbench_like cuda", "round": r,
                "want": {"lookups": n},
                "argv": [os.path.join(pb, "xsbench_like"), "--backend", "cuda", "-m", "event",
                         "-s", "large", "--variant", "baseline,sorted-energy", "--lookups", str(n),
                         "--timer", "wall", "--warmup", "0", "--samples", "1"] + expect + PP_COMMON}
    runs = [pub(0, L2), pp(L2), pub(6, L2)]
    if r <= fixed_rounds:
        runs += [pub(0, L1), pp(L1), pub(6, L1)]
    return runs


def device_round(rb, pb, r):
    """The device-time view's processes of one round: both counts, xsbench_like one
    variant a process."""
    out = []
    for x in round_runs(rb, pb, r, r):
        if x["side"] == "public":
            out.append(x)
            continue
        for v in ("baseline", "sorted-energy"):
            argv = list(x["argv"])
            argv[argv.index("--variant") + 1] = v
            out.append(dict(x, code=f"xsbench_like cuda {v}", want=dict(x["want"], variant=v), argv=argv))
    return out


# ---- the output ----------------------------------------------------------------

def read(text):
    """What XSBench printed (its cuda/ build's report), or Rejected naming the line
    missing or unreadable: method, size, lookups, lookups_per_s (a C int: negative
    past 2^31 per second), runtime_s (3 decimals), checksum, valid (its own
    verdict on the checksum), kernel and device (None where it printed none: the
    baseline kernel has no "Simulation Kernel" line)."""
    out = {"method": field(text, r"^Simulation Method:\s+(.+?)\s*$", "simulation method"),
           "size": field(text, r"^H-M Benchmark Size:\s+(\S+)", "benchmark size"),
           "lookups": field(text, r"^Lookups:\s+(\S+)\s*$", "lookup count", commas),
           "lookups_per_s": field(text, r"^Lookups/s:\s+(\S+)\s*$", "lookups/s", commas),
           "runtime_s": field(text, r"^Runtime:\s+(\S+) seconds", "runtime", float),
           "checksum": field(text, r"^Verification checksum: (\d+) ", "checksum", int)}
    kern = re.search(r'^Simulation Kernel:"(.+)"', text, re.M)
    out["kernel"] = kern.group(1) if kern else None
    dev = re.search(r"^CUDA Device:\s+(.+?)\s*$", text, re.M)
    out["device"] = dev.group(1) if dev else None
    out["valid"] = bool(re.search(r"^Verification checksum: \d+ \(Valid\)", text, re.M))
    return out


def figures(text, want):
    """want: {"kernel": 0|6, "lookups": N}. Time of its run in seconds (its own host
    clock, from lookups / lookups per second, which it prints unrounded; its
    'Runtime' has 3 decimals), its checksum and its own figure (lookups/s)."""
    x = read(text)
    if x["method"] != "Event Based":
        raise Rejected(f"another problem: method {x['method']!r}, not Event Based")
    if x["size"] != "large":
        raise Rejected(f"another problem: size {x['size']!r}, not large")
    if x["lookups"] != want["lookups"]:
        raise Rejected(f"another problem: {x['lookups']} lookups, not {want['lookups']}")
    expect, kernel = KERNELS[want["kernel"]], x["kernel"]
    if (kernel is None) != (expect is None) or (kernel and not kernel.startswith(expect)):
        raise Rejected(f"another kernel: {kernel or 'baseline'!r}, not -k {want['kernel']}")
    if x["lookups"] == PUBLISHED and not x["valid"]:
        raise Rejected(f"checksum {x['checksum']} is not XSBench's published one")
    # rate is a C int: past 2^31 lookups/s it wraps; then the 3-decimal runtime
    rate = x["lookups_per_s"]
    seconds = x["lookups"] / rate if rate > 0 else x["runtime_s"]
    if not seconds > 0:
        raise Rejected("run time not positive")
    return {"seconds": seconds, "checksum": x["checksum"], "own_rate": rate if rate > 0 else None,
            "published_checksum": x["valid"], "runtime_printed_s": x["runtime_s"]}


def exit_accepted(text, exit_status):
    """XSBench exits 1 for a checksum that is not a published one, which every count
    but 17,000,000 has: that exit alone is accepted (figures() then rejects it at
    17,000,000, and the checksum is compared with ours)."""
    return exit_status == 0 or (exit_status == 1 and "INAVALID CHECKSUM" in text)


def proxyport_figures(rs, want):
    """{-k id: {seconds, checksum}} of xsbench_like's rows, or Rejected."""
    figs = {}
    for k, variant in VARIANTS.items():
        r = rows.valid(rows.find(rs, kernel="event", model="cuda", variant=variant))
        if r.get("size") != want["lookups"]:
            raise Rejected(f"another problem: {r.get('size')} lookups, not {want['lookups']}")
        figs[k] = {"seconds": r["samples"][0], "checksum": (r.get("metrics") or {}).get("checksum_")}
    return figs


# ---- the rows ------------------------------------------------------------------

def check_checksums(runs):
    """XSBench's checksum at each (kernel, count) against ProxyPort's: a ProxyPort
    run that differs is rejected; where XSBench's own runs disagree, all are."""
    for n in (L1, L2):
        pps = rows.accepted(runs, group=GROUP, side="proxyport", want={"lookups": n})
        for k in VARIANTS:
            pubs = rows.accepted(runs, group=GROUP, side="public", want={"kernel": k, "lookups": n})
            sums = {r["figures"]["checksum"] for r in pubs}
            if len(sums) > 1:
                for r in pubs + pps:
                    r["rejected"] = f"XSBench -k {k} printed different checksums at {n} lookups: {sorted(sums)}"
                    r.pop("figures", None)
                continue
            if not sums:
                continue
            ref = sums.pop()
            for r in pps:
                got = r["figures"][k]["checksum"]
                if got != ref:
                    r["rejected"] = (f"checksum {got} of {PP_NAMES[k]} differs from XSBench -k {k}'s "
                                     f"{ref} at {n} lookups")
                    r.pop("figures", None)
            pps = [r for r in pps if "figures" in r]


def table_rows(runs, missing=()):
    out = []
    for k, name in PP_NAMES.items():
        def pub_t(n, k=k):
            return [r["figures"]["seconds"] for r in
                    rows.accepted(runs, group=GROUP, side="public", want={"kernel": k, "lookups": n})]

        def pp_t(n, k=k):
            return [r["figures"][k]["seconds"] for r in
                    rows.accepted(runs, group=GROUP, side="proxyport", want={"lookups": n})]
        own = [r["figures"]["own_rate"] / 1e6 for r in
               rows.accepted(runs, group=GROUP, side="public", want={"kernel": k, "lookups": L1})
               if r["figures"]["own_rate"]]
        own_doc = {"value": method.median(own), "unit": "M lookups/s", "runs": len(own),
                   "how": f"XSBench's printed Lookups/s at its default {L1:,} lookups: one cold run"}
        comp = f"XSBench -k {k} vs xsbench_like cuda {name}"
        row = rows.row_doc(comp, GROUP, "M lookups/s", True,
                           [L2 / t / 1e6 for t in pub_t(L2)], [L2 / t / 1e6 for t in pp_t(L2)],
                           f"{L2 // 1_000_000}M lookups, large, event; host wall clock around one run "
                           "per process on both sides (XSBench's own timer; ProxyPort --timer wall "
                           "--warmup 0 --samples 1), no warm-up on either, the same checksum asserted",
                           own=own_doc)
        fit_pub = method.marginal(L1, method.median(pub_t(L1)), L2, method.median(pub_t(L2)))
        fit_pp = method.marginal(L1, method.median(pp_t(L1)), L2, method.median(pp_t(L2)))
        if fit_pub:
            row["public_fixed_share"] = fit_pub["fixed_share"]
            if fit_pub["fixed_share"] >= method.FIXED_LIMIT:
                row["notes"].append(f"XSBench's fixed costs are {100 * fit_pub['fixed_share']:.1f}% of "
                                    f"its time at {L2:,} lookups (>= 2%): the marginal row is the comparison")
                row["ok"] = False
                row["superseded_by"] = comp + " (marginal)"
        else:
            row["notes"].append("XSBench's fixed-cost share unknown (no accepted run at both counts)")
        row["device_key"] = [GROUP, k, name]
        out.append(row)
        mrow = rows.row_doc(comp + " (marginal)", GROUP, "M lookups/s", True,
                            [fit_pub["rate"] / 1e6] if fit_pub else [], [fit_pp["rate"] / 1e6] if fit_pp else [],
                            f"marginal rate (L2 - L1) / (t(L2) - t(L1)) between {L1 // 1_000_000}M and "
                            f"{L2 // 1_000_000}M lookups, medians of host wall clock as above: every "
                            "fixed cost removed on both sides", own=own_doc)
        mrow["ok"] = mrow["ratio"] is not None
        mrow["notes"] = [f"fixed costs: XSBench {fit_pub['fixed_s'] * 1e3:.1f} ms"
                         + (f", ProxyPort {fit_pp['fixed_s'] * 1e3:.1f} ms" if fit_pp else "")] if fit_pub else []
        mrow["notes"].append(f"runs at {L1 // 1_000_000}M / {L2 // 1_000_000}M lookups: XSBench "
                             f"{len(pub_t(L1))}/{len(pub_t(L2))}, ProxyPort {len(pp_t(L1))}/{len(pp_t(L2))}")
        mrow["device_key"] = [GROUP, k, name]
        out.append(mrow)
    return out


# ---- device time ---------------------------------------------------------------

DEVICE_METHOD = (f"marginal rate from the sums of every kernel's time, (L2 - L1) / (S({L2 // 10**6}M) - "
                 f"S({L1 // 10**6}M)), one profiled process per count and side")


def _marginal_rate(druns, rnd, code, **want):
    s1 = kerneltime.total_ns(devtime.kernels_of(druns, rnd, code, lookups=L1, **want))
    s2 = kerneltime.total_ns(devtime.kernels_of(druns, rnd, code, lookups=L2, **want))
    fit = method.marginal(L1, s1 * 1e-9, L2, s2 * 1e-9)
    if not fit:
        raise Unavailable(f"{code}: kernel time does not grow with the lookup count ({s1} -> {s2} ns)")
    return fit["rate"] / 1e6


def device_cell(druns, key):
    """key: [group, -k id, xsbench_like's variant]."""
    k, name = key[1], key[2]
    return devtime.cell(druns, DEVICE_METHOD, "M lookups/s", True, (_marginal_rate, f"XSBench -k {k}", {"kernel": k}),
                        (_marginal_rate, f"xsbench_like cuda {name}", {"variant": name}))

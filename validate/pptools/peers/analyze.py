"""The executed runs read into the peers table's rows.

Every run is read first on its own: a public run through public.parse, a
ProxyPort run through its result file (pptools/result.py); a failed or invalid
run, or one of another problem, is Rejected with the reason and never enters a
row. XSBench's checksums are then compared across the sides at each lookup
count: a run whose checksum differs from XSBench's there is rejected too.
A row needs at least MIN_RUNS accepted runs on each side to be `ok`. A row
whose public build is missing says "not built"; for the builds shown only for
the difference (plan.OPTIONAL_BINS) that row is `optional` and fails nothing.
Every row then gets the device-time cell (devtime.py).
"""
import os

from .. import result
from . import devtime, method, plan, public
from .public import Rejected

MIN_RUNS = 3
XS_VARIANTS = {0: "baseline (-k 0)", 6: "sorted-energy (-k 6)"}
XS_PP_NAMES = {0: "baseline", 6: "sorted-energy"}
# public build: (ProxyPort's model, the build's words in the row); ompt-nolto: no -foffload-lto
TS_ROWS = {"cuda": ("cuda", "Kokkos CUDA"), "ompt": ("omp", "Kokkos OpenMPTarget"),
           "ompt-nolto": ("omp", "Kokkos OpenMPTarget without -foffload-lto")}
NOLTO_NOTE = ("not the same flags: {code} without -foffload-lto, ProxyPort with it (shown for the "
              "difference)")
TS_SAME_WORK = ("compute_ui", "compute_yi", "compute_deidrj")
BS_KERNELS = {"copy": "Copy", "triad": "Triad"}


def _rows_of(doc, name):
    return list(result.rows(doc, name).values())


def _row(rows, **match):
    for r in rows:
        if all(r.get(k) == v for k, v in match.items()):
            return r
    raise Rejected("no row " + ", ".join(f"{k} {v}" for k, v in match.items()))


def _valid(r):
    if not r.get("valid"):
        raise Rejected(f"row {r['kernel']} {r['model']} {r.get('variant') or ''} failed its "
                       f"check: {r.get('check', '')}".replace("  ", " "))
    if not r.get("samples"):
        raise Rejected(f"row {r['kernel']} {r['model']}: no samples")
    return r


def proxyport(run, out):
    """Figures of one ProxyPort run, or Rejected."""
    if run["exit"] != 0:
        raise Rejected(f"failed: exit status {run['exit']}")
    path = os.path.join(out, run["json"])
    try:
        doc = result.load_result(path, "peers")
    except result.BadInput as e:
        raise Rejected(f"result file unreadable: {e}")
    rows = _rows_of(doc, path)
    g, want = run["group"], run["want"]
    if g == "xsbench":
        figs = {}
        for k, variant in XS_VARIANTS.items():
            r = _valid(_row(rows, kernel="event", model="cuda", variant=variant))
            if r.get("size") != want["lookups"]:
                raise Rejected(f"another problem: {r.get('size')} lookups, not {want['lookups']}")
            figs[k] = {"seconds": r["samples"][0], "checksum": (r.get("metrics") or {}).get("checksum_")}
        return figs
    if g == "testsnap":
        figs = {}
        for m in plan.PEER_MODELS:
            step = _valid(_row(rows, kernel="step", model=m))
            if step.get("size") != plan.TS_ATOMS or len(step["samples"]) != want["steps"]:
                raise Rejected(f"another problem: {step.get('size')} atoms, {len(step['samples'])} "
                               f"steps, not {plan.TS_ATOMS} and {want['steps']}")
            parts = {k: _valid(_row(rows, kernel=k, model=m))["time_s"]["mean"] for k in TS_SAME_WORK}
            figs[m] = {"same_work_s": sum(parts.values()), "yi_s": parts["compute_yi"],
                       "step_s": step["time_s"]["mean"]}
        return figs
    figs = {}
    for m, tpb in plan.TPB.items():
        figs[m] = {}
        for k in BS_KERNELS:
            r = _valid(_row(rows, kernel=k, model=m, variant=f"tpb={tpb}"))
            if r.get("size") != want["size"]:
                raise Rejected(f"another problem: {r.get('size')} elements, not {want['size']}")
            b = r["bytes_per_run"]
            figs[m][k] = {"GB_per_s": b / min(r["samples"]) / 1e9,
                          "GB_per_s_mean": b / r["time_s"]["mean"] / 1e9,
                          "by_tpb": {x.get("variant"): {"GB_per_s": x["bytes_per_run"] / min(x["samples"]) / 1e9,
                                                        "GB_per_s_mean": x["bytes_per_run"] / x["time_s"]["mean"] / 1e9}
                                     for x in rows if x["kernel"] == k and x["model"] == m
                                     and x.get("valid") and x.get("samples") and x.get("bytes_per_run")}}
    return figs


def read_runs(runs, out):
    """Fills run['figures'] or run['rejected'] for every run."""
    for run in runs:
        run.pop("figures", None), run.pop("rejected", None)
        try:
            if "exit" not in run:
                raise Rejected("not run (the step was cut short)")
            if run["side"] == "public":
                try:
                    text = result.read_text(os.path.join(out, run["output"]), "peers output")
                except result.BadInput as e:
                    raise Rejected(f"output unreadable: {e}")
                exit_status = run["exit"] if isinstance(run["exit"], int) else -1
                run["figures"] = public.parse(run["group"], text, exit_status, run["want"])
            else:
                run["figures"] = proxyport(run, out)
        except Rejected as e:
            run["rejected"] = str(e)
    return runs


def _accepted(runs, **match):
    return [r for r in runs if "figures" in r and all(r.get(k) == v if k != "want" else
                                                       all(r["want"].get(a) == b for a, b in v.items())
                                                       for k, v in match.items())]


def check_checksums(runs):
    """XSBench's checksum at each (kernel, count) against ProxyPort's: a ProxyPort
    run that differs is rejected; where XSBench's own runs disagree, all are."""
    for n in (plan.XS_L1, plan.XS_L2):
        pps = _accepted(runs, group="xsbench", side="proxyport", want={"lookups": n})
        for k in XS_VARIANTS:
            pubs = _accepted(runs, group="xsbench", side="public", want={"kernel": k, "lookups": n})
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
                    r["rejected"] = (f"checksum {got} of {XS_PP_NAMES[k]} differs from XSBench -k {k}'s "
                                     f"{ref} at {n} lookups")
                    r.pop("figures", None)
            pps = [r for r in pps if "figures" in r]


def _row_doc(comparison, group, unit, higher, pub_vals, pp_vals, method_text, own=None,
             statistic=(method.MEAN, method.MEAN), **extra):
    """A row; `statistic`: (the public side's, ProxyPort's) per run, which must be
    like for like (method.comparable) or the row is refused."""
    pub_m, pp_m = method.median(pub_vals), method.median(pp_vals)
    row = {"comparison": comparison, "group": group, "unit": unit, "higher_is_better": higher,
           "public_own": own, "public": pub_m, "proxyport": pp_m,
           "public_runs": pub_vals, "proxyport_runs": pp_vals,
           "ratio": method.ratio(pp_m, pub_m, higher), "method": method_text, "notes": [],
           "statistic": {"public": statistic[0], "proxyport": statistic[1]}}
    row.update(extra)
    short = [s for s, v in (("public (none: not built or all rejected)" if not pub_vals else "public",
                             pub_vals), ("ProxyPort", pp_vals)) if len(v) < MIN_RUNS]
    unlike = method.comparable(*statistic)
    row["ok"] = row["ratio"] is not None and not short and not unlike
    if short:
        row["notes"].append(f"fewer than {MIN_RUNS} accepted runs: {', '.join(short)}")
    if unlike:
        row["notes"].insert(0, f"refused: {unlike}")
    return row


def _bin(code):
    """The public binary of a run's code ("TestSNAP ompt-nolto" -> TestSNAP-kokkos-ompt-nolto)."""
    name, _, build = code.partition(" ")
    return f"TestSNAP-kokkos-{build}" if name == "TestSNAP" else f"{name}-{build}"


def _not_built(row, binary, missing):
    """Marks a row whose public build is missing; an optional build's row fails nothing."""
    if binary in missing:
        row["not_built"] = binary
        row["notes"].insert(0, f"not built: {binary}")
        row["optional"] = binary in plan.OPTIONAL_BINS
    return row


def _shown(code, runs, missing):
    """An optional build's rows: shown when it ran or is known missing (an older
    step's peers.json, from before the build existed, has neither)."""
    return _bin(code) not in plan.OPTIONAL_BINS or _bin(code) in missing or any(r["code"] == code for r in runs)


def xsbench_rows(runs):
    rows = []
    L1, L2 = plan.XS_L1, plan.XS_L2
    for k, name in XS_PP_NAMES.items():
        def pub_t(n):
            return [r["figures"]["seconds"] for r in
                    _accepted(runs, group="xsbench", side="public", want={"kernel": k, "lookups": n})]

        def pp_t(n):
            return [r["figures"][k]["seconds"] for r in
                    _accepted(runs, group="xsbench", side="proxyport", want={"lookups": n})]
        own = [r["figures"]["own_rate"] / 1e6 for r in
               _accepted(runs, group="xsbench", side="public", want={"kernel": k, "lookups": L1})
               if r["figures"]["own_rate"]]
        own_doc = {"value": method.median(own), "unit": "M lookups/s", "runs": len(own),
                   "how": f"XSBench's printed Lookups/s at its default {L1:,} lookups: one cold run"}
        comp = f"XSBench -k {k} vs xsbench_like cuda {name}"
        row = _row_doc(comp, "xsbench", "M lookups/s", True,
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
        else:
            row["notes"].append("XSBench's fixed-cost share unknown (no accepted run at both counts)")
        row["device_key"] = ["xsbench", k, name]
        rows.append(row)
        mrow = _row_doc(comp + " (marginal)", "xsbench", "M lookups/s", True,
                        [fit_pub["rate"] / 1e6] if fit_pub else [], [fit_pp["rate"] / 1e6] if fit_pp else [],
                        f"marginal rate (L2 - L1) / (t(L2) - t(L1)) between {L1 // 1_000_000}M and "
                        f"{L2 // 1_000_000}M lookups, medians of host wall clock as above: every "
                        "fixed cost removed on both sides", own=own_doc)
        mrow["ok"] = mrow["ratio"] is not None
        mrow["notes"] = [f"fixed costs: XSBench {fit_pub['fixed_s'] * 1e3:.1f} ms"
                         + (f", ProxyPort {fit_pp['fixed_s'] * 1e3:.1f} ms" if fit_pp else "")] if fit_pub else []
        mrow["notes"].append(f"runs at {L1 // 1_000_000}M / {L2 // 1_000_000}M lookups: XSBench "
                             f"{len(pub_t(L1))}/{len(pub_t(L2))}, ProxyPort {len(pp_t(L1))}/{len(pp_t(L2))}")
        mrow["device_key"] = ["xsbench", k, name]
        rows.append(mrow)
    return rows


def testsnap_rows(runs, missing=()):
    rows = []
    n1, n2 = plan.TS_STEPS
    every, read = method.y_products(plan.TS_TWOJMAX)
    for build, (m, backend) in TS_ROWS.items():
        code = f"TestSNAP {build}"
        if not _shown(code, runs, missing):
            continue
        pub_steps, own = [], []
        for rnd in sorted({r["round"] for r in runs}):
            d = {}
            for r in _accepted(runs, group="testsnap", side="public", code=code, round=rnd):
                d[r["want"]["steps"]] = r["figures"]["seconds"]
                if r["want"]["steps"] == n2:
                    own.append(r["figures"]["own_grind_ms"])
            s = method.steady_step(d.get(n1), n1, d.get(n2), n2) if n1 in d and n2 in d else None
            if s is not None:
                pub_steps.append(method.ms_per_atom_step(s, plan.TS_ATOMS))
        pps = [r["figures"][m] for r in _accepted(runs, group="testsnap", side="proxyport")]
        comp = f"TestSNAP {backend} vs testsnap {m}"
        own_doc = {"value": method.median(own), "unit": "ms/atom-step", "runs": len(own),
                   "how": f"TestSNAP's printed grind time at -ns {n2} (mean over all steps, the first included)"}
        words = (f"{plan.TS_CASE}, {plan.TS_ATOMS} atoms; host wall clock per step after {n1} warm-up "
                 f"steps (TestSNAP: (duration(-ns {n2}) - duration(-ns {n1})) / {n2 - n1}; ProxyPort: "
                 f"mean of {n2 - n1} steps after --warmup {n1}, --timer wall); the same work: U, Y and "
                 "dE/dr (ProxyPort's compute_ui + compute_yi + compute_deidrj; its forces and energies left out)")
        row = _row_doc(comp, "testsnap", "ms/atom-step", False, pub_steps,
                       [method.ms_per_atom_step(p["same_work_s"], plan.TS_ATOMS) for p in pps],
                       words + f"; Y products not equal: ProxyPort's compute_yi forms {read:,} of the "
                       f"{every:,} TestSNAP forms ({100 * (1 - read / every):.1f}% skipped, never read)",
                       own=own_doc)
        counted = [method.ms_per_atom_step(p["same_work_s"] + p["yi_s"] * (every / read - 1), plan.TS_ATOMS)
                   for p in pps]
        crow = _row_doc(comp + " (Y products counted)", "testsnap", "ms/atom-step", False, pub_steps,
                        counted, words + f"; ProxyPort's compute_yi time scaled by {every:,}/{read:,} "
                        "(the products TestSNAP forms: an estimate, time taken proportional to products)",
                        own=own_doc)
        steps = [method.ms_per_atom_step(p["step_s"], plan.TS_ATOMS) for p in pps]
        if steps:
            row["notes"].append(f"ProxyPort's whole step (with forces and energies): "
                                f"{method.median(steps):.6f} ms/atom-step")
        crow["device_note"] = "every kernel as run: Y products not counted"
        for r in (row, crow):
            if build.endswith("nolto"):
                r["notes"].append(NOLTO_NOTE.format(code="TestSNAP's build"))
            r["device_key"] = ["testsnap", build, m]
            rows.append(_not_built(r, _bin(code), missing))
    return rows


def babelstream_rows(runs, missing=()):
    rows = []
    names = {"BabelStream cuda": "CUDA", "BabelStream omp": "OpenMP",
             "BabelStream omp-nolto": "OpenMP without -foffload-lto"}
    for m, build in (("cuda", "BabelStream cuda"), ("omp", "BabelStream omp"), ("omp", "BabelStream omp-nolto")):
        if not _shown(build, runs, missing):
            continue
        allpub = _accepted(runs, group="babelstream", side="public", code=build)
        iso = [r for r in allpub if r["want"].get("order") == "Isolated"]
        classic = [r for r in allpub if r["want"].get("order", "Classic") == "Classic"]
        same = iso or classic  # a step before the Isolated runs ran the default order only
        order = (f"BabelStream --order Isolated (each kernel {plan.BS_TIMES} times in a row, as ProxyPort "
                 "repeats one kernel)" if iso else "BabelStream in its default Classic order (copy right after dot)")
        for k, bk in BS_KERNELS.items():
            pubs = [r["figures"]["kernels"][bk] for r in same]
            pps = [r["figures"][m][k] for r in _accepted(runs, group="babelstream", side="proxyport")]
            own = [r["figures"]["kernels"][bk]["GB_per_s"] for r in classic]
            # a loop timed whole has one figure: its mean, set against ProxyPort's mean
            loop = bool(pubs) and any(p.get("loop_mean") for p in pubs)
            stat = (method.LOOP_MEAN, method.MEAN) if loop else (method.BEST, method.BEST)
            key = "GB_per_s_mean" if loop else "GB_per_s"
            how = (f"the mean time of iterations 2..{plan.BS_TIMES} on both sides (BabelStream times the "
                   f"loop as a whole and prints that one mean as min, max and average: no best exists on "
                   f"its side); ProxyPort --timer wall --warmup 1 --samples {plan.BS_TIMES - 1}, host wall "
                   f"clock around each launch and its synchronisation" if loop else
                   f"host wall clock around each kernel launch and its synchronisation, best of "
                   f"iterations 2..{plan.BS_TIMES} on both sides (BabelStream's statistic; ProxyPort "
                   f"--timer wall --warmup 1 --samples {plan.BS_TIMES - 1})")
            row = _row_doc(f"BabelStream {names[build]} {bk} vs microbench {m} {k}",
                           "babelstream", "GB/s", True, [p[key] for p in pubs],
                           [p[key] for p in pps],
                           f"2^24 doubles; {order}; {how}, tpb {plan.TPB[m]}; bytes as BabelStream counts them",
                           statistic=stat,
                           own={"value": method.median(own), "unit": "GB/s", "runs": len(own),
                                "how": "BabelStream's printed MB/s / 1000 in its default Classic order "
                                       "(copy, mul, add, triad, dot in turn: copy starts with part of a "
                                       "in L2, left by dot), its own host clock, best of 99"})
            if build.endswith("nolto"):
                row["notes"].append(NOLTO_NOTE.format(code="BabelStream") + "; the build the earlier "
                                    "comparisons used")
            pm = method.median([p["GB_per_s_mean"] for p in pps])
            bm = method.median([p["GB_per_s_mean"] for p in pubs])
            row["ratio_of_means"] = method.ratio(pm, bm)
            if pm and bm and not loop:
                row["notes"].append(f"by mean times instead of best: {method.ratio(pm, bm):.3f}x")
            tpbs = sorted({v for p in pps for v in p.get("by_tpb", {})})
            for v in tpbs:
                if v != f"tpb={plan.TPB[m]}":
                    g = method.median([p["by_tpb"][v][key] for p in pps if v in p.get("by_tpb", {})])
                    q = method.ratio(g, row["public"])
                    row["notes"].append(f"ProxyPort at {v}: {g:.0f} GB/s" + (f" ({q:.3f}x)" if q else ""))
            row["device_key"] = ["babelstream", build, m, k]
            rows.append(_not_built(row, _bin(build), missing))
    return rows


def analyze(runs, out, missing=None, druns=None, device_off=None):
    """The rows. missing: {group: [binaries not built]} (the step's left_out);
    druns: the profiled runs of the device-time view; device_off: why the view
    is off (then every row's device cell says so)."""
    missing = {b for bins in (missing or {}).values() for b in bins}
    read_runs(runs, out)
    check_checksums(runs)
    groups = {r["group"] for r in runs}
    rows = []
    if "xsbench" in groups:
        rows += xsbench_rows(runs)
    if "testsnap" in groups:
        rows += testsnap_rows(runs, missing)
    if "babelstream" in groups:
        rows += babelstream_rows(runs, missing)
    if device_off is None and not druns:
        device_off = "no profiled runs in this step"
    return devtime.attach(rows, druns or [], out, device_off)


def failing(rows):
    """The rows that make the step fail: not comparable, unless an optional build not built."""
    return [r for r in rows if not r["ok"] and not (r.get("optional") and r.get("not_built"))]

"""The device-time view: a column beside each row, from the kernel times of the
profiled processes (plan.device_runs; validate/refs/kernel_time.c), computed
the same way on both sides from the sums of kernel durations:

  XSBench: marginal lookups/s, (L2 - L1) / (sum of every kernel's time at L2 -
      at L1): fixed costs (data upload, first launches) removed.
  TestSNAP: (sum of every kernel's time at N2 steps - at N1) / (N2 - N1) / atoms:
      the steady step, as the host-clock row's; every kernel of a step counts
      (ProxyPort's forces and energies included).
  BabelStream: the copy or triad kernel's best (min) and mean per-launch time
      -> GB/s with BabelStream's byte count, over all its launches (the first
      included on both sides).

A profiled run is checked as a timed one (public.parse; ProxyPort: exit 0 and
every row valid). Any missing piece (the library, a failed or rejected run, a
missing, empty or cut-short kernel file, a kernel name not found) leaves the
cell "not available: <why>", never a number; the row's own status is untouched.
"""
import os

from .. import result
from . import kerneltime, method, plan, public
from .kerneltime import Unavailable

METHOD = {
    "xsbench": (f"marginal rate from the sums of every kernel's time, (L2 - L1) / (S({plan.XS_L2 // 10**6}M) - "
                f"S({plan.XS_L1 // 10**6}M)), one profiled process per count and side"),
    "testsnap": (f"(S(-ns {plan.TS_STEPS[1]}) - S(-ns {plan.TS_STEPS[0]})) / {plan.TS_STEPS[1] - plan.TS_STEPS[0]} "
                 f"/ {plan.TS_ATOMS} atoms, S the sum of every kernel's time; ProxyPort: --warmup 0 "
                 "--steps 10 and 100, one model a process"),
    "babelstream": ("the kernel's best per-launch time (by its mean in brackets) over all "
                    f"{plan.BS_TIMES} launches -> GB/s with BabelStream's bytes; ProxyPort one model "
                    "a process at the row's tpb"),
}
BS_BYTES = {"copy": 2 * 8 * plan.BS_SIZE, "triad": 3 * 8 * plan.BS_SIZE}


def _check(run, out):
    """Rejected (as public.Rejected or Unavailable) unless the run itself is good."""
    if "exit" not in run:
        raise Unavailable("not run (the step was cut short)")
    if run["side"] == "public":
        text = result.read_text(os.path.join(out, run["output"]), "peers output")
        public.parse(run["group"], text, run["exit"] if isinstance(run["exit"], int) else -1, run["want"])
        return
    if run["exit"] != 0:
        raise Unavailable(f"failed: exit status {run['exit']}")
    doc = result.load_result(os.path.join(out, run["json"]), "peers")
    bad = [r["kernel"] for r in doc["results"] if not r.get("valid")]
    if bad or not doc["results"]:
        raise Unavailable(f"rows not valid: {', '.join(bad) or '(none)'}")


def read_device_runs(druns, out):
    """Fills run['kernels'] or run['unavailable'] for every profiled run."""
    for run in druns:
        run.pop("kernels", None), run.pop("unavailable", None)
        try:
            try:
                _check(run, out)
            except (public.Rejected, result.BadInput) as e:
                raise Unavailable(str(e))
            run["kernels"] = kerneltime.read(os.path.join(out, run["kernel_file"]))
        except Unavailable as e:
            run["unavailable"] = str(e)
    return druns


def _one(druns, rnd, code, **want):
    for r in druns:
        if r["round"] == rnd and r["code"] == code and all(r["want"].get(k) == v for k, v in want.items()):
            if "kernels" in r:
                return r["kernels"]
            raise Unavailable(f"{r['id']} {code}: {r['unavailable']}")
    raise Unavailable(f"no profiled run of {code} ({', '.join(f'{k} {v}' for k, v in want.items())})")


def _xsbench(druns, rnd, code, **want):
    s1 = kerneltime.total_ns(_one(druns, rnd, code, lookups=plan.XS_L1, **want))
    s2 = kerneltime.total_ns(_one(druns, rnd, code, lookups=plan.XS_L2, **want))
    fit = method.marginal(plan.XS_L1, s1 * 1e-9, plan.XS_L2, s2 * 1e-9)
    if not fit:
        raise Unavailable(f"{code}: kernel time does not grow with the lookup count ({s1} -> {s2} ns)")
    return fit["rate"] / 1e6


def _testsnap(druns, rnd, code, **want):
    n1, n2 = plan.TS_STEPS
    s1 = kerneltime.total_ns(_one(druns, rnd, code, steps=n1, **want))
    s2 = kerneltime.total_ns(_one(druns, rnd, code, steps=n2, **want))
    step = method.steady_step(s1 * 1e-9, n1, s2 * 1e-9, n2)
    if not step or step <= 0:
        raise Unavailable(f"{code}: kernel time does not grow with the step count ({s1} -> {s2} ns)")
    return method.ms_per_atom_step(step, plan.TS_ATOMS)


def _babelstream(kernel, mean):
    def fig(druns, rnd, code, **want):
        k = kerneltime.named(_one(druns, rnd, code, **want), kernel)
        t = k["total_ns"] / k["count"] if mean else k["min_ns"]
        if not t > 0:
            raise Unavailable(f"{code}: a {kernel} kernel of 0 ns")
        return BS_BYTES[kernel] / (t * 1e-9) / 1e9
    return fig


def _side(druns, fig, code, **want):
    """([figure per round], first reason none came)."""
    vals, why = [], None
    for rnd in sorted({r["round"] for r in druns}) or [1]:
        try:
            vals.append(fig(druns, rnd, code, **want))
        except Unavailable as e:
            why = why or str(e)
    return vals, why


def _cell(druns, group, unit, higher, pub, pp):
    """pub/pp: (figure function, code, want) of each side."""
    pv, pwhy = _side(druns, *pub[:2], **pub[2])
    qv, qwhy = _side(druns, *pp[:2], **pp[2])
    cell = {"unit": unit, "higher_is_better": higher, "public": method.median(pv), "proxyport": method.median(qv),
            "public_runs": pv, "proxyport_runs": qv, "method": METHOD[group], "why": None}
    cell["ratio"] = method.ratio(cell["proxyport"], cell["public"], higher)
    if not pv or not qv:
        cell["why"] = "not available: " + "; ".join(
            f"{s}: {w}" for s, v, w in (("public", pv, pwhy), ("ProxyPort", qv, qwhy)) if not v)
        cell["public"] = cell["proxyport"] = cell["ratio"] = None
    return cell


def cell(druns, key):
    """The device-time cell of one row (key: analyze's row['device_key'])."""
    g = key[0]
    if g == "xsbench":
        k, name = key[1], key[2]
        return _cell(druns, g, "M lookups/s", True, (_xsbench, f"XSBench -k {k}", {"kernel": k}),
                     (_xsbench, f"xsbench_like cuda {name}", {"variant": name}))
    if g == "testsnap":
        build, m = key[1], key[2]
        return _cell(druns, g, "ms/atom-step", False, (_testsnap, f"TestSNAP {build}", {}),
                     (_testsnap, f"testsnap {m}", {}))
    build, m, k = key[1], key[2], key[3]
    best = _cell(druns, g, "GB/s", True, (_babelstream(k, False), build, {}),
                 (_babelstream(k, False), f"microbench {m}", {}))
    mean = _cell(druns, g, "GB/s", True, (_babelstream(k, True), build, {}),
                 (_babelstream(k, True), f"microbench {m}", {}))
    best["mean"] = {x: mean[x] for x in ("public", "proxyport", "ratio")}
    return best


def attach(rows, druns, out, off=None):
    """Sets row['device'] on every row: the cell, or {'why': off} when the view is off."""
    if off is None:
        read_device_runs(druns, out)
    for row in rows:
        if off is not None or "device_key" not in row:
            row["device"] = {"why": f"not available: {off or 'no device-time method for this row'}"}
        else:
            row["device"] = cell(druns, row["device_key"])
    return rows

"""The device-time view: a column beside each row, from the kernel times of the
profiled processes (plan.device_runs; validate/refs/kernel_time.c), computed
the same way on both sides from the sums of kernel durations. Each public
code's module says its figure (DEVICE_METHOD, device_cell):

  XSBench: marginal lookups/s, (L2 - L1) / (sum of every kernel's time at L2 -
      at L1): fixed costs (data upload, first launches) removed.
  TestSNAP: (sum of every kernel's time at N2 steps - at N1) / (N2 - N1) / atoms:
      the steady step, as the host-clock row's; every kernel of a step counts
      (ProxyPort's forces and energies included).
  BabelStream: the copy or triad kernel's best (min) and mean per-launch time
      -> GB/s with BabelStream's byte count, over all its launches (the first
      included on both sides).

A profiled run is checked as a timed one (the code's parser; ProxyPort: exit 0
and every row valid: analyze.read_device_runs). Any missing piece (the library,
a failed or rejected run, a missing, empty or cut-short kernel file, a kernel
name not found) leaves the cell "not available: <why>", never a number; the
row's own status is untouched.
"""
from . import method
from .kerneltime import Unavailable


def kernels_of(druns, rnd, code, **want):
    """The kernel times of the profiled run of code in round rnd with these wants, or Unavailable."""
    for r in druns:
        if r["round"] == rnd and r["code"] == code and all(r["want"].get(k) == v for k, v in want.items()):
            if "kernels" in r:
                return r["kernels"]
            raise Unavailable(f"{r['id']} {code}: {r['unavailable']}")
    raise Unavailable(f"no profiled run of {code} ({', '.join(f'{k} {v}' for k, v in want.items())})")


def _side(druns, fig, code, **want):
    """([figure per round], first reason none came)."""
    vals, why = [], None
    for rnd in sorted({r["round"] for r in druns}) or [1]:
        try:
            vals.append(fig(druns, rnd, code, **want))
        except Unavailable as e:
            why = why or str(e)
    return vals, why


def cell(druns, method_text, unit, higher, pub, pp):
    """A device-time cell. pub/pp: (figure function, code, want) of each side; a figure
    function takes (druns, round, code, **want) and returns the round's figure."""
    pv, pwhy = _side(druns, *pub[:2], **pub[2])
    qv, qwhy = _side(druns, *pp[:2], **pp[2])
    c = {"unit": unit, "higher_is_better": higher, "public": method.median(pv), "proxyport": method.median(qv),
         "public_runs": pv, "proxyport_runs": qv, "method": method_text, "why": None}
    c["ratio"] = method.ratio(c["proxyport"], c["public"], higher)
    if not pv or not qv:
        c["why"] = "not available: " + "; ".join(
            f"{s}: {w}" for s, v, w in (("public", pv, pwhy), ("ProxyPort", qv, qwhy)) if not v)
        c["public"] = c["proxyport"] = c["ratio"] = None
    return c

"""What every public code's rows share: finding a ProxyPort result row and
checking it, the accepted runs of a configuration, and the row itself (both
sides' medians, the ratio, whether it is comparable and why not).

A row needs at least MIN_RUNS accepted runs on each side to be `ok`, and the
two sides' statistics must be like for like (method.comparable). A row whose
public build is missing says "not built"; for a build shown only for the
difference (a code's OPTIONAL_BINS) that row is `optional` and fails nothing.
"""
from .. import result
from . import method
from .public import Rejected

MIN_RUNS = 3
NOLTO_NOTE = ("not the same flags: {code} without -foffload-lto, ProxyPort with it (shown for the "
              "difference)")


def rows_of(doc, name):
    return list(result.rows(doc, name).values())


def find(rows, **match):
    """The result row with these fields, or Rejected."""
    for r in rows:
        if all(r.get(k) == v for k, v in match.items()):
            return r
    raise Rejected("no row " + ", ".join(f"{k} {v}" for k, v in match.items()))


def valid(r):
    """r, or Rejected when it failed its check or has no samples."""
    if not r.get("valid"):
        raise Rejected(f"row {r['kernel']} {r['model']} {r.get('variant') or ''} failed its "
                       f"check: {r.get('check', '')}".replace("  ", " "))
    if not r.get("samples"):
        raise Rejected(f"row {r['kernel']} {r['model']}: no samples")
    return r


def accepted(runs, **match):
    """The runs read without rejection whose fields (and want's, for want=) match."""
    return [r for r in runs if "figures" in r and all(r.get(k) == v if k != "want" else
                                                       all(r["want"].get(a) == b for a, b in v.items())
                                                       for k, v in match.items())]


def row_doc(comparison, group, unit, higher, pub_vals, pp_vals, method_text, own=None,
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


def public_bin(code):
    """The public binary of a run's code ("TestSNAP ompt-nolto" -> TestSNAP-kokkos-ompt-nolto)."""
    name, _, build = code.partition(" ")
    return f"TestSNAP-kokkos-{build}" if name == "TestSNAP" else f"{name}-{build}"


def not_built(row, binary, missing, optional_bins):
    """Marks a row whose public build is missing; an optional build's row fails nothing."""
    if binary in missing:
        row["not_built"] = binary
        row["notes"].insert(0, f"not built: {binary}")
        row["optional"] = binary in optional_bins
    return row


def shown(code, runs, missing, optional_bins):
    """An optional build's rows: shown when it ran or is known missing (an older
    step's peers.json, from before the build existed, has neither)."""
    b = public_bin(code)
    return b not in optional_bins or b in missing or any(r["code"] == code for r in runs)

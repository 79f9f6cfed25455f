"""peers.json, peers.md and peers.png of a peers step."""
import os

from .. import no_figures, outfile, text
from . import codes


def _fmt(v, unit):
    if v is None:
        return "-"
    if unit == "ms/atom-step":
        return f"{v:.6f}"
    return f"{v:.0f}" if v >= 100 else f"{v:.3g}"


def _spread(vals, unit):
    if len(vals) < 2:
        return ""
    return f" ({_fmt(min(vals), unit)}-{_fmt(max(vals), unit)})"


def _device(r):
    """The device-time cell: public / ProxyPort and the advantage, or why there is none."""
    d = r.get("device") or {"why": "not available: not analysed"}
    if d.get("why"):
        return d["why"]
    u = d["unit"]
    text = (f"{'marginal: ' if r['group'] == 'xsbench' else ''}{_fmt(d['public'], u)} / "
            f"{_fmt(d['proxyport'], u)} {u}, {d['ratio']:.3f}x" if d["ratio"] else "-")
    m = d.get("mean")
    if m and m.get("ratio"):
        text += f" (means: {_fmt(m['public'], u)} / {_fmt(m['proxyport'], u)}, {m['ratio']:.3f}x)"
    return text + (f" ({r['device_note']})" if r.get("device_note") else "")


def device_words(doc):
    """The device-time column's method, said once."""
    dev = doc.get("device_time") or {}
    words = ("Device time (last column, public / ProxyPort and ProxyPort's advantage): sums of kernel "
             "durations from CUPTI's activity records (validate/refs/kernel_time.c, loaded by the driver "
             "through CUDA_INJECTION64_PATH, so kernels launched through the CUDA runtime and through "
             "the driver API by libomptarget are both seen), in separate processes after the timed "
             "ones, one per configuration and side (never a timed process: profiling perturbs the host "
             "clock), the same conditions otherwise; the same arithmetic on both sides: "
             + "; ".join(f"{g}: {m}" for g, m in (dev.get("method") or codes.DEVICE_METHOD).items()) + ".")
    if not dev.get("on"):
        words += f" Not available in this step: {dev.get('why') or 'no profiled runs'}."
    return words


def markdown(doc):
    out = [f"# Peers: the public codes and ProxyPort by the same method ({doc['card']})", "",
           f"Node: {doc['node']}. Every figure is from this one machine. Runs alternate public, "
           f"ProxyPort, public, ... in {doc['rounds']} rounds; each side's figure is the median "
           "over its accepted runs (range in brackets). Conditions on both sides: "
           + "; ".join(doc["conditions"]) + ".", "",
           "| comparison | public code's own figure | public, same method | ProxyPort, same method "
           "| ProxyPort advantage | runs (public/ProxyPort) | method | device time |",
           "|---|---|---|---|---|---|---|---|"]
    for r in doc["rows"]:
        u = r["unit"]
        own = r.get("public_own") or {}
        own_s = f"{_fmt(own.get('value'), own.get('unit', u))} {own.get('unit', u)}" if own.get("value") else "-"
        ratio = f"{r['ratio']:.3f}x" if r["ratio"] else "-"
        if r.get("not_built"):
            ratio += f" (not built: {r['not_built']})"
        elif not r["ok"]:
            ratio += " (not comparable: see notes)"
        method = r["method"] + ("" if not r["notes"] else " Notes: " + "; ".join(r["notes"]) + ".")
        out.append(f"| {r['comparison']} | {own_s} | {_fmt(r['public'], u)}{_spread(r['public_runs'], u)} {u} "
                   f"| {_fmt(r['proxyport'], u)}{_spread(r['proxyport_runs'], u)} {u} | {ratio} "
                   f"| {len(r['public_runs'])}/{len(r['proxyport_runs'])} | {method} | {_device(r)} |")
    out += ["", "The public codes' own figures: " + "; ".join(
        sorted({f"{r['group']}: {r['public_own']['how']}" for r in doc["rows"] if r.get("public_own")})) + ".", "",
        device_words(doc), ""]
    rej = [r for r in doc["runs"] if r.get("rejected")]
    out.append(f"## Rejected runs ({len(rej)})")
    out.append("")
    out += [f"- {r['id']} {r['code']} (round {r['round']}): {r['rejected']}" for r in rej] or ["none"]
    out += ["", "## Builds", ""] + [f"- {v}" for v in doc.get("public_builds", [])]
    out += [f"- ProxyPort: {doc.get('proxyport_build', '-')}", ""]
    # each item is one line: what a file or a run gave (a card, a path, a build, a note)
    # is escaped inside it, so it can neither drive a terminal nor start a line
    return "\n".join(text.show(x, limit=0) for x in out)


def figure(doc, path):
    """Bars of the same-method ratio per row; False where matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in doc["rows"] if r["ratio"]]
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(rows) + 1.5))
    y = range(len(rows))
    ax.barh(list(y), [r["ratio"] for r in rows],
            color=["tab:blue" if r["ok"] else "tab:gray" for r in rows])
    for i, r in zip(y, rows):
        ax.text(r["ratio"], i, f" {r['ratio']:.2f}x", va="center", fontsize=8)
    ax.set_yticks(list(y), [text.figure(r["comparison"], 80) for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xlabel("ProxyPort advantage, same method (>1: ProxyPort faster; gray: not comparable)")
    ax.set_title(f"Peers by the same method ({text.figure(doc['card'], 80)})", fontsize=10)
    outfile.save_figure(fig, path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return True


def write(doc, out):
    doc["figure"] = "peers.png" if figure(doc, os.path.join(out, "peers.png")) else None
    outfile.write_json(os.path.join(out, "peers.json"), doc)
    text = markdown(doc)
    if doc["figure"]:
        text += "\n![ratios](peers.png)\n"
    else:
        text += f"\n(no figure: {no_figures.reason('validate/peers ...')})\n"
    outfile.write_text(os.path.join(out, "peers.md"), text)

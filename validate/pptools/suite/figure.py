"""The suite summary's figure of one app, drawn the same way for every app:
horizontal bars, one block per kernel (and launch-shape family), one bar per model;
the ratio to the base model on a log axis (1 = the base; the same axis for every app
whatever the span), and beside each bar its ratio and its figure of merit with the
unit, so that a reader need not look the table up. Rows whose ratio means nothing on
this node (comparable.py) get no bar, only their reason in gray. A second panel, where
rows have one, shows the fraction of the copy ceiling on a linear 0-1 axis."""
from .. import text
from .. import result as resultfile

FONT = 9        # tick labels and the values beside the bars: legible at 100% zoom
BAR_IN = 0.22   # inches per bar: 16 pt, room for a 9 pt value


def fom_text(r):
    """'0.88x  2750 GB/s': the ratio, then the figure of merit and its unit."""
    return f"{r['_ratio']:.3g}x  {r['fom']:.4g} {r.get('fom_unit') or ''}".rstrip()


def draw(app, rows, base, smoke=None, measure="performance", value=fom_text):
    """A matplotlib Figure. rows: the summary's rows of one app (ratio_to_<base>, fom,
    fom_unit, fraction_of_copy_ceiling, not_comparable); measure names what the ratio
    divides (the energy figure: work per joule); value(row) the text beside a bar."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    family = resultfile.family
    key = "ratio_to_" + base
    # every name as drawn: escaped and short (a name of a million characters ran matplotlib
    # out of memory); "$" is not mathtext
    rows = [dict(r, kernel=text.figure(r["kernel"]), variant=text.figure(r["variant"]),
                 label=text.figure(r["label"]), fom_unit=text.figure(r.get("fom_unit") or "")) for r in rows]
    base, app = text.figure(base), text.figure(app)
    groups = sorted({(r["kernel"], family(r["variant"])) for r in rows})
    labels = sorted({r["label"] for r in rows})
    colors = {lab: f"C{i % 10}" for i, lab in enumerate(labels)}
    frac = [r for r in rows if r.get("fraction_of_copy_ceiling") is not None]
    slots = [(g, lab) for g in groups for lab in labels
             if any((r["kernel"], family(r["variant"])) == g and r["label"] == lab for r in rows)]
    height = BAR_IN * (len(slots) + len(groups)) + 2.0
    fig, axes = plt.subplots(1, 2 if frac else 1, figsize=(13 if frac else 9, height), squeeze=False,
                             gridspec_kw={"width_ratios": [2, 1]} if frac else None, sharey=True)
    ax = axes[0][0]
    ys, ticks, shown = [], [], []
    y = 0.0
    for g in groups:
        first = y
        for lab in labels:
            r = next((r for r in rows if (r["kernel"], family(r["variant"])) == g and r["label"] == lab), None)
            if r is None:
                continue
            ys.append((y, r))
            y += 1
        ticks.append(((first + y - 1) / 2, f"{g[0]} ({g[1]})" if g[1] else g[0]))
        y += 1  # a gap between kernels
    for yy, r in ys:
        v = r.get(key)
        if r.get("not_comparable"):
            ax.text(1.0, yy, f"  {r['label']}: not comparable here ({r['not_comparable']})", va="center",
                    fontsize=FONT - 1, color="0.45")
        elif v is not None and v > 0:
            ax.barh(yy, v, 0.8, color=colors[r["label"]])
            shown.append(v)
            ax.text(v, yy, "  " + value(dict(r, _ratio=v)), va="center", fontsize=FONT)
    lo = min(shown + [1.0]) / 3
    hi = max(shown + [1.0]) * 30  # room for the value beside the longest bar
    ax.set_xscale("log")
    ax.set_xlim(lo, hi)
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_yticks([t for t, _ in ticks], [n for _, n in ticks], fontsize=FONT)
    ax.invert_yaxis()
    ax.tick_params(axis="x", labelsize=FONT)
    ax.set_xlabel(f"{measure} / {base} (log; >1: better than {base})", fontsize=FONT)
    if frac:
        fx = axes[0][1]
        for yy, r in ys:
            f = r.get("fraction_of_copy_ceiling")
            if f is not None:
                fx.barh(yy, f, 0.8, color=colors[r["label"]])
                fx.text(f, yy, f" {100 * f:.0f}%", va="center", fontsize=FONT)
        fx.set_xlim(0, max([1.25] + [1.25 * r["fraction_of_copy_ceiling"] for r in frac]))
        fx.axvline(1.0, color="k", lw=0.6, ls=":")
        fx.tick_params(axis="both", labelsize=FONT)
        fx.set_xlabel("fraction of the copy ceiling", fontsize=FONT)
    title = f"{app}: {measure}, median of the runs, largest size, best launch shape"
    if smoke:
        title += "\nsmoke-test numbers, not performance"
    # title, then the models' legend, above the panels; inches kept for them whatever the height
    fig.suptitle(title, fontsize=FONT + 1, y=1 - 0.1 / height, va="top")
    handles = [matplotlib.patches.Patch(color=colors[lab], label=lab) for lab in labels]
    fig.legend(handles=handles, fontsize=FONT, loc="upper center", ncol=min(len(labels), 6), frameon=False,
               bbox_to_anchor=(0.5, 1 - 0.55 / height))
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.9 / height))
    return fig

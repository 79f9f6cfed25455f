"""Cascade plots (Sewall et al., "Interpreting and Visualizing Performance
Portability Metrics", 2020): per model, its efficiencies on the machines
sorted highest first (markers) and the PP of the first k of them (line), so
the point where a machine pulls PP down is visible; under each plot, which
machine sits at each position for each model. A model that does not run on a
machine has efficiency 0 there, and its PP line drops to 0 at that position."""
from .. import outfile
from ..text import figure as F
from . import metric

MARKERS = "osD^vP*X"


def _short(names):
    return {n: f"M{i + 1}" for i, n in enumerate(names)}


def draw(comparisons, machines, path, which="app", title=None):
    """One panel per comparison (all over the same machine list); which: "app"
    (application efficiency) or "arch" (architectural). machines: {name: card}."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = comparisons[0]["machines"]
    short = _short(names)
    models = []
    for c in comparisons:
        models += [r["model"] for r in c["rows"] if r["model"] not in models]
    cmap = plt.get_cmap("tab10")
    style = {m: (cmap(i % 10), MARKERS[i % len(MARKERS)]) for i, m in enumerate(models)}
    n = len(comparisons)
    cols = min(3, n)
    nrows = (n + cols - 1) // cols
    fig = plt.figure(figsize=(4.6 * cols, 4.6 * nrows + 0.3))
    grid = fig.add_gridspec(2 * nrows, cols, height_ratios=[3, 0.25 + 0.22 * len(models)] * nrows,
                            hspace=0.45, wspace=0.3)
    xs = list(range(1, len(names) + 1))
    for i, c in enumerate(comparisons):
        r, col = divmod(i, cols)
        ax = fig.add_subplot(grid[2 * r, col])
        tab = fig.add_subplot(grid[2 * r + 1, col])
        order = []
        top = 1.0
        for row in c["rows"]:
            effs = {m: row["cells"][m].get(which + "_eff") for m in names}
            casc = metric.cascade(effs)
            color, marker = style[row["model"]]
            ax.plot(xs, [e for _, e, _ in casc], marker, color=color, markersize=6, linestyle="none")
            ax.plot(xs, [p for _, _, p in casc], "-", color=color, linewidth=1.5)
            order.append((row["model"], [short[m] for m, _, _ in casc]))
            top = max([top] + [e for _, e, _ in casc])
        ax.set_xticks(xs)
        ax.set_xlim(0.6, len(names) + 0.4)
        ax.set_ylim(0, top * 1.06)
        ax.set_xlabel("k: machines added, highest efficiency first", fontsize=8)
        ax.set_ylabel(("application" if which == "app" else "architectural") + " efficiency", fontsize=8)
        var = f", {c['variant']}" if c["variant"] else ""
        ax.set_title(f"{F(c['app'])} {F(c['kernel'])}, size {F(c['size'])}\n{F(c['case'] + var, 80)}", fontsize=8)
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize=7)
        tab.axis("off")
        t = tab.table(cellText=[m for _, m in order], rowLabels=[F(mod) for mod, _ in order],
                      colLabels=[f"k={k}" for k in xs], loc="upper center", cellLoc="center")
        t.auto_set_font_size(False)
        t.set_fontsize(7)
    handles = []
    for m in models:
        color, marker = style[m]
        handles.append(plt.Line2D([], [], color=color, marker=marker, linewidth=1.5,
                                  label=f"{F(m)}: efficiency (marker), PP of the first k (line)"))
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), fontsize=7, ncol=min(2, len(models)),
               frameon=False)
    key = "\n".join(f"{short[m]} = {F(m)}: {F(machines[m], 100)}" for m in names)
    fig.text(0.5, -0.02 - 0.03 * ((len(models) + 1) // 2), key, ha="center", va="top", fontsize=7)
    what = "application" if which == "app" else "architectural"
    fig.suptitle(title or f"Cascade of {what} efficiency (Sewall et al. 2020); efficiencies compare "
                 "models within one machine; tables: the machine at each k", fontsize=9)
    outfile.save_figure(fig, path, dpi=110, bbox_inches="tight")
    plt.close(fig)

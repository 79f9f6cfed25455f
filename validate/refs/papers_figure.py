"""The papers' figure repeated (validate/refs/papers.py --collect draws it): SpMV time per
call and the CG solve's time per iteration at N = 150, 255, 325, each code and path as a bar,
normalized to Kokkos CUDA (the papers' "Kokkos-native") at the same N; and TestSNAP's steady
step beside Kokkos CUDA. Only rows that ran and were accepted are drawn; a bar's label names
the build. matplotlib is optional: without it the figure is not drawn and draw() says why."""

CG_PANELS = (("spmv_vs_kokkos_cuda", "SpMV (time per call)"), ("solve_vs_kokkos_cuda", "CG solve (time per iteration)"))


def _bars(rows, key):
    """{label: {N: ratio}} in first-seen order, for rows that ran with a ratio."""
    out = {}
    for r in rows:
        if r.get("status") == "ok" and r.get(key) is not None:
            out.setdefault(f"{r['code'].replace('CGSolve-', '')} {r['path']}", {})[r["N"]] = r[key]
    return out


def draw(tables, out_png):
    """Writes out_png from papers.json's tables; None, or the reason it was not drawn."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "not drawn: matplotlib is not installed"
    cg, ts = tables.get("cgsolve") or [], [r for r in tables.get("testsnap") or [] if r.get("status") == "ok"]
    sizes = sorted({r["N"] for r in cg if r.get("status") == "ok"})
    if not sizes:
        return "not drawn: no CGSolve row ran"
    fig, axes = plt.subplots(1, 3, figsize=(17, 6.5), gridspec_kw={"width_ratios": [3, 3, 1.2]})
    for ax, (key, title) in zip(axes, CG_PANELS):
        bars = _bars(cg, key)
        width = 0.8 / max(len(bars), 1)
        colors = plt.get_cmap("tab20").colors  # one color a bar: more bars than tab10 has
        for i, (label, by_n) in enumerate(bars.items()):
            xs = [sizes.index(n) + (i - (len(bars) - 1) / 2) * width for n in by_n]
            ax.bar(xs, list(by_n.values()), width, label=label, color=colors[i % len(colors)])
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(sizes)), [f"N = {n}" for n in sizes])
        ax.set_ylabel("relative to Kokkos CUDA (> 1 faster)")
        ax.set_title(title)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=6, fontsize=8)
    names = [r["code"].replace("TestSNAP-", "") for r in ts]
    axes[2].bar(range(len(ts)), [r.get("steady_vs_kokkos_cuda") or 0 for r in ts], color="tab:gray")
    axes[2].axhline(1.0, color="black", linewidth=0.8)
    axes[2].set_xticks(range(len(ts)), names, rotation=30, ha="right", fontsize=8)
    axes[2].set_title("TestSNAP W_2J14 step (steady)")
    fig.suptitle("The papers' systems beside ProxyPort, normalized to Kokkos CUDA (validate/refs/papers.sh)")
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    fig.savefig(out_png, dpi=110)
    plt.close(fig)
    return None

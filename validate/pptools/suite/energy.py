"""Work per joule in the suite summary: per app, kernel and model, the median over the
repeats of each row's figure of merit per joule (the row's `energy`, pp/row.h), its power
and idle power, and the ratio to the base model's work per joule; rows whose region stayed
below the counter's resolution are marked. Where no row has energy, the reason the result
files give (no counter on this machine, --no-energy) is what the summary says."""
import math

from .. import no_figures, outfile, runset, text
from ..text import cell as C
from ..text import show


def energy_of(rs):
    """The energy fields of one headline row from its per-process rows `rs`."""
    ens = [r["energy"] for r in rs if isinstance(r.get("energy"), dict)]
    pj = [e["fom_per_joule"] for e in ens if isinstance(e.get("fom_per_joule"), (int, float))]
    watts = [e["watts"] for e in ens if isinstance(e.get("watts"), (int, float))]
    idle = [e["idle_watts"] for e in ens if isinstance(e.get("idle_watts"), (int, float))]
    note = next((r["energy"] for r in rs if isinstance(r.get("energy"), str)), None)
    return {"per_joule": runset.median(pj),
            "per_joule_unit": next((e.get("fom_per_joule_unit") for e in ens if e.get("fom_per_joule_unit")), ""),
            "watts": runset.median(watts),
            "idle_watts": runset.median(idle),
            "energy_below_resolution": any(e.get("below_counter_resolution") for e in ens),
            # the metered runs' time per repetition over the row's (1: the row's own pace)
            "metered_time_ratio": runset.median([e["metered_time_ratio"] for e in ens
                                                 if isinstance(e.get("metered_time_ratio"), (int, float))]),
            "energy_note": None if pj else note}


def add_ratios(rows, base, is_base):
    """rows: {(kernel, label, family): row}; each row gets per_joule_ratio_to_<base>, its
    work per joule over that of the base model's row of the same kernel and family."""
    for (kernel, _, fam), r in rows.items():
        ref = next((n for (k2, _, f2), n in rows.items() if k2 == kernel and f2 == fam and is_base(n)), None)
        ok = ref and r.get("per_joule") and ref.get("per_joule")
        r["per_joule_ratio_to_" + base] = r["per_joule"] / ref["per_joule"] if ok else None


def fmt(x, spec=".3g"):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, spec)


def markdown(app, rlist, base, fig):
    """The app's work-per-joule section (lines), or one line saying why there is none."""
    rows = [r for r in rlist if r.get("per_joule") is not None]
    if not rows:
        why = next((r["energy_note"] for r in rlist if r.get("energy_note")), "no energy in the result files")
        return [f"Work per joule: none ({show(why, 1000)}).", ""]
    md = [f"### {app}: work per joule", "", f"![{app} energy]({fig})" if fig else "(no figure)", "",
          f"| kernel | model | size | variant | per joule | unit | W | idle W | vs {base} | note |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        md.append(f"| {C(r['kernel'])} | {C(r['label'])} | {r['size']} | {C(r['variant'] or '-')} | {fmt(r['per_joule'], '.4g')} "
                  f"| {C(r['per_joule_unit'])} | {fmt(r['watts'], '.0f')} | {fmt(r['idle_watts'], '.0f')} "
                  f"| {fmt(r.get('per_joule_ratio_to_' + base))} "
                  f"| {'below the counter resolution' if r['energy_below_resolution'] else ''} |")
    return md + [""]


def figure(app, rlist, base, path, draw, smoke=None):
    """Bars of the work-per-joule ratios, drawn by `draw` (the summary's FOM figure, whose
    layout they share); None, or why no figure."""
    rows = [dict(r, fraction_of_copy_ceiling=None, **{"ratio_to_" + base: r.get("per_joule_ratio_to_" + base)})
            for r in rlist if r.get("per_joule") is not None]
    if not rows:
        return "no row has energy"
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # ImportError, or a matplotlib built for another numpy
        return no_figures.reason()
    fig = draw(app, rows, base, smoke, measure="work per joule",
               value=lambda r: f"{r['_ratio']:.3g}x  {r['per_joule']:.4g} {text.figure(r['per_joule_unit'])}")
    outfile.save_figure(fig, path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return None

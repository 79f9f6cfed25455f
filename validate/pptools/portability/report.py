"""The Markdown table and the JSON document of a portability analysis."""
from .. import apps as manifests
from .. import project
from ..text import cell as C
from ..text import show
from .analysis import short_status

SCHEMA = "proxyport-portability-1"


def main_rows():
    """The rows of an app that a Markdown table shows by default (--rows main): its
    manifest's headline_rows (the whole run where an app times one: cgsolve's solve,
    testsnap's step; microbench's BabelStream kernels), every row of the others; the JSON
    has every row. {app: set of rows}, and the apps whose largest size measured on the
    row's machines alone stands for them (headline_largest_size)."""
    main = {a: set(manifests.get(a, "headline_rows")) for a in manifests.apps_with("headline_rows")}
    return main, {a for a in main if manifests.get(a, "headline_largest_size", False)}


def main_help():
    main, largest = main_rows()
    return "; ".join(f"{a}: {', '.join(sorted(k))}" for a, k in main.items()) + \
        " (" + ", ".join(sorted(largest)) + " at the largest size); every row of the other apps"


def is_main(c, comps=()):
    main, largest = main_rows() if c["app"] in project.apps() else ({}, set())
    if c["kernel"] not in main.get(c["app"], {c["kernel"]}):
        return False
    if c["app"] in largest:
        sizes = [int(o["size"]) for o in comps if (o["app"], o["kernel"], o["machines"]) ==
                 (c["app"], c["kernel"], c["machines"]) and o["size"].isdigit()]
        return not sizes or not c["size"].isdigit() or int(c["size"]) == max(sizes)
    return True


def fmt(x):
    return "-" if x is None else f"{x:.3f}"


def cell(c):
    if c["status"] != "ok":
        return short_status(c["status"])
    return f"{fmt(c['app_eff'])} / {fmt(c.get('arch_eff'))}"


def pp_cell(x, why):
    if x is None:
        return "-"
    return f"**0** ({why})" if x == 0 and why else fmt(x)


def machine_table(machines):
    lines = ["| machine | card | GPUs per run | builds (git) | files compared |", "|---|---|---|---|---|"]
    for m in machines:
        ranks = "/".join(map(str, sorted(set(m.ranks.values()))))
        revs = sorted({r for v in m.revisions.values() for r in v})
        used = sorted({f for e in m.entries.values() for f in e["files"]})
        unused = len(m.files) - len(used) if m.kind != "suite run" else 0
        lines.append(f"| {C(m.name)} | {C(', '.join(sorted(m.cards)) or '?', 1000)} | {ranks} (one per MPI rank) | "
                     f"{C(', '.join(revs), 1000)} | {m.kind}: {C(', '.join(used), 4000)}"
                     + (f" ({unused} at fewer ranks not compared)" if unused > 0 else "")
                     + (f"; not result files: {C(', '.join(m.skipped), 4000)}" if m.skipped else "") + " |")
    return lines


def markdown(machines, comps, rows="main", min_machines=2, heading="##", figures=(), models=None):
    sets = {}
    for c in comps:
        if len(c["machines"]) >= min_machines and (rows == "all" or is_main(c, comps)):
            sets.setdefault(tuple(c["machines"]), []).append(c)
    hidden = sum(1 for c in comps if len(c["machines"]) < min_machines)
    out = [f"{heading} Machines", ""] + machine_table(machines) + [""]
    out += ["Each cell: application efficiency / architectural efficiency of the model on that machine.",
            "Application efficiency is the model's FOM over the best validated FOM of the models",
            "compared" + (f" ({', '.join(models)})" if models else "")
            + " on the same machine for the same row (app, case, kernel, size, variant; the model's best launch",
            "shape): efficiencies compare models within one machine, never across machines.",
            "Architectural efficiency is the row's own fraction of the copy ceiling the run measured",
            "on its device (bandwidth-bound rows: the minimum traffic over the ceiling), or achieved",
            "FLOP/s over a FLOP roof where one is given (`--flop-roof`); `-` where neither applies.",
            "PP is the harmonic mean of a model's efficiencies over the machines of the row",
            "(Pennycook, Sewall and Lee, \"A Metric for Performance Portability\", 2016), and **0**",
            "when the model is not built, did not run, was not run or failed validation on one of",
            "them. The case is the run's problem options (`default`: none). Where the machines' builds",
            "differ (the builds column), PP measures the code of each machine's build.", ""]
    for f in figures:
        out += [f, ""]
    for names, cs in sorted(sets.items(), key=lambda kv: (-len(kv[0]), kv[0])):
        n_machines = f"{len(names)} machine{'s' if len(names) > 1 else ''}"
        out += [f"{heading}# Rows measured on {show(', '.join(names), 1000)} ({n_machines})", ""]
        out += ["| app | case | kernel | size | variant | model | " + " | ".join(C(n) for n in names)
                + " | PP (app) | PP (arch) | arch basis |",
                "|---" * (9 + len(names)) + "|"]
        for c in cs:
            for r in c["rows"]:
                one = " (the only model)" if c["models_compared"] == 1 else ""
                out.append(f"| {C(c['app'])} | {C(c['case'], 1000)} | {C(c['kernel'])}{one} | {C(c['size'])} "
                           f"| {C(c['variant'] or '-')} | {C(r['model'])} | " + " | ".join(cell(r["cells"][n]) for n in names)
                           + f" | {pp_cell(r['pp_app'], r['why_zero'])} | {pp_cell(r['pp_arch'], r['why_zero'])}"
                           + f" | {r['arch_basis'] or 'none'} |")
        out.append("")
    labels = {}
    for c in comps:
        for r in c["rows"]:
            for n, ce in r["cells"].items():
                if ce.get("label") and ce["label"] != r["model"]:
                    labels.setdefault(n, set()).add(ce["label"])
    if labels:
        out += ["Builds compared as one model: " + "; ".join(
            f"{show(n)}: {show(', '.join(sorted(v)), 1000)}" for n, v in sorted(labels.items())) + ".", ""]
    never = sorted({why for m in machines for st in m.status.values() for k, why in st.items()
                    if why.startswith("not built") and not any(r["model"] == k for c in comps for r in c["rows"])})
    models_never = sorted({k for m in machines for st in m.status.values() for k, why in st.items()
                           if why.startswith("not built")} - {r["model"] for c in comps for r in c["rows"]})
    if models_never:
        out += [f"Not built on any machine (not portable to any; in no row): {show(', '.join(models_never), 1000)}"
                f" ({show('; '.join(never), 2000)}).", ""]
    if hidden:
        out += [f"{hidden} row(s) measured on fewer than {min_machines} machines are in the JSON only.", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def document(machines, comps, roofs):
    return {"schema": SCHEMA,
            "method": {"application_efficiency": "FOM / best validated FOM of any model on the same machine, "
                                                 "same app, case, kernel, size and variant (inverted for "
                                                 "lower-is-better FOMs); launch shapes: each model's best",
                       "architectural_efficiency": "the row's fraction_of_copy_ceiling, else achieved FLOP/s "
                                                   "(flops_per_run / median time) over --flop-roof x ranks",
                       "pp": "harmonic mean over the machines of the row; 0 when the model is not built, did "
                             "not run, was not run or failed validation on one (Pennycook, Sewall and Lee, "
                             "'A Metric for Performance Portability', 2016)",
                       "cascade": "machines sorted by efficiency, PP of the first k (Sewall et al., "
                                  "'Interpreting and Visualizing Performance Portability Metrics', 2020)",
                       "flop_roofs_gflops_per_gpu": roofs},
            "machines": [{"name": m.name, "folder": m.folder, "kind": m.kind, "cards": sorted(m.cards),
                          "files": m.files, "skipped": m.skipped,
                          "ranks": [{"app": a, "case": c, "ranks": n} for (a, c), n in sorted(m.ranks.items())]}
                         for m in machines],
            "comparisons": comps}

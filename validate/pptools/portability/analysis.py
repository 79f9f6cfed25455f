"""The comparisons: each row (app, case, kernel, size, variant) across the
machines that measured it, per model, with both efficiencies and PP.

The machine set H of a comparison is every machine that has the row for at
least one model; a model without the row on a machine of H is "not built",
"did not run" (the run's device record or the suite run says why) or "not
run" (that machine's run did not ask for the model), and its PP is 0.
"""
from .. import project
from .. import result as resultfile
from . import metric

BadInput = resultfile.BadInput
NOT_RUN = "not run (the machine's run did not ask for it)"


def _model_order(names):
    known = list(project.models()) + [NATIVE]
    return sorted(names, key=lambda n: (known.index(n) if n in known else len(known), n))


NATIVE = "native"  # --by native: the GPU vendor's own model of each machine (cuda, hip) as one


def _missing(machine, app, case, mk):
    nr = machine.ranks.get((app, case))
    st = machine.status.get((app, case, nr), {})
    if mk == NATIVE:
        whys = [st[n] for n in resultfile.native_models() if n in st]
        if whys and len(whys) == len(resultfile.native_models()):
            return whys[0]
    if mk in st:
        return st[mk]
    if machine.failed.get(app):
        return "did not run: " + "; ".join(machine.failed[app])
    return NOT_RUN


def short_status(why):
    """The table's word for a model without an efficiency."""
    if why.startswith("not built"):
        return "not built"
    if why.startswith("failed validation"):
        return "failed validation"
    if why.startswith("did not run"):
        return "did not run"
    if why.startswith("not run"):
        return "not run"
    return why


def arch_efficiency(e, machine, roofs, ranks):
    """(value, basis) of a validated entry, or (None, None)."""
    if e.get("copy_fraction") is not None:
        return e["copy_fraction"], "copy ceiling"
    roof = roofs.get(machine.name)
    if roof and e.get("flops_per_run") and e.get("time_s"):
        return e["flops_per_run"] / e["time_s"] / 1e9 / (roof * ranks), "FLOP roof"
    return None, None


def analyse(machines, by="model", models=None, roofs=None):
    roofs = roofs or {}
    per_cmp = {}  # (app, case, kernel, size, family) -> {machine name: {model key: entry}}
    for m in machines:
        for (app, case, _nr, kernel, _label, size, variant), e in m.entries.items():
            if models and e["model"] not in models:
                continue  # neither shown nor the best: the comparison is among the models asked for
            ck = (app, case, kernel, size, resultfile.family(variant))
            mk = e["label"] if by == "label" else \
                NATIVE if by == NATIVE and resultfile.is_native(e["model"]) else e["model"]
            d = per_cmp.setdefault(ck, {}).setdefault(m.name, {})
            if mk in d:
                raise BadInput(f"{m.folder}: {d[mk]['label']} and {e['label']} are both model {mk} in "
                               f"{app} {kernel} (case '{case}'): compare them with --by label")
            d[mk] = e
    out = []
    for ck, per in sorted(per_cmp.items()):
        app, case, kernel, size, fam = ck
        hset = [m for m in machines if m.name in per]
        all_entries = [e for m in hset for e in per[m.name].values()]
        hib = all_entries[0]["higher_is_better"]
        units = sorted({e["fom_unit"] for e in all_entries})
        if len({e["higher_is_better"] for e in all_entries}) > 1 or len(units) > 1:
            raise BadInput(f"{app} {kernel} case '{case}' size {size}: FOMs in {', '.join(units)} "
                           "or of both directions across machines; not comparable")
        best = {m.name: metric.best_fom([e["fom"] for e in per[m.name].values() if e["valid"]], hib)
                for m in hset}
        mks = _model_order({mk for m in hset for mk in per[m.name]})
        rows = []
        for mk in mks:
            cells = {}
            for m in hset:
                e = per[m.name].get(mk)
                nr = m.ranks.get((app, case), 1)
                cell = {"ranks": nr}
                if e is None:
                    cell["status"] = _missing(m, app, case, mk)
                elif not e["valid"]:
                    why = ("failed validation" + (f": {e['why_invalid']}" if e["why_invalid"] else "")
                           if e["why_invalid"] or not e["failed_run"] else f"did not run: {e['failed_run']}")
                    cell.update(status=why,
                                label=e["label"], fom=e["fom"], files=e["files"])
                else:
                    ae = metric.app_efficiency(e["fom"], best[m.name], hib)
                    arch, basis = arch_efficiency(e, m, roofs, nr)
                    cell.update(status="ok" if ae is not None else "FOM not positive", label=e["label"],
                                fom=e["fom"], best_fom=best[m.name], app_eff=ae, arch_eff=arch,
                                arch_basis=basis, shape=e["shape"], runs=e["runs"], files=e["files"])
                cells[m.name] = cell
            app_effs = {n: c.get("app_eff") for n, c in cells.items()}
            ok = all(c["status"] == "ok" for c in cells.values())
            bases = {c.get("arch_basis") for c in cells.values()}
            if not ok:
                pp_arch, basis = 0.0, next((b for b in bases if b), None)
            elif None in bases or len(bases) != 1:
                pp_arch, basis = None, None  # no ceiling or roof applies on every machine
            else:
                pp_arch, basis = metric.pp(c["arch_eff"] for c in cells.values()), bases.pop()
            fails = [f"{short_status(c['status'])} on {n}" for n, c in cells.items() if c["status"] != "ok"]
            rows.append({"model": mk, "cells": cells, "pp_app": metric.pp(app_effs.values()),
                         "pp_arch": pp_arch, "arch_basis": basis, "why_zero": "; ".join(fails),
                         "cascade_app": [list(t) for t in metric.cascade(app_effs)]})
        if rows:
            out.append({"app": app, "case": case, "kernel": kernel, "size": size,
                        "variant": fam if fam or not any(per[m.name][k]["shape"] for m in hset for k in per[m.name])
                        else "best launch shape", "fom_unit": units[0], "higher_is_better": hib,
                        "machines": [m.name for m in hset], "models_compared": len(mks), "rows": rows})
    return out

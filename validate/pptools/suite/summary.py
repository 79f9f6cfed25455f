"""summary.json, summary.md and figures/*.png of a suite run (validate/suite).

Headline rows: per app, kernel and model (row label), the largest size; rows
that differ only by launch shape ("tpb=N") are collapsed to the best one,
other variants (xsbench_like's kernels) stay apart. Each headline row carries
the median over repeats of each process's FOM, the run-to-run spread
((max - min) / median of those), the ratio to the native model (cuda/hip; the
host model when the build has none), the fraction of the copy ceiling, and the
ratio to the published reference row (results/nvidia-h200/) when the
run's GPU is the published one. Figures show exactly these numbers; summary.md
has them as tables beside the figures.
"""
import json
import math
import os
import sys

from .. import no_figures, outfile, project, runset, text
from .. import result as resultfile
from ..text import cell as C
from ..text import show
from . import cases as suite_cases
from . import comparable
from . import energy as suite_energy
from . import rules as suite_rules
from .figure import draw as draw_figure

PUBLISHED = os.path.join(project.ROOT, "results", "nvidia-h200")
family = resultfile.family


def load(path):
    """A result file, or None where there is none (a run that left no file); a file
    that is there but not a result file is refused (BadInput)."""
    if not os.path.lexists(path):
        return None
    return resultfile.load_result(path)


def headline(files, sized=None):
    """{(kernel, label, variant family): row} over the repeats' result files: the
    largest size of each (sized: per_size(files), when the caller has it)."""
    rows = {}
    for (kernel, label, fam, size), row in (sized if sized is not None else per_size(files)).items():
        old = rows.get((kernel, label, fam))
        if old is None or size > old["size"]:
            rows[(kernel, label, fam)] = row
    return rows


def per_size(files):
    """{(kernel, label, variant family, size): row}: each row's repeats combined
    (pptools/runset.py), then the family's best launch shape."""
    per = runset.gather(((r["kernel"], resultfile.label(r), r.get("size", 0), r.get("variant", "")), r)
                        for res in files for r in res["results"])
    rows = {}
    for (kernel, label, size, variant), rs in per.items():
        foms = runset.foms(rs)
        if not foms:
            continue
        hib = rs[0].get("fom_higher_is_better", True)
        rows[(kernel, label, size, variant)] = {
            "kernel": kernel, "label": label, "model": rs[0]["model"], "size": size,
            "variant": variant, "fom": runset.median(foms), "fom_unit": rs[0].get("fom_unit", ""),
            "higher_is_better": hib, "runs": len(foms), "spread": runset.spread(foms),
            "fraction_of_copy_ceiling": runset.copy_fraction(rs),
            "valid": all(r.get("valid") for r in rs), "foms": foms, "time_s": median_time(rs),
            **suite_energy.energy_of(rs)}
    return runset.best_shape(rows, lambda k: (k[0], k[1], family(k[3]), k[2]),
                             lambda row: runset.fom_rank(row["fom"], row["higher_is_better"]))


def median_time(rs):
    """The median over the repeats of each one's median time (s), or None."""
    ts = [t.get("median") if isinstance(t, dict) else t for t in (r.get("time_s") for r in rs)]
    return runset.median(t for t in ts if t is not None)


def ratio(row, ref):
    if not ref or not ref["fom"] or not row["fom"]:
        return None
    return row["fom"] / ref["fom"] if row["higher_is_better"] else ref["fom"] / row["fom"]


def gpu_name(res):
    for d in res.get("devices") or []:
        if resultfile.is_native(d.get("model")) and d.get("ran"):
            return d.get("name")
    return None


def add_ratios(rows, sized, published_rows, same_gpu):
    """Ratios to the native (or host) model and to the published row; where the published
    file has the kernel at another size than the headline's, the run's row at that size
    (sized: per_size of the run) is compared, and published_size says so."""
    natives = {k: r for k, r in rows.items() if resultfile.is_native(r["model"])}
    ref_model = project.reference_model()
    base_model = "native" if natives else ref_model
    for (kernel, label, fam), r in rows.items():
        if natives:
            ref = [n for (k2, _, f2), n in natives.items() if k2 == kernel and f2 == fam]
        else:
            ref = [n for (k2, _, f2), n in rows.items() if k2 == kernel and f2 == fam and n["model"] == ref_model]
        r["ratio_to_" + base_model] = ratio(r, ref[0]) if ref and ref[0] is not r else (1.0 if ref else None)
        pub = published_rows.get((kernel, label, fam)) if same_gpu else None
        if pub is None and same_gpu:
            pub = next((p for (k2, _, f2), p in published_rows.items()
                        if k2 == kernel and f2 == fam and p["model"] == r["model"]), None)
        same = sized.get((kernel, label, fam, pub["size"])) if pub else None
        r["ratio_to_published"] = ratio(same, pub) if same else None
        r["published_size"] = pub["size"] if same and pub["size"] != r["size"] else None
    return base_model


def published_at(r):
    """' (at N)' where the published row compared is of another size than the headline's."""
    return f" (at {r['published_size']})" if r.get("published_size") else ""


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def figure(app, rows, base, path, smoke=None):
    """draw_figure written to path; None, or why there is no figure."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # ImportError, or a matplotlib built for another numpy
        return no_figures.reason()
    fig = draw_figure(app, rows, base, smoke)
    outfile.save_figure(fig, path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return None


def gpu_ran(files):
    """Whether a GPU model ran in any of these result files."""
    return any(d.get("is_gpu") and d.get("ran") for res in files for d in res.get("devices") or [])


def cpus_online(res):
    """The CPUs of a result file's (first) system record, or None."""
    recs = res.get("system") or []
    recs = recs if isinstance(recs, list) else [recs]
    return recs[0].get("cpus_online") if recs else None


def vs_base(r, base):
    """The table's ratio to the base, or why it means nothing on this node."""
    if r.get("not_comparable"):
        return f"n/c: {r['not_comparable']}"
    return fmt(r["ratio_to_" + base])


def smoke_test(plan, results):
    """Why the run's numbers are smoke-test numbers and not performance, or None:
    any scale but the reference sizes, or no GPU model ran (a CPU machine)."""
    if plan.get("scale") != "reference":
        return (f"scale '{plan.get('scale', '?')}': sizes that fit a CPU machine in minutes, not the "
                "reference case (RUNRULES.md)")
    if not gpu_ran([res for _, res in results if res]):
        return "no GPU model ran: the ratios compare CPU runs of GPU code"
    return None


def smoke_note(smoke, failures):
    """summary.md's first line for smoke-test numbers. It says the suite validates here only
    when every run did: a run that failed (a GPU build on a node without its GPU) shows nothing."""
    shown = ("the suite builds, runs and validates here" if not failures else
             f"nothing about this machine: {len(failures)} run(s) failed or did not validate (listed below)")
    return (f"**Smoke-test numbers, not performance.** {smoke[0].upper() + smoke[1:]}. The run shows {shown}; "
            "its times and ratios say nothing of how fast a GPU or a programming model is.")


def describe_system(res):
    """One line: the hosts, CPU and GPUs of a result file's system records."""
    recs = res.get("system") or []
    recs = recs if isinstance(recs, list) else [recs]
    if not recs:
        return "no system record"
    hosts = sorted({str(r.get("hostname") or "?") for r in recs})
    r0 = recs[0]
    gpus = sorted({f"{d.get('name')} ({d.get('uuid') or 'no uuid'}), driver {d.get('driver') or '?'}, "
                   f"{d.get('driver_api') or '?'}" for r in recs for d in r.get("devices") or []
                   if d.get("is_gpu") and d.get("model") in project.device_models()})
    sched = r0.get("scheduler") or {}
    job = f"; job {sched.get('job_id')}" if isinstance(sched, dict) and sched.get("job_id") else ""
    return show(f"{len(recs)} rank(s) on {', '.join(hosts)}: {r0.get('os', '?')}, kernel "
                f"{r0.get('kernel', '?')}, {r0.get('cpu_model', '?')} "
                f"({r0.get('cpus_online', '?')} CPUs); GPUs: {'; '.join(gpus) or 'none'}{job}", 2000)


def fmt(x, spec=".3g"):
    return "-" if x is None else format(x, spec)


def check_plan(plan, name):
    """A suite.json as the summary and the rules read it: refused (BadInput) unless
    every field they use has its type; missing optional fields get their defaults."""
    def bad(where, why):
        raise resultfile.BadInput(f"{name}: {where}: {why}")
    if not isinstance(plan, dict):
        raise resultfile.BadInput(f"{name}: not a suite plan (a JSON object with \"runs\")")
    if not isinstance(plan.get("runs"), list):
        bad("runs", "not a list")
    for i, r in enumerate(plan["runs"]):
        if not isinstance(r, dict):
            bad(f"runs[{i}]", "not an object")
        if r.get("app") not in project.apps():
            bad(f"runs[{i}].app", f"{json.dumps(r.get('app'))[:40]} is not an app of apps.txt")
        for k, types in (("repeat", (int,)), ("exit", (int, type(None))), ("json", (str, type(None))),
                         ("seconds", (int, float, type(None)))):
            if k in r and (not isinstance(r[k], types) or isinstance(r[k], bool)):
                bad(f"runs[{i}].{k}", f"{json.dumps(r[k])[:40]} is not of the type a run has")
        r.setdefault("repeat", 0)
    plan.setdefault("apps", sorted({r["app"] for r in plan["runs"]}))
    if not isinstance(plan["apps"], list) or not all(a in project.apps() for a in plan["apps"]):
        bad("apps", "not a list of apps of apps.txt")
    declared = plan.setdefault("declared", {})
    if not isinstance(declared, dict) or suite_cases.check_declared(declared):
        bad("declared", "not the {app: [option, value, ...]} of an optimized run")
    for k in ("run_type", "scale", "command", "host_note", "tree", "started_utc", "inputs"):
        if plan.get(k) is not None and not isinstance(plan[k], str):
            bad(k, "not a string")
    for k in ("build",):
        if plan.setdefault(k, {}) is None or not isinstance(plan[k], dict):
            bad(k, "not an object")
    if plan.get("repeat") is not None and (not isinstance(plan["repeat"], int) or isinstance(plan["repeat"], bool)):
        bad("repeat", "not an integer")
    plan.setdefault("run_type", "baseline")
    return plan


def collect(out):
    """The run's plan (suite.json, or one made from the files found) and [(run, result)]."""
    path = os.path.join(out, "suite.json")
    if os.path.lexists(path):
        plan = check_plan(resultfile.load_json(path, limit=resultfile.RESULT_LIMIT), path)
    else:
        runs = []
        for app in suite_cases.apps():
            d = os.path.join(out, app)
            for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                if f.startswith("run") and f.endswith(".json") and f[3:-5].isdigit():
                    runs.append({"app": app, "repeat": int(f[3:-5]), "json": os.path.join(app, f)})
        plan = {"runs": runs, "apps": sorted({r["app"] for r in runs}), "run_type": "baseline",
                "declared": {}, "scale": "?", "repeat": None, "build": {}}
    results = [(r, load(os.path.join(out, r["json"])) if r.get("json") else None) for r in plan["runs"]]
    return plan, results


EXIT_MEANING = {0: "all rows PASS", 1: "a row FAILED", 2: "bad usage or input", 3: "runtime or device error"}


def exit_text(rc):
    """An app's exit status as the suite says it ("exit 3: runtime or device error")."""
    return f"exit {rc}: {EXIT_MEANING[rc]}" if rc in EXIT_MEANING else f"exit {rc}"


def run_problem(r, res):
    """Why run r of the plan (res: its result file, None if absent) is not a validated
    result; None when it is."""
    rc = r.get("exit")
    if rc is None and res is None:
        return "did not run (the suite run stopped before it: interrupted?)"
    if rc not in (0, None):
        return exit_text(rc)
    if res is None:
        return "exit 0 but no result file"
    return None if res.get("validated") else "not validated"


def write(out, reportable, repo):
    plan, results = collect(out)
    if not results:
        raise resultfile.BadInput(f"no runs found in {out}")
    outfile.out_dir(os.path.join(out, "figures"), "figures")
    first = next((res for _, res in results if res), {})
    summary = {"schema": "proxyport-suite-summary-1", "run_type": plan.get("run_type"),
               "scale": plan.get("scale"), "repeat": plan.get("repeat"), "command": plan.get("command"),
               "host_note": plan.get("host_note"), "declared_options": plan.get("declared", {}),
               "tree": plan.get("tree"), "started_utc": plan.get("started_utc"),
               "build": first.get("build"), "system": first.get("system"), "apps": {}}
    failures = [f"{r['app']} repeat {r['repeat']}: {why}" for r, res in results if (why := run_problem(r, res))]
    smoke = smoke_test(plan, results)
    summary["smoke_test"] = smoke
    md = [f"# ProxyPort suite: {plan.get('run_type', '?')} run, scale {plan.get('scale', '?')}", ""]
    if smoke:
        md += [smoke_note(smoke, failures), ""]
    all_pub = []
    for app in plan["apps"]:
        files = [res for r, res in results if r["app"] == app and res]
        if not files:
            continue
        sized = per_size(files)
        rows = headline(files, sized)
        published = suite_cases.case(app)["published"]  # None: the app has no published case
        pubfile = load(os.path.join(PUBLISHED, published)) if published else None
        same_gpu = bool(pubfile and gpu_name(files[0]) and gpu_name(files[0]) == gpu_name(pubfile))
        base = add_ratios(rows, sized, headline([pubfile]) if pubfile else {}, same_gpu)
        comparable.mark(rows, base, gpu_ran(files), cpus_online(files[0]))
        rlist = sorted(rows.values(), key=lambda r: (r["kernel"], r["variant"], r["label"]))
        gm = geomean([r["ratio_to_published"] for r in rlist])
        if gm:
            all_pub.append(gm)
        fig = f"figures/{app}.png"
        err = figure(app, rlist, base, os.path.join(out, fig), smoke)
        summary["apps"][app] = {"rows": rlist, "ratio_base": base, "runs": len(files),
                                "published_reference": suite_cases.case(app)["published"] if same_gpu else None,
                                "geomean_ratio_to_published": gm, "figure": None if err else fig}
        md += [f"## {app}", "",
               f"{len(files)} run(s); ratios to the {base} model" + (" (smoke-test numbers)" if smoke else "")
               + (f"; geometric mean of the ratios to the published H200 reference "
                  f"({suite_cases.case(app)['published']}): {fmt(gm)}" if same_gpu
                  else "; no published reference for this GPU"), ""]
        md += [f"![{app}]({fig})" if not err else f"(no figure: {err})", ""]
        suite_energy.add_ratios(rows, base, lambda n, b=base: resultfile.is_native(n["model"]) if b == "native"
                                else n["model"] == project.reference_model())
        efig = f"figures/{app}-energy.png"
        eerr = suite_energy.figure(app, rlist, base, os.path.join(out, efig), draw_figure, smoke)
        summary["apps"][app]["energy_figure"] = None if eerr else efig
        md += [f"| kernel | model | size | variant | FOM | unit | spread | vs {base} | %copy | vs published | valid |",
               "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in rlist:
            frac = r["fraction_of_copy_ceiling"]
            pct = "%" if r["spread"] is not None else ""
            md.append(f"| {C(r['kernel'])} | {C(r['label'])} | {r['size']} | {C(r['variant'] or '-')} | {fmt(r['fom'], '.4g')} "
                      f"| {C(r['fom_unit'])} | {fmt(r['spread'] and 100 * r['spread'], '.1f')}{pct} "
                      f"| {vs_base(r, base)} | {fmt(frac and 100 * frac, '.0f')} "
                      f"| {fmt(r['ratio_to_published'])}{published_at(r)} | {'PASS' if r['valid'] else 'FAIL'} |")
        md.append("")
        md += suite_energy.markdown(app, rlist, base, None if eerr else efig)
    summary["geomean_ratio_to_published"] = geomean(all_pub)
    violations = suite_rules.after_run(plan, results, repo) if reportable else []
    summary["reportable"] = {"asked": reportable, "ok": reportable and not violations, "violations": violations}
    summary["failures"] = failures
    head = [f"- command: `{show(plan.get('command', '?'), 4000)}`; started {show(plan.get('started_utc', '?'))} UTC",
            f"- build: {show((first.get('build') or {}).get('tag', '?'))}, git "
            f"{show((first.get('build') or {}).get('git_revision', '?'))}"
            f"{' (dirty)' if (first.get('build') or {}).get('git_dirty') else ''}; "
            f"tree: {show(plan.get('tree', 'not checked'), 1000)}",
            f"- system: {describe_system(first)}",
            f"- {show(plan.get('host_note', ''), 1000)}",
            f"- declared option changes: {json.dumps(plan.get('declared') or {})}",
            f"- suite geometric mean of the apps' ratios to the published reference: "
            f"{fmt(summary['geomean_ratio_to_published'])}",
            f"- every app validated: {'yes' if not failures else 'NO: ' + '; '.join(failures)}"]
    if reportable:
        head.append("- reportable (RUNRULES.md): " + ("yes" if not violations else "NO"))
        head += [f"  - {show(v, 2000)}" for v in violations]
    md[4 if smoke else 2:4 if smoke else 2] = head + [""]
    outfile.write_json(os.path.join(out, "summary.json"), summary)
    outfile.write_text(os.path.join(out, "summary.md"), "\n".join(md) + "\n")
    print(f"summary: {show(os.path.join(out, 'summary.md'), 2000)}" + (" (smoke-test numbers, not performance)" if smoke else ""))
    for f in failures:  # the exit status alone does not say which run
        print(f"suite: not validated: {show(f, 2000)}", file=sys.stderr)
    for v in violations:
        print(f"suite: NOT REPORTABLE: {show(v, 2000)}", file=sys.stderr)
    return 1 if failures or violations else 0

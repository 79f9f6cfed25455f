"""Strong and weak scaling of MPI runs, from their result files.

Usage: validate/scaling DIR [--out DIR] [--min-efficiency X] [--no-figures]

DIR holds one result file (--json) per run, named <app>-<series>-<P>.json
(<app>: an app whose manifest, <app>/app.toml, names scaling series; its rows
that scale: the manifest's headline_rows, else all):
P is the number of ranks (one GPU each), <series> names the case and has the
word "weak" ("n255-weak", "n255-weak-halo-host") for weak scaling (problem per
rank fixed), anything else is strong scaling (global problem fixed); a run that
states its decomposition (cgsolve) must agree with its series' name. validate/scaling-run.sh writes such a folder.

Per series, model and variant (xsbench_like's kernels), against the 1-rank run
of the same series: time per run (median), speedup, parallel efficiency
(strong: T1 / (P TP); weak: T1 / TP), the figure of merit and its share per
GPU, and for cgsolve the halo exchange's share of the iteration.

Checks (exit status 1 if any fails; each failure is printed):
  - every row of every file validated;
  - every rank count of a strong series computed the same answer as its 1-rank run
    (a weak series solves another global problem at each rank count: only its
    rows' own validation holds), as the app's manifest says ([scaling] agree,
    metrics, tolerance, floor): xsbench_like's checksum exactly, testsnap's total energy within the
    per-atom tolerance (1e-10 eV) times the atoms twice (both runs are within
    it of their references), cgsolve (strong: the same global problem) its
    final relative residual and x error within 1e-6 (relative) of the 1-rank
    run's (unless both are <= 1e-10: converged), the bound cgsolve holds
    every model to against the first;
  - GPU binding: on every node, the ranks of a run drove different GPUs
    (device UUIDs in each rank's system record).
Writes OUT/scaling.md, OUT/scaling.json and OUT/scaling-<app>.png (matplotlib):
efficiency against GPUs, one line per series, model and variant (a phase row
of xsbench_like --phases: in the tables only); the numbers are the tables of
scaling.md.
"""
import argparse
import os
import re

from .. import apps as manifests
from .. import cli, outfile, text
from .. import result as resultfile
from ..text import cell as C
from ..text import show

PROG = "scaling"
WHOLE_ROWS = {"cg_solve", "step", "event", "history"}  # a whole run's row (not one of its phases)


def main_rows_of():
    """{app: the rows that scale (its manifest's headline_rows), None for all} of the apps
    whose manifest names scaling series (the apps that split their work over ranks)."""
    return {app: set(manifests.get(app, "headline_rows")) if manifests.get(app, "headline_rows") else None
            for app in manifests.apps_with("scaling.series")}


def name_re():
    return re.compile(r"^(" + "|".join(map(re.escape, main_rows_of())) + r")-(.+)-(\d+)\.json$")


# the fields the analysis reads from each row (refused when missing)
NEEDED = ("kernel", "model", "variant", "time_s", "fom", "fom_unit", "fom_higher_is_better", "size")


def die(msg):
    raise resultfile.BadInput(msg)


def load_runs(folder):
    """{(app, series): {P: result}}"""
    runs, main_rows_by_app, name_pattern = {}, main_rows_of(), name_re()
    try:
        names = sorted(os.listdir(folder))
    except OSError as e:
        die(f"{folder}: {e.strerror}")
    for name in names:
        m = name_pattern.match(name)
        if not m:
            continue
        path = os.path.join(folder, name)
        res = resultfile.load_result(path)
        p = int(m.group(3))
        if res.get("mpi_ranks") != p:
            die(f"{path}: the name says {p} ranks, the file {res.get('mpi_ranks')}")
        want = main_rows_by_app[m.group(1)]
        for i, r in enumerate(res["results"]):
            if want is None or r["kernel"] in want:
                resultfile.require(r, NEEDED, path, f"results[{i}]")
                if r["time_s"].get("median") is None or not r["time_s"]["median"] > 0:
                    die(f"{path}: results[{i}].time_s: no positive median")
        for j, rec in enumerate(res.get("system") or []):
            if not isinstance(rec, dict) or not isinstance(rec.get("rank"), int):
                die(f"{path}: system[{j}]: no rank")
        runs.setdefault((m.group(1), m.group(2)), {})[p] = res
    if not runs:
        die(f"{folder}: no <app>-<series>-<P>.json files of {', '.join(main_rows_by_app)}")
    return runs


def main_rows(app, res):
    """{(label, variant, kernel): row} of the rows that scale (the whole solve, step, lookups,
    and xsbench_like's phase rows of --phases, each its own line)."""
    want = main_rows_of()[app]
    return {(resultfile.label(r), r["variant"], r["kernel"]): r for r in res["results"]
            if want is None or r["kernel"] in want}


def shown(s):
    """A series' variant as the tables show it: a part row (xsbench_like's event_sort)
    names its kernel after the variant."""
    part = "" if s["kernel"] in WHOLE_ROWS else s["kernel"]
    return " ".join(x for x in (s["variant"], part) if x)


def metric(row, prefix):
    for k, v in (row.get("metrics") or {}).items():
        if k.startswith(prefix):
            return v
    return None


def bindings(res):
    """Failures of the one-GPU-per-rank binding: ranks of one node sharing a GPU."""
    bad, seen = [], {}
    for sysrec in res.get("system") or []:
        for d in sysrec.get("devices") or []:
            if not d.get("is_gpu"):
                continue
            if not d.get("uuid"):
                bad.append(f"rank {sysrec['rank']} {d.get('model')}: GPU without a UUID in the system record")
                continue
            key = (d.get("model"), sysrec.get("hostname"), d["uuid"])
            if key in seen:
                bad.append(f"{d.get('model')}: ranks {seen[key]} and {sysrec['rank']} on {key[1]} share GPU {d['uuid']}")
            else:
                seen[key] = sysrec["rank"]
    return bad


def gpus_of(res):
    """'rank: UUID' for the native or first GPU model of each rank."""
    out = []
    for sysrec in res.get("system") or []:
        ids = [d["uuid"] for d in sysrec.get("devices") or [] if d.get("is_gpu") and d.get("uuid")]
        out.append(f"{sysrec['rank']}:{ids[0] if ids else '-'}")
    return out


def same_answer(app, one, row, natoms, weak):
    """None if row computed what the 1-rank row did, else why not: the app's manifest says
    how ([scaling] agree: exact, per-atom or relative, on its metrics)."""
    if weak:  # another global problem per rank count: its own validation only
        return None
    how, metrics = manifests.get(app, "scaling.agree"), manifests.get(app, "scaling.metrics", [])
    tol, floor = manifests.get(app, "scaling.tolerance", 0.0), manifests.get(app, "scaling.floor", 0.0)
    for m in metrics:
        a, b = metric(one, m), metric(row, m)
        if how == "exact":
            if a != b:
                return f"{m} {b!r} != {a!r} of 1 rank"
            continue
        if a is None or b is None:
            rows = "/".join(manifests.get(app, "headline_rows", []))
            return (f"no {m} in the rows ({app} built before that metric)" if how == "per-atom"
                    else f"no {m} in the {rows} rows")
        if how == "per-atom":  # both runs within tol per atom of their references
            bound = 2 * tol * natoms
            if abs(a - b) > bound:
                return (f"{manifests.get(app, 'scaling.quantity', m)} {b!r} differs from {a!r} of 1 rank "
                        f"by {abs(a - b):.3g} > {bound:.3g} {manifests.get(app, 'scaling.unit', '')}").rstrip()
        elif max(a, b) > floor and abs(a - b) > tol * abs(a):  # relative, unless both converged
            return f"{m} {b!r} differs from {a!r} of 1 rank by more than {tol:g} (relative)"
    return None


def is_weak(series):
    """The series' name has the word "weak" (scaling-run.sh: n255-weak, n255-weak-halo-host)."""
    return "weak" in series.split("-")


def stated_mode(res):
    """'weak' or 'strong' where the run states its decomposition (cgsolve), else None."""
    how = (res.get("problem") or {}).get("decomposition") or ""
    return next((m for m in ("weak", "strong") if f"{m} scaling" in how), None)


def analyse(runs):
    series, failures = [], []
    for (app, name), by_p in sorted(runs.items()):
        weak = is_weak(name)
        for p, res in sorted(by_p.items()):
            said = stated_mode(res)
            if said and said != ("weak" if weak else "strong"):
                failures.append(f"{app}-{name}-{p}: the series name says {'weak' if weak else 'strong'} "
                                f"scaling, the run says {said} ({res['problem']['decomposition']})")
        for p, res in sorted(by_p.items()):
            for r in res["results"]:
                if not r.get("valid"):
                    failures.append(f"{app}-{name}-{p}: {r['kernel']} {resultfile.label(r)} {r['variant']} not validated: {r.get('check', '')}")
            failures += [f"{app}-{name}-{p}: {b}" for b in bindings(res)]
        if 1 not in by_p:
            failures.append(f"{app}-{name}: no 1-rank run to scale against")
            continue
        scaled = {p: main_rows(app, res) for p, res in by_p.items()}
        # the halo as the runs describe it (a 1-rank run has none)
        halo_how = next((r["problem"]["halo"] for _, r in sorted(by_p.items())
                         if (r.get("problem") or {}).get("halo")), None)
        for (label, variant, kernel), one in sorted(scaled[1].items()):
            pts = []
            for p, res in sorted(by_p.items()):
                row = scaled[p].get((label, variant, kernel))
                if row is None:
                    failures.append(f"{app}-{name}-{p}: no {label} {variant} {kernel} row")
                    continue
                t1, tp = one["time_s"]["median"], row["time_s"]["median"]
                hib = row["fom_higher_is_better"]
                why = same_answer(app, one, row, row["size"], weak)
                if why:
                    failures.append(f"{app}-{name}-{p} {label} {variant} {kernel}: {why}")
                halo = next((h for h in res["results"] if h["kernel"] == "cg_halo"
                             and resultfile.label(h) == label), None)
                pts.append({
                    "gpus": p, "time_s": tp, "speedup": t1 / tp,
                    "efficiency": (t1 / tp) if weak else t1 / (p * tp),
                    "fom": row["fom"], "fom_unit": row["fom_unit"],
                    "fom_per_gpu": row["fom"] / p if hib else row["fom"] * p,
                    "halo_share_percent": metric(halo, "share_percent") if halo else None,
                    "halo_us": halo["fom"] if halo else None,
                    "validated": bool(row.get("valid")) and why is None,
                    "gpus_by_rank": gpus_of(res)})
            series.append({"app": app, "series": name, "mode": "weak" if weak else "strong",
                           "label": label, "variant": variant, "kernel": kernel, "halo": halo_how,
                           "points": pts})
    return series, failures


def figure(app, rows, path):
    """Efficiency against GPUs, a line per whole-run series (phase rows: the tables only)."""
    rows = [s for s in rows if s["kernel"] in WHOLE_ROWS]
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.2))
    gpus = sorted({p["gpus"] for s in rows for p in s["points"]})
    for s in rows:
        xs = [p["gpus"] for p in s["points"]]
        ys = [p["efficiency"] for p in s["points"]]
        tag = " ".join(x for x in (s["series"], s["label"], shown(s)) if x)
        ax.plot(xs, ys, marker="o", label=text.figure(tag, 80))
    ax.axhline(0.8, color="grey", linestyle="--", linewidth=1)
    ax.set_xscale("log", base=2)
    ax.set_xticks(gpus, [str(g) for g in gpus])
    ax.set_ylim(0, 1.2)
    ax.set_xlabel("GPUs (one MPI rank each)")
    ax.set_ylabel("parallel efficiency")
    ax.set_title(f"{text.figure(app)}: scaling (dashed: 0.8)")
    ax.legend(fontsize=6, loc="lower left", ncol=2)
    fig.tight_layout()
    outfile.save_figure(fig, path, dpi=120)
    plt.close(fig)


def fmt(x, spec=".3g"):
    return "-" if x is None else format(x, spec)


def write(out, series, failures, figures):
    outfile.write_json(os.path.join(out, "scaling.json"), {"series": series, "failures": failures}, "--out")
    lines = ["# Scaling", "",
             "Efficiency: strong T1/(P TP), weak T1/TP (median time per run). FOM per GPU: the",
             "run's figure of merit divided by the GPUs (times them for lower-is-better FOMs).",
             "Every row below is validated and computed the 1-rank answer unless marked.", ""]
    for app in sorted({s["app"] for s in series}):
        lines += [f"## {app}", ""]
        if app in figures:
            lines += [f"![{app}](scaling-{app}.png)", ""]
        halos = sorted({s["halo"] for s in series if s["app"] == app and s["halo"]})
        lines += [f"Halo: {show(h, 1000)}" for h in halos] + ([""] if halos else [])
        lines += ["| series | mode | model | variant | GPUs | time (s) | speedup | efficiency | FOM | FOM per GPU | halo share | valid |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for s in (s for s in series if s["app"] == app):
            for p in s["points"]:
                lines.append(f"| {C(s['series'])} | {s['mode']} | {C(s['label'])} | {C(shown(s) or '-')} | {p['gpus']} | "
                             f"{p['time_s']:.4g} | {p['speedup']:.3f} | {p['efficiency']:.3f} | "
                             f"{p['fom']:.4g} {C(p['fom_unit'])} | {p['fom_per_gpu']:.4g} | "
                             f"{fmt(p['halo_share_percent'], '.1f')}{'%' if p['halo_share_percent'] is not None else ''} | "
                             f"{'yes' if p['validated'] else 'NO'} |")
        lines.append("")
        binds = sorted({(s["series"], p["gpus"], " ".join(p["gpus_by_rank"]))
                        for s in series if s["app"] == app for p in s["points"]})
        lines += ["GPU per rank (rank:UUID):", ""] + [f"- {show(a)} on {b}: {show(c, 2000)}" for a, b, c in binds] + [""]
    lines += ["## Failures", ""] + ([f"- {show(x, 2000)}" for x in failures] or ["none"]) + [""]
    outfile.write_text(os.path.join(out, "scaling.md"), "\n".join(lines), "--out")


def main(argv=None):
    cli.run(PROG, run, argv)


def run(argv):
    ap = cli.Parser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("dir", help="folder of <app>-<series>-<P>.json result files")
    ap.add_argument("--out", help="where scaling.md/.json and the figures go (default: DIR)")
    ap.add_argument("--no-figures", action="store_true", help="tables only (no matplotlib)")
    ap.prog = PROG
    a = ap.parse_args(argv)
    if not os.path.isdir(a.dir):
        die(f"{a.dir}: not a folder")
    series, failures = analyse(load_runs(a.dir))
    out = outfile.out_dir(a.out or a.dir, "--out")
    figures = set()
    if not a.no_figures:
        for app in sorted({s["app"] for s in series}):
            figure(app, [s for s in series if s["app"] == app], os.path.join(out, f"scaling-{app}.png"))
            figures.add(app)
    write(out, series, failures, figures)
    for s in series:
        eff = " ".join(f"{p['gpus']}:{p['efficiency']:.2f}" for p in s["points"])
        print(f"{s['app']:12s} {show(s['series']):18s} {show(s['label']):16s} {show(shown(s) or '-'):26s} "
              f"efficiency {eff}")
    for x in failures:
        print(f"FAIL {show(x, 2000)}")
    print(f"scaling: {len(series)} series, {len(failures)} failures; {show(os.path.join(out, 'scaling.md'), 2000)}")
    return 1 if failures else 0

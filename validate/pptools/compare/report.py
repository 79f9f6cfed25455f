"""compare --report OUTDIR: the compiler report of any number of result files.

Rows of every file are pooled by (app, kernel, label, size, variant); the first
file that has a row wins (each build's run repeats cuda: the first is kept).
Per app, each kernel is compared at its largest size; variants of the form
"name=value" (tpb=256: a tuning sweep) are collapsed to each label's fastest,
any other variant (xsbench_like's -k modes) is a kernel of its own.

Written to OUTDIR: report.md; <app>-native.png (per kernel, native_time /
label_time with bootstrap CIs: 1 = the native model, higher = faster);
heatmap.png (label x kernel, label time / baseline time); flags.png (the flag
sweep: "M[T+F]" time / "M[T]" time); and beside each heat map its matrix as
JSON (rows, cols, values, and cells: the word drawn where there is no value:
FAIL, BUILD-FAIL, TIMEOUT, CRASH, ERROR, SKIPPED) for tests and other tools.

--status FILE (validate/compilers-run.sh's summary.tsv, repeatable): every run
there without a result (BUILD-FAIL, TIMEOUT, CRASH(...), ERROR(...),
SKIPPED(...)) is a cell of that name for each of its labels (model[tag]; cuda
and hip unlabelled) in every kernel of its app that has no row of that label,
and a line of "Runs without a result".
Exit: 1 when any row failed validation (listed first, with its check) or a run
had no result, else 0.
"""
import os
import re
import zlib

from .. import outfile, project, text
from .. import result as resultfile
from ..text import cell as C
from ..text import show
from . import facts as compare_facts

TUNING = resultfile.TUNING


def word(why):
    """The word a figure draws for a cell without a value: "CRASH(SEGV): ..." -> "CRASH"."""
    return re.split(r"[ :(]", why, maxsplit=1)[0]


def load_status(paths, die):
    """{(app, label): (result, note, path)} of the summary.tsv runs that left no result."""
    out = {}
    for path in paths or ():
        try:
            lines = resultfile.read_text(path, "--status").splitlines()
        except resultfile.BadInput as e:
            die(str(e))
        head = lines[0].split("\t") if lines else []
        if head[:6] != ["app", "tag", "backends", "exit", "seconds", "result"]:
            die(f"--status {path}: not a compilers-run.sh summary.tsv (header {head[:6]})")
        for line in lines[1:]:
            f = line.split("\t") + [""]
            app, tag, models, result, note = f[0], f[1], f[2], f[5], f[6]
            if result in ("PASS", "FAIL") or not app:
                continue
            for m in filter(None, models.split(",")):
                label = f"{m}[{tag}]" if m in project.cc_models() else m
                out.setdefault((app, label), (result, note, path))
    return out


def _size_key(s):
    try:
        return (0, float(s))
    except ValueError:
        return (1, s)


def _median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


class Pool:
    def __init__(self, runs, status=None):
        self.rows, self.dups, self.notes, self.status = {}, 0, [], status or {}
        for run in runs:
            for k, v in run["rows"].items():
                if k in self.rows:
                    self.dups += 1
                else:
                    self.rows[k] = dict(v, path=run["path"])
            for d in run["doc"].get("devices") or ():
                if isinstance(d, dict) and d.get("ran") is False:
                    self.notes.append(f"{run['label']}: {d.get('model')} did not run: {d.get('reason', '?')}")
        self.devices = sorted({d.get("name") for r in runs for d in r["doc"].get("devices") or ()
                               if isinstance(d, dict) and d.get("ran") and resultfile.is_native(d.get("model"))
                               and d.get("name")})

    def apps(self):
        return sorted({k[0] for k in self.rows} | {a for a, _ in self.status})

    def labels(self, app=None):
        return sorted({k[2] for k in self.rows if app is None or k[0] == app}
                      | {x for a, x in self.status if app is None or a == app}, key=label_order)

    def cells(self, app, native):
        """{category: {label: (samples, size, variant)}} at each category's largest size."""
        cats = {}
        for (a, kernel, label, size, variant), v in self.rows.items():
            if a != app or not v["samples"]:
                continue
            cat = kernel if not variant or TUNING.match(variant) else f"{kernel} ({variant})"
            cats.setdefault(cat, []).append((label, size, variant, v["samples"], v["valid"], v["check"]))
        out = {}
        for cat, items in cats.items():
            have_native = [i for i in items if i[0] == native]
            size = max((i[1] for i in (have_native or items)), key=_size_key)
            best = {}
            fails = {}
            for label, sz, variant, samples, valid, check in items:
                if sz != size:
                    continue
                if not valid:  # a wrong result is never hidden behind a faster variant
                    fails.setdefault(label, f"FAIL {variant}: {check}".replace(" :", ":"))
                if label not in best or _median(samples) < _median(best[label][0]):
                    best[label] = (samples, sz, variant)
            for label, why in fails.items():
                best[label] = best[label][:3] + (why,)
            out[cat] = best
        for (a, label), (result, note, _) in self.status.items():
            for best in out.values() if a == app else ():
                best.setdefault(label, (None, None, None, f"{result}: {note}" if note else result))
        return out


def label_order(label):
    model, tag = compare_facts.split_label(label)
    rank = 0 if resultfile.is_native(model) else 3 if model == project.reference_model() else 1
    return (rank, tag or "", model)


def native_of(labels, wanted=None):
    if wanted:
        return wanted if wanted in labels else None
    return resultfile.native_of(labels)


def flag_base(label, labels):
    """"omp[clang-19+lto]" -> "omp[clang-19]" when that label exists."""
    model, tag = compare_facts.split_label(label)
    if tag and "+" in tag:
        base = f"{model}[{tag.split('+', 1)[0]}]"
        if base in labels:
            return base
    return None


def ratio_ci(base, run, args, key):
    """run/base ratio of medians with its bootstrap CI (compare's resampler)."""
    seed = zlib.crc32(repr(key).encode()) ^ args.seed
    return args.bootstrap_ratio(base, run, args.resamples, args.confidence, seed)


def _fmt_ci(r):
    return f"{r[0]:.3f} [{r[1]:.3f}, {r[2]:.3f}]"


def heatmap(path, title, rows, cols, vals, cbar, failed=None):
    """failed[i][j]: that cell has no time (a wrong result, no build, no run): drawn as
    its word (FAIL, BUILD-FAIL, TIMEOUT, ...), never as a time."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import LogNorm
    finite = [v for r in vals for v in r if v is not None and v > 0]
    if not finite:
        return False
    span = max(max(finite), 1 / min(finite), 1.05)
    rows, cols, title = [text.figure(x) for x in rows], [text.figure(x) for x in cols], text.figure(title, 160)
    fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(cols) + 3), max(2.5, 0.45 * len(rows) + 1.8)))
    grid = [[float("nan") if v is None else v for v in r] for r in vals]
    im = ax.imshow(grid, cmap="RdYlGn_r", norm=LogNorm(vmin=1 / span, vmax=span), aspect="auto")
    for i, r in enumerate(vals):
        for j, v in enumerate(r):
            if failed and failed[i][j]:
                ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, color="0.35"))
                ax.text(j, i, text.figure(failed[i][j], 12) if isinstance(failed[i][j], str) else "FAIL", ha="center",
                        va="center", fontsize=5 if len(str(failed[i][j])) > 5 else 6, color="white", weight="bold")
            elif v is not None:
                ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=7)
    ax.set_xticks(range(len(cols)), cols, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), rows, fontsize=8)
    fig.colorbar(im, ax=ax, label=text.figure(cbar, 80) + " (log scale)")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    outfile.save_figure(fig, path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return True


def bars(path, title, cats, labels, vals, native, per_row=6):
    """Grouped bars: per kernel one bar per label, native_time / label_time;
    at most per_row kernels per panel, panels stacked, so that many labels
    stay readable."""
    import math

    import matplotlib.pyplot as plt
    vals = {(text.figure(c), text.figure(x)): v for (c, x), v in vals.items()}
    cats, labels = [text.figure(x) for x in cats], [text.figure(x) for x in labels]
    title, native = text.figure(title, 160), text.figure(native)
    n = len(labels)
    w = 0.8 / max(n, 1)
    rows = max(1, math.ceil(len(cats) / per_row))
    fig, axes = plt.subplots(rows, 1, squeeze=False,
                             figsize=(min(16, max(7, 0.16 * min(len(cats), per_row) * n + 4)), 3.2 * rows + 0.8))
    cmap = plt.get_cmap("tab10" if n <= 10 else "tab20")
    allv = [x for r in vals.values() for x in r[1:3]]
    logy = allv and max(allv) / max(min(allv), 1e-12) > 5  # ratios over decades: log
    for k in range(rows):
        ax, part = axes[k][0], cats[k * per_row:(k + 1) * per_row]
        for i, label in enumerate(labels):
            xs, ys, lo, hi = [], [], [], []
            for j, cat in enumerate(part):
                r = vals.get((cat, label))
                if r:
                    xs.append(j - 0.4 + w * (i + 0.5))
                    ys.append(r[0])
                    lo.append(r[0] - r[1])
                    hi.append(r[2] - r[0])
            ax.bar(xs, ys, w, yerr=[lo, hi], capsize=1.0, label=label, color=cmap(i % 20))
        ax.axhline(1.0, color="black", lw=0.8)
        if logy:
            ax.set_yscale("log")
        ax.set_xlim(-0.5, per_row - 0.5 if rows > 1 else len(part) - 0.5)
        ax.set_xticks(range(len(part)), part, fontsize=8)
        ax.set_ylabel(f"{native} time / time", fontsize=8)
    axes[0][0].set_title(title + " (higher = faster)", fontsize=10)
    axes[0][0].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    outfile.save_figure(fig, path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def write_matrix(path, rows, cols, vals, what, cells=None):
    outfile.write_json(path, {"what": what, "rows": rows, "cols": cols, "values": vals,
                              "cells": cells or [[None] * len(cols) for _ in rows]})


def energy_table(pool, app, cells, cats, native, labels):
    """Work per joule over the native model's, per kernel (the rows the time table
    compares: each category's size and each label's fastest variant), where the
    result files carry energy (pp/row.h); no lines where none does."""
    def per_joule(cat, label):
        c = cells[cat].get(label)
        if not c or len(c) > 3 or c[0] is None:
            return None
        row = pool.rows.get((app, cat.split(" (")[0], label, c[1], c[2])) or {}
        return row.get("per_joule")
    lines = []
    for cat in cats:
        base = per_joule(cat, native) if native in cells[cat] else None
        if base is None:
            continue
        vals = [per_joule(cat, x) for x in labels]
        if any(v is not None for v in vals):
            lines.append(f"| {C(cat)} | " + " | ".join("-" if v is None else f"{v / base:.3g}" for v in vals) + " |")
    if not lines:
        return []
    return ([f"Energy: work per joule / {show(native)}'s (higher = less energy for the same work; the rows of the "
             "table above, each measured over its timed region):", "",
             "| kernel | " + " | ".join(C(x) for x in labels) + " |", "|" + "---|" * (len(labels) + 1)] + lines + [""])


def report(runs, args, die):
    out = args.report
    outfile.out_dir(out, "--report")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot  # noqa: F401  (a broken install fails here, not mid-report)
        plot = True
    except Exception:  # ImportError, or a matplotlib built for another numpy
        plot = False
    pool = Pool(runs, load_status(getattr(args, "status", None), die))
    facts = args.facts_docs
    device = show(", ".join(pool.devices) or "device unknown")
    md = [f"# ProxyPort compiler report ({device})", "",
          f"{len(runs)} result file(s): " + ", ".join(f"`{show(r['path'], 1000)}`" for r in runs) + ".", "",
          f"Ratios are of medians of the raw samples, with {args.confidence:.0%} percentile bootstrap CIs "
          f"({args.resamples} resamples of both rows' samples, seed {args.seed}). Each kernel at its largest "
          "size; tuning variants (name=value) collapsed to each label's fastest. The intervals cover one "
          "run's sample noise, not run-to-run variation: confirm a faster/slower verdict with "
          "`compare --base RUNS --new RUNS` over several runs of each build.", ""]
    if pool.dups:
        md += [f"{pool.dups} row(s) present in more than one file: the first file's row is used.", ""]

    invalid = sorted((k, v) for k, v in pool.rows.items() if not v["valid"])
    md += ["## Validation", ""]
    if invalid:
        md += ["| app | kernel | label | size | variant | check | file |", "|---|---|---|---|---|---|---|"]
        md += [f"| {C(k[0])} | {C(k[1])} | **FAIL {C(k[2])}** | {C(k[3])} | {C(k[4])} | {C(v['check'], 1000)} "
               f"| `{C(v['path'], 1000)}` |"
               for k, v in invalid]
    else:
        md.append(f"Every one of the {len(pool.rows)} rows validated"
                  + (f"; {len(pool.status)} label(s) of runs left no result (below)." if pool.status else "."))
    md.append("")
    if pool.status:
        md += ["### Runs without a result", "",
               "Each is a cell of its name in the tables and heat maps below (for every kernel of the app "
               "that has no row of that label).", "",
               "| app | label | result | why | from |", "|---|---|---|---|---|"]
        md += [f"| {C(a)} | {C(x)} | **{C(r)}** | {C(n or '-', 1000)} | `{C(p, 1000)}` |"
               for (a, x), (r, n, p) in sorted(pool.status.items(), key=lambda i: (i[0][0], label_order(i[0][1])))]
        md.append("")
    labels_all = pool.labels()
    md += ["## Coverage", "", "Labels: " + ", ".join(f"`{show(x)}`" for x in labels_all) + "."]
    tags = sorted({compare_facts.split_label(x)[1] for x in labels_all} - {None})
    for t in tags:
        if t.startswith("gcc") and f"ompx[{t}]" not in labels_all:
            md.append(f"- `ompx[{show(t)}]`: none: kernel mode (ompx_bare) is an LLVM extension GCC does not have.")
    md += [f"- {show(n, 1000)}" for n in sorted(set(pool.notes))] + [""]

    heat_rows, heat_cols, hmap, hfail, ffail = [], [], {}, {}, {}
    flag_tab = []
    base_want = getattr(args, "report_baseline", None)
    for app in pool.apps():
        labels = pool.labels(app)
        data = sorted({k[2] for k in pool.rows if k[0] == app})  # labels with rows (not only a status)
        native = native_of(data) or native_of(data, base_want)
        hbase = native_of(labels, base_want) if base_want else native
        cells = pool.cells(app, native)
        cats = sorted(cells)
        md += [f"## {show(app)}", ""]
        if native is None:
            md += [f"No native model ({'/'.join(project.native_models())}) rows in {show(app)}: no normalized figure.", ""]
        else:
            vals = {}
            head = ["kernel", "size"] + [x for x in labels if x != native]
            md += [f"{show(native)} time / label time (higher = faster; 1 = {show(native)}), {args.confidence:.0%} CI"
                   + ("; compile facts below each value" if facts else "") + ":", "",
                   "| " + " | ".join(C(x) for x in head) + " |", "|" + "---|" * len(head)]
            for cat in cats:
                c = cells[cat]
                if native not in c or c[native][0] is None:
                    continue
                line = [cat, c[native][1]]
                for label in head[2:]:
                    if label in c and len(c[label]) > 3:
                        line.append(f"**{C(c[label][3], 1000)}**")
                    elif label in c:
                        r = ratio_ci(c[label][0], c[native][0], args, (app, cat, label))
                        vals[(cat, label)] = r
                        cell = _fmt_ci(r)
                        if facts:
                            kern = cat.split(" (")[0]
                            cell += "<br>" + compare_facts.brief(compare_facts.lookup(facts, app, kern, label))
                        line.append(cell)
                    else:
                        line.append("-")
                md.append("| " + " | ".join([C(line[0]), C(line[1])] + [str(x) for x in line[2:]]) + " |")
            md.append("")
            md += energy_table(pool, app, cells, cats, native, head[2:])
            if facts:
                md += [f"{show(native)} facts: " + "; ".join(
                    f"{show(cat)}: " + compare_facts.brief(compare_facts.lookup(facts, app, cat.split(' (')[0], native))
                    for cat in cats if native in cells[cat]), ""]
            if plot and vals:
                png = f"{app}-native.png"
                bars(os.path.join(out, png), f"{app} on {device}: speed relative to {native}",
                     [c for c in cats if native in cells[c]], [x for x in labels if x != native], vals, native)
                md += [f"![{show(app)}]({show(png)})", ""]
        for cat in cats:
            c = cells[cat]
            if hbase in c and c[hbase][0] is not None:
                col = f"{app}:{cat}"
                heat_cols.append(col)
                for label in labels:
                    if label != hbase and label in c and len(c[label]) == 3:
                        hmap[(label, col)] = ratio_ci(c[hbase][0], c[label][0], args, (app, cat, label, "heat"))[0]
                    elif label != hbase and label in c:  # a wrong result or none: no ratio, its word
                        hfail[(label, col)] = word(c[label][3])
            for label in labels:
                fb = flag_base(label, labels)
                if fb and fb in c and label in c and len(c[label]) == len(c[fb]) == 3:
                    r = ratio_ci(c[fb][0], c[label][0], args, (app, cat, label, "flags"))
                    flag_tab.append((app, cat, label, fb, r))
                elif fb and fb in c and label in c:  # either build's result was wrong or missing
                    ffail[(label, f"{app}:{cat}")] = word(c[label][3]) if len(c[label]) > 3 else "no base"
    heat_rows = [x for x in labels_all if any((x, c) in hmap or (x, c) in hfail for c in heat_cols)]
    hb = show(base_want) if base_want else "the native model"
    md += ["## Heat map: time relative to " + hb, ""]
    hv = [[hmap.get((r, c)) for c in heat_cols] for r in heat_rows]
    hf = [[hfail.get((r, c)) for c in heat_cols] for r in heat_rows]
    write_matrix(os.path.join(out, "heatmap.json"), heat_rows, heat_cols, hv, f"label time / {hb} time", hf)
    if plot and heat_rows and heatmap(os.path.join(out, "heatmap.png"), f"{device}: time relative to {hb} (<1 faster)",
                                   heat_rows, heat_cols, hv, f"time / {hb} time", hf):
        md += ["![heat map](heatmap.png)", ""]
    md += ["Matrix: `heatmap.json`.", ""]

    md += ["## Flag sweep: time relative to the same compiler without extra flags", ""]
    thr = args.threshold
    if flag_tab or ffail:
        md += ["| app | kernel | label | relative to | time ratio [CI] | verdict |"
               + (" facts (flags / none) |" if facts else ""), "|---|---|---|---|---|---|" + ("---|" if facts else "")]
        for app, cat, label, fb, r in flag_tab:
            v = ("**slower**" if r[1] > 1 + thr else "**faster**" if r[2] < 1 - thr
                 else "same" if r[1] >= 1 - thr and r[2] <= 1 + thr else "unclear")
            line = f"| {C(app)} | {C(cat)} | {C(label)} | {C(fb)} | {_fmt_ci(r)} | {v} |"
            if facts:
                k = cat.split(" (")[0]
                line += (f" {compare_facts.brief(compare_facts.lookup(facts, app, k, label))} / "
                         f"{compare_facts.brief(compare_facts.lookup(facts, app, k, fb))} |")
            md.append(line)
        frows = sorted({t[2] for t in flag_tab} | {f[0] for f in ffail}, key=label_order)
        fcols = list(dict.fromkeys([f"{t[0]}:{t[1]}" for t in flag_tab] + [f[1] for f in sorted(ffail)]))
        fv = [[next((t[4][0] for t in flag_tab if t[2] == r and f"{t[0]}:{t[1]}" == c), None) for c in fcols]
              for r in frows]
        ff = [[ffail.get((r, c)) for c in fcols] for r in frows]
        write_matrix(os.path.join(out, "flags.json"), frows, fcols, fv, "flags time / no-flags time", ff)
        md.append("")
        if plot and heatmap(os.path.join(out, "flags.png"), f"{device}: flag sweep, time relative to no extra flags",
                         frows, fcols, fv, "time / no-flags time", ff):
            md += ["![flag sweep](flags.png)", ""]
        md += ["Matrix: `flags.json`.", ""]
    else:
        md += ["No flag-sweep labels (`M[T+F]` beside `M[T]`) in these files.", ""]
    if not plot:
        md += ["Figures not drawn: matplotlib is not installed or does not import.", ""]
    path = os.path.join(out, "report.md")
    outfile.write_text(path, "\n".join(md))
    print(f"compare: wrote {show(path, 1000)}"
          + ("" if plot else " (no figures: matplotlib is not installed or does not import)"))
    print(f"compare: report of {len(pool.rows)} rows, {len(labels_all)} labels, {len(heat_cols)} kernels, "
          f"{len(flag_tab)} flag-sweep rows, {len(invalid)} invalid row(s)")
    for k, v in invalid:
        print(show(f"compare: FAIL {k[2]}: {k[0]} {k[1]} {k[3]} {k[4]}: {v['check']}", 2000))
    for (a, x), (r, n, _) in sorted(pool.status.items()):
        print(show(f"compare: {r} {x}: {a}" + (f": {n}" if n else ""), 2000))
    return 1 if invalid or pool.status else 0


"""A/B comparison of ProxyPort result files, across runs.

compare --base A1.json A2.json A3.json --new B1.json B2.json B3.json
compare [--baseline FILE] BASE.json RUN.json [...]
compare --models A,B RUN.json [...]

Each result file is one run, i.e. one process of the app. Rows are matched by
(app, kernel, model, size, variant), where a row's model is its "label" when it
has one (e.g. "omp[clang-19]", "omp[gcc-12]": builds by different compilers are
different models) and its "model" otherwise. A row's value in one run is the
median of that run's samples; a side's value is the geometric mean over its
runs; ratio = new / base.

The samples of one process share its machine state, so their spread says
nothing about the next process: on a busy machine two runs of one binary
differ by a few %, far beyond one run's sample noise. A verdict is therefore
drawn from run-to-run variation only: with >= 2 runs per side, a Welch t
interval of the log ratio over the runs' medians (pptools/compare/stats.py). A row is a
regression when the interval lies above 1 + --threshold (slower by more than
the threshold, with the stated confidence), an improvement when it lies below
1 - threshold; "same" when it lies inside 1 +- threshold, else "unclear".
With one run on either side the row gets its ratio and "not enough runs to
call", never a verdict.

Many rows: the rows of one invocation are one family; Benjamini-Hochberg at
q = 1 - --confidence controls the false discovery rate over them (with no real
change the chance of any call is at most q) and the intervals are shown at
the level that matches the calls (printed with the method). --per-row tests
every row at --confidence alone instead (more calls, more of them false).
With ~2.5% run-to-run spread, a 10% slowdown is called on ~99% of rows with
5 runs a side, all with 8, about half with 3 (the rest "unclear"); two draws
of one distribution get no call in >= 95 of 100 trials
(tests/tools/test_compare_stats.py checks these rates).

Forms: --base FILES --new FILES compares the two sets. Positional files keep
their old meaning: each file is compared with the baseline (--baseline FILE,
default the first), one run per side, so ratios only. --models A,B compares
model (label) B with model A over the files given: each file holding a row of
A is one run of A, each holding B one run of B (unpaired: a file's A and B rows
are not assumed to share a machine state); e.g. omp against cuda over 5 runs
of one build, or omp[gcc-12] from one build's files against omp[clang-19] from
another's.

--facts FILE (repeatable; validate/compile-facts JSON of the builds) shows each row's
registers, shared memory, stack and spills beside it.

--report OUTDIR writes the compiler report instead (pptools/compare/report.py, positional
files): Markdown, figures per app normalized to the native model, heat maps of each
label's time relative to a baseline label, and the flag sweep (each
"M[T+flags]" relative to "M[T]") with bootstrap CIs of one run's samples.
--status TSV (with --report, repeatable): compilers-run.sh's summary.tsv; a build
or run that left no result (BUILD-FAIL, TIMEOUT, CRASH, ERROR, SKIPPED) is a cell
of that name.

Exit: 0 no regression called and every row valid ("not enough runs to call" is
no regression); 1 a regression, or a row whose "valid" is false in any run; 2
bad usage or input (unreadable file, not a result file, no common rows).
"""
import argparse
import json
import os
import random
import sys
import zlib

from .. import cli, outfile, text
from .. import result as resultfile
from ..text import show
from . import facts as compare_facts
from . import stats as compare_stats

PROG = "compare"


def die(msg):
    cli.die(PROG, msg)


median = compare_stats.median


def load_run(path):
    """One result file: its rows keyed by (app, kernel, label, size, variant) (pptools.result.key)."""
    try:
        doc = resultfile.load_json(path, limit=resultfile.RESULT_LIMIT)
    except resultfile.BadInput as e:  # its message: "PATH: why"
        die(f"{path}: cannot read a JSON result file: {str(e)[len(str(path)) + 2:]}")
    try:
        rows = resultfile.rows(resultfile.check_result(doc, path), path)
    except resultfile.BadInput as e:
        die(str(e))
    out = {}
    for k, r in rows.items():
        samples = r.get("samples") or []
        if not all(x > 0 for x in samples):
            samples = []
        e = r.get("energy") if isinstance(r.get("energy"), dict) else {}
        pj = e.get("fom_per_joule")
        out[k] = {"samples": samples, "valid": r.get("valid") is True,
                  "check": r.get("check") or "", "model": k[2],
                  "per_joule": pj if isinstance(pj, (int, float)) and not isinstance(pj, bool) and pj > 0 else None,
                  "per_joule_unit": e.get("fom_per_joule_unit", "")}
    digest = zlib.crc32(json.dumps(doc["results"], sort_keys=True).encode())
    return {"path": path, "label": os.path.basename(path), "doc": doc, "rows": out, "digest": digest}


def distinct(runs, what):
    """The runs of one side are separate processes: a file given twice would fake agreement."""
    seen = {}
    for r in runs:
        if r["digest"] in seen:
            die(f"{what}: {r['path']} holds the same results as {seen[r['digest']]}: one run counted twice")
        seen[r["digest"]] = r["path"]


def side(runs, label):
    """One side of a comparison: its runs (files), each one process."""
    return {"runs": runs, "label": label, "path": ", ".join(r["path"] for r in runs)}


def bootstrap_ratio(base, run, resamples, confidence, seed):
    """Ratio of medians run/base and its percentile bootstrap interval over one
    run's samples per side (the compiler report's; no run-to-run variation)."""
    rng = random.Random(seed)
    nb, nr = len(base), len(run)
    ratios = sorted(median(rng.choices(run, k=nr)) / median(rng.choices(base, k=nb))
                    for _ in range(resamples))
    tail = (1.0 - confidence) / 2.0
    lo = ratios[min(resamples - 1, int(tail * resamples))]
    hi = ratios[min(resamples - 1, int((1.0 - tail) * resamples))]
    return median(run) / median(base), lo, hi


def compare_pair(base, new, keys, threshold):
    """Statistics of the rows of one pair of sides; keys: (display key, (base key, new key))."""
    out = []
    for disp, (kb, kn) in keys:
        rb = [r["rows"][kb] for r in base["runs"] if kb in r["rows"]]
        rn = [r["rows"][kn] for r in new["runs"] if kn in r["rows"]]
        row = compare_stats.row_stats([x["samples"] for x in rb], [x["samples"] for x in rn], threshold)
        row.update(key=disp, valid=all(x["valid"] for x in rb + rn),
                   model_base=kb[2], model_new=kn[2])
        out.append(row)
    return out


def mark_invalid(row):
    if not row["valid"]:
        v = row["verdict"]
        row["verdict"] = "INVALID" + (" " + v if v in ("regression", "improvement") else "")


def fmt_time(s):
    for unit, f in (("s", 1.0), ("ms", 1e3), ("us", 1e6)):
        if s * f >= 1.0:
            return f"{s * f:.4g} {unit}"
    return f"{s * 1e9:.4g} ns"


HEAD = ("app", "kernel", "model", "size", "variant", "runs", "base median", "new median",
        "ratio", "CI", "verdict")
VERDICT_COL = HEAD.index("verdict")


def table_lines(rows, facts=None):
    lines = [HEAD + (("base facts", "new facts") if facts else ())]
    for x in rows:
        ci = "-" if x["lo"] is None else f"[{x['lo']:.3f}, {x['hi']:.3f}]"
        lines.append(tuple(show(k) for k in x["key"]) + (f"{x['nb']}:{x['nn']}",
                                       fmt_time(x["base"]) if x["base"] else "-",
                                       fmt_time(x["new"]) if x["new"] else "-",
                                       "-" if x["ratio"] is None else f"{x['ratio']:.3f}",
                                       ci, x["verdict"]) + facts_cells(x, facts))
    return lines


def facts_cells(x, facts):
    """Compile facts of the row's baseline and new models (--facts)."""
    if not facts:
        return ()
    app, kernel = x["key"][0], x["key"][1]
    return tuple(compare_facts.brief(compare_facts.lookup(facts, app, kernel, x[m]))
                 for m in ("model_base", "model_new"))


def describe(sd):
    docs = [r["doc"] for r in sd["runs"]]
    b = docs[0].get("build") or {}
    revs = sorted({str((d.get("build") or {}).get("git_revision", "?"))
                   + ("+dirty" if (d.get("build") or {}).get("git_dirty") else "") for d in docs})
    bits = [f"{len(docs)} run(s)" if len(docs) > 1 else None, f"app {docs[0].get('app', '?')}",
            f"rev {revs[0]}" if len(revs) == 1 else f"revisions differ: {', '.join(revs)}",
            f"cc {b.get('c_compiler', '?')}"]
    if b.get("offload"):
        bits.append(f"offload {b['offload']}")
    if b.get("cuda_compiler"):
        bits.append(f"cuda {b['cuda_compiler']}")
    started = [str(d["started_utc"]) for d in docs if d.get("started_utc")]
    if started:
        bits.append(started[0] if len(started) == 1 else f"{min(started)} .. {max(started)}")
    return show(", ".join(x for x in bits if x), limit=1000)


def print_text(pairs, args):
    for base, new, rows in pairs:
        print(f"\n{show(new['label'])} vs baseline {show(base['label'])}")
        print(f"  baseline: {describe(base)}")
        print(f"  new:      {describe(new)}")
        lines = table_lines(rows, args.facts_docs)
        w = [max(len(str(line[i])) for line in lines) for i in range(len(lines[0]))]
        for line in lines:
            print("  " + "  ".join(str(c).ljust(w[i]) for i, c in enumerate(line)).rstrip())


def write_markdown(path, pairs, args, method, summary):
    md = ["# ProxyPort run comparison", "", method, ""]
    for base, new, rows in pairs:
        md += [f"## {show(new['label'])} vs {show(base['label'])}", "",
               f"- baseline `{show(base['path'], limit=2000)}`: {describe(base)}",
               f"- new `{show(new['path'], limit=2000)}`: {describe(new)}", ""]
        lines = table_lines(rows, args.facts_docs)
        md.append("| " + " | ".join(lines[0]) + " |")
        md.append("|" + "---|" * len(lines[0]))
        for line in lines[1:]:
            cells = [str(c).replace("|", "\\|") for c in line]
            v = VERDICT_COL
            if cells[v] in ("regression", "improvement") or cells[v].startswith("INVALID"):
                cells[v] = f"**{cells[v]}**"
            md.append("| " + " | ".join(cells) + " |")
        md.append("")
    md += ["## Summary", "", summary, ""]
    outfile.write_text(path, "\n".join(md), "--markdown")


def write_png(prefix, pairs, args, level):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # ImportError, or a matplotlib built for another numpy
        print(f"{PROG}: --png skipped: matplotlib is not installed", file=sys.stderr)
        return
    for i, (base, new, rows) in enumerate(pairs):
        rows = [x for x in rows if x["ratio"] is not None]
        if not rows:
            continue
        labels = [text.figure(" ".join(k for k in x["key"][1:] if k), limit=80) for x in rows]
        ys = [x["ratio"] for x in rows]
        err = [[0.0 if x["lo"] is None else x["ratio"] - x["lo"] for x in rows],
               [0.0 if x["hi"] is None else x["hi"] - x["ratio"] for x in rows]]
        colors = ["tab:red" if x["verdict"].endswith("regression") else
                  "tab:green" if x["verdict"].endswith("improvement") else "tab:gray" for x in rows]
        fig, ax = plt.subplots(figsize=(max(6, 0.25 * len(rows)), 4.5))
        ax.bar(range(len(rows)), ys, yerr=err, color=colors, capsize=2)
        ax.axhline(1.0, color="black", lw=0.8)
        for t in (1 + args.threshold, 1 - args.threshold):
            ax.axhline(t, color="black", lw=0.5, ls="--")
        ax.set_xticks(range(len(rows)), labels, rotation=90, fontsize=6)
        pos = [y for y in ys if y > 0]
        logy = pos and max(pos) / min(pos) > 10  # ratios over decades: a log axis
        if logy:
            ax.set_yscale("log")
        ax.set_ylabel(f"time ratio vs {text.figure(base['label'])}" + (" (log)" if logy else ""))
        ax.set_title(f"{text.figure(new['label'])} vs {text.figure(base['label'])} "
                     f"(across-run {level * 100:.4g}% intervals where >= 2 runs a side)", fontsize=9)
        fig.tight_layout()
        path = f"{prefix}-{i + 1}.png"
        outfile.save_figure(fig, path, "--png", dpi=120, bbox_inches="tight")
        plt.close(fig)
        print(f"{PROG}: wrote {show(path, limit=2000)}")


def model_pairs(runs, spec):
    """--models A,B: one pair of sides, model A's rows against model B's over all files."""
    ms = spec.split(",")
    if len(ms) != 2 or not all(ms) or ms[0] == ms[1]:
        die(f"--models {spec}: expected two different models A,B")
    a, b = ms
    allkeys = {k for r in runs for k in r["rows"]}
    keys = sorted(((k[0], k[1], f"{b}/{a}", k[3], k[4]), (k, (k[0], k[1], b, k[3], k[4])))
                  for k in allkeys if k[2] == a and (k[0], k[1], b, k[3], k[4]) in allkeys)
    na = sum(k[2] == a for k in allkeys)
    nb = sum(k[2] == b for k in allkeys)
    label = runs[0]["label"] if len(runs) == 1 else f"{len(runs)} files"
    return [(side([r for r in runs if any(k[2] == a for k in r["rows"])] or runs, f"{label}:{a}"),
             side([r for r in runs if any(k[2] == b for k in r["rows"])] or runs, f"{label}:{b}"),
             keys, na + nb - 2 * len(keys))]


def set_pairs(base_runs, new_runs):
    """--base/--new: one pair; a row counts when some file of each side has it."""
    kb = {k for r in base_runs for k in r["rows"]}
    kn = {k for r in new_runs for k in r["rows"]}
    keys = sorted((k, (k, k)) for k in kb & kn)
    return [(side(base_runs, "base"), side(new_runs, "new"), keys, len(kb ^ kn))]


def file_pairs(runs, files, baseline):
    """Positional files: each against the baseline file, one run per side."""
    if len(runs) < 2:
        die("need at least two result files (or --base/--new, or --models A,B)")
    bi = 0
    if baseline:
        match = [i for i, f in enumerate(files) if os.path.realpath(f) == os.path.realpath(baseline)]
        if not match:
            die(f"--baseline {baseline}: not among the files given")
        bi = match[0]
    base = runs[bi]
    return [(side([base], base["label"]), side([run], run["label"]),
             sorted((k, (k, k)) for k in base["rows"] if k in run["rows"]),
             len(set(base["rows"]) ^ set(run["rows"])))
            for i, run in enumerate(runs) if i != bi]


def main(argv=None):
    cli.run(PROG, run, argv)


def run(argv):
    p = cli.Parser(prog=PROG, description=__doc__.split("\n\n")[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="*", help="result JSON files (one run each), compared with the baseline")
    p.add_argument("--base", nargs="+", metavar="FILE", help="the baseline's runs (one result file per process)")
    p.add_argument("--new", nargs="+", metavar="FILE", help="the new side's runs, compared with --base")
    p.add_argument("--baseline", help="positional files: the one the others are relative to (default: the first)")
    p.add_argument("--threshold", type=float, default=0.02,
                   help="a call needs the interval beyond 1 +- this (default 0.02)")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="confidence of the calls; 1 - it is the false discovery rate over the rows (default 0.95)")
    p.add_argument("--per-row", action="store_true",
                   help="test each row at --confidence alone (no control across rows)")
    p.add_argument("--resamples", type=int, default=2000, help="--report: bootstrap resamples (default 2000)")
    p.add_argument("--seed", type=int, default=42, help="--report: bootstrap seed (default 42)")
    p.add_argument("--models", help="A,B: compare model B with model A over the files")
    p.add_argument("--markdown", metavar="FILE", help="also write a Markdown report")
    p.add_argument("--png", metavar="PREFIX", help="bar chart per comparison, PREFIX-N.png (matplotlib)")
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    p.add_argument("--facts", action="append", metavar="FILE",
                   help="compile-facts JSON of a build (repeat for several builds)")
    p.add_argument("--report", metavar="OUTDIR", help="write the compiler report (Markdown + PNG) there")
    p.add_argument("--status", action="append", metavar="TSV",
                   help="--report: validate/compilers-run.sh's summary.tsv; its runs without a result "
                        "(BUILD-FAIL, TIMEOUT, CRASH, ...) become cells of that name (repeatable)")
    p.add_argument("--report-baseline", metavar="LABEL",
                   help="label the report's heat map is relative to (default: the native model, cuda or hip)")
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        sys.exit(0 if e.code == 0 else 2)
    if not 0.0 <= args.threshold < 1.0:
        die(f"--threshold {args.threshold}: expected a fraction in [0, 1)")
    if not 0.0 < args.confidence < 1.0:
        die(f"--confidence {args.confidence}: expected a value in (0, 1)")
    if not 10 <= args.resamples <= 1000000:
        die(f"--resamples {args.resamples}: expected 10 to 1000000")
    sets = args.base is not None or args.new is not None
    if sets:
        if args.base is None or args.new is None:
            die("--base and --new go together")
        for what, bad in (("result files without --base/--new", args.files), ("--baseline", args.baseline),
                          ("--models", args.models), ("--report", args.report)):
            if bad:
                die(f"--base/--new and {what} exclude each other")
    if args.models and args.baseline:
        die("--models and --baseline exclude each other")
    if args.status and not args.report:
        die("--status goes with --report")
    if not sets and not args.files and not args.status:
        die("no result files given")

    args.facts_docs = compare_facts.load_facts(args.facts, die)
    runs = [load_run(f) for f in (args.base + args.new if sets else args.files)]
    if args.report:
        from . import report as compare_report
        args.bootstrap_ratio = bootstrap_ratio
        return compare_report.report(runs, args, die)
    if sets:
        distinct(runs[:len(args.base)], "--base")
        distinct(runs[len(args.base):], "--new")
        pairs = set_pairs(runs[:len(args.base)], runs[len(args.base):])
    elif args.models:
        distinct(runs, "--models")
        pairs = model_pairs(runs, args.models)
    else:
        pairs = file_pairs(runs, args.files, args.baseline)
    for base, new, keys, _ in pairs:
        if not keys:
            die(f"{new['label']} and {base['label']} have no row in common")

    done = [(base, new, compare_pair(base, new, keys, args.threshold)) for base, new, keys, _ in pairs]
    allrows = [x for _, _, rows in done for x in rows]
    level = compare_stats.call(allrows, args.confidence, args.threshold, args.per_row)
    for x in allrows:
        mark_invalid(x)
    ntest = sum(x["lo"] is not None for x in allrows)
    family = (f"each row at {args.confidence:.4g}" if args.per_row or ntest <= 1 else
              f"Benjamini-Hochberg false discovery rate {1 - args.confidence:.4g} over {ntest} rows")
    method = ("Each file is one run (process); a row's value per run is the median of its samples, "
              "a side's the geometric mean over its runs, ratio = new/base. Verdicts need >= 2 runs a side: "
              f"Welch t interval of the log ratio across runs ({family}: intervals at {level * 100:.4g}%); "
              f"regression/improvement when it lies beyond 1 +- {args.threshold:.3g}. "
              f"One run on a side: ratio only, \"{compare_stats.NOT_ENOUGH}\".")
    # Invalid rows count in every run, compared or not: a wrong result is never hidden by a mismatch.
    invalid = sorted({(r["label"], k) for r in runs for k, v in r["rows"].items() if not v["valid"]})
    nreg = sum(x["verdict"].endswith("regression") for x in allrows)
    nimp = sum(x["verdict"].endswith("improvement") for x in allrows)
    nns = sum(x["ratio"] is None for x in allrows)
    nne = sum(x["ratio"] is not None and x["lo"] is None for x in allrows)
    unmatched = sum(u for *_, u in pairs)
    summary = (f"{len(allrows)} rows compared in {len(done)} comparison(s): {nreg} regression(s), "
               f"{nimp} improvement(s), {nne} {compare_stats.NOT_ENOUGH}, {len(invalid)} invalid row(s), "
               f"{nns} without samples, {unmatched} row(s) without a partner")

    if not args.quiet:
        print(method)
        print_text(done, args)
        print()
    for label, k in invalid:
        print(f"{PROG}: INVALID {show(label)}: {show(' '.join(x for x in k if x))}")
    print(f"{PROG}: {summary}")
    if args.markdown:
        write_markdown(args.markdown, done, args, method, summary)
    if args.png:
        write_png(args.png, done, args, level)
    return 1 if nreg or invalid else 0

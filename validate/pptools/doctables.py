"""The tables of docs/ that hold measured figures, written from the published sets.

A document marks each table with `<!-- doc-table:begin KIND SET... -->` and
`<!-- doc-table:end -->`; the lines between are this tool's, never typed.

  validate/doc-tables --update [DOC...]   rewrite every marked table (default docs/*.md)
  validate/doc-tables --check  [DOC...]   exit 1 if a table is not what its files say

KIND:
  summary SET     each app's headline rows at their largest size (SET/summary.json of a suite
                  run): cuda's figure of merit, every other GPU model's over it, the copy fraction
  energy SET      the same rows' work per joule and power, and where the metered runs' pace
                  was not the row's
  worked-energy SET
                  one metered row (microbench triad, cuda) recomputed from its JSON
  peers SET       the public codes by the same method (SET/peers/peers.json): both sides'
                  statistic, figures, the ratio and the device-time ratio
  papers SET      the papers' systems (SET/papers/papers.json, validate/refs/papers.sh): each
                  CGSolve build and path, and ProxyPort's cgsolve models, over Kokkos CUDA at each
                  N (SpMV and solve), and TestSNAP's builds
  scaling SET...  every SET/**/scaling.json: efficiency per GPU count for each series and model
  compilers SET   every suite run of the set (SET/summary.json, SET/*/summary.json), one column per
                  build and model: its figure over cuda's in the same run
Every table names its set and the commit its files were made from; ratios are computed from
the files' unrounded figures and rounded once, where shown. Exit 0, 1 (check: stale), 2 usage.
"""
import glob
import json
import os
import re
import sys

from . import project, published

DOCS = os.path.join(project.ROOT, "docs")
RESULTS = os.path.join(project.ROOT, "results")
BEGIN = re.compile(r"^<!-- doc-table:begin ([\w-]+)((?: [\w.-]+)+) -->$", re.M)
END = "<!-- doc-table:end -->"
def _others():
    """The GPU models compared with the native one (PP_MODELS' non-native device models)."""
    return tuple(m for m in project.device_models() if m not in project.native_models())


def _load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _g(x, spec):
    return "-" if x is None else format(x, spec)


def _fom(x, unit):
    if x is None:
        return "-"
    return f"{x:.4g} {unit}"


def _commit(setdir):
    """The commit the set's runs name (its manifest), for the table's note."""
    try:
        import tomllib
        with open(os.path.join(setdir, "manifest.toml"), "rb") as f:
            runs = tomllib.load(f).get("run", [])
        return ", ".join(sorted({r["commit"][:12] for r in runs}))
    except (OSError, ValueError, KeyError):
        return "unknown"


def _headline(rows):
    """{(kernel, variant): {model: row}} of each kernel's largest size."""
    biggest = {}
    for r in rows:
        k = (r["kernel"], r["variant"] if not re.fullmatch(r"tpb=\d+", r["variant"] or "") else "")
        biggest[k] = max(biggest.get(k, 0), r["size"] or 0)
    out = {}
    for r in rows:
        k = (r["kernel"], r["variant"] if not re.fullmatch(r"tpb=\d+", r["variant"] or "") else "")
        if (r["size"] or 0) != biggest[k]:
            continue
        old = out.setdefault(k, {}).get(r["model"])
        better = old is None or (r["fom"] or 0) * (1 if r["higher_is_better"] else -1) > \
            (old["fom"] or 0) * (1 if old["higher_is_better"] else -1)
        if better:
            out[k][r["model"]] = r
    return out


def summary(sets):
    setdir = os.path.join(RESULTS, sets[0])
    s = _load(os.path.join(setdir, "summary.json"))
    others = _others()
    lines = ["| app | kernel | size | native | " + " | ".join(f"{m} / native" for m in others) + " | native %copy |",
             "|---|---|---|---|" + "---|" * len(others) + "---|"]
    for app, a in s["apps"].items():
        for (kernel, variant), by in _headline(a["rows"]).items():
            c = next((by[m] for m in project.native_models() if m in by), None)
            if not c:
                continue
            name = kernel + (f" {variant}" if variant else "")
            ratios = []
            for m in others:
                r = by.get(m)
                if not (r and c["fom"] and r["fom"]):
                    ratios.append("-")
                    continue
                q = r["fom"] / c["fom"] if c["higher_is_better"] else c["fom"] / r["fom"]
                ratios.append(f"{q:.3f}")
            copy = c.get("fraction_of_copy_ceiling")
            lines.append(f"| {app} | {name} | {c['size']} | {c['model']}: {_fom(c['fom'], c['fom_unit'])} | "
                         + " | ".join(ratios) + f" | {_g(None if copy is None else 100 * copy, '.1f')}"
                         + ("%" if copy else "") + " |")
    lines += ["", f"`results/{sets[0]}` (`summary.json`, git {_commit(setdir)}): each kernel at its largest size, "
              "each model at its fastest launch shape, median over the runs; a ratio above 1 is faster than the native model."]
    return lines


PACE_TOL = 0.02  # the energy method's tolerance on the metered pace (docs/running.md#energy)


def energy(sets):
    setdir = os.path.join(RESULTS, sets[0])
    s = _load(os.path.join(setdir, "summary.json"))
    lines = ["| app | kernel | model | per joule | W | idle W | note |", "|---|---|---|---|---|---|---|"]
    for app, a in s["apps"].items():
        for (kernel, variant), by in _headline(a["rows"]).items():
            for m in project.native_models() + _others():
                r = by.get(m)
                if not r or r.get("per_joule") is None:
                    continue
                pace = r.get("metered_time_ratio")
                note = "; ".join(x for x in (
                    "below the counter's resolution" if r.get("energy_below_resolution") else "",
                    f"metered at {pace:.2f}x the row's time per repetition" if pace and abs(pace - 1) > PACE_TOL else "")
                    if x)
                name = kernel + (f" {variant}" if variant else "")
                lines.append(f"| {app} | {name} | {m} | {r['per_joule']:.4g} {r['per_joule_unit']} | "
                             f"{_g(r.get('watts'), '.0f')} | {_g(r.get('idle_watts'), '.0f')} | {note} |")
    lines += ["", f"`results/{sets[0]}` (`summary.json`, git {_commit(setdir)}): the GPU's energy over each row's "
              "own runs (NVML), the same rows as the summary."]
    cost = published.energy_cost(setdir)
    if cost:
        lines[-1] += (f" The suite's processes took {cost[0]:.1f} s with the meter and {cost[1]:.1f} s without it "
                      f"(`no-energy/suite.json`, the same binaries on the same node): {cost[0] / cost[1]:.2f}x.")
    return lines


def worked_energy(sets):
    """One metered row of the set, recomputed from its JSON (microbench triad, cuda, the largest
    size): the identities of docs/running.md#energy with the file's own numbers."""
    setdir = os.path.join(RESULTS, sets[0])
    doc = _load(os.path.join(setdir, "microbench", "run1.json"))
    rows = [r for r in doc["results"] if r["kernel"] == "triad" and r["model"] == "cuda"
            and isinstance(r.get("energy"), dict)]
    r = max(rows, key=lambda x: x["size"])
    e, t = r["energy"], r["time_s"]["median"]
    j1 = e["watts"] * e["region_s"] / (e["region_runs"] * e["calls_per_run"])
    j2 = e["watts"] * t * e["metered_time_ratio"]
    work = r["fom"] * t  # GB per repetition
    return ["| quantity | from the JSON | computed |", "|---|---|---|",
            f"| `watts` | {e['watts']:.2f} W | |",
            f"| `region_s`, `region_runs` x `calls_per_run` | {e['region_s']:.4f} s, {e['region_runs']} x "
            f"{e['calls_per_run']} | |",
            f"| `time_s.median`, `metered_time_ratio` | {t * 1e3:.4f} ms, {e['metered_time_ratio']:.4f} | |",
            f"| `joules_per_rep` | {e['joules_per_rep']:.5f} J | W x region / runs = {j1:.5f} J; "
            f"W x median x ratio = {j2:.5f} J |",
            f"| `fom`, `fom_per_joule` | {r['fom']:.1f} GB/s, {e['fom_per_joule']:.3f} GB/J | "
            f"FOM x median / J = {work / e['joules_per_rep']:.3f} GB/J |",
            f"| `counter_error` | {100 * e['counter_error']:.2f}% (window {e['counter_window_s']:.3f} s) | |",
            "", f"`results/{sets[0]}/microbench/run1.json` (git {_run_commit(setdir, 'microbench/run1.json')}): "
            f"triad, cuda, {r['size']} doubles, {r['variant']}."]


def peers(sets):
    setdir = os.path.join(RESULTS, sets[0])
    doc = _load(os.path.join(setdir, "peers", "peers.json"))
    lines = ["| comparison | statistic (public / ProxyPort) | public | ProxyPort | unit | ratio | device time | ok |",
             "|---|---|---|---|---|---|---|---|"]
    for r in doc.get("rows", []):
        st = r.get("statistic") or {}
        dev = (r.get("device") or {}).get("ratio")
        lines.append(f"| {r['comparison']} | {st.get('public', '-')} / {st.get('proxyport', '-')} | "
                     f"{_g(r.get('public'), '.4g')} | {_g(r.get('proxyport'), '.4g')} | {r['unit']} | "
                     f"{_g(r.get('ratio'), '.3f')} | {_g(dev, '.3f')} | {'yes' if r.get('ok') else 'no'} |")
    lines += ["", f"`results/{sets[0]}/peers/` (git {_commit(setdir)}): ratio above 1, ProxyPort faster; each row's "
              "method is in `peers.md`."]
    return lines


def papers(sets):
    setdir = os.path.join(RESULTS, sets[0])
    doc = _load(os.path.join(setdir, "papers", "papers.json"))
    cg = [r for r in doc["tables"]["cgsolve"] if r.get("status") == "ok"]
    sizes = sorted({r["N"] for r in cg})
    by = {}
    for r in cg:
        by.setdefault((r["code"].replace("CGSolve-", ""), r["path"]), {})[r["N"]] = r
    lines = ["| code | path | " + " | ".join(f"SpMV N={n}" for n in sizes) + " | "
             + " | ".join(f"solve N={n}" for n in sizes) + " |", "|---|---|" + "---|" * (2 * len(sizes))]
    for (code, path), rs in by.items():
        cells = [_g((rs.get(n) or {}).get("spmv_vs_kokkos_cuda"), ".3f") for n in sizes]
        cells += [_g((rs.get(n) or {}).get("solve_vs_kokkos_cuda"), ".3f") for n in sizes]
        lines.append(f"| {code} | {path} | " + " | ".join(cells) + " |")
    ts = [r for r in doc["tables"]["testsnap"] if r.get("status") == "ok"]
    lines += ["", "| TestSNAP W_2J14 | steady step vs Kokkos CUDA |", "|---|---|"]
    lines += [f"| {r['code']} | {_g(r.get('steady_vs_kokkos_cuda'), '.3f')} |" for r in ts]
    lines += ["", f"`results/{sets[0]}/papers/` (git {_run_commit(setdir, 'papers/papers.json')}): time ratios to "
              "Kokkos CUDA at the same N (above 1: faster); SpMV per call, the solve per iteration; every build "
              "and what was not built, with the compiler's reason, in `papers.md`."]
    return lines


def _run_commit(setdir, rel):
    """The commit of the set's run whose files hold `rel` (a path under the set)."""
    try:
        import fnmatch

        import tomllib
        with open(os.path.join(setdir, "manifest.toml"), "rb") as f:
            for run in tomllib.load(f).get("run", []):
                if any(fnmatch.fnmatchcase(rel, g) for g in run["files"]):
                    return run["commit"][:12]
    except (OSError, ValueError, KeyError):
        pass
    return _commit(setdir)


def scaling(sets):
    lines = []
    order = project.native_models()[:1] + tuple(reversed(_others()))
    for name in sets:
        setdir = os.path.join(RESULTS, name)
        for path in sorted(glob.glob(os.path.join(setdir, "**", "scaling.json"), recursive=True)):
            rel = os.path.relpath(path, setdir)
            doc = _load(path)
            gpus = sorted({p["gpus"] for x in doc["series"] for p in x["points"] if p["gpus"] > 1})
            rows = {}
            for x in doc["series"]:
                model = x["label"].split("[")[0]
                pts = {p["gpus"]: p["efficiency"] for p in x["points"]}
                rows.setdefault((x["app"], x["series"], x["variant"] or "-"), {})[model] = pts
            lines += [f"`results/{name}/{os.path.dirname(rel) or '.'}` (git {_run_commit(setdir, rel)}): "
                      "parallel efficiency, " + " / ".join(order), "",
                      "| app | series | kernel | " + " | ".join(f"{g} GPUs" for g in gpus) + " |",
                      "|---|---|---|" + "---|" * len(gpus)]
            for (app, series, kernel), by in rows.items():
                cells = [" / ".join(_g(by.get(m, {}).get(g), ".3f") for m in order) for g in gpus]
                lines.append(f"| {app} | {series} | {kernel} | " + " | ".join(cells) + " |")
            lines.append("")
    return lines[:-1] if lines else ["(no scaling.json in the sets named)"]


COMPILER_ROWS = ("triad", "dot", "init", "launch_sync", "spmv", "cg_solve", "event baseline (-k 0)",
                 "event sorted-energy (-k 6)", "step")  # the rows a compiler's acceptance turns on


def compilers(sets):
    """Each suite run of the set (SET/summary.json and SET/*/summary.json), one column per
    build and model: the model's figure over cuda's of the same run, so that runs on two
    nodes of the same GPU compare by their own native baseline."""
    setdir = os.path.join(RESULTS, sets[0])
    runs = [os.path.join(setdir, "summary.json")] + sorted(glob.glob(os.path.join(setdir, "*", "summary.json")))
    cols, table, notes = [], {}, []
    for path in runs:
        s = _load(path)
        build = s.get("build") or {}
        tag = build.get("tag") or build.get("c_compiler") or "?"
        devs = [d for sysrec in (s.get("system") or []) for d in sysrec.get("devices") or [] if d.get("uuid")]
        dev = next((d for d in devs if d.get("model") in project.native_models()), devs[0] if devs else None)
        gpu = f"{dev['name']} {dev['uuid'][:12]}" if dev else "GPU not recorded"
        notes.append(f"`{os.path.relpath(path, RESULTS)}` ({tag}, git {str(build.get('git_revision', '?'))[:12]}, {gpu})")
        for app, a in s["apps"].items():
            for (kernel, variant), by in _headline(a["rows"]).items():
                name = kernel + (f" {variant}" if variant else "")
                nat = next((by[m] for m in project.native_models() if m in by), None)
                if name not in COMPILER_ROWS or not nat or not nat["fom"]:
                    continue
                for m in _others():
                    r = by.get(m)
                    if r and r["fom"]:
                        col = r["label"]
                        cols += [col] if col not in cols else []
                        ratio = r["fom"] / nat["fom"] if r["higher_is_better"] else nat["fom"] / r["fom"]
                        table.setdefault((app, name), {})[col] = ratio
    cols.sort()
    lines = ["| app | row | " + " | ".join(cols) + " |", "|---|---|" + "---|" * len(cols)]
    for (app, name), by in table.items():
        lines.append(f"| {app} | {name} | " + " | ".join(_g(by.get(c), ".3f") for c in cols) + " |")
    lines += ["", "Each model's figure over cuda's in the same run (above 1: faster than cuda), its headline size, "
              "its fastest launch shape; the runs: " + "; ".join(notes) + "."]
    return lines


KINDS = {"summary": summary, "energy": energy, "worked-energy": worked_energy, "peers": peers, "papers": papers, "scaling": scaling,
         "compilers": compilers}


def render(text):
    """The document with every marked table written; raises ValueError on a bad marker."""
    out, pos = [], 0
    for m in BEGIN.finditer(text):
        end = text.find(END, m.end())
        if end < 0:
            raise ValueError(f"doc-table {m.group(1)}: no '{END}'")
        kind, sets = m.group(1), m.group(2).split()
        if kind not in KINDS:
            raise ValueError(f"doc-table {kind}: not a kind ({', '.join(KINDS)})")
        out.append(text[pos:m.end()])
        out.append("\n" + "\n".join(KINDS[kind](sets)) + "\n")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in ("--update", "--check"):
        print("usage: validate/doc-tables --update|--check [DOC...]\n\n" + __doc__,
              file=sys.stdout if argv[:1] in (["-h"], ["--help"]) else sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    docs = argv[1:] or sorted(glob.glob(os.path.join(DOCS, "*.md")))
    stale = []
    for d in docs:
        with open(d, encoding="utf-8") as f:
            old = f.read()
        try:
            new = render(old)
        except (OSError, ValueError, KeyError) as e:
            print(f"doc-tables: {d}: {e}", file=sys.stderr)
            return 1
        if new != old:
            stale.append(d)
            if argv[0] == "--update":
                with open(d, "w", encoding="utf-8") as f:
                    f.write(new)
    for d in stale:
        print(f"doc-tables: {d}: {'rewritten' if argv[0] == '--update' else 'a table is not what its files say'}")
    return 1 if stale and argv[0] == "--check" else 0

"""One machine's rows, from a folder of result files or a suite run folder.

A machine is one folder: either result files (*.json at its top; files that
are not result files, such as scaling.json, are skipped and named) or a suite
run (suite.json or summary.json, with <app>/run<k>.json), whose repeats of a
row are combined by the median FOM, as the suite's summary combines them.

A row is compared only with rows of the same app, case, kernel, size and
variant. The case is what the run's command line says about the problem: its
options, less those that change only the measurement's bookkeeping, the models
run, the outputs or what the row itself records (its size, variant, kernel);
file paths become their names (one deck on two machines lives in two folders).
Launch-shape variants ("tpb=256") are one family: each model's best shape is
kept, as the suite summary keeps it. The MPI rank count is the machine's:
where a folder ran a case on several rank counts, the largest is kept (the
whole node) unless --ranks names one.
"""
import os
import shlex

from .. import project, runset
from .. import result as resultfile

BadInput = resultfile.BadInput

# options that do not change the problem or its measurement method: how many
# samples, the outputs, which models and rows run (the rows record their own
# kernel, size and variant), the copy ceiling's buffer, the device index
DROP = {"--backend", "--json", "--csv", "--samples", "--warmup", "--quiet", "--bootstrap",
        "--confidence", "--device", "--ceiling-mib", "--no-energy", "--energy-max-s",
        "--print-every", "--history", "--dump", "--variant", "--tpb", "--kernels", "--size",
        "--deck", "--inputs", "--no-vendor", "--sort-check"}
# short options and their long names (xsbench_like's XSBench spellings)
ALIAS = {"-s": "--problem", "-l": "--lookups", "-m": "--method", "-p": "--particles",
         "-G": "--grid", "-g": "--gridpoints", "-k": "--variant"}
NEEDED = ("kernel", "model", "fom_higher_is_better")  # fom may be null (not finite): no efficiency


def _is_option(tok):
    if not tok.startswith("-") or tok == "-":
        return False
    try:
        float(tok)
        return False  # a negative number is a value
    except ValueError:
        return True


def case_of(command):
    """The case a command line ran: its problem options, sorted, paths as names;
    "default" when it has none."""
    try:
        toks = shlex.split(command or "")[1:]
    except ValueError:
        toks = (command or "").split()[1:]
    groups, cur = [], None
    for t in toks:
        if _is_option(t):
            opt, eq, val = t.partition("=")
            cur = [ALIAS.get(opt, opt)] + ([val] if eq else [])
            groups.append(cur)
        elif cur is not None:
            cur.append(t)
    kept = []
    for g in groups:
        if g[0] in DROP:
            continue
        kept.append(" ".join([g[0]] + [os.path.basename(v.rstrip("/")) if "/" in v else v for v in g[1:]]))
    return " ".join(sorted(kept)) or "default"


def gpu_card(doc):
    """The GPU (or CPU) the file ran on, from its device records."""
    names = set()
    for d in doc.get("devices") or []:
        if d.get("ran") and d.get("is_gpu") and d.get("name"):
            names.add(d["name"].split(" (")[0])
    if not names:
        for rec in doc.get("system") or []:
            if rec.get("cpu_model"):
                names.add(rec["cpu_model"])
    return sorted(names)


def model_status(doc):
    """{model label or name: why it has no rows} from the file's device records:
    "not built: ..." or "did not run: ..." (a model the run did not ask for is absent)."""
    out = {}
    for d in doc.get("devices") or []:
        if d.get("ran") is False:
            reason = d.get("reason") or "no reason given"
            why = reason if reason.startswith("not built") else f"did not run: {reason}"
            out[d.get("label") or d.get("model")] = why
            out.setdefault(d.get("model"), why)
    return out


def _suite_files(folder):
    """[(path, repeat failure or None)] of a suite run folder; failures: runs
    that exited non-zero or left no file ({app: [why]})."""
    files, failed = [], {}
    plan_path = os.path.join(folder, "suite.json")
    if os.path.lexists(plan_path):
        plan = resultfile.load_json(plan_path, limit=resultfile.RESULT_LIMIT)
        runs = plan.get("runs") if isinstance(plan, dict) else None
        if not isinstance(runs, list):
            raise BadInput(f"{plan_path}: not a suite plan (no \"runs\" list)")
        for i, r in enumerate(runs):
            if not isinstance(r, dict) or not isinstance(r.get("app"), str):
                raise BadInput(f"{plan_path}: runs[{i}]: not a run object")
            j = r.get("json")
            path = os.path.join(folder, j) if isinstance(j, str) else None
            if r.get("exit") not in (0, None) or not path or not os.path.lexists(path):
                failed.setdefault(r["app"], []).append(f"repeat {r.get('repeat')} exit {r.get('exit')}"
                                                       + ("" if path and os.path.lexists(path) else ", no result file"))
            if path and os.path.lexists(path):
                files.append(path)
        return files, failed
    for app in project.apps():
        d = os.path.join(folder, app)
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if f.startswith("run") and f.endswith(".json") and f[3:-5].isdigit():
                files.append(os.path.join(d, f))
    return files, failed


def is_suite(folder):
    return any(os.path.lexists(os.path.join(folder, f)) for f in ("suite.json", "summary.json"))


class Machine:
    """name, folder, card, kind, entries {full key: entry}, status {(app, case, ranks): {model: why}},
    files (read), skipped (not result files), failed {app: [why]} (suite runs that left nothing)."""

    def __init__(self, name, folder):
        self.name, self.folder = name, folder
        self.cards, self.entries, self.status = set(), {}, {}
        self.files, self.skipped, self.failed, self.revisions = [], [], {}, {}
        self.kind = "suite run" if is_suite(folder) else "result files"


def _read(path):
    doc = resultfile.load_json(path, limit=resultfile.RESULT_LIMIT)
    if not isinstance(doc, dict) or "results" not in doc:
        return None
    return resultfile.check_result(doc, path)


def load_machine(name, folder, ranks="max"):
    if not os.path.isdir(folder):
        raise BadInput(f"{folder}: not a folder")
    m = Machine(name, folder)
    if m.kind == "suite run":
        paths, m.failed = _suite_files(folder)
    else:
        try:
            names = sorted(os.listdir(folder))
        except OSError as e:
            raise BadInput(f"{folder}: {e.strerror}") from None
        paths = [os.path.join(folder, f) for f in names if f.endswith(".json")]
    raw = []  # (full key, (row, path, doc)) of every repeat
    for path in paths:
        doc = _read(path)
        if doc is None:
            m.skipped.append(os.path.basename(path))
            continue
        m.files.append(os.path.relpath(path, folder))
        app = doc.get("app") or "?"
        case = case_of(doc.get("command"))
        nr = doc.get("mpi_ranks") or 1
        m.cards.update(gpu_card(doc))
        b = doc.get("build") or {}
        rev = (b.get("git_revision") or "?") + ("-dirty" if b.get("git_dirty") else "")
        m.revisions.setdefault((app, case, nr), set()).add(rev)
        st = m.status.setdefault((app, case, nr), {})
        st.update(model_status(doc))
        for i, r in enumerate(doc["results"]):
            resultfile.require(r, NEEDED, path, f"results[{i}]")
            k = (app, case, nr, r["kernel"], resultfile.label(r), str(r.get("size", "")), r.get("variant") or "")
            raw.append((k, (r, path, doc)))
    for k, rows in runset.gather(raw).items():
        paths_k = sorted({p for _, p, _ in rows})
        if m.kind != "suite run" and len(rows) > 1:
            raise BadInput(f"{folder}: {', '.join(os.path.basename(p) for p in paths_k)} both hold the row "
                           f"{k[0]} {k[3]} {k[4]} size {k[5]} {k[6] or ''} of case '{k[1]}' on {k[2]} rank(s); "
                           "one machine's folder holds each row once (repeats: a suite run folder)")
        m.entries[k] = _combine(rows, m.failed.get(k[0]))
    _keep_ranks(m, ranks)
    _best_shape(m)
    if not m.entries:
        raise BadInput(f"{folder}: no result rows (a folder of result files or a suite run)")
    return m


def _combine(rows, failed_repeats):
    """One entry from a row's repeats (pptools/runset.py): median FOM, fraction of
    the copy ceiling and time."""
    first = rows[0][0]
    repeats = [r for r, _, _ in rows]
    foms = runset.foms(repeats)
    no_fom = len(foms) < len(rows)  # a repeat whose FOM was not finite: no efficiency from it
    times = [r["time_s"]["median"] for r in repeats if (r.get("time_s") or {}).get("median")]
    valid = all(r.get("valid") is True for r in repeats) and not failed_repeats and not no_fom
    checks = sorted({r.get("check") or "" for r in repeats if r.get("valid") is not True})
    if no_fom:
        checks.append("FOM not a finite number")
    if failed_repeats and all(r.get("valid") is True for r in repeats):
        checks = []  # the repeats that ran validated; one that did not run is the failure
    return {"model": first["model"], "label": resultfile.label(first), "variant": first.get("variant") or "",
            "fom": runset.median(foms), "fom_unit": first.get("fom_unit", ""),
            "higher_is_better": bool(first["fom_higher_is_better"]), "runs": len(rows),
            "copy_fraction": runset.copy_fraction(repeats),
            "flops_per_run": first.get("flops_per_run"), "time_s": runset.median(times),
            "valid": valid, "why_invalid": "; ".join(c for c in checks if c),
            "failed_run": "; ".join(failed_repeats or []),
            "files": sorted({os.path.basename(p) for _, p, _ in rows})}


def _keep_ranks(m, ranks):
    """Per (app, case): the largest rank count, or the one asked for."""
    have = {}
    for (app, case, nr, *_rest) in m.entries:
        have.setdefault((app, case), set()).add(nr)
    keep = {ac: (max(ns) if ranks == "max" else int(ranks)) for ac, ns in have.items()}
    m.entries = {k: e for k, e in m.entries.items() if k[2] == keep[(k[0], k[1])]}
    m.status = {k: v for k, v in m.status.items() if keep.get((k[0], k[1])) == k[2]}
    m.revisions = {k: v for k, v in m.revisions.items() if keep.get((k[0], k[1])) == k[2]}
    m.ranks = {ac: n for ac, n in keep.items() if n in have[ac]}


def _rank(e):
    """Validated before not; then the better FOM."""
    f = e["fom"] if e["fom"] is not None else float("nan")
    return (e["valid"], e["fom"] is not None, (f if e["higher_is_better"] else -f) if e["fom"] is not None else 0)


def _best_shape(m):
    """Launch shapes of one row collapse to the model's best (the shape kept is recorded)."""
    best = runset.best_shape(m.entries, lambda k: k[:6] + (resultfile.family(k[6]),), _rank)
    for e in best.values():
        e["shape"] = e["variant"] if resultfile.is_launch_shape(e["variant"]) else ""
    m.entries = best

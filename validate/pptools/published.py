"""The published result sets: results/<machine>/manifest.toml (validated by
validate/schema/results-set.schema.json) and what it holds.

  validate/published check [RESULTS]   every set: its manifest, every file listed by
                                       exactly one run and every run's files there, every
                                       row of every result file validated but the expected
                                       failures (each of which must still fail), no folder
                                       named after a commit, RESULTS within 15 MB and 400 files;
                                       a set with the suite without energy too (no-energy/):
                                       the meter's cost within 1.5x, every metered row above
                                       the counter's resolution
  validate/published index [RESULTS] [--check]
                                       writes RESULTS/README.md and each set's README.md
                                       from the manifests (--check: exit 1 if they differ)
  validate/published manifest DIR      writes DIR/manifest.toml for what validate/publish.sh
                                       ran there (its publish.log, node.txt and result files)

Exit 0 good, 1 a check failed (each failure on its line), 2 usage."""
import fnmatch
import json
import os
import re
import sys

import tomllib

from . import project

RESULTS = os.path.join(project.ROOT, "results")
SCHEMA = os.path.join(project.VALIDATE, "schema", "results-set.schema.json")
MAX_BYTES = 15 * 1024 * 1024
MAX_FILES = 400
OWN = ("manifest.toml", "README.md")         # a set's own files, not a run's
MAX_ENERGY_COST = 1.5  # a suite with its meter against the same suite without it (issue: at most 1.5x)
COMMIT_NAME = re.compile(r"(^|[-_])[0-9a-f]{7,40}($|[-_])")


def sets(root=RESULTS):
    """The set folders under root, sorted."""
    return sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))


def load(folder):
    """The manifest of a set folder (a dict), or raises ValueError with the reason."""
    path = os.path.join(folder, "manifest.toml")
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path}: {e}") from None


def files_of(folder):
    """Every file of the folder, relative, sorted."""
    out = []
    for d, _, names in os.walk(folder):
        out += [os.path.relpath(os.path.join(d, n), folder) for n in names]
    return sorted(out)


def run_files(folder, run):
    """The files a run's globs name, relative to the folder."""
    have = files_of(folder)
    return sorted({f for g in run["files"] for f in have if fnmatch.fnmatchcase(f, g)})


def result_files(folder, manifest=None):
    """The result files (JSON with a results list) of the set."""
    m = manifest or load(folder)
    out = []
    for run in m["run"]:
        for f in run_files(folder, run):
            if f.endswith(".json"):
                try:
                    with open(os.path.join(folder, f), encoding="utf-8") as h:
                        doc = json.load(h)
                except (OSError, ValueError):
                    continue
                if isinstance(doc, dict) and isinstance(doc.get("results"), list):
                    out.append(f)
    return out


def energy_cost(folder):
    """(seconds with the meter, seconds without) of a set that holds both suites
    (suite.json and no-energy/suite.json: the apps' processes summed), else None."""
    secs = []
    for rel in ("suite.json", os.path.join("no-energy", "suite.json")):
        try:
            with open(os.path.join(folder, rel), encoding="utf-8") as f:
                secs.append(sum(float(r["seconds"]) for r in json.load(f)["runs"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
    return tuple(secs)


def _energy_problems(folder, name, m):
    """A set that publishes what its meter costs: within MAX_ENERGY_COST, and every
    metered row of the suite above the counter's resolution."""
    cost = energy_cost(folder)
    if cost is None:
        return []
    bad = []
    if not cost[0] <= MAX_ENERGY_COST * cost[1]:
        bad.append(f"{name}: the suite took {cost[0]:.1f} s with its energy meter, {cost[1]:.1f} s without: "
                   f"{cost[0] / cost[1]:.2f}x, more than {MAX_ENERGY_COST}x")
    for f in result_files(folder, m):
        if f.startswith("no-energy" + os.sep) or f.split(os.sep)[0] not in project.apps():
            continue
        with open(os.path.join(folder, f), encoding="utf-8") as h:
            rows = json.load(h)["results"]
        bad += [f"{name}/{f}: {_label(r)} {r.get('size')}: energy below the counter's resolution (error "
                f"{r['energy'].get('counter_error', float('nan')):.3g})" for r in rows
                if isinstance(r.get("energy"), dict) and r["energy"].get("below_counter_resolution")]
    return bad


def _label(r):
    return f"{r.get('kernel')} {r.get('label') or r.get('model')}"


def check_set(folder):
    """Problems of one set, as lines."""
    bad = []
    name = os.path.basename(os.path.normpath(folder))
    try:
        m = load(folder)
    except ValueError as e:
        return [str(e)]
    try:
        import jsonschema
        with open(SCHEMA, encoding="utf-8") as f:
            schema = json.load(f)
        bad += [f"{name}/manifest.toml: {'/'.join(map(str, e.path)) or '(top)'}: {e.message}"
                for e in jsonschema.Draft202012Validator(schema).iter_errors(m)]
    except ImportError:
        bad.append("jsonschema is not installed: the manifests cannot be checked")
    if bad:
        return bad
    if m["set"]["name"] != name:
        bad.append(f"{name}/manifest.toml: set.name is {m['set']['name']!r}, the folder {name!r}")
    have = [f for f in files_of(folder) if f not in OWN]
    owner = {}
    for i, run in enumerate(m["run"]):
        for g in run["files"]:
            hit = [f for f in have if fnmatch.fnmatchcase(f, g)]
            if not hit:
                bad.append(f"{name}: run {i + 1} ({run['what'][:40]}): no file matches {g!r}")
            for f in hit:
                if f in owner and owner[f] != i:
                    bad.append(f"{name}/{f}: listed by runs {owner[f] + 1} and {i + 1}")
                owner[f] = i
    bad += [f"{name}/{f}: in no run's files (a published set holds its runs' files only)"
            for f in have if f not in owner]
    for d, subdirs, _ in os.walk(folder):
        bad += [f"{os.path.relpath(os.path.join(d, s), os.path.dirname(folder))}: a folder named after a "
                "commit (name what it holds; the commit goes in the manifest)" for s in subdirs if COMMIT_NAME.search(s)]
    expected = {}
    for x in m.get("expected_failure", []):
        expected.setdefault(x["file"], set()).update(x["rows"])
        if x["file"] not in have:
            bad.append(f"{name}: expected failure in {x['file']!r}, which the set does not hold")
    for f in result_files(folder, m):
        with open(os.path.join(folder, f), encoding="utf-8") as h:
            rows = json.load(h)["results"]
        failed = {_label(r) for r in rows if not r.get("valid", False)}
        want = expected.get(f, set())
        bad += [f"{name}/{f}: row {x} failed and is not an expected failure" for x in sorted(failed - want)]
        bad += [f"{name}/{f}: expected failure {x} did not fail (or is not there)" for x in sorted(want - failed)]
    return bad + _energy_problems(folder, name, m)


def check(root=RESULTS):
    bad = []
    for s in sets(root):
        bad += check_set(os.path.join(root, s))
    total = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(root) for n in ns)
    count = sum(len(ns) for _, _, ns in os.walk(root))
    if total > MAX_BYTES:
        bad.append(f"{root}: {total / 1048576:.1f} MiB, more than {MAX_BYTES >> 20} MiB")
    if count > MAX_FILES:
        bad.append(f"{root}: {count} files, more than {MAX_FILES}")
    return bad


def set_readme(folder, m):
    """A set's README.md, from its manifest."""
    s = m["set"]
    out = [f"# {s['name']}: {s['summary']}", "",
           "Generated from `manifest.toml` by `validate/published index`; edit the manifest.", ""]
    if s.get("about"):
        out += [s["about"].strip(), ""]
    out += ["| | |", "|---|---|", f"| GPUs | {s['gpus']} |", f"| hardware | {s['hardware']} |",
            f"| software | {s['software']} |", f"| made again by | `{s['regenerate']}` |", ""]
    out += ["## Runs", "", "| what | commit | command | files |", "|---|---|---|---|"]
    for run in m["run"]:
        files = ", ".join(f"`{g}`" for g in run["files"])
        cmd = run["command"].replace("|", "\\|")
        out.append(f"| {run['what']} | `{run['commit']}` | `{cmd}` | {files} |")
    out.append("")
    xs = m.get("expected_failure", [])
    if xs:
        out += ["## Expected failures", "", "Rows that fail by design: a finding the set documents.", "",
                "| file | rows | why |", "|---|---|---|"]
        out += [f"| `{x['file']}` | {', '.join(x['rows'])} | {x['why']} |" for x in xs]
        out.append("")
    return "\n".join(out)


def index(root=RESULTS):
    """{path: text} of RESULTS/README.md and every set's README.md."""
    texts = {}
    lines = ["# Published results", "",
             "One folder per machine (and GPU count), each a published set: the output of the commands its",
             "`manifest.toml` names, at the commit it names, every row validated (a row that fails by design",
             "is listed as an expected failure). Generated by `validate/published index`; checked in CI by",
             "`validate/published check` (manifests, files, rows, size). Your own runs go to `runs/`",
             "(`scripts/run`, ignored by git), never here.", "",
             "| set | GPUs | what | made again by |", "|---|---|---|---|"]
    for s in sets(root):
        folder = os.path.join(root, s)
        m = load(folder)
        ref = " (**the reference**)" if m["set"].get("reference") else ""
        lines.append(f"| [{s}]({s}/README.md) | {m['set']['gpus']} | {m['set']['summary']}{ref} | "
                     f"`{m['set']['regenerate']}` |")
        texts[os.path.join(folder, "README.md")] = set_readme(folder, m) + "\n"
    texts[os.path.join(root, "README.md")] = "\n".join(lines) + "\n"
    return texts


STEP_FILES = {  # what each step of validate/publish.sh writes
    "suite": ["suite.json", "summary.json", "summary.md", "figures/*"],
    "no-energy": ["no-energy/*"],
    "peers": ["peers/*"],
    "gpu-check": ["gpu-check.txt"],
    "energy-check": ["energy-check.txt"],
    "manifest": ["node.txt", "publish.log"],
}
STEP_WHAT = {
    "suite": "the suite at its reference scale: every app, every GPU model, energy on",
    "no-energy": "the same suite without the energy meter (no-energy/): what the meter costs",
    "peers": "the public codes beside ProxyPort by the same method (peers/)",
    "gpu-check": "the correctness sweep of the binaries (validate/gpu-check.sh)",
    "energy-check": "the energy meter against nvidia-smi's power samples: cuda, ompx and omp triad, 20 s each",
    "manifest": "the node's record (nvidia-smi) and the steps' log",
}


def _toml_str(s):
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_manifest(folder):
    """manifest.toml of a folder validate/publish.sh made (its publish.log, node.txt, results)."""
    steps = []
    with open(os.path.join(folder, "publish.log"), encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 4 and parts[0] in STEP_FILES:
                steps = [x for x in steps if x[0] != parts[0]]  # a step run again: its last run
                steps.append((parts[0], parts[3]))
    if not any(n == "manifest" for n, _ in steps):
        steps.append(("manifest", "validate/published manifest " + folder))
    docs = []
    for d, _, names in os.walk(folder):
        for n in names:
            if n.endswith(".json") and os.path.basename(d) in project.apps():
                with open(os.path.join(d, n), encoding="utf-8") as h:
                    docs.append((os.path.relpath(os.path.join(d, n), folder), json.load(h)))
    if not docs:
        raise ValueError(f"{folder}: no app result files (did the suite step run?)")
    build = docs[0][1]["build"]
    sysrec = (docs[0][1].get("system") or [{}])[0]
    commit = build["git_revision"].split("-")[0]
    node = open(os.path.join(folder, "node.txt"), encoding="utf-8").read().splitlines()
    gpus = [ln for ln in node if re.match(r"^\d+, ", ln)]
    gpu = gpus[0].split(", ") if gpus else ["0", "unknown GPU"]
    name = os.path.basename(os.path.normpath(folder))
    hardware = (f"{len(gpus) or 1} x {gpu[1]}" + (f" ({gpu[4]})" if len(gpu) > 4 else "")
                + (f", driver {gpu[3]}" if len(gpu) > 3 else "")
                + (f"; {sysrec.get('cpu_model')}" if sysrec.get("cpu_model") else ""))
    parts = [sysrec.get("os")] + [f"{k} {build[v]}" for k, v in (("C compiler", "c_compiler"),
             ("CUDA compiler", "cuda_compiler"), ("offload flags", "offload_flags")) if build.get(v)]
    software = "; ".join(x for x in parts if x)
    lines = ["# Written by validate/published manifest from what validate/publish.sh ran here.", "[set]",
             f"name = {_toml_str(name)}",
             f"summary = {_toml_str('the suite at the reference sizes with energy, the public codes beside it, the checks')}",
             f"gpus = {len(gpus) or 1}", f"hardware = {_toml_str(hardware)}", f"software = {_toml_str(software)}",
             f"regenerate = {_toml_str('validate/publish.sh results/' + name)}", ""]
    apps = sorted({p.split("/")[0] for p, _ in docs} & set(project.apps()))  # the suite's own (not no-energy/)
    for n, cmd in steps:
        files = STEP_FILES[n] + ([f"{a}/*" for a in apps] if n == "suite" else [])
        files = [g for g in files if any(fnmatch.fnmatchcase(f, g) for f in files_of(folder))]
        lines += ["[[run]]", f"what = {_toml_str(STEP_WHAT[n])}", f"commit = {_toml_str(commit)}",
                  f"command = {_toml_str(cmd)}", "files = [" + ", ".join(_toml_str(g) for g in files) + "]", ""]
    with open(os.path.join(folder, "manifest.toml"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return os.path.join(folder, "manifest.toml")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "manifest":
        if len(argv) < 2 or not os.path.isdir(argv[1]):
            print("published: manifest DIR: a folder validate/publish.sh wrote", file=sys.stderr)
            return 2
        try:
            print(f"published: {write_manifest(argv[1])}")
        except (OSError, ValueError, KeyError) as e:
            print(f"published: {e}", file=sys.stderr)
            return 1
        return 0
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in ("check", "index"):
        usage = "usage: validate/published check|index [RESULTS] [--check] | manifest DIR\n\n" + __doc__
        print(usage, file=sys.stderr if argv and argv[0] not in ("-h", "--help") else sys.stdout)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    verb, rest = argv[0], argv[1:]
    want_check = "--check" in rest
    rest = [a for a in rest if a != "--check"]
    root = rest[0] if rest else RESULTS
    if not os.path.isdir(root):
        print(f"published: {root}: not a folder", file=sys.stderr)
        return 2
    try:
        if verb == "check":
            bad = check(root)
            for b in bad:
                print("published: FAIL:", b)
            print(f"published: {len(sets(root))} sets, {'OK' if not bad else f'{len(bad)} problems'}")
            return 1 if bad else 0
        texts = index(root)
    except ValueError as e:
        print(f"published: {e}", file=sys.stderr)
        return 1
    stale = []
    for path, text in texts.items():
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old != text:
            stale.append(path)
            if not want_check:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
    if want_check:
        for p in stale:
            print(f"published: {p} is not what its manifest makes (run validate/published index)")
        return 1 if stale else 0
    print(f"published: {len(texts)} pages written, {len(stale)} changed")
    return 0

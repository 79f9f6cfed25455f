"""What `suite --reportable` enforces of RUNRULES.md: before the run (refusals)
and after it (violations found in the result files)."""
import hashlib
import shlex
import subprocess

from .. import result as resultfile
from . import cases as suite_cases

MIN_REPEATS = 3


def git(repo, *args):
    r = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def changed_paths(repo):
    """Paths with uncommitted changes (tracked or untracked, not ignored); None: not a git tree."""
    out = git(repo, "status", "--porcelain", "--untracked-files=all")
    if out is None:
        return None
    return [line[3:].split(" -> ")[-1] for line in out.splitlines() if line.strip()]


def diff_hash(repo):
    out = git(repo, "diff", "HEAD")
    return hashlib.sha256(out.encode()).hexdigest()[:12] if out else ""


def before_run(plan, repo):
    """Reasons to refuse the run before it starts (empty: go)."""
    why = []
    if plan["scale"] != "reference":
        why.append(f"scale '{plan['scale']}' is not the reference sizes (RUNRULES.md: only the "
                   "published cases count; a GPU build on a node with a visible GPU runs them)")
    if plan["repeat"] < MIN_REPEATS:
        why.append(f"--repeat {plan['repeat']}: a reportable run repeats every app in at least "
                   f"{MIN_REPEATS} separate processes")
    if plan.get("stamp_only"):
        rev = plan["build"].get("git revision", "")
        if plan["run_type"] != "baseline":
            why.append("--binary-stamp-only: an optimized run's kernel diff is recorded from the tree")
        elif not rev or rev == "unknown" or rev.endswith("-dirty"):
            why.append(f"--binary-stamp-only: the binaries were not built from a clean committed "
                       f"tree (git revision '{rev}')")
        plan["tree"] = f"not checked (--binary-stamp-only): binaries built at git {rev}"
        return why
    paths = changed_paths(repo)
    if paths is None:
        plan["tree"] = "not a git tree: the binaries' build record is the only provenance"
    elif plan["run_type"] == "baseline" and paths:
        why.append(f"uncommitted changes in {repo} ({', '.join(paths[:5])}"
                   f"{', ...' if len(paths) > 5 else ''}): a baseline run is of committed sources")
    else:
        outside = [p for p in paths if not any(k in "/" + p for k in suite_cases.KERNEL_PATH_PARTS)]
        if outside:
            why.append(f"changes outside kernel files ({', '.join(outside[:5])}): an optimized run "
                       "may change only <app>/kernels/ sources")
        plan["tree"] = f"git {(git(repo, 'rev-parse', 'HEAD') or '?').strip()[:12]}" + (
            f", kernel changes diff {diff_hash(repo)}" if paths else ", clean")
    return why


def reference_command_ok(app, command, declared, inputs):
    """The result file's command ran the reference case (plus declared options only)."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    args, i = [], 1
    while i < len(argv):
        if argv[i] in ("--json", "--csv", "--backend"):
            i += 2
            continue
        args.append(argv[i])
        i += 1
    want = suite_cases.case_args(app, "reference", inputs) + declared.get(app, [])
    return args == want


def after_run(plan, results, repo):
    """Violations in the finished run: results is [(run, json or None)]."""
    bad = []
    # a copy of the tree (--binary-stamp-only): the binaries must agree with each other
    head = plan["build"].get("git revision", "") if plan.get("stamp_only") else \
        (git(repo, "rev-parse", "HEAD") or "").strip()
    against = "the suite's first binary" if plan.get("stamp_only") else "tree"
    per_app = {}
    for run, res in results:
        name = f"{run['app']} repeat {run['repeat']}"
        per_app[run["app"]] = per_app.get(run["app"], 0) + 1
        if run.get("exit") not in (0, None):
            bad.append(f"{name}: exit {run['exit']}")
        if res is None:
            bad.append(f"{name}: no result file")
            continue
        failed = [f"{r['kernel']} {resultfile.label(r)} {r.get('size', '')} {r.get('variant', '')}".strip()
                  for r in res["results"] if not r.get("valid")]
        if failed:
            bad.append(f"{name}: {len(failed)} row(s) FAILED validation ({'; '.join(failed[:3])})")
        if not res.get("validated"):
            bad.append(f"{name}: the result file is not validated")
        if not isinstance(res.get("system"), (dict, list)) or not res.get("system"):
            bad.append(f"{name}: no system record (hostname, GPU, driver) in the result file")
        b = res.get("build") or {}
        if plan["run_type"] == "baseline" and b.get("git_dirty"):
            bad.append(f"{name}: binary built from a tree with uncommitted changes")
        if head and b.get("git_revision") and not head.startswith(b["git_revision"]):
            bad.append(f"{name}: binary built at git {b['git_revision']}, {against} at {head[:12]}")
        if not reference_command_ok(run["app"], res.get("command", ""), plan.get("declared", {}),
                                    plan.get("inputs", "")):
            bad.append(f"{name}: not the reference case ({res.get('command', '?')})")
    for app in plan["apps"]:
        if per_app.get(app, 0) < MIN_REPEATS:
            bad.append(f"{app}: {per_app.get(app, 0)} run(s); a reportable run has >= {MIN_REPEATS}")
    return bad

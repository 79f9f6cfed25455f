"""What `suite --reportable` enforces of RUNRULES.md: before the run (refusals)
and after it (violations found in the result files)."""
import hashlib
import shlex
import subprocess

from .. import result as resultfile
from . import cases as suite_cases

MIN_REPEATS = 3


def git(repo, *args):
    try:
        r = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    except OSError:
        return None
    return r.stdout if r.returncode == 0 else None


class TreeUnknown(Exception):
    """The tree's state cannot be established (git missing or refusing the repository)."""


def changed_paths(repo):
    """Paths with uncommitted changes (tracked or untracked, not ignored). TreeUnknown
    when git cannot tell: not installed, not a git checkout, or a repository git refuses
    to read (another user's tree: "dubious ownership"), each a reason, never a clean tree."""
    try:
        r = subprocess.run(["git", "-C", repo, "status", "--porcelain", "--untracked-files=all"],
                           capture_output=True, text=True)
    except OSError as e:
        raise TreeUnknown(f"git cannot run ({e.strerror})") from None
    if r.returncode != 0:
        why = next((e.strip() for e in r.stderr.splitlines() if e.strip()), f"git exit {r.returncode}")
        raise TreeUnknown(f"git status in {repo} failed: {why}")
    return [line[3:].split(" -> ")[-1] for line in r.stdout.splitlines() if line.strip()]


def binaries_match(plan, head):
    """Reasons the binaries cannot make a reportable run, from their --version alone
    (read before anything runs): another revision than `head` (the tree's HEAD; None:
    the first binary's), or built from a tree with changes in a baseline run."""
    why, first = [], None
    for app, rec in plan.get("builds", {}).items():
        rev = rec.get("git revision", "")
        base = rev[:-len("-dirty")] if rev.endswith("-dirty") else rev
        want = head[:12] if head else first
        first = first or base
        if not base or base == "unknown":
            why.append(f"{app}: the binary records no git revision ('{rev}'): its source is unknown")
        elif want and base != want:
            why.append(f"{app}: binary built at git {base}, " +
                       (f"the tree is at {want}: rebuild" if head else f"{first} for the others"))
        elif rev.endswith("-dirty") and plan["run_type"] == "baseline":
            why.append(f"{app}: binary built from a tree with uncommitted changes ({rev})")
    return why


def diff_hash(repo):
    out = git(repo, "diff", "HEAD")
    return hashlib.sha256(out.encode()).hexdigest()[:12] if out else ""


def before_run(plan, repo):
    """Reasons to refuse the run before it starts (empty: go)."""
    why = []
    missing = [a for a in suite_cases.apps() if a not in plan["apps"]]
    if missing:
        why.append(f"--apps leaves out {', '.join(missing)}: a reportable run runs every app of "
                   "apps.txt (RUNRULES.md)")
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
        return why + binaries_match(plan, None)
    try:
        paths = changed_paths(repo)
    except TreeUnknown as e:
        return why + [f"the tree's state cannot be established: {e} (a reportable run needs the "
                      "git checkout the binaries were built from, readable by this user; on a copy "
                      "without it, --binary-stamp-only)"]
    why += binaries_match(plan, (git(repo, "rev-parse", "HEAD") or "").strip())
    if plan["run_type"] == "baseline" and paths:
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

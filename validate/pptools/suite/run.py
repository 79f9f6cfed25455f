"""ProxyPort suite run: all five apps, every built model, repeated in separate
processes; then summary.json, summary.md and figures (suite_summary.py).

  suite --bin DIR [--out DIR] [--scale auto|reference|small] [--apps LIST]
        [--host] [--repeat N] [--reportable [--binary-stamp-only]] [--optimized FILE]
        [--dry-run]
  suite --summarize DIR [--reportable]     (the summary of an earlier run again)

--reportable applies RUNRULES.md: a clean committed tree (or, for an
--optimized run, changes in kernel files only, recorded by diff hash), the
reference sizes, at least 3 repeats, the `system` record in every result file
and every row validated; a run that breaks a rule is refused before it starts
(exit 2) or marked NOT REPORTABLE after it (exit 1). On a node the sources
were copied to, whose .git need not be the one the binaries were built from,
--binary-stamp-only replaces the tree's git checks by the binaries' own build
record: every result built from a clean tree, all at one revision (baseline
runs only: an optimized run's kernel diff needs the tree).

Exit: 0 every app validated (and, with --reportable, every rule held);
1 a failed row, a failed app or a broken rule after the run; 2 bad usage or
a refusal before anything ran.
"""
import argparse
import os
import subprocess
import sys
import time

from .. import cli, outfile, peers, project, result
from ..text import show
from . import cases as suite_cases
from . import rules as suite_rules
from . import summary as suite_summary

PROG = "suite"
MAX_REPEAT = 1000  # separate processes per app: more is a typo, never a plan
FAST = ["--warmup", "1", "--samples", "3", "--bootstrap", "100", "--ceiling-mib", "8"]


def die(msg, code=2):
    cli.die(PROG, msg, code)


def log(msg):
    print(f"[suite {time.monotonic() - T0:.0f}s] {show(msg, 8000)}", flush=True)


def build_record(exe):
    try:
        return suite_cases.build_record(exe)
    except OSError as e:
        die(f"cannot run {exe}: {e}")


def gpu_visible():
    for probe in (["nvidia-smi", "-L"], ["rocminfo"]):
        try:
            if subprocess.run(probe, capture_output=True, timeout=60).returncode == 0:
                return True
        except (OSError, subprocess.TimeoutExpired):
            pass
    return False


def inputs_dir(bindir):
    if os.environ.get("PP_INPUTS"):
        return os.environ["PP_INPUTS"]
    return os.path.normpath(os.path.join(bindir, "..", "share", "proxyport", "inputs"))


def parse_args(argv):
    p = cli.Parser(prog=PROG, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="See RUNRULES.md for what a reportable run may change.")
    p.add_argument("--bin", help="folder with the five apps (build/<preset>/bin or <prefix>/bin)")
    p.add_argument("--out", help="results folder (default runs/suite-<UTC stamp>: outside the "
                   "published results/, and ignored by git, so a run never dirties the tree)")
    p.add_argument("--scale", choices=("auto", "reference", "small"), default="auto",
                   help="reference: the published GPU-node cases; small: minutes on a 2-core CPU; "
                        "auto (default): reference when the build has a GPU model and a GPU is visible")
    p.add_argument("--apps", default=",".join(suite_cases.apps()), help="comma-separated (default all, apps.txt)")
    p.add_argument("--host", action="store_true",
                   help="also run the host model where a native GPU model runs (it is run anyway "
                        "when the build has none: then it is the reference)")
    p.add_argument("--repeat", type=int, help="separate processes per app (default 1; 3 with --reportable)")
    p.add_argument("--reportable", action="store_true", help="enforce RUNRULES.md (see above)")
    p.add_argument("--binary-stamp-only", action="store_true",
                   help="with --reportable on a copy of the tree (a GPU node): the binaries' build "
                   "record (clean, one revision) decides instead of this tree's git state")
    p.add_argument("--optimized", metavar="FILE",
                   help="JSON {app: [option, value, ...]}: an optimized run's declared option changes")
    p.add_argument("--repo", help="source tree the binaries were built from (default: the one of validate/)")
    p.add_argument("--summarize", metavar="DIR", help="only (re)write the summary of the run in DIR")
    p.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    p.add_argument("--peers", metavar="DIR", help="also run the public codes built by validate/refs/build.sh "
                   "into DIR beside ProxyPort, by the same method: OUT/peers/peers.md (pptools/peers)")
    p.add_argument("--no-energy", action="store_true",
                   help="run every app without its energy meter (their --no-energy): no energy "
                   "columns; the meter repeats each short row up to its --energy-max-s to measure "
                   "it, which makes microbench's reference case several minutes on a GPU")
    p.add_argument("--fast", action="store_true",
                   help="testing: 1 warm-up, 3 samples (testsnap: 3 steps), small ceiling buffers "
                   "(never reportable)")
    a = p.parse_args(argv)
    if a.repeat is None:
        a.repeat = 3 if a.reportable else 1
    if a.repeat < 1:
        p.error("--repeat must be >= 1")
    if a.repeat > MAX_REPEAT:
        raise result.BadInput(f"--repeat {a.repeat}: at most {MAX_REPEAT} processes per app")
    asked = a.apps
    a.apps = [x for x in a.apps.split(",") if x]
    if not a.apps and not a.summarize:
        raise result.BadInput(f"--apps '{asked}': no app given (apps: {', '.join(suite_cases.apps())})")
    for app in a.apps:
        if app not in suite_cases.apps():
            p.error(f"unknown app '{app}' (apps: {', '.join(suite_cases.apps())})")
    # the declared options are read before anything runs: a bad file is refused at once
    a.declared = read_declared(a.optimized) if a.optimized else {}
    if a.binary_stamp_only and not a.reportable:
        p.error("--binary-stamp-only goes with --reportable")
    if not a.summarize and not a.bin:
        p.error("--bin DIR is required (or --summarize DIR)")
    # the peers step runs after the whole suite: what would stop it is refused now
    why = peers.preflight(a.peers, a.bin) if a.peers and not a.summarize else None
    if why:
        raise result.BadInput(f"--peers: {why}")
    return a


def read_declared(path):
    """--optimized FILE: {app: [option, value, ...]}, checked against the rules."""
    declared = result.load_json(path, "--optimized")
    if not isinstance(declared, dict):
        raise result.BadInput(f"--optimized {path}: not a JSON object {{app: [option, value, ...]}}")
    problems = suite_cases.check_declared(declared)
    if problems:
        raise result.BadInput("--optimized: " + "; ".join(problems))
    return declared


def plan(a):
    """The run's description (stored in suite.json) and one command per app and repeat."""
    bindir = os.path.abspath(a.bin)
    exes = {app: os.path.join(bindir, app) for app in a.apps}
    missing = [app for app, exe in exes.items() if not os.access(exe, os.X_OK)]
    if missing:
        die(f"not in {bindir}: {', '.join(missing)} (build them, or give --apps)")
    # every binary's build record now: one of another revision is refused before the run
    builds = {app: build_record(exe) for app, exe in exes.items()}
    rec = builds[a.apps[0]]
    built = rec["models"]
    # a GPU build: a native model, or offload to a GPU (which every kernel-mode model needs)
    gpu_build = any(result.is_native(m) for m in built) or rec.get("offload") in ("nvidia", "amd")
    scale = a.scale
    if scale == "auto":
        scale = "reference" if gpu_build and gpu_visible() else "small"
    native = [m for m in built if result.is_native(m)]
    ref = project.reference_model()
    if a.host or not native:
        models = list(built)
        host_note = (f"{ref} model: run (asked with --host)" if a.host else
                     f"{ref} model: run as the reference (this build has no native GPU model)")
    else:
        models = [m for m in built if m != ref]
        host_note = (f"{ref} model: not run (every GPU model validates against the app's own "
                     "reference; --host adds it)")
    declared = a.declared
    inputs = inputs_dir(bindir)
    runs = []
    for k in range(1, a.repeat + 1):
        for app in a.apps:
            args = suite_cases.case_args(app, scale, inputs) + declared.get(app, [])
            if a.fast:  # an app whose steps are its samples (testsnap): 3 steps are the 3 samples
                args = fast_steps(args) if suite_cases.steps_are_samples(app) else args + FAST
            if a.no_energy:
                args = args + ["--no-energy"]
            runs.append({"app": app, "repeat": k,
                         "argv": [exes[app], "--backend", ",".join(models)] + args})
    return {"scale": scale, "models": models, "host_note": host_note, "bin": bindir,
            "run_type": "optimized" if a.optimized else "baseline", "declared": declared,
            "repeat": a.repeat, "apps": a.apps, "build": rec, "builds": builds, "runs": runs,
            "command": " ".join([PROG] + sys.argv[1:]), "inputs": inputs,
            "stamp_only": a.binary_stamp_only}


def fast_steps(args):
    """The case args of an app whose steps are its samples (testsnap) with FAST, its
    --steps cut to FAST's 3: testsnap's 10 steps of the small case were half the test
    suite's small run."""
    args = list(args)
    if "--steps" in args:
        k = args.index("--steps")
        del args[k:k + 2]
    return args + ["--steps", "3"] + [x for x in FAST if x not in ("--samples", "3")]


def run_one(r, out, n, total):
    stem = os.path.join(out, r["app"], f"run{r['repeat']}")
    outfile.out_dir(os.path.dirname(stem), "--out")
    for ext in (".txt", ".json", ".csv"):  # the app replaces its files; the .txt is written here
        outfile.check_target(stem + ext, "--out")
    argv = r["argv"] + ["--json", stem + ".json", "--csv", stem + ".csv"]
    r["json"] = os.path.relpath(stem + ".json", out)
    log(f"[{n}/{total}] {r['app']} (repeat {r['repeat']}): {' '.join(argv[1:])}")
    t = time.monotonic()
    with open(stem + ".txt", "w") as txt:
        # the app's progress lines (stderr) go to the terminal; its table to the .txt too
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
        for line in p.stdout:
            txt.write(line)
        rc = p.wait()
    r["exit"], r["seconds"] = rc, round(time.monotonic() - t, 1)
    verdict = suite_summary.EXIT_MEANING.get(rc, f"exit {rc}")
    log(f"[{n}/{total}] {r['app']} (repeat {r['repeat']}): {verdict} in {r['seconds']} s "
        f"({os.path.relpath(stem, out)}.txt)")


def main(argv=None):
    cli.run(PROG, run, sys.argv[1:] if argv is None else argv)


def run(argv):
    a = parse_args(argv)
    repo = a.repo or project.ROOT
    if a.summarize:
        return suite_summary.write(a.summarize, a.reportable, repo)
    p = plan(a)
    if a.reportable:
        refusals = suite_rules.before_run(p, repo)
        if a.fast:
            refusals.append("--fast changes the timing method (fewer samples, smaller ceiling buffers)")
        if refusals:
            for why in refusals:
                print(f"{PROG}: not reportable: {show(why, 2000)}", file=sys.stderr)
            print(f"{PROG}: refused (RUNRULES.md); run without --reportable for an unofficial run",
                  file=sys.stderr)
            return 2
    log(f"{len(p['apps'])} apps x {p['repeat']} repeat(s), scale {p['scale']}, models "
        f"{','.join(p['models'])}, {p['run_type']} run")
    log(p["host_note"])
    if a.dry_run:
        for r in p["runs"]:
            print(show(" ".join(r["argv"]), 8000))
        return 0
    out = a.out or os.path.join(repo, "runs", time.strftime("suite-%Y%m%dT%H%M%SZ", time.gmtime()))
    outfile.out_dir(out)
    env = {"OMP_TARGET_OFFLOAD": "MANDATORY"}  # never a silent host fallback
    os.environ.update(env)
    p["environment_set_by_suite"] = env
    p["reportable_asked"] = a.reportable
    p["started_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for n, r in enumerate(p["runs"], 1):
        run_one(r, out, n, len(p["runs"]))
        outfile.write_json(os.path.join(out, "suite.json"), p)  # kept current: a killed run is still read
    log(f"all runs done in {time.monotonic() - T0:.0f} s")
    peers_rc = min(1, peers.suite_step(a.peers, p["bin"], out, log)) if a.peers else 0
    return max(suite_summary.write(out, a.reportable, repo), peers_rc)


T0 = time.monotonic()

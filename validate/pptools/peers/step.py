"""peers: the public codes (XSBench, TestSNAP on Kokkos, BabelStream; built by
validate/refs/build.sh) and ProxyPort run alternately on one GPU node and
compared by the same method; writes OUT/peers.md, OUT/peers.json, OUT/peers.png
and every run's output under OUT/raw/.

  peers --refs DIR --bin DIR --out DIR [--rounds N] [--groups LIST]
        [--omp-runtime ACTIVATE] [--no-device-time] [--dry-run]
  peers --analyze DIR                 (the table of an earlier run again)

Device-time view (where --refs has lib/libpp_kernel_time.so, unless
--no-device-time): after the timed runs, one more process per configuration
and side runs under CUPTI (never a timed one) and each row gets a device-time
column from the sums of kernel times (pptools/peers/devtime.py says how); where
it cannot, the column says "not available: <why>" and nothing fails.

The suite runs the same step with `suite --peers DIR` (its --bin, OUT/peers).
Exit: 0 every row comparable (an optional build's row "not built" aside); 1 a
row is not (a rejected run, too few runs, fixed costs over 2%, a main build
missing); 2 bad usage, or nothing to run.
"""
import argparse
import os
import stat
import subprocess
import sys
import time

from .. import cli, outfile, result
from ..text import show
from . import analyze, codes, plan, report, runner

PROG = "peers"


def card():
    try:
        p = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=60)
        return p.stdout.strip().splitlines()[0] if p.returncode == 0 and p.stdout.strip() else "no GPU seen"
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return "no GPU seen"


def pp_build(bindir):
    try:
        p = subprocess.run([os.path.join(bindir, "microbench"), "--version"], capture_output=True,
                           text=True, timeout=60)
        return " ".join(p.stdout.split())[:400]
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def versions(refs):
    path = os.path.join(refs, "versions.txt")
    try:
        return [line for line in result.read_text(path, "versions.txt").splitlines() if line.strip()]
    except result.BadInput:
        return []


def default_activate():
    for d in (".gpu-rt", ".peers-rt"):
        p = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))), d, "activate")
        if os.path.isfile(p):
            return p
    return None


CONDITIONS = [
    "CUDA_MODULE_LOADING=EAGER and OMP_TARGET_OFFLOAD=MANDATORY",
    "GPU wait spin: ProxyPort --gpu-wait spin; the public codes LD_PRELOAD validate/refs/spin.c "
    "(primary context set to CU_CTX_SCHED_SPIN and retained before they start; the flags "
    "checked at their exit)",
    "OpenMP builds on both sides clang 19 with -foffload-lto (validate/refs/build.sh; versions below), "
    "except the public builds named 'without -foffload-lto'",
    "a public run that failed, printed a wrong checksum or failed validation, or ran another "
    "problem size is rejected, never compared",
]


def plan_groups(refs, bindir, groups):
    """({group: [missing binaries]}, [groups that run]): a group runs where ProxyPort's
    program and one of its public builds are there."""
    miss = plan.available(refs, bindir, groups)
    bins = plan.pp_bins()
    return miss, [g for g in groups if g in bins and bins[g] not in miss[g]
                  and len(miss[g]) < len(plan.PUBLIC_BINS[g])]


def preflight(refs, bindir, groups=plan.GROUPS):
    """Why the step cannot run (one line), or None: found before anything runs, so that
    `suite --peers X` refuses X at once instead of after the whole suite."""
    if not os.path.isdir(refs):
        kind = ("not there" if not os.path.lexists(refs) else "a FIFO" if stat.S_ISFIFO(os.stat(refs).st_mode)
                else "a regular file" if os.path.isfile(refs) else "not a folder")
        return f"{refs}: {kind}: --refs/--peers takes validate/refs/build.sh's output folder (bin/, lib/)"
    if not plan_groups(os.path.abspath(refs), os.path.abspath(bindir), groups)[1]:
        return (f"nothing to run: no public build in {os.path.join(refs, 'bin')} beside its ProxyPort "
                f"program in {bindir} (validate/refs/build.sh builds them)")
    if not os.path.isfile(runner.spin_lib(refs)):
        return (f"no {runner.spin_lib(refs)} (validate/refs/build.sh builds it): the wait modes could not "
                "be made equal")
    return None


def say(msg):
    print(show(msg, 8000), flush=True)


def step(refs, bindir, out, rounds=3, groups=plan.GROUPS, activate=None, log=say, command=None,
         device_time=True):
    """The peers step: run, analyze, write. Returns the exit status (0/1/2)."""
    refs, bindir = os.path.abspath(refs), os.path.abspath(bindir)
    miss, todo = plan_groups(refs, bindir, groups)
    for g in groups:
        if miss[g]:
            log(f"peers: {g}: {'left out' if g not in todo else 'partly run'}: not built: {', '.join(miss[g])}")
    why = preflight(refs, bindir, groups)
    if why:
        log(f"peers: {why}")
        return 2
    outfile.out_dir(out)
    runs = [r for r in plan.runs(refs, bindir, todo, rounds) if os.access(r["argv"][0], os.X_OK)]
    lib, why = runner.device_view(refs, device_time)
    druns = [r for r in plan.device_runs(refs, bindir, todo) if os.access(r["argv"][0], os.X_OK)] if lib else []
    if why:
        log(f"peers: device-time view not available: {why}")
    doc = {"card": card(), "node": os.uname().nodename, "rounds": rounds, "groups": todo,
           "left_out": {g: m for g, m in miss.items() if m}, "conditions": CONDITIONS,
           "public_builds": versions(refs), "proxyport_build": pp_build(bindir),
           "command": command or " ".join([PROG] + sys.argv[1:]),
           "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "activate": os.path.relpath(activate, out) if activate else None, "runs": runs,
           "device_time": {"on": bool(lib), "why": why, "method": codes.DEVICE_METHOD}, "device_runs": druns}
    # kept current: a run cut short is still read by --analyze
    save = lambda: outfile.write_json(os.path.join(out, "peers.json"), doc)  # noqa: E731
    runner.execute(runs, refs, out, activate, log, after=save)
    if lib:
        runner.execute(druns, refs, out, activate, log, after=save, inject=lib)
    return finish(doc, out)


def finish(doc, out):
    dev = doc.get("device_time") or {}
    off = dev.get("why") or (None if doc.get("device_runs") else
                             "no profiled runs in this peers.json (a step from before the device-time view)")
    doc["rows"] = analyze.analyze(doc["runs"], out, doc.get("left_out"), doc.get("device_runs"), off)
    report.write(doc, out)
    bad = [r["comparison"] for r in analyze.failing(doc["rows"])]
    nb = sum(1 for r in doc["rows"] if r.get("not_built"))
    dev = sum(1 for r in doc["rows"] if (r.get("device") or {}).get("ratio"))
    print(f"peers: {sum(1 for r in doc['rows'] if r['ok'])} of {len(doc['rows'])} rows comparable"
          f"{f' ({nb} not built)' if nb else ''}; {dev} with a device time; "
          f"{sum(1 for r in doc['runs'] if r.get('rejected'))} runs rejected; {show(os.path.join(out, 'peers.md'), 2000)}")
    return 1 if bad else 0


def reanalyze(out):
    doc = result.load_json(os.path.join(out, "peers.json"), "peers.json", limit=64 << 20)
    return finish(doc, out)


def parse_args(argv):
    p = cli.Parser(prog=PROG, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--refs", help="validate/refs/build.sh's output (bin/, lib/, versions.txt)")
    p.add_argument("--bin", help="ProxyPort's binaries (build/<preset>/bin)")
    p.add_argument("--out", help="a new or empty folder for the table and the raw outputs")
    p.add_argument("--rounds", type=int, default=3, help="alternations of each comparison (default 3, at least 3 "
                   "for a comparable row)")
    p.add_argument("--groups", default=",".join(plan.GROUPS), help=f"comma-separated of {','.join(plan.GROUPS)}")
    p.add_argument("--omp-runtime", metavar="ACTIVATE", help="script sourced before every run (default "
                   ".gpu-rt/activate of this tree where present)")
    p.add_argument("--no-device-time", action="store_true", help="leave out the device-time view (its "
                   "profiled runs); default on where --refs has lib/libpp_kernel_time.so")
    p.add_argument("--analyze", metavar="DIR", help="re-read DIR/peers.json's runs and rewrite the table")
    p.add_argument("--dry-run", action="store_true", help="print the runs, run nothing")
    a = p.parse_args(argv)
    if a.analyze:
        return a
    if not (a.refs and a.bin and (a.out or a.dry_run)):
        p.error("--refs, --bin and --out are required (or --analyze DIR)")
    if not 1 <= a.rounds <= 100:
        p.error("--rounds must be 1..100")
    a.groups = [g for g in a.groups.split(",") if g]
    bad = [g for g in a.groups if g not in plan.GROUPS]
    if bad or not a.groups:
        p.error(f"--groups: unknown {','.join(bad) or '(none)'} (known: {','.join(plan.GROUPS)})")
    return a


def run(argv):
    a = parse_args(argv)
    if a.analyze:
        return reanalyze(a.analyze)
    if a.dry_run:
        refs, bindir = os.path.abspath(a.refs), os.path.abspath(a.bin)
        lib, why = runner.device_view(refs, not a.no_device_time)
        for r in plan.runs(refs, bindir, a.groups, a.rounds) + (plan.device_runs(refs, bindir, a.groups) if lib else []):
            print(show(f"{r['id']}: {' '.join(r['argv'])}", 8000) + (" (under CUPTI)" if r.get("device") else ""))
        if why:
            print(f"device-time view not available: {show(why, 2000)}")
        return 0
    return step(a.refs, a.bin, a.out, a.rounds, a.groups, a.omp_runtime or default_activate(),
                device_time=not a.no_device_time)


def main(argv=None):
    cli.run(PROG, run, sys.argv[1:] if argv is None else argv)


def suite_step(refs, bindir, out, log=print):
    """`suite --peers DIR`: the step into OUT/peers after the suite's own runs."""
    return step(refs, bindir, os.path.join(out, "peers"), activate=default_activate(), log=log,
                command="suite --peers " + refs)

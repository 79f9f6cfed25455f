"""The suite's cases and what a reportable run may change (RUNRULES.md).

One case per app and scale. "reference" is the published case (the GPU-node
sizes of results/nvidia-h200/); "small" finishes in a few minutes on
a 2-core CPU machine. "{inputs}" is the inputs folder the apps use. The apps
and their order are apps.txt's; an app there without a case here is refused
when the suite would run it (a new app adds its case here).
"""
import subprocess

from .. import project
from ..result import BadInput

CASES = {
    "microbench": {
        "reference": ["--size", "2^24,2^25,2^26"],
        "small": ["--size", "2^16,2^20"],
        "published": "microbench.json",
    },
    "spmv": {
        "reference": ["--deck", "{inputs}/minife/n150.deck"],
        "small": ["--deck", "{inputs}/minife/tiny.deck"],
        "published": "spmv-n150.json",
    },
    "cgsolve": {
        "reference": ["--deck", "{inputs}/minife/n150.deck"],
        "small": ["--deck", "{inputs}/minife/tiny.deck"],
        "published": "cgsolve-n150.json",
    },
    "xsbench_like": {
        "reference": ["-s", "large", "--variant", "all"],
        "small": ["-s", "small", "--lookups", "200000", "--variant", "all"],
        "published": "xsbench-large.json",
    },
    "testsnap": {
        "reference": ["--case", "W_2J14_2000_disp"],
        "small": ["--case", "W_2J8_2000_disp", "--steps", "10"],
        "published": "testsnap-W_2J14_2000_disp.json",
    },
}



def apps():
    """The suite's apps, in apps.txt's order."""
    return project.apps()

# Options an optimized run may declare, per app (each takes one value): launch
# shapes and the sort implementation. Everything else (sizes, inputs, timing,
# tolerances, validation) is fixed by the rules.
OPTIMIZABLE = {
    "microbench": {"--tpb", "--blocks"},
    "spmv": {"--rows-per-team", "--vector-len", "--reduce", "--grid", "--teams", "--omp-form",
             "--ompx-loads"},
    "cgsolve": set(),
    "xsbench_like": {"--sort", "--threads"},
    "testsnap": {"--scratch", "--levels", "--yi", "--team-size", "--deidrj"},
}

# Source files an optimized run may change (the models' kernel files);
# anything else changed makes the run neither baseline nor optimized.
KERNEL_PATH_PARTS = ("/kernels/",)


def case(app):
    if app not in CASES:
        raise BadInput(f"{app}: no suite case (pptools/suite/cases.py has none for this app of apps.txt)")
    return CASES[app]


def case_args(app, scale, inputs):
    return [a.replace("{inputs}", inputs) for a in case(app)[scale]]


def check_declared(declared):
    """Problems with an optimized run's declared options {app: [opt, val, ...]}."""
    problems = []
    for app, args in declared.items():
        if app not in apps():
            problems.append(f"optimized options for unknown app '{app}'")
            continue
        if not isinstance(args, list) or len(args) % 2 or not all(isinstance(x, str) for x in args):
            problems.append(f"{app}: options must be a list of option, value pairs (strings)")
            continue
        for opt in args[0::2]:
            if not isinstance(opt, str) or opt not in OPTIMIZABLE.get(app, ()):
                allowed = ", ".join(sorted(OPTIMIZABLE.get(app, ()))) or "none"
                problems.append(f"{app}: {opt} may not change in a reportable run (allowed: {allowed})")
        twice = sorted({o for o in args[0::2] if args[0::2].count(o) > 1})
        if twice:  # the app refuses an option given twice: refused here, before the run
            problems.append(f"{app}: {', '.join(twice)} declared twice (an option is given once)")
    return problems


def build_record(exe):
    """`exe --version` (the build record) as {key: value}, models as a list.
    OSError if exe cannot run."""
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60).stdout
    rec = {}
    for line in out.splitlines()[1:]:
        key, _, val = line.strip().partition("  ")
        rec[key.strip()] = val.strip()
    rec["models"] = [m for m in rec.get("models", "").split(",") if m]
    return rec

"""The suite's cases and what a reportable run may change (RUNRULES.md).

One case per app and scale. "reference" is the published case (the GPU-node
sizes of results/nvidia-h200/); "small" finishes in a few minutes on
a 2-core CPU machine. "{inputs}" is the inputs folder the apps use.
"""
import subprocess

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

APPS = list(CASES)

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


def case_args(app, scale, inputs):
    return [a.replace("{inputs}", inputs) for a in CASES[app][scale]]


def check_declared(declared):
    """Problems with an optimized run's declared options {app: [opt, val, ...]}."""
    problems = []
    for app, args in declared.items():
        if app not in CASES:
            problems.append(f"optimized options for unknown app '{app}'")
            continue
        if not isinstance(args, list) or len(args) % 2:
            problems.append(f"{app}: options must be a list of option, value pairs")
            continue
        for opt in args[0::2]:
            if opt not in OPTIMIZABLE[app]:
                allowed = ", ".join(sorted(OPTIMIZABLE[app])) or "none"
                problems.append(f"{app}: {opt} may not change in a reportable run (allowed: {allowed})")
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

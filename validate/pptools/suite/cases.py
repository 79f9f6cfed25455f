"""The suite's cases and what a reportable run may change (RUNRULES.md).

One case per app and scale, from the [suite] table of the app's manifest
(<app>/app.toml, pptools/apps.py): "reference" is the published case (the
GPU-node sizes of results/nvidia-h200/); "small" finishes in a few minutes on
a 2-core CPU machine. "{inputs}" is the inputs folder the apps use. The apps
and their order are apps.txt's; an app whose manifest has no case is refused
when the suite would run it.
"""
import subprocess

from .. import apps as manifests
from .. import project
from ..result import BadInput


def apps():
    """The suite's apps, in apps.txt's order."""
    return project.apps()


def optimizable(app):
    """Options an optimized run may declare for app (each takes one value): launch
    shapes and the sort implementation. Everything else (sizes, inputs, timing,
    tolerances, validation) is fixed by the rules."""
    return set(manifests.get(app, "suite.optimizable", []))


def steps_are_samples(app):
    """Whether each of the app's steps is a sample (testsnap): --steps, never --samples."""
    return bool(manifests.get(app, "steps_are_samples", False))


# Source files an optimized run may change (the models' kernel files);
# anything else changed makes the run neither baseline nor optimized.
KERNEL_PATH_PARTS = ("/kernels/",)


def case(app):
    """{"reference": args, "small": args, "published": file name or None}."""
    suite = manifests.get(app, "suite", {})
    if "reference" not in suite or "small" not in suite:
        raise BadInput(f"{app}: no suite case ({manifests.path_of(app)} has no [suite] reference and small)")
    return {"reference": suite["reference"], "small": suite["small"], "published": suite.get("published")}


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
            if not isinstance(opt, str) or opt not in optimizable(app):
                allowed = ", ".join(sorted(optimizable(app))) or "none"
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

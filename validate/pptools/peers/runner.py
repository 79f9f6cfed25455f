"""Runs the plan: each run a separate process, its output (stdout and stderr) in
OUT/raw/<id>.txt and ProxyPort's result file in OUT/raw/<id>.json.

The same conditions on both sides: CUDA_MODULE_LOADING=EAGER (no lazy module
loading inside a timed region), OMP_TARGET_OFFLOAD=MANDATORY, and the same GPU
wait: ProxyPort spins (--gpu-wait spin, its default); the public codes get
LD_PRELOAD of the spin library (validate/refs/spin.c), which sets the primary
context to spin before they start and reports the flags at exit (checked by
the parser). An OpenMP runtime script (`activate`, e.g. .gpu-rt/activate) is
sourced before every run when given.
"""
import os
import subprocess
import time

ENV = {"CUDA_MODULE_LOADING": "EAGER", "OMP_TARGET_OFFLOAD": "MANDATORY"}
SPIN_LIB = os.path.join("lib", "libpeers_spin.so")
TIMEOUT_S = 600  # one run; the longest (XSBench large: data generation) takes ~30 s


def spin_lib(refs):
    return os.path.join(os.path.abspath(refs), SPIN_LIB)


def command(run, refs, activate):
    """(argv, env additions) of one run as executed."""
    env = dict(ENV)
    argv = list(run["argv"])
    if run["side"] != "public":
        argv += ["--json", run["json_path"]]
    elif activate:  # preloaded into the public code only, not into the script's helpers
        env["PEERS_PRELOAD"] = spin_lib(refs)
    else:
        env["LD_PRELOAD"] = spin_lib(refs)
    if activate:
        argv = ["bash", "-c", '. "$0" && { [ -z "${PEERS_PRELOAD:-}" ] || export LD_PRELOAD="$PEERS_PRELOAD"; } '
                '&& exec "$@"', os.path.abspath(activate)] + argv
    return argv, env


def execute(runs, refs, out, activate=None, log=print, after=None):
    """Runs every run in order; fills exit, seconds, output, json, env."""
    raw = os.path.join(out, "raw")
    os.makedirs(raw, exist_ok=True)
    for n, run in enumerate(runs, 1):
        stem = os.path.join(raw, run["id"])
        run["output"] = os.path.relpath(stem + ".txt", out)
        if run["side"] == "proxyport":
            run["json_path"] = stem + ".json"
            run["json"] = os.path.relpath(stem + ".json", out)
        argv, env = command(run, refs, activate)
        run["env"] = env
        log(f"[peers {n}/{len(runs)}] {run['code']} (round {run['round']}): {' '.join(run['argv'][1:])}")
        t = time.monotonic()
        with open(stem + ".txt", "w") as f:
            try:
                p = subprocess.run(argv, stdout=f, stderr=subprocess.STDOUT,
                                   env=dict(os.environ, **env), timeout=TIMEOUT_S)
                run["exit"] = p.returncode
            except subprocess.TimeoutExpired:
                run["exit"] = "timeout"
            except OSError as e:
                f.write(f"peers: cannot run: {e}\n")
                run["exit"] = "not run"
        run["seconds"] = round(time.monotonic() - t, 2)
        run.pop("json_path", None)
        log(f"[peers {n}/{len(runs)}] exit {run['exit']} in {run['seconds']} s")
        if after:
            after()
    return runs

"""Runs the plan: each run a separate process, its output (stdout and stderr) in
OUT/raw/<id>.txt and ProxyPort's result file in OUT/raw/<id>.json.

The same conditions on both sides: CUDA_MODULE_LOADING=EAGER (no lazy module
loading inside a timed region), OMP_TARGET_OFFLOAD=MANDATORY, and the same GPU
wait: ProxyPort spins (--gpu-wait spin, its default); the public codes get
LD_PRELOAD of the spin library (validate/refs/spin.c), which sets the primary
context to spin before they start and reports the flags at exit (checked by
the parser). An OpenMP runtime script (`activate`, e.g. .gpu-rt/activate) is
sourced before every run when given.

The device-time view's processes (plan.device_runs) run after the timed ones
in the same way, plus CUDA_INJECTION64_PATH (the CUPTI library,
validate/refs/kernel_time.c) and PP_KERNEL_TIME_OUT (OUT/raw/<id>.kernels);
both are removed from every timed run's environment.
"""
import os
import subprocess
import time

ENV = {"CUDA_MODULE_LOADING": "EAGER", "OMP_TARGET_OFFLOAD": "MANDATORY"}
SPIN_LIB = os.path.join("lib", "libpeers_spin.so")
KERNEL_TIME_LIB = os.path.join("lib", "libpp_kernel_time.so")
INJECT = ("CUDA_INJECTION64_PATH", "PP_KERNEL_TIME_OUT")
TIMEOUT_S = 600  # one run; the longest (XSBench large: data generation) takes ~30 s


def spin_lib(refs):
    return os.path.join(os.path.abspath(refs), SPIN_LIB)


def kernel_time_lib(refs):
    return os.path.join(os.path.abspath(refs), KERNEL_TIME_LIB)


def device_view(refs, on=True):
    """(library, None) where the device-time view can run, else (None, why)."""
    lib = kernel_time_lib(refs)
    if not on:
        return None, "left off (--no-device-time)"
    if not os.path.isfile(lib):
        return None, (f"no {KERNEL_TIME_LIB} in --refs (validate/refs/build.sh builds it where CUPTI "
                      "is found)")
    try:  # libcupti.so.13 beside it (RUNPATH $ORIGIN); ldd only reads
        p = subprocess.run(["ldd", lib], capture_output=True, text=True, timeout=60)
        lost = [ln.split()[0] for ln in p.stdout.splitlines() if "not found" in ln]
        if lost:
            return None, f"{KERNEL_TIME_LIB} cannot load: {', '.join(lost)} not found"
    except (OSError, subprocess.TimeoutExpired):
        pass  # no ldd: the profiled runs say it
    return lib, None


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


def execute(runs, refs, out, activate=None, log=print, after=None, inject=None):
    """Runs every run in order; fills exit, seconds, output, json, env. inject: the
    kernel-time library, for the device-time view's runs (kernel_file filled)."""
    raw = os.path.join(out, "raw")
    os.makedirs(raw, exist_ok=True)
    base = {k: v for k, v in os.environ.items() if k not in INJECT}
    what = "peers device" if inject else "peers"
    for n, run in enumerate(runs, 1):
        stem = os.path.join(raw, run["id"])
        run["output"] = os.path.relpath(stem + ".txt", out)
        if run["side"] == "proxyport":
            run["json_path"] = stem + ".json"
            run["json"] = os.path.relpath(stem + ".json", out)
        argv, env = command(run, refs, activate)
        if inject:
            env.update({"CUDA_INJECTION64_PATH": inject, "PP_KERNEL_TIME_OUT": os.path.abspath(stem + ".kernels")})
            run["kernel_file"] = os.path.relpath(stem + ".kernels", out)
        run["env"] = env
        log(f"[{what} {n}/{len(runs)}] {run['code']} (round {run['round']}): {' '.join(run['argv'][1:])}")
        t = time.monotonic()
        with open(stem + ".txt", "w") as f:
            try:
                p = subprocess.run(argv, stdout=f, stderr=subprocess.STDOUT,
                                   env=dict(base, **env), timeout=TIMEOUT_S)
                run["exit"] = p.returncode
            except subprocess.TimeoutExpired:
                run["exit"] = "timeout"
            except OSError as e:
                f.write(f"peers: cannot run: {e}\n")
                run["exit"] = "not run"
        run["seconds"] = round(time.monotonic() - t, 2)
        run.pop("json_path", None)
        log(f"[{what} {n}/{len(runs)}] exit {run['exit']} in {run['seconds']} s")
        if after:
            after()
    return runs

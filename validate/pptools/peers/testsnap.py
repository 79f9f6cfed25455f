"""TestSNAP (Kokkos_V2: its Kokkos CUDA and OpenMPTarget builds, and the
OpenMPTarget build without -foffload-lto) beside testsnap: the builds, the
runs, the one reader of TestSNAP's output, the rows and the device-time figure.

Runs: the W_2J14 case of 2000 atoms at two step counts, so that the steady step
is (duration(N2) - duration(N1)) / (N2 - N1); testsnap runs N2 - N1 steps after
N1 warm-up steps, cuda and omp in one process. A TestSNAP run is rejected when
its forces are off the reference (FORCE_TOL) or it ran another problem or
execution space.
"""
import os
import re

from . import devtime, kerneltime, method, rows
from .conditions import PEER_MODELS, PP_COMMON
from .kerneltime import Unavailable
from .public import Rejected, field

GROUP = "testsnap"
PUBLIC_BINS = ["TestSNAP-kokkos-cuda", "TestSNAP-kokkos-ompt", "TestSNAP-kokkos-ompt-nolto"]
# the build shown beside the others for the difference (without -foffload-lto): missing, its
# rows say "not built" without making the step fail
OPTIONAL_BINS = ("TestSNAP-kokkos-ompt-nolto",)
PP_BIN = "testsnap"

STEPS = (10, 100)      # TestSNAP step counts; ProxyPort: 10 warm-up, 90 timed
CASE = "W_2J14_2000_disp"
ATOMS, TWOJMAX = 2000, 14
FORCE_TOL = 1e-6       # eV/A (the generated W_2J14 reference agrees to ~1e-13)
# public build: (ProxyPort's model, the build's words in the row); ompt-nolto: no -foffload-lto
BUILDS = {"cuda": ("cuda", "Kokkos CUDA"), "ompt": ("omp", "Kokkos OpenMPTarget"),
          "ompt-nolto": ("omp", "Kokkos OpenMPTarget without -foffload-lto")}
SAME_WORK = ("compute_ui", "compute_yi", "compute_deidrj")


# ---- the runs ------------------------------------------------------------------

def round_runs(rb, pb, r):
    def pub(build, space, n):
        return {"group": GROUP, "side": "public", "code": f"TestSNAP {build}", "round": r,
                "want": {"steps": n, "atoms": ATOMS, "twojmax": TWOJMAX, "space": space},
                "argv": [os.path.join(rb, f"TestSNAP-kokkos-{build}"), "-ns", str(n)]}
    n1, n2 = STEPS
    # ompt-nolto: TestSNAP's OpenMPTarget build without -foffload-lto (ProxyPort's has it)
    pp = {"group": GROUP, "side": "proxyport", "code": "testsnap cuda,omp", "round": r,
          "want": {"steps": n2 - n1},
          "argv": [os.path.join(pb, "testsnap"), "--backend", "cuda,omp", "--case", CASE,
                   "--warmup", str(n1), "--steps", str(n2 - n1), "--timer", "wall"] + PP_COMMON}
    return [pub("cuda", "Cuda", n1), pub("cuda", "Cuda", n2), pp,
            pub("ompt", "OpenMPTarget", n1), pub("ompt", "OpenMPTarget", n2),
            pub("ompt-nolto", "OpenMPTarget", n1), pub("ompt-nolto", "OpenMPTarget", n2)]


def device_round(rb, pb, r):
    """The device-time view's processes of one round: every public run, and testsnap
    one model a process at both step counts, without warm-up."""
    ts = round_runs(rb, pb, r)
    out = [x for x in ts if x["side"] == "public"]
    for m in PEER_MODELS:
        for n in STEPS:
            argv = list(ts[2]["argv"])
            argv[argv.index("--backend") + 1] = m
            argv[argv.index("--warmup") + 1] = "0"
            argv[argv.index("--steps") + 1] = str(n)
            out.append(dict(ts[2], code=f"testsnap {m}", want={"steps": n, "model": m}, argv=argv))
    return out


# ---- the output ----------------------------------------------------------------

NUM = r"([-+0-9.eE]+|nan|-?inf)"


def read(text):
    """What TestSNAP printed at its end, or Rejected naming the line missing or
    unreadable: natoms, nsteps, twojmax, duration_s (host wall clock around the U,
    Y and dE/dr kernels of every step, one fence a step), grind_ms_per_atom_step,
    rms_force_dev (against the reference forces), exec_space; and where printed
    nghost, nneighs (else None) and routines_s (its per-routine timings, else {})."""
    out = {"natoms": field(text, r"^natoms = (\d+)", "natoms", int),
           "nsteps": field(text, r"^nsteps = (\d+)", "nsteps", int),
           "twojmax": field(text, r"^twojmax = (\d+)", "twojmax", int),
           "duration_s": field(text, r"^duration = %s \[sec\]" % NUM, "duration", float),
           "grind_ms_per_atom_step": field(text, r"^grind time = %s \[msec/atom-step\]" % NUM, "grind time", float),
           "rms_force_dev": field(text, r"^RMS \|Fj\| deviation %s \[eV/A\]" % NUM, "force deviation", float),
           "exec_space": field(text, r"^Kokkos::ExecutionSpace = (\S+)", "execution space")}
    for k, pattern in (("nghost", r"^nghostatoms = (\d+)"), ("nneighs", r"^nneighs = (\d+)")):
        m = re.search(pattern, text, re.M)
        out[k] = int(m.group(1)) if m else None
    out["routines_s"] = {k: float(v) for k, v in re.findall(r"^(compute_\w+) = ([-+0-9.eE]+)\s*$", text, re.M)}
    return out


def figures(text, want):
    """want: {"steps": N, "atoms": 2000, "twojmax": 14}. Its duration (host wall
    clock around the U, Y and dE/dr kernels of every step, one fence a step)."""
    x = read(text)
    for name, got, exp in (("atoms", x["natoms"], want["atoms"]), ("steps", x["nsteps"], want["steps"]),
                           ("twojmax", x["twojmax"], want["twojmax"])):
        if got != exp:
            raise Rejected(f"another problem: {got} {name}, not {exp}")
    dev, duration, grind = x["rms_force_dev"], x["duration_s"], x["grind_ms_per_atom_step"]
    if not dev <= FORCE_TOL:  # also catches nan
        raise Rejected(f"forces wrong: RMS deviation {dev:g} > {FORCE_TOL:g} eV/A")
    if not (duration > 0 and grind > 0):
        raise Rejected("duration not positive")
    if want.get("space") and want["space"] not in x["exec_space"]:
        raise Rejected(f"another execution space: {x['exec_space']}, not {want['space']}")
    return {"seconds": duration, "own_grind_ms": grind, "force_rms": dev, "space": x["exec_space"]}


def exit_accepted(text, exit_status):
    return exit_status == 0


def proxyport_figures(rs, want):
    """{model: {same_work_s, yi_s, step_s}} of testsnap's rows, or Rejected."""
    figs = {}
    for m in PEER_MODELS:
        step = rows.valid(rows.find(rs, kernel="step", model=m))
        if step.get("size") != ATOMS or len(step["samples"]) != want["steps"]:
            raise Rejected(f"another problem: {step.get('size')} atoms, {len(step['samples'])} "
                           f"steps, not {ATOMS} and {want['steps']}")
        parts = {k: rows.valid(rows.find(rs, kernel=k, model=m))["time_s"]["mean"] for k in SAME_WORK}
        figs[m] = {"same_work_s": sum(parts.values()), "yi_s": parts["compute_yi"],
                   "step_s": step["time_s"]["mean"]}
    return figs


# ---- the rows ------------------------------------------------------------------

def table_rows(runs, missing=()):
    out = []
    n1, n2 = STEPS
    every, read_ = method.y_products(TWOJMAX)
    for build, (m, backend) in BUILDS.items():
        code = f"TestSNAP {build}"
        if not rows.shown(code, runs, missing, OPTIONAL_BINS):
            continue
        pub_steps, own = [], []
        for rnd in sorted({r["round"] for r in runs}):
            d = {}
            for r in rows.accepted(runs, group=GROUP, side="public", code=code, round=rnd):
                d[r["want"]["steps"]] = r["figures"]["seconds"]
                if r["want"]["steps"] == n2:
                    own.append(r["figures"]["own_grind_ms"])
            s = method.steady_step(d.get(n1), n1, d.get(n2), n2) if n1 in d and n2 in d else None
            if s is not None:
                pub_steps.append(method.ms_per_atom_step(s, ATOMS))
        pps = [r["figures"][m] for r in rows.accepted(runs, group=GROUP, side="proxyport")]
        comp = f"TestSNAP {backend} vs testsnap {m}"
        own_doc = {"value": method.median(own), "unit": "ms/atom-step", "runs": len(own),
                   "how": f"TestSNAP's printed grind time at -ns {n2} (mean over all steps, the first included)"}
        words = (f"{CASE}, {ATOMS} atoms; host wall clock per step after {n1} warm-up "
                 f"steps (TestSNAP: (duration(-ns {n2}) - duration(-ns {n1})) / {n2 - n1}; ProxyPort: "
                 f"mean of {n2 - n1} steps after --warmup {n1}, --timer wall); the same work: U, Y and "
                 "dE/dr (ProxyPort's compute_ui + compute_yi + compute_deidrj; its forces and energies left out)")
        row = rows.row_doc(comp, GROUP, "ms/atom-step", False, pub_steps,
                           [method.ms_per_atom_step(p["same_work_s"], ATOMS) for p in pps],
                           words + f"; Y products not equal: ProxyPort's compute_yi forms {read_:,} of the "
                           f"{every:,} TestSNAP forms ({100 * (1 - read_ / every):.1f}% skipped, never read)",
                           own=own_doc)
        counted = [method.ms_per_atom_step(p["same_work_s"] + p["yi_s"] * (every / read_ - 1), ATOMS)
                   for p in pps]
        crow = rows.row_doc(comp + " (Y products counted)", GROUP, "ms/atom-step", False, pub_steps,
                            counted, words + f"; ProxyPort's compute_yi time scaled by {every:,}/{read_:,} "
                            "(the products TestSNAP forms: an estimate, time taken proportional to products)",
                            own=own_doc)
        steps = [method.ms_per_atom_step(p["step_s"], ATOMS) for p in pps]
        if steps:
            row["notes"].append(f"ProxyPort's whole step (with forces and energies): "
                                f"{method.median(steps):.6f} ms/atom-step")
        crow["device_note"] = "every kernel as run: Y products not counted"
        for r in (row, crow):
            if build.endswith("nolto"):
                r["notes"].append(rows.NOLTO_NOTE.format(code="TestSNAP's build"))
            r["device_key"] = [GROUP, build, m]
            out.append(rows.not_built(r, rows.public_bin(code), missing, OPTIONAL_BINS))
    return out


# ---- device time ---------------------------------------------------------------

DEVICE_METHOD = (f"(S(-ns {STEPS[1]}) - S(-ns {STEPS[0]})) / {STEPS[1] - STEPS[0]} "
                 f"/ {ATOMS} atoms, S the sum of every kernel's time; ProxyPort: --warmup 0 "
                 "--steps 10 and 100, one model a process")


def _steady_step(druns, rnd, code, **want):
    n1, n2 = STEPS
    s1 = kerneltime.total_ns(devtime.kernels_of(druns, rnd, code, steps=n1, **want))
    s2 = kerneltime.total_ns(devtime.kernels_of(druns, rnd, code, steps=n2, **want))
    step = method.steady_step(s1 * 1e-9, n1, s2 * 1e-9, n2)
    if not step or step <= 0:
        raise Unavailable(f"{code}: kernel time does not grow with the step count ({s1} -> {s2} ns)")
    return method.ms_per_atom_step(step, ATOMS)


def device_cell(druns, key):
    """key: [group, public build, ProxyPort's model]."""
    build, m = key[1], key[2]
    return devtime.cell(druns, DEVICE_METHOD, "ms/atom-step", False, (_steady_step, f"TestSNAP {build}", {}),
                        (_steady_step, f"testsnap {m}", {}))

"""Which of a suite run's ratios mean nothing on the node that ran them, and why.

A ratio is left out of the figure, and marked in summary.md, where what it divides
is overhead rather than work:
  - a launch-overhead kernel (FOM per launch or per kernel) when no GPU model ran:
    a host "launch" is a function call, an offload to the host a thread handoff,
    and neither says anything of a GPU's launch latency (microbench launch_empty:
    2.9e-5 of host on a CPU box);
  - a ratio to the host model where either side's median time is under MIN_TIME_S:
    a host time that short is the timer and the call, not the kernel;
  - when no GPU ran, a speed-up beyond what the node's cores can give (CPUs x LANES,
    each core's widest vector of doubles): the two rows did not do the same work (testsnap
    compute_energies at 76x-101x host on a 2-core box).
The ratio itself stays in summary.json, beside the reason."""
from .. import project, result

MIN_TIME_S = 1e-4
LANES = 8  # doubles in an AVX-512 vector: the most a core adds over the serial host code
PER_LAUNCH_UNITS = ("/launch", "/kernel")


def reason(row, base_row, gpu_ran, ratio=None, cpus=None):
    """Why row's ratio (to base_row) means nothing here, or None. cpus: the node's CPUs."""
    if (row.get("fom_unit") or "").endswith(PER_LAUNCH_UNITS):
        if not gpu_ran:
            return "launch overhead, and no GPU ran"
        if row["model"] == project.reference_model():
            return "launch overhead of host code: a function call"
    if not gpu_ran and ratio and cpus and ratio > LANES * cpus:
        return f"{ratio:.3g}x on {cpus} CPUs, beyond {LANES} lanes a core: not the same work"
    if base_row is None or base_row["model"] != project.reference_model():
        return None
    short = [t for t in (row.get("time_s"), base_row.get("time_s")) if t is not None and t < MIN_TIME_S]
    if short:
        return f"a median time of {min(short) * 1e6:.3g} us, under {MIN_TIME_S * 1e6:.0f} us: overhead, not work"
    return None


def mark(rows, base, gpu_ran, cpus=None):
    """Sets not_comparable (a reason, or None) on each row of rows ({(kernel, label,
    family): row}) against the row of the base model (native or host) of the same
    kernel and launch-shape family."""
    for (kernel, _, fam), r in rows.items():
        if is_base(r, base):
            r["not_comparable"] = None
            continue
        base_row = next((b for (k2, _, f2), b in rows.items() if k2 == kernel and f2 == fam and is_base(b, base)), None)
        r["not_comparable"] = reason(r, base_row, gpu_ran, r.get("ratio_to_" + base), cpus)


def is_base(row, base):
    return result.is_native(row["model"]) if base == "native" else row["model"] == project.reference_model()

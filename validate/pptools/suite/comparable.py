"""Which of a suite run's ratios mean nothing on the node that ran them, and why.

A ratio is left out of the figure, and marked in summary.md, where what it divides
is overhead rather than work:
  - a launch-overhead kernel (FOM per launch or per kernel) when no GPU model ran:
    a host "launch" is a function call, an offload to the host a thread handoff,
    and neither says anything of a GPU's launch latency (microbench launch_empty:
    2.9e-5 of host on a CPU box);
  - a ratio to the host model where either side's median time is under MIN_TIME_S:
    a host time that short is the timer and the call, not the kernel (testsnap
    compute_energies at 101x host on a 2-core box).
The ratio itself stays in summary.json, beside the reason."""
from .. import project, result

MIN_TIME_S = 1e-4
PER_LAUNCH_UNITS = ("/launch", "/kernel")


def reason(row, base_row, gpu_ran):
    """Why row's ratio to base_row means nothing here, or None."""
    if (row.get("fom_unit") or "").endswith(PER_LAUNCH_UNITS):
        if not gpu_ran:
            return "launch overhead, and no GPU ran"
        if row["model"] == project.reference_model():
            return "launch overhead of host code: a function call"
    if base_row is None or base_row["model"] != project.reference_model():
        return None
    short = [t for t in (row.get("time_s"), base_row.get("time_s")) if t is not None and t < MIN_TIME_S]
    if short:
        return f"a median time of {min(short) * 1e6:.3g} us, under {MIN_TIME_S * 1e6:.0f} us: overhead, not work"
    return None


def mark(rows, base, gpu_ran):
    """Sets not_comparable (a reason, or None) on each row of rows ({(kernel, label,
    family): row}) against the row of the base model (native or host) of the same
    kernel and launch-shape family."""
    for (kernel, _, fam), r in rows.items():
        if is_base(r, base):
            r["not_comparable"] = None
            continue
        base_row = next((b for (k2, _, f2), b in rows.items() if k2 == kernel and f2 == fam and is_base(b, base)), None)
        r["not_comparable"] = reason(r, base_row, gpu_ran)


def is_base(row, base):
    return result.is_native(row["model"]) if base == "native" else row["model"] == project.reference_model()

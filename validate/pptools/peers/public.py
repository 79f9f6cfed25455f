"""The public codes' outputs (XSBench 20 CUDA, BabelStream 5, TestSNAP Kokkos_V2)
read into figures, with the checks that decide whether a run may be compared:
a run is Rejected (with the reason) when it failed, when its own verification
failed, when it ran another problem than the one asked, or when the preloaded
spin library did not leave the GPU context spinning.

Each parser takes the output text and `want`, the problem the runner asked for.
"""
import re

SPIN_LINE = re.compile(r"^peers-spin: primary context sched flags (\d+) \((spin|not spin)\)", re.M)
XS_PUBLISHED = 17_000_000        # XSBench's default lookup count: its checksums are published there
FORCE_TOL = 1e-6                 # eV/A (the generated W_2J14 reference agrees to ~1e-13)
BABEL_KERNELS = ("Copy", "Mul", "Add", "Triad", "Dot")
XS_KERNELS = {0: None, 6: "Optimization 6 -"}  # -k id: its "Simulation Kernel" line begins so (none for 0)


class Rejected(Exception):
    """A public run that must not be compared; str() is the reason."""


def field(text, pattern, what, conv=str):
    m = re.search(pattern, text, re.M)
    if not m:
        raise Rejected(f"no {what} in its output")
    try:
        return conv(m.group(1))
    except ValueError:
        raise Rejected(f"unreadable {what}: {m.group(1)!r}")


def commas(s):
    if not re.fullmatch(r"-?\d{1,3}(,\d{3})*", s):
        raise ValueError(s)
    return int(s.replace(",", ""))


def spin_checked(text):
    """The wait mode the preload reported at exit: 'spin', or Rejected."""
    m = SPIN_LINE.search(text)
    if not m:
        raise Rejected("wait mode unknown: no 'peers-spin:' line (was the spin library preloaded?)")
    if m.group(2) != "spin":
        raise Rejected(f"wait mode: the context ended with scheduling flags {m.group(1)}, not spin")
    return "spin"


def xsbench(text, want):
    """want: {"kernel": 0|6, "lookups": N}. Time of its run in seconds (its own host
    clock, from lookups / lookups per second, which it prints unrounded; its
    'Runtime' has 3 decimals), its checksum and its own figure (lookups/s)."""
    method = field(text, r"^Simulation Method:\s+(.+?)\s*$", "simulation method")
    size = field(text, r"^H-M Benchmark Size:\s+(\S+)", "benchmark size")
    lookups = field(text, r"^Lookups:\s+(\S+)\s*$", "lookup count", commas)
    rate = field(text, r"^Lookups/s:\s+(\S+)\s*$", "lookups/s", commas)
    runtime = field(text, r"^Runtime:\s+(\S+) seconds", "runtime", float)
    checksum = field(text, r"^Verification checksum: (\d+) ", "checksum", int)
    kern = re.search(r'^Simulation Kernel:"(.+)"', text, re.M)
    kernel = kern.group(1) if kern else None
    if method != "Event Based":
        raise Rejected(f"another problem: method {method!r}, not Event Based")
    if size != "large":
        raise Rejected(f"another problem: size {size!r}, not large")
    if lookups != want["lookups"]:
        raise Rejected(f"another problem: {lookups} lookups, not {want['lookups']}")
    expect = XS_KERNELS[want["kernel"]]
    if (kernel is None) != (expect is None) or (kernel and not kernel.startswith(expect)):
        raise Rejected(f"another kernel: {kernel or 'baseline'!r}, not -k {want['kernel']}")
    valid = bool(re.search(r"^Verification checksum: \d+ \(Valid\)", text, re.M))
    if lookups == XS_PUBLISHED and not valid:
        raise Rejected(f"checksum {checksum} is not XSBench's published one")
    # rate is a C int: past 2^31 lookups/s it wraps; then the 3-decimal runtime
    seconds = lookups / rate if rate > 0 else runtime
    if not seconds > 0:
        raise Rejected("run time not positive")
    return {"seconds": seconds, "checksum": checksum, "own_rate": rate if rate > 0 else None,
            "published_checksum": valid, "runtime_printed_s": runtime}


def testsnap(text, want):
    """want: {"steps": N, "atoms": 2000, "twojmax": 14}. Its duration (host wall
    clock around the U, Y and dE/dr kernels of every step, one fence a step)."""
    num = r"([-+0-9.eE]+|nan|-?inf)"
    natoms = field(text, r"^natoms = (\d+)", "natoms", int)
    nsteps = field(text, r"^nsteps = (\d+)", "nsteps", int)
    twojmax = field(text, r"^twojmax = (\d+)", "twojmax", int)
    duration = field(text, r"^duration = %s \[sec\]" % num, "duration", float)
    grind = field(text, r"^grind time = %s \[msec/atom-step\]" % num, "grind time", float)
    dev = field(text, r"^RMS \|Fj\| deviation %s \[eV/A\]" % num, "force deviation", float)
    space = field(text, r"^Kokkos::ExecutionSpace = (\S+)", "execution space")
    for name, got, exp in (("atoms", natoms, want["atoms"]), ("steps", nsteps, want["steps"]),
                           ("twojmax", twojmax, want["twojmax"])):
        if got != exp:
            raise Rejected(f"another problem: {got} {name}, not {exp}")
    if not dev <= FORCE_TOL:  # also catches nan
        raise Rejected(f"forces wrong: RMS deviation {dev:g} > {FORCE_TOL:g} eV/A")
    if not (duration > 0 and grind > 0):
        raise Rejected("duration not positive")
    if want.get("space") and want["space"] not in space:
        raise Rejected(f"another execution space: {space}, not {want['space']}")
    return {"seconds": duration, "own_grind_ms": grind, "force_rms": dev, "space": space}


def babelstream(text, want):
    """want: {"elements": N, "times": 100}. Per kernel: GB/s of its minimum time
    (its own figure, MB/s / 1000) and of its mean time, both over iterations
    2..times, as it computes them, and `loop_mean`: its minimum, maximum and
    mean are one figure (--order Isolated times each kernel's loop as a whole
    and writes that mean into every iteration: no best time exists). Read from
    its --csv rows (6 significant digits; its table prints the times with 5
    decimals, too coarse here)."""
    if "FAILED validation" in text or "Validation failed" in text:
        raise Rejected("its validation failed")
    head = re.search(r"^function,num_times,n_elements,sizeof,max_(\w+)_per_sec,min_runtime,"
                     r"max_runtime,avg_runtime\s*$", text, re.M)
    if not head:
        raise Rejected("no result table (BabelStream --csv header)")
    if head.group(1) != "MB":
        raise Rejected(f"bandwidth unit {head.group(1)}, not MB")
    kernels = {}
    for line in text[head.end():].splitlines():
        w = line.strip().split(",")
        if len(w) != 8:
            continue
        try:
            times, n, size = int(w[1]), int(w[2]), int(w[3])
            mbs, tmin, tmax, tavg = map(float, w[4:])
        except ValueError:
            raise Rejected(f"bad result row: {line!r}")
        if n != want["elements"]:
            raise Rejected(f"another problem: {n} elements, not {want['elements']}")
        if size != 8:
            raise Rejected(f"another problem: {size}-byte elements, not double")
        if times != want["times"]:
            raise Rejected(f"another problem: {times} iterations, not {want['times']}")
        # its csv has 6 significant digits: equal times (a profiled run) may print the mean above
        # the maximum in the last digit
        if not (mbs > 0 and 0 < tmin <= tavg * (1 + 1e-5) and tavg <= tmax * (1 + 1e-5)):
            raise Rejected(f"inconsistent result row: {line!r}")
        one = abs(tmax - tmin) <= 1e-5 * tmax and abs(tavg - tmin) <= 1e-5 * tmax
        kernels[w[0]] = {"GB_per_s": mbs / 1000.0, "min_s": tmin, "avg_s": tavg,
                         "GB_per_s_mean": mbs * tmin / tavg / 1000.0, "loop_mean": one}
    missing = [k for k in BABEL_KERNELS if k not in kernels]
    if missing:
        raise Rejected(f"kernels missing: {', '.join(missing)} (truncated output?)")
    return {"kernels": kernels}


PARSERS = {"xsbench": xsbench, "testsnap": testsnap, "babelstream": babelstream}


def parse(kind, text, exit_status, want, spin=True):
    """Figures of one public run, or Rejected. XSBench exits 1 for a checksum
    that is not a published one, which every count but 17,000,000 has: that
    exit alone is accepted there (the checksum is then compared with ours)."""
    # the parser then rejects it at 17,000,000, the one count with a published checksum
    xs_checksum_only = kind == "xsbench" and exit_status == 1 and "INAVALID CHECKSUM" in text
    if exit_status != 0 and not xs_checksum_only:
        raise Rejected(f"failed: exit status {exit_status}")
    figures = PARSERS[kind](text, want)
    if spin:
        figures["wait"] = spin_checked(text)
    return figures

"""The kernel-time file a profiled process leaves at its exit (written by
validate/refs/kernel_time.c; format in validate/refs/kernel_table.h), read into
{kernel name: {"count", "total_ns", "min_ns", "max_ns"}}.

Anything that would make a sum short or wrong is Unavailable (str(): the
reason), never a partial figure: no file or an empty one (the process did not
reach its exit), no closing '# end' line, a CUPTI error, dropped records, a
malformed line, or no kernel at all.
"""
from .. import result

HEADER = "# pp-kernel-time 1: count total_ns min_ns max_ns name"
LIMIT = 16 << 20  # a run launches tens of distinct kernels: a few KiB


class Unavailable(Exception):
    """No device-time figure from this file; str() is the reason."""


def _count(s, what, line_no):
    if not s.isdigit() or len(s) > 20:
        raise Unavailable(f"line {line_no}: {what} {s!r} is not a count")
    return int(s)


def parse(text):
    lines = text.splitlines()
    if not lines:
        raise Unavailable("empty kernel-time file (the process ended before its exit handler ran)")
    if lines[0] != HEADER:
        raise Unavailable(f"not a kernel-time file (first line {lines[0][:60]!r})")
    if lines[-1] != "# end":
        raise Unavailable("kernel-time file cut short (no '# end' line)")
    kernels, dropped, error = {}, None, None
    for n, line in enumerate(lines[1:-1], 2):
        if line.startswith("# dropped "):
            dropped = _count(line[len("# dropped "):], "dropped records", n)
            continue
        if line.startswith("# error "):
            error = line[len("# error "):]
            continue
        w = line.split(" ")
        if len(w) != 5 or not w[4]:
            raise Unavailable(f"line {n}: not 'count total_ns min_ns max_ns name': {line[:80]!r}")
        count, total, lo, hi = (_count(x, f, n) for x, f in zip(w[:4], ("count", "total", "min", "max")))
        if not (count > 0 and lo <= hi and lo * count <= total <= hi * count):
            raise Unavailable(f"line {n}: inconsistent figures: {line[:80]!r}")
        if w[4] in kernels:
            raise Unavailable(f"line {n}: kernel {w[4][:60]} listed twice")
        kernels[w[4]] = {"count": count, "total_ns": total, "min_ns": lo, "max_ns": hi}
    if error is not None:
        raise Unavailable(f"CUPTI: {error}")
    if dropped is None:
        raise Unavailable("no '# dropped' line")
    if dropped:
        raise Unavailable(f"CUPTI dropped {dropped} kernel records (the sums would be short)")
    if not kernels:
        raise Unavailable("no kernel recorded")
    return kernels


def read(path):
    try:
        text = result.read_text(path, "kernel-time file", LIMIT)
    except result.BadInput as e:
        raise Unavailable(f"no kernel-time file: {e}") from None
    return parse(text)


def total_ns(kernels):
    return sum(k["total_ns"] for k in kernels.values())


def named(kernels, word):
    """The one kernel whose name contains word (BabelStream's and ProxyPort's
    copy/triad kernels, mangled or OpenMP-outlined), or Unavailable."""
    hits = sorted(n for n in kernels if word in n)
    if not hits:
        raise Unavailable(f"no kernel named *{word}* among {len(kernels)}: "
                          + ", ".join(n[:60] for n in sorted(kernels)[:6]))
    if len(hits) > 1:
        raise Unavailable(f"{len(hits)} kernels named *{word}*: {', '.join(h[:60] for h in hits[:4])}")
    return kernels[hits[0]]

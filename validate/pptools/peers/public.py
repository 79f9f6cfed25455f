"""Reading a public code's output: what every code's reader (xsbench.py,
testsnap.py, babelstream.py) shares. A run is Rejected (with the reason) when
it failed, when its own verification failed, when it ran another problem than
the one asked, or when the preloaded spin library did not leave the GPU context
spinning (codes.parse puts these together).
"""
import re

SPIN_LINE = re.compile(r"^peers-spin: primary context sched flags (\d+) \((spin|not spin)\)", re.M)


class Rejected(Exception):
    """A public run that must not be compared; str() is the reason."""


def field(text, pattern, what, conv=str):
    """conv of the first group of pattern's first match (a line), or Rejected."""
    m = re.search(pattern, text, re.M)
    if not m:
        raise Rejected(f"no {what} in its output")
    try:
        return conv(m.group(1))
    except ValueError:
        raise Rejected(f"unreadable {what}: {m.group(1)!r}") from None


def commas(s):
    """An integer printed with thousands separators ("170,000,000")."""
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

"""The public codes beside ProxyPort, one module each (xsbench, testsnap,
babelstream), in the order the step runs them. Each module holds all there is
to know about its code: GROUP, its builds (PUBLIC_BINS, OPTIONAL_BINS) and
ProxyPort's program beside it (PP_BIN), the runs of a round (round_runs,
device_round), the one reader of its output (read) and the figures the peers
step takes from it (figures, exit_accepted), ProxyPort's figures
(proxyport_figures), its rows (table_rows) and its device-time figure
(DEVICE_METHOD, device_cell). validate/refs/parse.py reads the reference runs'
outputs with the same readers.
"""
from . import babelstream, testsnap, xsbench
from .public import Rejected, spin_checked

CODES = {c.GROUP: c for c in (xsbench, testsnap, babelstream)}
GROUPS = tuple(CODES)
DEVICE_METHOD = {g: c.DEVICE_METHOD for g, c in CODES.items()}


def parse(group, text, exit_status, want, spin=True):
    """Figures of one public run, or Rejected: a failed run (an exit status the code
    does not explain: xsbench.exit_accepted), its code's figures() checked against
    want, and the wait mode the spin library reported (spin=True)."""
    code = CODES[group]
    if not code.exit_accepted(text, exit_status):
        raise Rejected(f"failed: exit status {exit_status}")
    figures = code.figures(text, want)
    if spin:
        figures["wait"] = spin_checked(text)
    return figures

"""What the peers step runs, in the order it runs it: per round, each public
code and ProxyPort's process of the same work in turn (A B A B ...), so that a
drift of the node (clocks, temperature, another tenant) falls on both sides.

Every run is a dict: group, side ("public" or "proxyport"), code, want (the
problem the parsers check the output against), argv, round.

device_runs: the extra processes of the device-time view, run under the CUPTI
library (validate/refs/kernel_time.c) after the timed ones and never timed
themselves; each side's run is split per model and variant (one process, one
row's kernels), with the same problem as the timed runs.
"""
import os

from .. import apps as manifests
from ..bounded import BadInput
from .codes import CODES, GROUPS  # noqa: F401  (GROUPS: the step's and its tests' list)

PUBLIC_BINS = {g: c.PUBLIC_BINS for g, c in CODES.items()}
# builds shown beside the others for the difference (without -foffload-lto): a
# missing one leaves its rows "not built" without making the step fail
OPTIONAL_BINS = tuple(b for c in CODES.values() for b in c.OPTIONAL_BINS)


def pp_bins():
    """ProxyPort's side of each group, {group: app}: the apps whose manifest names the
    group ([peers] group in <app>/app.toml); each must be the program its code's module
    runs beside the public code (PP_BIN)."""
    out = {}
    for app in manifests.apps_with("peers.group"):
        g = manifests.get(app, "peers.group")
        if g not in CODES or g in out or CODES[g].PP_BIN != app:
            why = ("taken by " + out[g] if g in out else f"its runs are {CODES[g].PP_BIN}'s" if g in CODES
                   else "not one of " + ", ".join(GROUPS))
            raise BadInput(f"{manifests.path_of(app)}: peers.group '{g}': {why}")
        out[g] = app
    return out


def available(refs, bindir, groups):
    """{group: [missing binaries]} for the groups asked."""
    out = {}
    for g in groups:
        miss = [b for b in PUBLIC_BINS[g] if not os.access(os.path.join(refs, "bin", b), os.X_OK)]
        app = pp_bins().get(g)
        if app is None or not os.access(os.path.join(bindir, app), os.X_OK):
            miss.append(app or f"(no app of apps.txt for {g})")
        out[g] = miss
    return out


def _device_round(rb, pb, groups, r):
    """One round of the device-time view's processes: every timed public
    configuration, and ProxyPort's per model (and XSBench variant), so that one
    process's kernels are one row's; TestSNAP and XSBench at both counts."""
    out = []
    for g, c in CODES.items():
        if g in groups:
            out += c.device_round(rb, pb, r)
    return out


def device_runs(refs, bindir, groups, rounds=1):
    """The device-time view's processes (ids dNNN-...), after the timed runs."""
    rb, pb = os.path.join(refs, "bin"), bindir
    out = []
    for r in range(1, rounds + 1):
        out += _device_round(rb, pb, groups, r)
    for i, run in enumerate(out, 1):
        run["id"] = f"d{i:03d}-{run['group']}-{run['side']}"
        run["device"] = True
    return out


def runs(refs, bindir, groups, rounds, fixed_rounds=None):
    """Every run in order. fixed_rounds (default: all): rounds that also run
    XSBench's default count (its own figure, the marginal rate and the fixed-cost
    share); the others run L2 only."""
    rb, pb = os.path.join(refs, "bin"), bindir
    fixed_rounds = rounds if fixed_rounds is None else fixed_rounds
    out = []
    for r in range(1, rounds + 1):
        if "xsbench" in groups:
            out += CODES["xsbench"].round_runs(rb, pb, r, fixed_rounds)
        if "testsnap" in groups:
            out += CODES["testsnap"].round_runs(rb, pb, r)
        if "babelstream" in groups:
            out += CODES["babelstream"].round_runs(rb, pb, r)
    for i, run in enumerate(out, 1):
        run["id"] = f"{i:03d}-{run['group']}-{run['side']}"
    return out

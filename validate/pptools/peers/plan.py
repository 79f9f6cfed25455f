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

XS_L1 = 17_000_000     # XSBench's default count: its published checksum, its own figure
XS_L2 = 170_000_000    # fixed costs amortised (checked: their share is measured)
# XSBench's checksum at XS_L2 (validate/xsbench/checksums.txt, from XSBench itself): given to
# xsbench_like (--expect-checksum), which then computes no host reference (30 s per process);
# the analysis still asserts each run's printed checksum equals XSBench's
XS_L2_RECORDED = "large-event-unionized-l170000000"
TS_STEPS = (10, 100)   # TestSNAP step counts; ProxyPort: 10 warm-up, 90 timed
TS_CASE = "W_2J14_2000_disp"
TS_ATOMS, TS_TWOJMAX = 2000, 14
BS_SIZE = 1 << 24      # doubles per array, the size of ProxyPort's published triad claim
BS_TIMES = 100         # BabelStream's default; its statistics leave out the first
# BabelStream 5 CUDA's TBSIZE at the pinned commit (256; it also gives each thread 4 elements,
# UNROLL_FACTOR); LLVM's default team size
TPB = {"cuda": 256, "omp": 128}
# BabelStream's orders: Isolated runs each kernel BS_TIMES times in a row, as ProxyPort repeats
# one kernel (the same work, the same cache state); Classic, its default and its own figure, runs
# copy, mul, add, triad, dot in turn (copy starts with part of a in L2, left by dot)
BS_ORDERS = ("Isolated", "Classic")
PEER_MODELS = tuple(TPB)  # ProxyPort's models with a public peer, in every group

PUBLIC_BINS = {"xsbench": ["XSBench-cuda"],
               "testsnap": ["TestSNAP-kokkos-cuda", "TestSNAP-kokkos-ompt", "TestSNAP-kokkos-ompt-nolto"],
               "babelstream": ["BabelStream-cuda", "BabelStream-omp", "BabelStream-omp-nolto"]}
# builds shown beside the others for the difference (without -foffload-lto): a
# missing one leaves its rows "not built" without making the step fail
OPTIONAL_BINS = ("TestSNAP-kokkos-ompt-nolto", "BabelStream-omp-nolto")
GROUPS = tuple(PUBLIC_BINS)


def pp_bins():
    """ProxyPort's side of each group, {group: app}: the apps whose manifest names the
    group ([peers] group in <app>/app.toml)."""
    out = {}
    for app in manifests.apps_with("peers.group"):
        g = manifests.get(app, "peers.group")
        if g not in PUBLIC_BINS or g in out:
            raise BadInput(f"{manifests.path_of(app)}: peers.group '{g}': "
                           f"{'taken by ' + out[g] if g in out else 'not one of ' + ', '.join(GROUPS)}")
        out[g] = app
    return out
# every ProxyPort run: its default spin wait named, no bootstrap and no energy meter (neither
# used here; the meter measures idle power first and may repeat rows after the timed ones)
PP_COMMON = ["--gpu-wait", "spin", "--bootstrap", "0", "--ceiling-mib", "64", "--no-energy"]


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


def recorded_checksum(name):
    """The checksum XSBench printed for run `name` (validate/xsbench/checksums.txt)."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        "xsbench", "checksums.txt")
    with open(path) as f:
        for line in f:
            w = [x.strip() for x in line.split("|")]
            if w[0] == name:
                return int(w[2])
    raise KeyError(f"{path}: no run {name}")


def xsbench_round(rb, pb, r, fixed_rounds):
    def pub(k, n):
        return {"group": "xsbench", "side": "public", "code": f"XSBench -k {k}", "round": r,
                "want": {"kernel": k, "lookups": n},
                "argv": [os.path.join(rb, "XSBench-cuda"), "-m", "event", "-s", "large",
                         "-k", str(k), "-l", str(n)]}

    def pp(n):
        expect = ["--expect-checksum", str(recorded_checksum(XS_L2_RECORDED))] if n == XS_L2 else []
        return {"group": "xsbench", "side": "proxyport", "code": "xsbench_like cuda", "round": r,
                "want": {"lookups": n},
                "argv": [os.path.join(pb, "xsbench_like"), "--backend", "cuda", "-m", "event",
                         "-s", "large", "--variant", "baseline,sorted-energy", "--lookups", str(n),
                         "--timer", "wall", "--warmup", "0", "--samples", "1"] + expect + PP_COMMON}
    runs = [pub(0, XS_L2), pp(XS_L2), pub(6, XS_L2)]
    if r <= fixed_rounds:
        runs += [pub(0, XS_L1), pp(XS_L1), pub(6, XS_L1)]
    return runs


def testsnap_round(rb, pb, r):
    def pub(build, space, n):
        return {"group": "testsnap", "side": "public", "code": f"TestSNAP {build}", "round": r,
                "want": {"steps": n, "atoms": TS_ATOMS, "twojmax": TS_TWOJMAX, "space": space},
                "argv": [os.path.join(rb, f"TestSNAP-kokkos-{build}"), "-ns", str(n)]}
    n1, n2 = TS_STEPS
    # ompt-nolto: TestSNAP's OpenMPTarget build without -foffload-lto (ProxyPort's has it)
    pp = {"group": "testsnap", "side": "proxyport", "code": "testsnap cuda,omp", "round": r,
          "want": {"steps": n2 - n1},
          "argv": [os.path.join(pb, "testsnap"), "--backend", "cuda,omp", "--case", TS_CASE,
                   "--warmup", str(n1), "--steps", str(n2 - n1), "--timer", "wall"] + PP_COMMON}
    return [pub("cuda", "Cuda", n1), pub("cuda", "Cuda", n2), pp,
            pub("ompt", "OpenMPTarget", n1), pub("ompt", "OpenMPTarget", n2),
            pub("ompt-nolto", "OpenMPTarget", n1), pub("ompt-nolto", "OpenMPTarget", n2)]


def babelstream_round(rb, pb, r, orders=BS_ORDERS):
    def pub(model, order):
        return {"group": "babelstream", "side": "public", "code": f"BabelStream {model}", "round": r,
                "want": {"elements": BS_SIZE, "times": BS_TIMES, "order": order},
                "argv": [os.path.join(rb, f"BabelStream-{model}"), "-s", str(BS_SIZE),
                         "-n", str(BS_TIMES), "--csv"] + (["--order", order] if order != "Classic" else [])}
    pp = {"group": "babelstream", "side": "proxyport", "code": "microbench cuda,omp", "round": r,
          "want": {"size": BS_SIZE},
          "argv": [os.path.join(pb, "microbench"), "--backend", "cuda,omp", "--kernels", "copy,triad",
                   "--size", str(BS_SIZE), "--tpb", ",".join(str(t) for t in sorted(set(TPB.values()))),
                   "--timer", "wall", "--warmup", "1", "--samples", str(BS_TIMES - 1)] + PP_COMMON}
    # omp-nolto: BabelStream's OpenMP build without -foffload-lto (ProxyPort's has it)
    out = []
    for order in orders:
        out += [pub("cuda", order), dict(pp), pub("omp", order), pub("omp-nolto", order)]
    return out


def _device_round(rb, pb, groups, r):
    """One round of the device-time view's processes: every timed public
    configuration, and ProxyPort's per model (and XSBench variant), so that one
    process's kernels are one row's; TestSNAP and XSBench at both counts."""
    out = []
    if "xsbench" in groups:
        for x in xsbench_round(rb, pb, r, r):  # both counts
            if x["side"] == "public":
                out.append(x)
                continue
            for v in ("baseline", "sorted-energy"):
                argv = list(x["argv"])
                argv[argv.index("--variant") + 1] = v
                out.append(dict(x, code=f"xsbench_like cuda {v}", want=dict(x["want"], variant=v), argv=argv))
    if "testsnap" in groups:
        ts = testsnap_round(rb, pb, r)
        out += [x for x in ts if x["side"] == "public"]
        for m in PEER_MODELS:
            for n in TS_STEPS:
                argv = list(ts[2]["argv"])
                argv[argv.index("--backend") + 1] = m
                argv[argv.index("--warmup") + 1] = "0"
                argv[argv.index("--steps") + 1] = str(n)
                out.append(dict(ts[2], code=f"testsnap {m}", want={"steps": n, "model": m}, argv=argv))
    if "babelstream" in groups:
        bs = babelstream_round(rb, pb, r, orders=("Isolated",))  # the same-method runs only
        out += [x for x in bs if x["side"] == "public"]
        for m in PEER_MODELS:
            argv = list(bs[1]["argv"])
            argv[argv.index("--backend") + 1] = m
            argv[argv.index("--tpb") + 1] = str(TPB[m])
            out.append(dict(bs[1], code=f"microbench {m}", want={"size": BS_SIZE, "model": m}, argv=argv))
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
            out += xsbench_round(rb, pb, r, fixed_rounds)
        if "testsnap" in groups:
            out += testsnap_round(rb, pb, r)
        if "babelstream" in groups:
            out += babelstream_round(rb, pb, r)
    for i, run in enumerate(out, 1):
        run["id"] = f"{i:03d}-{run['group']}-{run['side']}"
    return out

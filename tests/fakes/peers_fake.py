#!/usr/bin/env python3
"""Planted stand-ins for the peers step's programs (tests/tools/test_peers.py links
them as refs/bin/XSBench-cuda ... and bin/xsbench_like ...): each prints the
output layout of the program it stands for, with times from a known model, so
that the peers table's figures are known in advance.

PEERS_FAKE: comma-separated faults NAME@N (the N-th call of that program in
this test; PEERS_FAKE_STATE holds the call counters):
  xs-fail xs-checksum xs-size     XSBench: exit 1 with no result; checksum 12
                                  (INAVALID) at 17M; size small
  ts-forces ts-size               TestSNAP (Kokkos CUDA build): force deviation
                                  1e-3; 1024 atoms
  bs-validation bs-size no-spin   BabelStream (CUDA build): FAILED validation
                                  (exit 0, as it does); 2^25 elements; (OpenMP
                                  build) no line from the spin library
  pp-xs-checksum pp-fail          xsbench_like checksum 1; microbench exit 1
The device-time view's runs (PP_KERNEL_TIME_OUT set: the fakes write the
kernel-time file the CUPTI library would, from known kernel models) count
their calls apart, and take these faults:
  kt-empty                        XSBench: an empty kernel-time file
  kt-fail                         TestSNAP (Kokkos CUDA build): exit 1, no output
  kt-noname                       BabelStream (CUDA build): no copy kernel
  kt-dropped                      microbench: CUPTI dropped 3 records
"""
import json
import os
import sys

# time models: seconds = fixed + work / rate
XS = {0: (1e-3, 0.30e9), 6: (1e-3, 1.8e9)}          # XSBench: fixed 1 ms
PP_XS = {0: (0.0, 0.33e9), 6: (0.0, 2.0e9)}         # xsbench_like: no fixed cost
XS_SUM = {17_000_000: 952131, 170_000_000: 525004}
TS_STEP = {"cuda": 5.5e-3, "ompt": 9.0e-3, "ompt-nolto": 9.4e-3}  # TestSNAP seconds per step
TS_FIRST = 0.05                                      # its cold first-step extra
PP_TS = {"cuda": (0.4e-3, 3.5e-3, 1.0e-3), "omp": (0.6e-3, 3.6e-3, 1.6e-3)}  # ui, yi, deidrj
BS_MIN = {"cuda": {"Copy": 1.0e-4, "Triad": 1.25e-4}, "omp": {"Copy": 1.1e-4, "Triad": 1.4e-4}}
PP_BS_MIN = {"cuda": {"copy": 0.98e-4, "triad": 1.2e-4}, "omp": {"copy": 1.0e-4, "triad": 1.3e-4}}
N_BS = 1 << 24
SPIN = "peers-spin: primary context sched flags 1 (spin), active 1"
# kernel models of the device-time view: XSBench lookups/s; TestSNAP s per step;
# BabelStream/microbench best per-launch s (mean 1.05x, max 1.2x)
XS_DEV = {0: 0.32e9, 6: 1.95e9}
PP_XS_DEV = {"baseline": 0.35e9, "sorted-energy": 2.2e9}
TS_DEV = {"cuda": 5.0e-3, "ompt": 8.0e-3, "ompt-nolto": 8.5e-3}
PP_TS_DEV = {"cuda": 4.4e-3, "omp": 5.2e-3}
BS_DEV = {"cuda": {"copy": 0.95e-4, "triad": 1.2e-4}, "omp": {"copy": 1.05e-4, "triad": 1.35e-4},
          "omp-nolto": {"copy": 1.08e-4, "triad": 1.4e-4}}
PP_BS_DEV = {"cuda": {"copy": 0.97e-4, "triad": 1.18e-4}, "omp": {"copy": 1.0e-4, "triad": 1.3e-4}}
# kernel names as the compilers form them (nvcc's mangled, LLVM's outlined target regions)
BS_NAMES = {"cuda": "_Z{n}{k}_kernelIdEvPT_", "omp": "__omp_offloading_fd00_1a2b__ZN9OMPStreamIdE{n}{k}Ev_l120"}
PP_BS_NAMES = {"cuda": "_Z{n}k_{k}PdPKdm", "omp": "__omp_offloading_fd00_3c4d_{k}_l23"}
KT_HEADER = "# pp-kernel-time 1: count total_ns min_ns max_ns name"


def device_run():
    return bool(os.environ.get("PP_KERNEL_TIME_OUT"))


def kernel_file(kernels, dropped=0):
    """The kernel-time file (validate/refs/kernel_table.h) of {name: (count, best s)}:
    per-launch mean 1.05x the best, max 1.2x."""
    lines = [KT_HEADER]
    for name, (count, best) in kernels.items():
        lo = round(best * 1e9)
        lines.append(f"{count} {round(1.05 * lo) * count} {lo} {round(1.2 * lo)} {name}")
    lines += [f"# dropped {dropped}", "# end"]
    with open(os.environ["PP_KERNEL_TIME_OUT"], "w") as f:
        f.write("\n".join(lines) + "\n")


def once(seconds):
    """One launch taking `seconds` (mean = best: count 1 writes 1.05x; undo it)."""
    return (1, seconds / 1.05)


def fault(name, prog):
    """Whether fault `name` is planted on this call (the call counted per program)."""
    state = os.environ.get("PEERS_FAKE_STATE")
    planted = [f.split("@") for f in os.environ.get("PEERS_FAKE", "").split(",") if f]
    if not state or name.startswith("kt-") != device_run():
        return False
    counter = os.path.join(state, prog + (".dev" if device_run() else ""))
    n = int(open(counter).read()) if os.path.exists(counter) else 0
    return any(f == name and int(at) == n + 1 for f, at in planted)


def count(prog):
    state = os.environ.get("PEERS_FAKE_STATE")
    if state:
        counter = os.path.join(state, prog + (".dev" if device_run() else ""))
        n = int(open(counter).read()) if os.path.exists(counter) else 0
        with open(counter, "w") as f:
            f.write(str(n + 1))


def opt(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def xsbench(argv, prog):
    k, n = int(opt(argv, "-k")), int(opt(argv, "-l"))
    fixed, rate = XS[k]
    t = fixed + n / rate
    size = "small" if fault("xs-size", prog) else "large"
    print(f"CUDA Device:                  Fake GPU\nSimulation Method:            Event Based\n"
          f"H-M Benchmark Size:           {size}")
    if k == 6:
        print('Simulation Kernel:"Optimization 6 - Material & Energy Sorts + Material-specific Kernels"')
    if fault("xs-fail", prog):
        print("GPUassert: out of memory Simulation.cu 402", file=sys.stderr)
        return 1
    s = 12 if fault("xs-checksum", prog) else XS_SUM[n]
    print(f"Runtime:     {t:.3f} seconds\nLookups:     {n:,}\nLookups/s:   {int(n / t):,}")
    ok = n == 17_000_000 and s == 952131
    print(f"Verification checksum: {s} ({'Valid' if ok else 'WARNING - INAVALID CHECKSUM!'})")
    print(SPIN, file=sys.stderr)
    if device_run():
        if fault("kt-empty", prog):
            open(os.environ["PP_KERNEL_TIME_OUT"], "w").close()
        else:
            kernel_file({"xs_init": once(2e-3), f"xs_lookup_k{k}": once(n / XS_DEV[k])})
    return 0 if ok else 1


def testsnap(argv, prog):
    build = prog.split("TestSNAP-kokkos-")[1]
    ns = int(opt(argv, "-ns"))
    if build == "cuda" and fault("kt-fail", prog):
        return 1
    d = TS_FIRST + ns * TS_STEP[build]
    natoms = 1024 if build == "cuda" and fault("ts-size", prog) else 2000
    dev = 1e-3 if build == "cuda" and fault("ts-forces", prog) else 3e-14
    space = "N6Kokkos4CudaE" if build == "cuda" else "N6Kokkos12OpenMPTargetE"
    print(f"Kokkos::ExecutionSpace = {space}\n-----------------------\nSummary of TestSNAP run\n"
          f"-----------------------\nnatoms = {natoms} \nnghostatoms = 0 \nnsteps = {ns} \n"
          f"nneighs = 26 \ntwojmax = 14 \nduration = {d:g} [sec]\n"
          f"grind time = {1000 * d / (natoms * ns):g} [msec/atom-step]\n"
          f"RMS |Fj| deviation {dev:g} [eV/A]\n")
    print(SPIN, file=sys.stderr)
    if device_run():  # three kernels a step, a cold first step
        kernel_file({"setup": once(3e-3), "compute_U": (ns, 0.3 * TS_DEV[build] / 1.05),
                     "compute_Y": (ns, 0.5 * TS_DEV[build] / 1.05), "compute_dEdr": (ns, 0.2 * TS_DEV[build] / 1.05)})
    return 0


def babelstream(argv, prog):
    model = "cuda" if "cuda" in prog else "omp"
    build = prog.split("BabelStream-")[1]
    n = int(opt(argv, "-s"))
    if model == "cuda" and fault("bs-size", prog):
        n = 1 << 25
    times = int(opt(argv, "-n", "100"))
    print("function,num_times,n_elements,sizeof,max_MB_per_sec,min_runtime,max_runtime,avg_runtime")
    classic = "--order" not in argv  # its default order: copy after dot finds part of a in L2
    for k, w in (("Copy", 2), ("Mul", 2), ("Add", 3), ("Triad", 3), ("Dot", 2)):
        tmin = BS_MIN[model].get(k, 1e-4) * (0.95 if classic and k == "Copy" else 1)
        if classic:
            print(f"{k},{times},{n},8,{1e-6 * w * 8 * n / tmin:g},{tmin:g},{1.2 * tmin:g},{1.1 * tmin:g}")
        else:  # --order Isolated times the loop whole: its one mean is min, max and average
            t = 1.1 * tmin
            print(f"{k},{times},{n},8,{1e-6 * w * 8 * n / t:g},{t:g},{t:g},{t:g}")
    if model == "cuda" and fault("bs-validation", prog):
        print("FAILED validation of c[3]: 1 (is) != 2 (should)", file=sys.stderr)
    if not (prog == "BabelStream-omp" and fault("no-spin", prog)):
        print(SPIN, file=sys.stderr)
    if device_run():
        ks = {BS_NAMES[model].format(n=len(k) + 7, k=k): (times, BS_DEV[build][k]) for k in ("copy", "triad")}
        ks.update({BS_NAMES[model].format(n=11, k="init"): once(1e-4),
                   BS_NAMES[model].format(n=10, k="mul"): (times, 1e-4)})
        if model == "cuda" and fault("kt-noname", prog):
            del ks[BS_NAMES["cuda"].format(n=11, k="copy")]
        kernel_file(ks)
    return 0


def row(kernel, model, size, samples, variant="", **extra):
    mean = sum(samples) / len(samples)
    r = {"kernel": kernel, "model": model, "label": model, "size": size, "variant": variant,
         "samples": samples, "valid": True, "check": "planted",
         "time_s": {"samples": len(samples), "min": min(samples), "median": sorted(samples)[len(samples) // 2],
                    "mean": mean, "max": max(samples)}}
    r.update(extra)
    return r


def write(argv, app, rows):
    doc = {"schema": "proxyport-result-1", "app": app, "command": " ".join(argv), "started_utc": "x",
           "validated": all(r["valid"] for r in rows), "mpi_ranks": 1, "results": rows}
    with open(opt(argv, "--json"), "w") as f:
        json.dump(doc, f)


def xsbench_like(argv, prog):
    n = int(opt(argv, "--lookups"))
    rows = []
    for k, v in ((0, "baseline (-k 0)"), (6, "sorted-energy (-k 6)")):
        fixed, rate = PP_XS[k]
        s = 1 if fault("pp-xs-checksum", prog) and n == 170_000_000 else XS_SUM[n]
        rows.append(row("event", "cuda", n, [fixed + n / rate], v, metrics={"checksum_": s}))
    write(argv, "xsbench_like", rows)
    if device_run():
        v = opt(argv, "--variant")
        kernel_file({"xs_init": once(1e-3), f"xsl_{v}": once(n / PP_XS_DEV[v])})
    return 0


def testsnap_pp(argv, prog):
    steps = int(opt(argv, "--steps"))
    rows = []
    for m, (ui, yi, de) in PP_TS.items():
        rows.append(row("step", m, 2000, [ui + yi + de + 2e-4] * steps))
        for k, t in (("compute_ui", ui), ("compute_yi", yi), ("compute_deidrj", de)):
            rows.append(row(k, m, 2000, [t] * steps))
    write(argv, "testsnap", rows)
    if device_run():
        m = opt(argv, "--backend")
        kernel_file({"setup": once(1e-3), "ui": (steps, 0.2 * PP_TS_DEV[m] / 1.05),
                     "yi": (steps, 0.6 * PP_TS_DEV[m] / 1.05), "deidrj": (steps, 0.2 * PP_TS_DEV[m] / 1.05)})
    return 0


def microbench(argv, prog):
    if fault("pp-fail", prog):
        print("microbench: cuda: out of memory", file=sys.stderr)
        return 3
    n, samples = int(opt(argv, "--size")), int(opt(argv, "--samples"))
    rows = []
    # every model at every --tpb, as microbench does (the same planted time at each)
    for m, tpb in [(m, int(t)) for m in opt(argv, "--backend").split(",") for t in opt(argv, "--tpb").split(",")]:
        for k, w in (("copy", 2), ("triad", 3)):
            t = PP_BS_MIN[m][k]
            rows.append(row(k, m, n, [t] + [1.1 * t] * (samples - 1), f"tpb={tpb}", bytes_per_run=w * 8 * n))
    write(argv, "microbench", rows)
    if device_run():
        m = opt(argv, "--backend")
        ks = {PP_BS_NAMES[m].format(n=len(k) + 2, k=k): (samples + 1, PP_BS_DEV[m][k]) for k in ("copy", "triad")}
        ks[PP_BS_NAMES[m].format(n=6, k="init")] = once(1e-4)
        kernel_file(ks, 3 if fault("kt-dropped", prog) else 0)
    return 0


PROGS = {"XSBench-cuda": xsbench, "TestSNAP-kokkos-cuda": testsnap, "TestSNAP-kokkos-ompt": testsnap,
         "TestSNAP-kokkos-ompt-nolto": testsnap,
         "BabelStream-cuda": babelstream, "BabelStream-omp": babelstream, "BabelStream-omp-nolto": babelstream,
         # ProxyPort's programs: a subset of apps.txt
         "xsbench_like": xsbench_like, "testsnap": testsnap_pp, "microbench": microbench}

if __name__ == "__main__":
    prog = os.path.basename(sys.argv[0])
    if "--version" in sys.argv:
        print("planted build")
        sys.exit(0)
    rc = PROGS[prog](sys.argv[1:], prog)
    count(prog)
    sys.exit(rc)

#!/usr/bin/env python3
"""Tests of the peers step (validate/pptools/peers) on planted outputs, no GPU.

  peers_check.py method    the same-method arithmetic on hand-made numbers
  peers_check.py clean     the whole step on tests/peers_fake.py's programs:
                           every row comparable, each figure the planted one
  peers_check.py faults    failed, wrong-checksum, other-size, no-spin runs
                           rejected with their reasons, never compared
  peers_check.py usage     bad options: exit 2 and one line; --no-device-time in --dry-run
  peers_check.py devtime   the kernel-time file: the C writer (validate/refs/kernel_table.c,
                           built here) read back by the parser; the parser's refusals
  peers_check.py optional  the no-LTO builds and the kernel-time library missing: their rows
                           "not built", the device column "not available", exit 0
  peers_check.py ktlib     validate/refs/kernel_time.c compiled and loaded where cupti.h is
                           (CUDA_HOME or /usr/local/cuda), else skipped (exit 77)
  peers_check.py suite BIN `suite --peers DIR` with BIN's microbench (a CPU build): the step
                           runs in the suite's invocation, on the suite's --bin

Exit 0 pass, 1 fail (the failed checks printed).
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VALIDATE = os.path.join(os.path.dirname(HERE), "validate")
sys.path.insert(0, VALIDATE)
FAKE = os.path.join(HERE, "peers_fake.py")
FAILS = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        FAILS.append(what)


def near(a, b, rel=1e-6):
    return a is not None and b is not None and abs(a - b) <= rel * abs(b)


def method_tests():
    from pptools.peers import method
    # t(L) = F + L/r with F = 10 ms, r = 1.7e9: t(17M) = 20 ms, t(170M) = 110 ms
    m = method.marginal(17e6, 0.020, 170e6, 0.110)
    check(near(m["rate"], 1.7e9) and near(m["fixed_s"], 0.010) and near(m["fixed_share"], 0.01 / 0.11),
          f"marginal: rate 1.7e9, fixed 10 ms, share 9.09% ({m})")
    check(method.marginal(17e6, 0.02, 170e6, 0.02) is None, "marginal: no growth -> None")
    # durations 0.05 + n * 5.5 ms: 10 and 100 steps -> 5.5 ms per step
    s = method.steady_step(0.05 + 10 * 5.5e-3, 10, 0.05 + 100 * 5.5e-3, 100)
    check(near(s, 5.5e-3), f"steady step 5.5 ms ({s})")
    check(near(method.ms_per_atom_step(5.5e-3, 2000), 0.00275), "5.5 ms / 2000 atoms = 0.00275 ms/atom-step")
    check(near(method.ratio(2000.0, 1800.0), 2000 / 1800) and near(method.ratio(0.00245, 0.00275, False),
          0.00275 / 0.00245), "ratio: rates ours/theirs, times theirs/ours")
    # twojmax 2 by hand (testsnap/flops_test.c's blocks): 77 na*nb products in all; the
    # elements of half weight 0: (1 1 2) ma 2 mb 1: 1 x 2; (2 0 2) ma 2 mb 1: 1 x 1;
    # (2 2 2) ma 2 mb 1: 2 x 3; 9 skipped
    check(method.y_products(2) == (77, 68), f"Y products at twojmax 2: (77, 68) ({method.y_products(2)})")
    # a best time is never set against a mean: the row is refused, with the reason
    from pptools.peers import analyze
    check(method.comparable(method.LOOP_MEAN, method.MEAN) is None and
          method.comparable(method.BEST, method.BEST) is None, "like for like: mean/mean, best/best")
    r = analyze._row_doc("x", "babelstream", "GB/s", True, [1.0] * 3, [1.02] * 3, "m",
                         statistic=(method.LOOP_MEAN, method.BEST))
    check(not r["ok"] and "refused: not like for like: the public code's loop mean against ProxyPort's best"
          in r["notes"][0], f"best against a loop mean refused ({r['notes']})")
    e, r = method.y_products(14)
    check(abs((1 - r / e) - 0.0556) < 5e-4, f"twojmax 14: 5.56% skipped ({100 * (1 - r / e):.3f}%)")
    from pptools.peers import public
    good = ("Simulation Method:            Event Based\nH-M Benchmark Size:           large\n"
            "Runtime:     0.095 seconds\nLookups:     170,000,000\nLookups/s:   1,781,139,000\n"
            "Verification checksum: 525004 (WARNING - INAVALID CHECKSUM!)\n")
    f = public.parse("xsbench", good, 1, {"kernel": 0, "lookups": 170_000_000}, spin=False)
    check(near(f["seconds"], 170e6 / 1781139000) and f["checksum"] == 525004,
          "xsbench at 170M: exit 1 with INAVALID accepted (no published checksum there)")
    for text, st, want, reason in (
            (good, 1, {"kernel": 0, "lookups": 17_000_000}, "another problem"),
            (good.replace("170,000,000\n", "17,000,000\n"), 1, {"kernel": 0, "lookups": 17_000_000},
             "not XSBench's published one"),
            (good, 1, {"kernel": 6, "lookups": 170_000_000}, "another kernel"),
            (good.replace("INAVALID", "x"), 3, {"kernel": 0, "lookups": 170_000_000}, "failed: exit status 3"),
            (good, 1, {"kernel": 0, "lookups": 170_000_000}, "wait mode unknown")):
        try:
            public.parse("xsbench", text, st, want, spin=(reason == "wait mode unknown"))
            check(False, f"xsbench parser rejects ({reason})")
        except public.Rejected as e:
            check(reason in str(e), f"xsbench parser rejects: {e}")


    # BabelStream's csv rounds to 6 digits: equal times may print the mean above the maximum
    bs = ("function,num_times,n_elements,sizeof,max_MB_per_sec,min_runtime,max_runtime,avg_runtime\n"
          + "".join(f"{k},100,16777216,8,2.69554e+06,9.95851e-05,9.95851e-05,9.95852e-05\n"
                    for k in ("Copy", "Mul", "Add", "Triad", "Dot")))
    try:
        public.parse("babelstream", bs, 0, {"elements": 16777216, "times": 100}, spin=False)
        check(True, "babelstream parser: a mean above the maximum in the 6th digit accepted")
    except public.Rejected as e:
        check(False, f"babelstream parser: a mean above the maximum in the 6th digit accepted ({e})")
    try:
        public.parse("babelstream", bs.replace("9.95852e-05", "9.96852e-05"), 0,
                     {"elements": 16777216, "times": 100}, spin=False)
        check(False, "babelstream parser: a mean 0.1% above the maximum rejected")
    except public.Rejected as e:
        check("inconsistent" in str(e), f"babelstream parser: a mean 0.1% above the maximum rejected ({e})")


PUBLIC = ("XSBench-cuda", "TestSNAP-kokkos-cuda", "TestSNAP-kokkos-ompt", "TestSNAP-kokkos-ompt-nolto",
          "BabelStream-cuda", "BabelStream-omp", "BabelStream-omp-nolto")


def cc(out, *srcs, flags=()):
    # flags after the sources: libraries (-l) must follow what needs them
    subprocess.run([os.environ.get("CC", "cc"), "-std=c11", "-O2", "-Wall", "-o", out, *srcs, *flags], check=True)


def fixture(tmp, omit=(), kt_lib=True):
    refs, bindir = os.path.join(tmp, "refs"), os.path.join(tmp, "bin")
    for d in (os.path.join(refs, "bin"), os.path.join(refs, "lib"), bindir, os.path.join(tmp, "state")):
        os.makedirs(d)
    for b in PUBLIC:
        if b not in omit:
            os.symlink(FAKE, os.path.join(refs, "bin", b))
    # a subset of apps.txt: the apps the peers step runs
    for b in ("xsbench_like", "testsnap", "microbench"):
        os.symlink(FAKE, os.path.join(bindir, b))
    # the preload is the real spin library's stand-in: loadable, silent (the fakes print its line)
    src = os.path.join(tmp, "stub.c")
    with open(src, "w") as f:
        f.write("void peers_stub(void) {}\n")
    cc(os.path.join(refs, "lib", "libpeers_spin.so"), src, flags=("-shared", "-fPIC"))
    if kt_lib:  # the kernel-time library's stand-in: the fakes write its file themselves
        cc(os.path.join(refs, "lib", "libpp_kernel_time.so"), src, flags=("-shared", "-fPIC"))
    with open(os.path.join(tmp, "activate"), "w") as f:
        f.write("# no OpenMP runtime needed by the planted programs\n")
    return refs, bindir


def peers(tmp, faults="", omit=(), kt_lib=True, args=()):
    refs, bindir = fixture(tmp, omit, kt_lib)
    out = os.path.join(tmp, "out")
    env = dict(os.environ, PEERS_FAKE=faults, PEERS_FAKE_STATE=os.path.join(tmp, "state"))
    p = subprocess.run([sys.executable, os.path.join(VALIDATE, "peers"), "--refs", refs, "--bin", bindir,
                        "--out", out, "--omp-runtime", os.path.join(tmp, "activate"), *args],
                       env=env, capture_output=True, text=True, timeout=150)
    doc = json.load(open(os.path.join(out, "peers.json"))) if os.path.exists(os.path.join(out, "peers.json")) else {}
    return p, doc, out


def rows_by_name(doc):
    return {r["comparison"]: r for r in doc.get("rows", [])}


def clean_tests():
    with tempfile.TemporaryDirectory() as tmp:
        p, doc, out = peers(tmp)
        check(p.returncode == 0, f"clean: exit 0 ({p.returncode}; {p.stderr.strip()[-300:]})")
        rows = rows_by_name(doc)
        check(len(rows) == 16 and all(r["ok"] for r in rows.values()), f"clean: 16 rows, all comparable ({len(rows)})")
        check(not any(r.get("rejected") for r in doc.get("runs", [])), "clean: no run rejected")
        # the planted models of tests/peers_fake.py, by hand
        t_pub6 = 1e-3 + 170e6 / 1.8e9
        want = {"XSBench -k 6 vs xsbench_like cuda sorted-energy": t_pub6 / (170e6 / 2.0e9),
                "XSBench -k 6 vs xsbench_like cuda sorted-energy (marginal)": 2.0 / 1.8,
                "XSBench -k 0 vs xsbench_like cuda baseline (marginal)": 0.33 / 0.30,
                "TestSNAP Kokkos CUDA vs testsnap cuda": 5.5 / 4.9,
                "TestSNAP Kokkos OpenMPTarget vs testsnap omp": 9.0 / 5.8,
                "TestSNAP Kokkos OpenMPTarget without -foffload-lto vs testsnap omp": 9.4 / 5.8,
                "TestSNAP Kokkos CUDA vs testsnap cuda (Y products counted)":
                    5.5 / (4.9 + 3.5 * (1127296 / 1064674 - 1)),
                # --order Isolated: its one loop mean (1.1 x the planted best) against
                # ProxyPort's mean (one run at the best, 98 at 1.1 x)
                "BabelStream CUDA Triad vs microbench cuda triad": 1.25 * 1.1 / (1.2 * (1 + 1.1 * 98) / 99),
                "BabelStream OpenMP Copy vs microbench omp copy": 1.1 * 1.1 / (1.0 * (1 + 1.1 * 98) / 99)}
        for name, ratio in want.items():
            got = rows.get(name, {}).get("ratio")
            check(near(got, ratio, 1e-5), f"clean: {name}: {ratio:.5f}x ({got})")
        # BabelStream's own figure from its default (Classic) order, planted 5% faster for copy;
        # the same-method column from --order Isolated
        r = rows.get("BabelStream CUDA Copy vs microbench cuda copy", {})
        own = (r.get("public_own") or {}).get("value")
        check(near(own and r.get("public") and own / r["public"], 1.1 / 0.95, 1e-4) and
              "--order Isolated" in r.get("method", ""),
              f"clean: BabelStream copy: own figure (Classic, best) / same method (Isolated, loop mean) = "
              f"1.1/0.95 ({own} / {r.get('public')})")
        check(r.get("statistic") == {"public": "loop mean", "proxyport": "mean"} and
              "no best exists on its side" in r.get("method", "") and r.get("ok"),
              f"clean: BabelStream Isolated (min = max = avg): mean against mean ({r.get('statistic')})")
        r = rows.get("XSBench -k 6 vs xsbench_like cuda sorted-energy", {})
        check(near(r.get("public_fixed_share"), 1e-3 / t_pub6, 1e-3),
              f"clean: XSBench's fixed share at 170M {100e-3 / t_pub6:.3f}% ({r.get('public_fixed_share')})")
        check(near(r.get("public_own", {}).get("value"), 17e6 / (1e-3 + 17e6 / 1.8e9) / 1e6, 1e-5),
              "clean: XSBench's own figure is its printed Lookups/s at 17M")
        md = open(os.path.join(out, "peers.md")).read()
        check("| XSBench -k 6 vs xsbench_like cuda sorted-energy |" in md and "host wall clock" in md,
              "clean: peers.md has the rows and their method")
        r = rows.get("TestSNAP Kokkos OpenMPTarget without -foffload-lto vs testsnap omp", {})
        check(any("not the same flags" in n for n in r.get("notes", [])), "clean: the TestSNAP no-LTO row says "
              "'not the same flags'")
        device_clean(doc, rows, md)


def device_clean(doc, rows, md):
    """The device-time column on the fakes' kernel models (tests/peers_fake.py)."""
    from pptools.peers import plan
    dev = {n: r.get("device", {}) for n, r in rows.items()}
    check(all(d.get("ratio") and not d.get("why") for d in dev.values()),
          f"clean: a device-time figure in every row ({[n for n, d in dev.items() if d.get('why')]})")
    bytes_copy = 2 * 8 * (1 << 24)
    want = {"XSBench -k 0 vs xsbench_like cuda baseline": (320.0, 350.0),
            "XSBench -k 6 vs xsbench_like cuda sorted-energy (marginal)": (1950.0, 2200.0),
            "TestSNAP Kokkos CUDA vs testsnap cuda": (5.0 / 2000, 4.4 / 2000),
            "TestSNAP Kokkos OpenMPTarget without -foffload-lto vs testsnap omp": (8.5 / 2000, 5.2 / 2000),
            "BabelStream CUDA Copy vs microbench cuda copy": (bytes_copy / 0.95e-4 / 1e9, bytes_copy / 0.97e-4 / 1e9),
            "BabelStream OpenMP Triad vs microbench omp triad": (3 * 8 * (1 << 24) / 1.35e-4 / 1e9,
                                                                 3 * 8 * (1 << 24) / 1.3e-4 / 1e9)}
    for name, (pub, pp) in want.items():
        d = dev.get(name, {})
        check(near(d.get("public"), pub, 1e-5) and near(d.get("proxyport"), pp, 1e-5),
              f"clean: device time of {name}: {pub:.6g} / {pp:.6g} ({d.get('public')} / {d.get('proxyport')})")
    m = dev.get("BabelStream CUDA Copy vs microbench cuda copy", {}).get("mean", {})
    check(near(m.get("public"), bytes_copy / (1.05 * 0.95e-4) / 1e9, 1e-5),
          f"clean: BabelStream's mean per-launch time is total / count ({m.get('public')})")
    druns, runs = doc.get("device_runs", []), doc.get("runs", [])
    check(len(druns) == len(plan.device_runs("r", "b", plan.GROUPS)) and all(
        r.get("env", {}).get("CUDA_INJECTION64_PATH", "").endswith("libpp_kernel_time.so") for r in druns),
        f"clean: {len(druns)} profiled runs, all under the injection")
    check(runs and not any("CUDA_INJECTION64_PATH" in r.get("env", {}) for r in runs),
          "clean: no timed run under the injection")
    check("Device time (last column" in md and "| device time |" in md, "clean: peers.md says the column's method")


def faults_tests():
    # calls per program (one fixed round): XSBench 1 k0@170M, 2 k6@170M, 3 k0@17M, 4 k6@17M,
    # then 5, 6 (round 2) and 7, 8 (round 3); TestSNAP cuda: 2 calls a round; BabelStream: 1
    planted = ("xs-checksum@4,xs-fail@6,xs-size@5,ts-forces@4,ts-size@6,bs-validation@2,"
               "bs-size@3,no-spin@1,pp-xs-checksum@3,pp-fail@3,"
               # the device-time view's runs: XSBench -k 6 at 170M (its 2nd), TestSNAP CUDA -ns 10,
               # BabelStream CUDA, microbench omp (its 2nd)
               "kt-empty@2,kt-fail@1,kt-noname@1,kt-dropped@2")
    with tempfile.TemporaryDirectory() as tmp:
        p, doc, out = peers(tmp, planted)
        check(p.returncode == 1, f"faults: exit 1 (rows not comparable) ({p.returncode})")
        rej = {r["id"]: r["rejected"] for r in doc.get("runs", []) if r.get("rejected")}
        runs = doc.get("runs", [])

        def nth(code, n, steps=None):
            c = [r for r in runs if r["code"] == code]
            return c[n - 1]["id"] if len(c) >= n else None
        xs = [r["id"] for r in runs if r["code"].startswith("XSBench")]
        expect = {xs[3]: "not XSBench's published one", xs[5]: "failed: exit status 1",
                  xs[4]: "another problem: size 'small'", nth("TestSNAP cuda", 4): "forces wrong",
                  nth("TestSNAP cuda", 6): "another problem: 1024 atoms",
                  nth("BabelStream cuda", 2): "its validation failed",
                  nth("BabelStream cuda", 3): "another problem: 33554432 elements",
                  nth("BabelStream omp", 1): "wait mode unknown",
                  nth("xsbench_like cuda", 3): "differs from XSBench -k 0's 525004",
                  nth("microbench cuda,omp", 3): "failed: exit status 3"}
        for rid, reason in expect.items():
            check(rid in rej and reason in rej[rid], f"faults: {rid} rejected: {reason!r} ({rej.get(rid)})")
        check(len(rej) == len(expect), f"faults: exactly {len(expect)} runs rejected ({len(rej)}: {sorted(rej)})")
        rows = rows_by_name(doc)
        for name, n_pub in (("XSBench -k 6 vs xsbench_like cuda sorted-energy", 2),
                            ("TestSNAP Kokkos CUDA vs testsnap cuda", 1),
                            # Isolated (same method) runs 1, 3, 5: 3 rejected; Classic (its own figure) 2, 4, 6
                            ("BabelStream CUDA Copy vs microbench cuda copy", 2),
                            ("BabelStream OpenMP Triad vs microbench omp triad", 2)):
            r = rows.get(name, {})
            check(not r.get("ok") and len(r.get("public_runs", [])) == n_pub,
                  f"faults: {name}: {n_pub} public runs accepted, not comparable "
                  f"({len(r.get('public_runs', []))}, ok {r.get('ok')})")
        r = rows.get("BabelStream CUDA Copy vs microbench cuda copy", {})
        check((r.get("public_own") or {}).get("runs") == 2 and "--order Isolated" in r.get("method", ""),
              f"faults: BabelStream's own figure from its 2 accepted Classic runs, the row by Isolated "
              f"({(r.get('public_own') or {}).get('runs')}; {r.get('method', '')[:60]!r})")
        # a rejected run's figure never enters a row: XSBench's at 170M are all the planted value
        r = rows.get("XSBench -k 0 vs xsbench_like cuda baseline", {})
        check(r.get("public_runs") and all(near(v, 170e6 / (1e-3 + 170e6 / 0.3e9) / 1e6, 1e-5)
                                           for v in r["public_runs"]), "faults: the accepted XSBench runs only")
        md = open(os.path.join(out, "peers.md")).read()
        check("## Rejected runs (10)" in md and "not comparable" in md, "faults: peers.md lists the rejected runs")
        dev = {n: r.get("device", {}) for n, r in rows.items()}
        for name, why in (("XSBench -k 6 vs xsbench_like cuda sorted-energy", "empty kernel-time file"),
                          ("XSBench -k 6 vs xsbench_like cuda sorted-energy (marginal)", "empty kernel-time file"),
                          ("TestSNAP Kokkos CUDA vs testsnap cuda", "failed: exit status 1"),
                          ("BabelStream CUDA Copy vs microbench cuda copy", "no kernel named *copy*"),
                          ("BabelStream OpenMP Copy vs microbench omp copy", "CUPTI dropped 3"),
                          ("BabelStream OpenMP without -foffload-lto Triad vs microbench omp triad", "CUPTI dropped 3")):
            d = dev.get(name, {})
            check(d.get("why", "").startswith("not available:") and why in d["why"] and d.get("public") is None
                  and d.get("ratio") is None, f"faults: device time of {name}: not available, {why!r} ({d.get('why')})")
        for name in ("XSBench -k 0 vs xsbench_like cuda baseline", "BabelStream CUDA Triad vs microbench cuda triad",
                     "TestSNAP Kokkos OpenMPTarget vs testsnap omp"):
            check(dev.get(name, {}).get("ratio") is not None, f"faults: device time of {name} still a figure")
        check("| not available: public: " in md, "faults: peers.md says 'not available: <why>' in the column")


def usage_tests():
    for args, what in ((["--refs", "x"], "missing --bin"), (["--refs", "x", "--bin", "y", "--out", "z",
                                                              "--groups", "hpl"], "unknown group"),
                       (["--refs", "x", "--bin", "y", "--out", "z", "--rounds", "0"], "rounds 0")):
        p = subprocess.run([sys.executable, os.path.join(VALIDATE, "peers")] + args, capture_output=True,
                           text=True, timeout=60)
        last = p.stderr.strip().splitlines()[-1:] or [""]
        check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and last[0].startswith("peers: "),
              f"usage: {what}: exit 2, one line ({p.returncode})")
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([sys.executable, os.path.join(VALIDATE, "peers"), "--refs", tmp, "--bin", tmp,
                            "--out", os.path.join(tmp, "o")], capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and "not built" in p.stdout, f"usage: nothing built: exit 2 ({p.returncode})")
    with tempfile.TemporaryDirectory() as tmp:
        refs, bindir = fixture(tmp)
        for extra, want in (([], "(under CUPTI)"), (["--no-device-time"], "not available: left off (--no-device-time)")):
            p = subprocess.run([sys.executable, os.path.join(VALIDATE, "peers"), "--refs", refs, "--bin", bindir,
                                "--dry-run", *extra], capture_output=True, text=True, timeout=60)
            check(p.returncode == 0 and want in p.stdout and ("CUPTI" in p.stdout) == (not extra),
                  f"usage: --dry-run {' '.join(extra)}: {want!r} ({p.returncode})")


def devtime_tests():
    """The kernel-time file: validate/refs/kernel_table.c's writer read back by the
    parser (built here with a small driver), then the parser's refusals."""
    from pptools.peers import kerneltime
    from pptools.peers.kerneltime import Unavailable
    refs = os.path.join(os.path.dirname(HERE), "validate", "refs")
    driver = r"""
#include <stdio.h>
#include "kernel_table.h"
int main(int argc, char **argv) {
  (void)argc;
  for (unsigned i = 1; i <= 1000; i++) kt_add("_Z11copy_kernelIdEvPKT_PS0_", 1000u + i % 7u);
  kt_add("__omp_offloading_fd00_1_triad_l32", 5000);
  kt_add("a kernel\twith blanks", 10);
  kt_add("__omp_offloading_fd00_1_triad_l32", 3000);
  return kt_write(argv[1]) != 0;
}
"""
    with tempfile.TemporaryDirectory() as tmp:
        src, exe, path = os.path.join(tmp, "d.c"), os.path.join(tmp, "d"), os.path.join(tmp, "k.txt")
        with open(src, "w") as f:
            f.write(driver)
        cc(exe, src, os.path.join(refs, "kernel_table.c"), flags=("-I" + refs, "-pthread"))
        subprocess.run([exe, path], check=True, timeout=60)
        try:
            k = kerneltime.read(path)
        except Unavailable as e:
            k = {}
            check(False, f"devtime: the C writer's file read back ({e})")
        copy = k.get("_Z11copy_kernelIdEvPKT_PS0_", {})
        total = sum(1000 + i % 7 for i in range(1, 1001))
        check(copy == {"count": 1000, "total_ns": total, "min_ns": 1000, "max_ns": 1006},
              f"devtime: the C writer's 1000 launches read back: count, total {total}, min, max ({copy})")
        check(k.get("__omp_offloading_fd00_1_triad_l32") == {"count": 2, "total_ns": 8000, "min_ns": 3000,
                                                              "max_ns": 5000} and "a_kernel_with_blanks" in k,
              f"devtime: two names more, blanks in a name written as '_' ({sorted(k)})")
        check(kerneltime.named(k, "triad")["count"] == 2 and kerneltime.total_ns(k) == total + 8010,
              "devtime: the kernel named *triad*; the sum of all")
        good = open(path).read()
        # a process with no kernels (Open MPI's orted under a singleton MPI_Init, which ends after
        # the program) leaves the program's file alone, and writes one where there is none
        empty_src, empty_exe = os.path.join(tmp, "e.c"), os.path.join(tmp, "e")
        with open(empty_src, "w") as f:
            f.write('#include "kernel_table.h"\nint main(int c, char **v) { (void)c; return kt_write(v[1]) != 0; }\n')
        cc(empty_exe, empty_src, os.path.join(refs, "kernel_table.c"), flags=("-I" + refs, "-pthread"))
        subprocess.run([empty_exe, path], check=True, timeout=60)
        check(open(path).read() == good, "devtime: an empty table leaves the file with kernels alone")
        fresh = os.path.join(tmp, "fresh.txt")
        subprocess.run([empty_exe, fresh], check=True, timeout=60)
        check(os.path.exists(fresh) and open(fresh).read().endswith("# end\n"),
              "devtime: an empty table is written where no file is")
    head, end = kerneltime.HEADER, "# end"
    for text, why in (("", "empty kernel-time file"), (good.replace("# end\n", ""), "cut short"),
                      ("x\n" + good, "not a kernel-time file"),
                      (good.replace("# dropped 0", "# dropped 5"), "CUPTI dropped 5"),
                      (f"{head}\n# dropped 0\n# error cuptiActivityEnable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\n{end}\n",
                       "CUPTI: cuptiActivityEnable"),
                      (f"{head}\n# dropped 0\n{end}\n", "no kernel recorded"),
                      (f"{head}\n1 5 5 5 k\n{end}\n", "no '# dropped' line"),
                      (f"{head}\n2 5 3 4 k\n# dropped 0\n{end}\n", "inconsistent"),
                      (f"{head}\n1 5 5 5 k\n1 5 5 5 k\n# dropped 0\n{end}\n", "listed twice"),
                      (f"{head}\n1 5 5 k\n# dropped 0\n{end}\n", "not 'count total_ns"),
                      (f"{head}\n1 -5 5 5 k\n# dropped 0\n{end}\n", "is not a count")):
        try:
            kerneltime.parse(text)
            check(False, f"devtime: parser refuses ({why})")
        except Unavailable as e:
            check(why in str(e), f"devtime: parser refuses: {e}")
    k = kerneltime.parse(f"{head}\n1 5 5 5 copy_a\n1 5 5 5 copy_b\n# dropped 0\n{end}\n")
    for word, why in (("triad", "no kernel named *triad*"), ("copy", "2 kernels named *copy*")):
        try:
            kerneltime.named(k, word)
            check(False, f"devtime: named() refuses ({why})")
        except Unavailable as e:
            check(why in str(e), f"devtime: named() refuses: {e}")
    try:
        kerneltime.read(os.path.join(HERE, "no-such-file.kernels"))
        check(False, "devtime: a missing file refused")
    except Unavailable as e:
        check("no kernel-time file" in str(e), f"devtime: a missing file refused: {e}")


def optional_tests():
    """The builds shown only for the difference missing, and no kernel-time library."""
    with tempfile.TemporaryDirectory() as tmp:
        p, doc, out = peers(tmp, omit=("TestSNAP-kokkos-ompt-nolto", "BabelStream-omp-nolto"), kt_lib=False,
                            args=("--groups", "testsnap,babelstream"))
        rows = rows_by_name(doc)
        check(p.returncode == 0, f"optional: exit 0 with the no-LTO builds missing ({p.returncode}; "
              f"{p.stdout.strip()[-200:]})")
        nb = {n: r for n, r in rows.items() if r.get("not_built")}
        check(sorted(nb) == sorted(["TestSNAP Kokkos OpenMPTarget without -foffload-lto vs testsnap omp",
                                    "TestSNAP Kokkos OpenMPTarget without -foffload-lto vs testsnap omp "
                                    "(Y products counted)",
                                    "BabelStream OpenMP without -foffload-lto Copy vs microbench omp copy",
                                    "BabelStream OpenMP without -foffload-lto Triad vs microbench omp triad"]),
              f"optional: the four no-LTO rows 'not built' ({sorted(nb)})")
        others = [r for r in rows.values() if not r.get("not_built")]
        check(len(others) == 8 and all(r["ok"] for r in others), f"optional: the 8 other rows comparable ({len(others)})")
        check(all(((r.get("device") or {}).get("why") or "").startswith("not available: no lib/libpp_kernel_time.so")
                  for r in rows.values()) and not doc.get("device_runs"),
              "optional: no kernel-time library: every device cell 'not available: no lib/...', no profiled run")
        md = open(os.path.join(out, "peers.md")).read() if os.path.exists(os.path.join(out, "peers.md")) else ""
        check("(not built: TestSNAP-kokkos-ompt-nolto)" in md, "optional: peers.md says 'not built'")
    with tempfile.TemporaryDirectory() as tmp:  # a main build missing still fails the step
        p, doc, out = peers(tmp, omit=("TestSNAP-kokkos-ompt",), kt_lib=False, args=("--groups", "testsnap"))
        r = rows_by_name(doc).get("TestSNAP Kokkos OpenMPTarget vs testsnap omp", {})
        check(p.returncode == 1 and r.get("not_built") and not r.get("optional"),
              f"optional: a main build missing: its row 'not built', exit 1 ({p.returncode})")


def ktlib_tests():
    """validate/refs/kernel_time.c against this machine's CUPTI, loaded as the driver
    would (InitializeInjection), in a process of its own: without a GPU its file
    says CUPTI's error, with one it holds no kernel; either way complete, and read
    as "not available" with the reason."""
    home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    inc = [d for d in (os.path.join(home, "extras", "CUPTI", "include"), os.path.join(home, "include"))
           if os.path.exists(os.path.join(d, "cupti.h"))]
    lib = [d for d in (os.path.join(home, "extras", "CUPTI", "lib64"), os.path.join(home, "lib64"),
                       os.path.join(home, "lib")) if os.path.exists(os.path.join(d, "libcupti.so.13"))]
    if not inc or not lib:
        print(f"skipped: no cupti.h and libcupti.so.13 under {home} (CUDA_HOME)")
        sys.exit(77)
    from pptools.peers import kerneltime
    refs = os.path.join(os.path.dirname(HERE), "validate", "refs")
    with tempfile.TemporaryDirectory() as tmp:
        so, path = os.path.join(tmp, "libpp_kernel_time.so"), os.path.join(tmp, "k.txt")
        cc(so, os.path.join(refs, "kernel_time.c"), os.path.join(refs, "kernel_table.c"),
           flags=("-shared", "-fPIC", "-fvisibility=hidden", "-Werror", "-I" + inc[0], "-L" + lib[0],
                  "-Wl,-rpath," + lib[0], "-l:libcupti.so.13", "-pthread"))
        p = subprocess.run([sys.executable, "-c", "import ctypes, sys; "
                            "sys.exit(ctypes.CDLL(sys.argv[1]).InitializeInjection() != 1)", so],
                           env=dict(os.environ, PP_KERNEL_TIME_OUT=path), capture_output=True, text=True, timeout=60)
        check(p.returncode == 0, f"ktlib: InitializeInjection returns 1 ({p.returncode}; {p.stderr.strip()[-200:]})")
        text = open(path).read() if os.path.exists(path) else ""
        check(text.startswith(kerneltime.HEADER) and text.endswith("# end\n"),
              f"ktlib: a complete kernel-time file at exit ({text[:200]!r})")
        try:
            kerneltime.parse(text)
            check(False, "ktlib: no kernel launched: not available")
        except kerneltime.Unavailable as e:
            check("CUPTI:" in str(e) or "no kernel recorded" in str(e), f"ktlib: not available: {e}")


def suite_tests(bindir):
    """`suite --peers DIR`: the step runs in the suite's own invocation, into OUT/peers, on the
    suite's --bin. A CPU build has no cuda model, so every ProxyPort run fails there: the table
    must say so (rejected, never compared) and the suite must exit 1."""
    with tempfile.TemporaryDirectory() as tmp:
        # no kernel-time library: its profiled runs of a CPU build's omp model would really run
        # (testsnap's 100 steps on the host), and the device view is checked elsewhere
        refs, _ = fixture(tmp, kt_lib=False)
        out = os.path.join(tmp, "suite")
        env = dict(os.environ, PEERS_FAKE_STATE=os.path.join(tmp, "state"))
        p = subprocess.run([sys.executable, os.path.join(VALIDATE, "suite"), "--bin", bindir, "--apps",
                            "microbench", "--scale", "small", "--fast", "--out", out, "--peers", refs],
                           env=env, capture_output=True, text=True, timeout=600)
        md = os.path.join(out, "peers", "peers.md")
        check(os.path.exists(os.path.join(out, "summary.md")) and os.path.exists(md),
              f"suite --peers: summary.md and peers/peers.md in one invocation ({p.returncode}; "
              f"{p.stderr.strip()[-300:]})")
        doc = json.load(open(os.path.join(out, "peers", "peers.json"))) if os.path.exists(md) else {}
        pp = [r for r in doc.get("runs", []) if r["side"] == "proxyport"]
        check(pp and all(r.get("rejected", "").startswith("failed: exit status") for r in pp)
              and all(os.path.dirname(r["argv"][0]) == os.path.abspath(bindir) for r in pp),
              f"suite --peers: ProxyPort's runs are the suite's --bin, rejected as failed ({len(pp)})")
        check(p.returncode == 1 and doc.get("command", "").startswith("suite --peers"),
              f"suite --peers: exit 1 (rows not comparable) ({p.returncode})")


TESTS = {"method": method_tests, "clean": clean_tests, "faults": faults_tests, "usage": usage_tests,
         "devtime": devtime_tests, "optional": optional_tests, "ktlib": ktlib_tests, "suite": suite_tests}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in TESTS or (sys.argv[1] == "suite") != (len(sys.argv) == 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    TESTS[sys.argv[1]](*sys.argv[2:])
    print(f"{len(FAILS)} failed" if FAILS else "all passed")
    sys.exit(1 if FAILS else 0)

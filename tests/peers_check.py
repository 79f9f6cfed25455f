#!/usr/bin/env python3
"""Tests of the peers step (validate/pptools/peers) on planted outputs, no GPU.

  peers_check.py method    the same-method arithmetic on hand-made numbers
  peers_check.py clean     the whole step on tests/peers_fake.py's programs:
                           every row comparable, each figure the planted one
  peers_check.py faults    failed, wrong-checksum, other-size, no-spin runs
                           rejected with their reasons, never compared
  peers_check.py usage     bad options: exit 2 and one line
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


def fixture(tmp):
    refs, bindir = os.path.join(tmp, "refs"), os.path.join(tmp, "bin")
    for d in (os.path.join(refs, "bin"), os.path.join(refs, "lib"), bindir, os.path.join(tmp, "state")):
        os.makedirs(d)
    for b in ("XSBench-cuda", "TestSNAP-kokkos-cuda", "TestSNAP-kokkos-ompt", "BabelStream-cuda",
              "BabelStream-omp", "BabelStream-omp-nolto"):
        os.symlink(FAKE, os.path.join(refs, "bin", b))
    # a subset of apps.txt: the apps the peers step runs
    for b in ("xsbench_like", "testsnap", "microbench"):
        os.symlink(FAKE, os.path.join(bindir, b))
    # the preload is the real spin library's stand-in: loadable, silent (the fakes print its line)
    src = os.path.join(tmp, "stub.c")
    with open(src, "w") as f:
        f.write("void peers_stub(void) {}\n")
    subprocess.run([os.environ.get("CC", "cc"), "-shared", "-fPIC", "-o",
                    os.path.join(refs, "lib", "libpeers_spin.so"), src], check=True)
    with open(os.path.join(tmp, "activate"), "w") as f:
        f.write("# no OpenMP runtime needed by the planted programs\n")
    return refs, bindir


def peers(tmp, faults=""):
    refs, bindir = fixture(tmp)
    out = os.path.join(tmp, "out")
    env = dict(os.environ, PEERS_FAKE=faults, PEERS_FAKE_STATE=os.path.join(tmp, "state"))
    p = subprocess.run([sys.executable, os.path.join(VALIDATE, "peers"), "--refs", refs, "--bin", bindir,
                        "--out", out, "--omp-runtime", os.path.join(tmp, "activate")],
                       env=env, capture_output=True, text=True, timeout=120)
    doc = json.load(open(os.path.join(out, "peers.json"))) if os.path.exists(os.path.join(out, "peers.json")) else {}
    return p, doc, out


def rows_by_name(doc):
    return {r["comparison"]: r for r in doc.get("rows", [])}


def clean_tests():
    with tempfile.TemporaryDirectory() as tmp:
        p, doc, out = peers(tmp)
        check(p.returncode == 0, f"clean: exit 0 ({p.returncode}; {p.stderr.strip()[-300:]})")
        rows = rows_by_name(doc)
        check(len(rows) == 14 and all(r["ok"] for r in rows.values()), f"clean: 14 rows, all comparable ({len(rows)})")
        check(not any(r.get("rejected") for r in doc.get("runs", [])), "clean: no run rejected")
        # the planted models of tests/peers_fake.py, by hand
        t_pub6 = 1e-3 + 170e6 / 1.8e9
        want = {"XSBench -k 6 vs xsbench_like cuda sorted-energy": t_pub6 / (170e6 / 2.0e9),
                "XSBench -k 6 vs xsbench_like cuda sorted-energy (marginal)": 2.0 / 1.8,
                "XSBench -k 0 vs xsbench_like cuda baseline (marginal)": 0.33 / 0.30,
                "TestSNAP Kokkos CUDA vs testsnap cuda": 5.5 / 4.9,
                "TestSNAP Kokkos OpenMPTarget vs testsnap omp": 9.0 / 5.8,
                "TestSNAP Kokkos CUDA vs testsnap cuda (Y products counted)":
                    5.5 / (4.9 + 3.5 * (1127296 / 1064674 - 1)),
                "BabelStream CUDA Triad vs microbench cuda triad": 1.25 / 1.2,
                "BabelStream OpenMP Copy vs microbench omp copy": 1.1 / 1.0}
        for name, ratio in want.items():
            got = rows.get(name, {}).get("ratio")
            check(near(got, ratio, 1e-5), f"clean: {name}: {ratio:.5f}x ({got})")
        r = rows.get("XSBench -k 6 vs xsbench_like cuda sorted-energy", {})
        check(near(r.get("public_fixed_share"), 1e-3 / t_pub6, 1e-3),
              f"clean: XSBench's fixed share at 170M {100e-3 / t_pub6:.3f}% ({r.get('public_fixed_share')})")
        check(near(r.get("public_own", {}).get("value"), 17e6 / (1e-3 + 17e6 / 1.8e9) / 1e6, 1e-5),
              "clean: XSBench's own figure is its printed Lookups/s at 17M")
        md = open(os.path.join(out, "peers.md")).read()
        check("| XSBench -k 6 vs xsbench_like cuda sorted-energy |" in md and "host wall clock" in md,
              "clean: peers.md has the rows and their method")


def faults_tests():
    # calls per program (one fixed round): XSBench 1 k0@170M, 2 k6@170M, 3 k0@17M, 4 k6@17M,
    # then 5, 6 (round 2) and 7, 8 (round 3); TestSNAP cuda: 2 calls a round; BabelStream: 1
    planted = ("xs-checksum@4,xs-fail@6,xs-size@5,ts-forces@4,ts-size@6,bs-validation@2,"
               "bs-size@3,no-spin@1,pp-xs-checksum@3,pp-fail@3")
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
                            ("BabelStream CUDA Copy vs microbench cuda copy", 1),
                            ("BabelStream OpenMP Triad vs microbench omp triad", 2)):
            r = rows.get(name, {})
            check(not r.get("ok") and len(r.get("public_runs", [])) == n_pub,
                  f"faults: {name}: {n_pub} public runs accepted, not comparable "
                  f"({len(r.get('public_runs', []))}, ok {r.get('ok')})")
        # a rejected run's figure never enters a row: XSBench's at 170M are all the planted value
        r = rows.get("XSBench -k 0 vs xsbench_like cuda baseline", {})
        check(r.get("public_runs") and all(near(v, 170e6 / (1e-3 + 170e6 / 0.3e9) / 1e6, 1e-5)
                                           for v in r["public_runs"]), "faults: the accepted XSBench runs only")
        md = open(os.path.join(out, "peers.md")).read()
        check("## Rejected runs (10)" in md and "not comparable" in md, "faults: peers.md lists the rejected runs")


def usage_tests():
    for args, what in ((["--refs", "x"], "missing --bin"), (["--refs", "x", "--bin", "y", "--out", "z",
                                                              "--groups", "hpl"], "unknown group"),
                       (["--refs", "x", "--bin", "y", "--out", "z", "--rounds", "0"], "rounds 0")):
        p = subprocess.run([sys.executable, os.path.join(VALIDATE, "peers")] + args, capture_output=True,
                           text=True, timeout=60)
        last = p.stderr.strip().splitlines()[-1:] or [""]
        check(p.returncode == 2 and last[0].startswith("peers: error"), f"usage: {what}: exit 2 ({p.returncode})")
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([sys.executable, os.path.join(VALIDATE, "peers"), "--refs", tmp, "--bin", tmp,
                            "--out", os.path.join(tmp, "o")], capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and "not built" in p.stdout, f"usage: nothing built: exit 2 ({p.returncode})")


def suite_tests(bindir):
    """`suite --peers DIR`: the step runs in the suite's own invocation, into OUT/peers, on the
    suite's --bin. A CPU build has no cuda model, so every ProxyPort run fails there: the table
    must say so (rejected, never compared) and the suite must exit 1."""
    with tempfile.TemporaryDirectory() as tmp:
        refs, _ = fixture(tmp)
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
         "suite": suite_tests}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in TESTS or (sys.argv[1] == "suite") != (len(sys.argv) == 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    TESTS[sys.argv[1]](*sys.argv[2:])
    print(f"{len(FAILS)} failed" if FAILS else "all passed")
    sys.exit(1 if FAILS else 0)

"""The peers step (validate/pptools/peers) on planted outputs, no GPU:
  - the same-method arithmetic on hand-made numbers, and the public codes' readers;
  - the whole step on tests/fakes/peers_fake.py's programs: every row comparable, each
    figure the planted one (clean); failed, wrong-checksum, other-size, no-spin
    runs rejected with their reasons, never compared (faults);
  - bad options: exit 2 and one line; --no-device-time in --dry-run (usage);
  - the kernel-time file: the C writer (validate/refs/kernel_table.c, built here)
    read back by the parser; the parser's refusals (devtime);
  - the no-LTO builds and the kernel-time library missing: their rows "not
    built", the device column "not available", exit 0 (optional);
  - validate/refs/kernel_time.c compiled and loaded where cupti.h is (CUDA_HOME or
    /usr/local/cuda), else skipped (ktlib);
  - `suite --peers DIR` with the build's microbench (a CPU build): the step runs in
    the suite's invocation, on the suite's --bin (suite)."""
import json
import os
import subprocess
import sys

import pytest

from pptools.peers import analyze, codes, kerneltime, method, plan, rows
from pptools.peers.kerneltime import Unavailable
from pptools.peers.public import Rejected

from conftest import TESTS, VALIDATE

FAKE = os.path.join(TESTS, "fakes", "peers_fake.py")
REFS_SRC = os.path.join(VALIDATE, "refs")


def near(a, b, rel=1e-6):
    return a is not None and b is not None and abs(a - b) <= rel * abs(b)


# ---- the arithmetic and the readers -----------------------------------------------

def test_marginal():
    # t(L) = F + L/r with F = 10 ms, r = 1.7e9: t(17M) = 20 ms, t(170M) = 110 ms
    m = method.marginal(17e6, 0.020, 170e6, 0.110)
    assert near(m["rate"], 1.7e9) and near(m["fixed_s"], 0.010) and near(m["fixed_share"], 0.01 / 0.11), \
        f"marginal: rate 1.7e9, fixed 10 ms, share 9.09% ({m})"
    assert method.marginal(17e6, 0.02, 170e6, 0.02) is None, "marginal: no growth -> None"


def test_steady_step_and_ratio():
    # durations 0.05 + n * 5.5 ms: 10 and 100 steps -> 5.5 ms per step
    s = method.steady_step(0.05 + 10 * 5.5e-3, 10, 0.05 + 100 * 5.5e-3, 100)
    assert near(s, 5.5e-3), f"steady step 5.5 ms ({s})"
    assert near(method.ms_per_atom_step(5.5e-3, 2000), 0.00275), "5.5 ms / 2000 atoms = 0.00275 ms/atom-step"
    assert near(method.ratio(2000.0, 1800.0), 2000 / 1800) and near(method.ratio(0.00245, 0.00275, False), 0.00275 / 0.00245), \
        "ratio: rates ours/theirs, times theirs/ours"


def test_y_products():
    # twojmax 2 by hand (testsnap/flops_test.c's blocks): 77 na*nb products in all; the
    # elements of half weight 0: (1 1 2) ma 2 mb 1: 1 x 2; (2 0 2) ma 2 mb 1: 1 x 1;
    # (2 2 2) ma 2 mb 1: 2 x 3; 9 skipped
    assert method.y_products(2) == (77, 68), f"Y products at twojmax 2: (77, 68) ({method.y_products(2)})"
    e, r = method.y_products(14)
    assert abs((1 - r / e) - 0.0556) < 5e-4, f"twojmax 14: 5.56% skipped ({100 * (1 - r / e):.3f}%)"


def test_like_for_like():
    """A best time is never set against a mean: the row is refused, with the reason."""
    assert method.comparable(method.LOOP_MEAN, method.MEAN) is None and \
        method.comparable(method.BEST, method.BEST) is None, "like for like: mean/mean, best/best"
    r = rows.row_doc("x", "babelstream", "GB/s", True, [1.0] * 3, [1.02] * 3, "m",
                     statistic=(method.LOOP_MEAN, method.BEST))
    assert not r["ok"] and "refused: not like for like: the public code's loop mean against ProxyPort's best" \
        in r["notes"][0], f"best against a loop mean refused ({r['notes']})"


XS_GOOD = ("Simulation Method:            Event Based\nH-M Benchmark Size:           large\n"
           "Runtime:     0.095 seconds\nLookups:     170,000,000\nLookups/s:   1,781,139,000\n"
           "Verification checksum: 525004 (WARNING - INAVALID CHECKSUM!)\n")


def test_xsbench_170m_exit_1_accepted():
    f = codes.parse("xsbench", XS_GOOD, 1, {"kernel": 0, "lookups": 170_000_000}, spin=False)
    assert near(f["seconds"], 170e6 / 1781139000) and f["checksum"] == 525004, \
        "xsbench at 170M: exit 1 with INAVALID accepted (no published checksum there)"


@pytest.mark.parametrize("text, status, want, reason", [
    (XS_GOOD, 1, {"kernel": 0, "lookups": 17_000_000}, "another problem"),
    (XS_GOOD.replace("170,000,000\n", "17,000,000\n"), 1, {"kernel": 0, "lookups": 17_000_000},
     "not XSBench's published one"),
    (XS_GOOD, 1, {"kernel": 6, "lookups": 170_000_000}, "another kernel"),
    (XS_GOOD.replace("INAVALID", "x"), 3, {"kernel": 0, "lookups": 170_000_000}, "failed: exit status 3"),
    (XS_GOOD, 1, {"kernel": 0, "lookups": 170_000_000}, "wait mode unknown")])
def test_xsbench_rejects(text, status, want, reason):
    with pytest.raises(Rejected) as e:
        codes.parse("xsbench", text, status, want, spin=(reason == "wait mode unknown"))
    assert reason in str(e.value), f"xsbench parser rejects: {e.value}"


# BabelStream's csv rounds to 6 digits: equal times may print the mean above the maximum
BS = ("function,num_times,n_elements,sizeof,max_MB_per_sec,min_runtime,max_runtime,avg_runtime\n"
      + "".join(f"{k},100,16777216,8,2.69554e+06,9.95851e-05,9.95851e-05,9.95852e-05\n"
                for k in ("Copy", "Mul", "Add", "Triad", "Dot")))


def test_babelstream_6th_digit_accepted():
    codes.parse("babelstream", BS, 0, {"elements": 16777216, "times": 100}, spin=False)


def test_babelstream_mean_above_max_rejected():
    with pytest.raises(Rejected) as e:
        codes.parse("babelstream", BS.replace("9.95852e-05", "9.96852e-05"), 0, {"elements": 16777216, "times": 100},
                    spin=False)
    assert "inconsistent" in str(e.value)


# ---- the whole step on planted programs -----------------------------------------------

PUBLIC = ("XSBench-cuda", "TestSNAP-kokkos-cuda", "TestSNAP-kokkos-ompt", "TestSNAP-kokkos-ompt-nolto",
          "BabelStream-cuda", "BabelStream-omp", "BabelStream-omp-nolto")


def cc(out, *srcs, flags=()):
    # flags after the sources: libraries (-l) must follow what needs them
    subprocess.run([os.environ.get("CC", "cc"), "-std=c11", "-O2", "-Wall", "-o", out, *srcs, *flags], check=True)


def fixture(tmp, omit=(), kt_lib=True):
    """A --refs folder of planted public programs and a --bin folder of planted ProxyPort ones."""
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
    """validate/peers on the planted programs: (process, peers.json, out folder)."""
    tmp = str(tmp)
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


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    p, doc, out = peers(tmp_path_factory.mktemp("clean"))
    return p, doc, rows_by_name(doc), open(os.path.join(out, "peers.md")).read() if doc else ""


def test_clean_exit_0_all_comparable(clean):
    p, doc, rs, _ = clean
    assert p.returncode == 0, f"clean: exit 0 ({p.returncode}; {p.stderr.strip()[-300:]})"
    assert len(rs) == 16 and all(r["ok"] for r in rs.values()), f"clean: 16 rows, all comparable ({len(rs)})"
    assert not any(r.get("rejected") for r in doc.get("runs", [])), "clean: no run rejected"


T_PUB6 = 1e-3 + 170e6 / 1.8e9
# the planted models of tests/fakes/peers_fake.py, by hand
CLEAN_RATIOS = {
    "XSBench -k 6 vs xsbench_like cuda sorted-energy": T_PUB6 / (170e6 / 2.0e9),
    "XSBench -k 6 vs xsbench_like cuda sorted-energy (marginal)": 2.0 / 1.8,
    "XSBench -k 0 vs xsbench_like cuda baseline (marginal)": 0.33 / 0.30,
    "TestSNAP Kokkos CUDA vs testsnap cuda": 5.5 / 4.9,
    "TestSNAP Kokkos OpenMPTarget vs testsnap omp": 9.0 / 5.8,
    "TestSNAP Kokkos OpenMPTarget without -foffload-lto vs testsnap omp": 9.4 / 5.8,
    "TestSNAP Kokkos CUDA vs testsnap cuda (Y products counted)": 5.5 / (4.9 + 3.5 * (1127296 / 1064674 - 1)),
    # --order Isolated: its one loop mean (1.1 x the planted best) against
    # ProxyPort's mean (one run at the best, 98 at 1.1 x)
    "BabelStream CUDA Triad vs microbench cuda triad": 1.25 * 1.1 / (1.2 * (1 + 1.1 * 98) / 99),
    "BabelStream OpenMP Copy vs microbench omp copy": 1.1 * 1.1 / (1.0 * (1 + 1.1 * 98) / 99)}


@pytest.mark.parametrize("name", list(CLEAN_RATIOS))
def test_clean_ratio(clean, name):
    got = clean[2].get(name, {}).get("ratio")
    assert near(got, CLEAN_RATIOS[name], 1e-5), f"clean: {name}: {CLEAN_RATIOS[name]:.5f}x ({got})"


def test_clean_babelstream_own_figure(clean):
    """BabelStream's own figure from its default (Classic) order, planted 5% faster for copy;
    the same-method column from --order Isolated."""
    r = clean[2].get("BabelStream CUDA Copy vs microbench cuda copy", {})
    own = (r.get("public_own") or {}).get("value")
    assert near(own and r.get("public") and own / r["public"], 1.1 / 0.95, 1e-4) and "--order Isolated" in r.get("method", ""), \
        (f"clean: BabelStream copy: own figure (Classic, best) / same method (Isolated, loop mean) = "
         f"1.1/0.95 ({own} / {r.get('public')})")
    assert r.get("statistic") == {"public": "loop mean", "proxyport": "mean"} and \
        "no best exists on its side" in r.get("method", "") and r.get("ok"), \
        f"clean: BabelStream Isolated (min = max = avg): mean against mean ({r.get('statistic')})"


def test_clean_xsbench_fixed_share_and_own(clean):
    r = clean[2].get("XSBench -k 6 vs xsbench_like cuda sorted-energy", {})
    assert near(r.get("public_fixed_share"), 1e-3 / T_PUB6, 1e-3), \
        f"clean: XSBench's fixed share at 170M {100e-3 / T_PUB6:.3f}% ({r.get('public_fixed_share')})"
    assert near(r.get("public_own", {}).get("value"), 17e6 / (1e-3 + 17e6 / 1.8e9) / 1e6, 1e-5), \
        "clean: XSBench's own figure is its printed Lookups/s at 17M"


def test_clean_md_and_notes(clean):
    md, rs = clean[3], clean[2]
    assert "| XSBench -k 6 vs xsbench_like cuda sorted-energy |" in md and "host wall clock" in md, \
        "clean: peers.md has the rows and their method"
    r = rs.get("TestSNAP Kokkos OpenMPTarget without -foffload-lto vs testsnap omp", {})
    assert any("not the same flags" in n for n in r.get("notes", [])), "clean: the TestSNAP no-LTO row says 'not the same flags'"


def test_clean_device_time(clean):
    """The device-time column on the fakes' kernel models (tests/fakes/peers_fake.py)."""
    _, doc, rs, md = clean
    dev = {n: r.get("device", {}) for n, r in rs.items()}
    assert all(d.get("ratio") and not d.get("why") for d in dev.values()), \
        f"clean: a device-time figure in every row ({[n for n, d in dev.items() if d.get('why')]})"
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
        assert near(d.get("public"), pub, 1e-5) and near(d.get("proxyport"), pp, 1e-5), \
            f"clean: device time of {name}: {pub:.6g} / {pp:.6g} ({d.get('public')} / {d.get('proxyport')})"
    m = dev.get("BabelStream CUDA Copy vs microbench cuda copy", {}).get("mean", {})
    assert near(m.get("public"), bytes_copy / (1.05 * 0.95e-4) / 1e9, 1e-5), \
        f"clean: BabelStream's mean per-launch time is total / count ({m.get('public')})"
    druns, runs = doc.get("device_runs", []), doc.get("runs", [])
    assert len(druns) == len(plan.device_runs("r", "b", plan.GROUPS)) and all(
        r.get("env", {}).get("CUDA_INJECTION64_PATH", "").endswith("libpp_kernel_time.so") for r in druns), \
        f"clean: {len(druns)} profiled runs, all under the injection"
    assert runs and not any("CUDA_INJECTION64_PATH" in r.get("env", {}) for r in runs), "clean: no timed run under the injection"
    assert "Device time (last column" in md and "| device time |" in md, "clean: peers.md says the column's method"


# calls per program (one fixed round): XSBench 1 k0@170M, 2 k6@170M, 3 k0@17M, 4 k6@17M,
# then 5, 6 (round 2) and 7, 8 (round 3); TestSNAP cuda: 2 calls a round; BabelStream: 1
PLANTED = ("xs-checksum@4,xs-fail@6,xs-size@5,ts-forces@4,ts-size@6,bs-validation@2,"
           "bs-size@3,no-spin@1,pp-xs-checksum@3,pp-fail@3,"
           # the device-time view's runs: XSBench -k 6 at 170M (its 2nd), TestSNAP CUDA -ns 10,
           # BabelStream CUDA, microbench omp (its 2nd)
           "kt-empty@2,kt-fail@1,kt-noname@1,kt-dropped@2")


@pytest.fixture(scope="module")
def faults(tmp_path_factory):
    p, doc, out = peers(tmp_path_factory.mktemp("faults"), PLANTED)
    return p, doc, rows_by_name(doc), open(os.path.join(out, "peers.md")).read() if doc else ""


def test_faults_exit_1(faults):
    assert faults[0].returncode == 1, f"faults: exit 1 (rows not comparable) ({faults[0].returncode})"


def test_faults_rejected_with_reasons(faults):
    runs = faults[1].get("runs", [])
    rej = {r["id"]: r["rejected"] for r in runs if r.get("rejected")}

    def nth(code, n):
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
        assert rid in rej and reason in rej[rid], f"faults: {rid} rejected: {reason!r} ({rej.get(rid)})"
    assert len(rej) == len(expect), f"faults: exactly {len(expect)} runs rejected ({len(rej)}: {sorted(rej)})"


@pytest.mark.parametrize("name, n_pub", [
    ("XSBench -k 6 vs xsbench_like cuda sorted-energy", 2), ("TestSNAP Kokkos CUDA vs testsnap cuda", 1),
    # Isolated (same method) runs 1, 3, 5: 3 rejected; Classic (its own figure) 2, 4, 6
    ("BabelStream CUDA Copy vs microbench cuda copy", 2), ("BabelStream OpenMP Triad vs microbench omp triad", 2)])
def test_faults_rows_not_comparable(faults, name, n_pub):
    r = faults[2].get(name, {})
    assert not r.get("ok") and len(r.get("public_runs", [])) == n_pub, \
        f"faults: {name}: {n_pub} public runs accepted, not comparable ({len(r.get('public_runs', []))}, ok {r.get('ok')})"


def test_faults_babelstream_own_from_classic(faults):
    r = faults[2].get("BabelStream CUDA Copy vs microbench cuda copy", {})
    assert (r.get("public_own") or {}).get("runs") == 2 and "--order Isolated" in r.get("method", ""), \
        (f"faults: BabelStream's own figure from its 2 accepted Classic runs, the row by Isolated "
         f"({(r.get('public_own') or {}).get('runs')}; {r.get('method', '')[:60]!r})")


def test_faults_rejected_figure_never_in_a_row(faults):
    """A rejected run's figure never enters a row: XSBench's at 170M are all the planted value."""
    r = faults[2].get("XSBench -k 0 vs xsbench_like cuda baseline", {})
    assert r.get("public_runs") and all(near(v, 170e6 / (1e-3 + 170e6 / 0.3e9) / 1e6, 1e-5) for v in r["public_runs"]), \
        "faults: the accepted XSBench runs only"


def test_faults_md_lists_rejected(faults):
    assert "## Rejected runs (10)" in faults[3] and "not comparable" in faults[3], "faults: peers.md lists the rejected runs"


@pytest.mark.parametrize("name, why", [
    ("XSBench -k 6 vs xsbench_like cuda sorted-energy", "empty kernel-time file"),
    ("XSBench -k 6 vs xsbench_like cuda sorted-energy (marginal)", "empty kernel-time file"),
    ("TestSNAP Kokkos CUDA vs testsnap cuda", "failed: exit status 1"),
    ("BabelStream CUDA Copy vs microbench cuda copy", "no kernel named *copy*"),
    ("BabelStream OpenMP Copy vs microbench omp copy", "CUPTI dropped 3"),
    ("BabelStream OpenMP without -foffload-lto Triad vs microbench omp triad", "CUPTI dropped 3")])
def test_faults_device_time_not_available(faults, name, why):
    d = faults[2].get(name, {}).get("device", {})
    assert d.get("why", "").startswith("not available:") and why in d["why"] and d.get("public") is None \
        and d.get("ratio") is None, f"faults: device time of {name}: not available, {why!r} ({d.get('why')})"


@pytest.mark.parametrize("name", ["XSBench -k 0 vs xsbench_like cuda baseline",
                                  "BabelStream CUDA Triad vs microbench cuda triad",
                                  "TestSNAP Kokkos OpenMPTarget vs testsnap omp"])
def test_faults_device_time_elsewhere_a_figure(faults, name):
    assert faults[2].get(name, {}).get("device", {}).get("ratio") is not None, f"faults: device time of {name} still a figure"


def test_faults_md_device_column(faults):
    assert "| not available: public: " in faults[3], "faults: peers.md says 'not available: <why>' in the column"


# ---- usage ------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["--refs", "x"], ["--refs", "x", "--bin", "y", "--out", "z", "--groups", "hpl"],
                                  ["--refs", "x", "--bin", "y", "--out", "z", "--rounds", "0"]],
                         ids=["missing --bin", "unknown group", "rounds 0"])
def test_usage_errors(args):
    p = subprocess.run([sys.executable, os.path.join(VALIDATE, "peers")] + args, capture_output=True, text=True, timeout=60)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2 and len(lines) == 1 and lines[0].startswith("peers: "), \
        f"exit 2, one line ({p.returncode}: {p.stderr[-500:]!r})"


def test_nothing_built(tmp_path):
    p = subprocess.run([sys.executable, os.path.join(VALIDATE, "peers"), "--refs", str(tmp_path), "--bin", str(tmp_path),
                        "--out", str(tmp_path / "o")], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "not built" in p.stdout, f"usage: nothing built: exit 2 ({p.returncode})"


@pytest.mark.parametrize("extra, want", [([], "(under CUPTI)"),
                                         (["--no-device-time"], "not available: left off (--no-device-time)")])
def test_dry_run(tmp_path, extra, want):
    refs, bindir = fixture(str(tmp_path))
    p = subprocess.run([sys.executable, os.path.join(VALIDATE, "peers"), "--refs", refs, "--bin", bindir,
                        "--dry-run", *extra], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and want in p.stdout and ("CUPTI" in p.stdout) == (not extra), \
        f"usage: --dry-run {' '.join(extra)}: {want!r} ({p.returncode})"


# ---- the kernel-time file ---------------------------------------------------------

DRIVER = r"""
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
COPY_TOTAL = sum(1000 + i % 7 for i in range(1, 1001))


@pytest.fixture(scope="module")
def kt_file(tmp_path_factory):
    """The file validate/refs/kernel_table.c's writer leaves (built here with a small driver),
    and a driver of an empty table."""
    tmp = str(tmp_path_factory.mktemp("kt"))
    src, exe, path = os.path.join(tmp, "d.c"), os.path.join(tmp, "d"), os.path.join(tmp, "k.txt")
    with open(src, "w") as f:
        f.write(DRIVER)
    cc(exe, src, os.path.join(REFS_SRC, "kernel_table.c"), flags=("-I" + REFS_SRC, "-pthread"))
    subprocess.run([exe, path], check=True, timeout=60)
    empty_src, empty_exe = os.path.join(tmp, "e.c"), os.path.join(tmp, "e")
    with open(empty_src, "w") as f:
        f.write('#include "kernel_table.h"\nint main(int c, char **v) { (void)c; return kt_write(v[1]) != 0; }\n')
    cc(empty_exe, empty_src, os.path.join(REFS_SRC, "kernel_table.c"), flags=("-I" + REFS_SRC, "-pthread"))
    return path, empty_exe, tmp


def test_kernel_time_read_back(kt_file):
    k = kerneltime.read(kt_file[0])
    copy = k.get("_Z11copy_kernelIdEvPKT_PS0_", {})
    assert copy == {"count": 1000, "total_ns": COPY_TOTAL, "min_ns": 1000, "max_ns": 1006}, \
        f"devtime: the C writer's 1000 launches read back: count, total {COPY_TOTAL}, min, max ({copy})"
    assert k.get("__omp_offloading_fd00_1_triad_l32") == {"count": 2, "total_ns": 8000, "min_ns": 3000, "max_ns": 5000} \
        and "a_kernel_with_blanks" in k, f"devtime: two names more, blanks in a name written as '_' ({sorted(k)})"
    assert kerneltime.named(k, "triad")["count"] == 2 and kerneltime.total_ns(k) == COPY_TOTAL + 8010, \
        "devtime: the kernel named *triad*; the sum of all"


def test_kernel_time_empty_table(kt_file):
    """A process with no kernels (Open MPI's orted under a singleton MPI_Init, which ends after
    the program) leaves the program's file alone, and writes one where there is none."""
    path, empty_exe, tmp = kt_file
    good = open(path).read()
    subprocess.run([empty_exe, path], check=True, timeout=60)
    assert open(path).read() == good, "devtime: an empty table leaves the file with kernels alone"
    fresh = os.path.join(tmp, "fresh.txt")
    subprocess.run([empty_exe, fresh], check=True, timeout=60)
    assert os.path.exists(fresh) and open(fresh).read().endswith("# end\n"), "devtime: an empty table is written where no file is"


HEAD, END = kerneltime.HEADER, "# end"


@pytest.mark.parametrize("make, why", [
    (lambda good: "", "empty kernel-time file"), (lambda good: good.replace("# end\n", ""), "cut short"),
    (lambda good: "x\n" + good, "not a kernel-time file"),
    (lambda good: good.replace("# dropped 0", "# dropped 5"), "CUPTI dropped 5"),
    (lambda good: f"{HEAD}\n# dropped 0\n# error cuptiActivityEnable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\n{END}\n",
     "CUPTI: cuptiActivityEnable"),
    (lambda good: f"{HEAD}\n# dropped 0\n{END}\n", "no kernel recorded"),
    (lambda good: f"{HEAD}\n1 5 5 5 k\n{END}\n", "no '# dropped' line"),
    (lambda good: f"{HEAD}\n2 5 3 4 k\n# dropped 0\n{END}\n", "inconsistent"),
    (lambda good: f"{HEAD}\n1 5 5 5 k\n1 5 5 5 k\n# dropped 0\n{END}\n", "listed twice"),
    (lambda good: f"{HEAD}\n1 5 5 k\n# dropped 0\n{END}\n", "not 'count total_ns"),
    (lambda good: f"{HEAD}\n1 -5 5 5 k\n# dropped 0\n{END}\n", "is not a count")])
def test_kernel_time_parser_refuses(kt_file, make, why):
    with pytest.raises(Unavailable) as e:
        kerneltime.parse(make(open(kt_file[0]).read()))
    assert why in str(e.value), f"devtime: parser refuses: {e.value}"


@pytest.mark.parametrize("word, why", [("triad", "no kernel named *triad*"), ("copy", "2 kernels named *copy*")])
def test_kernel_time_named_refuses(word, why):
    k = kerneltime.parse(f"{HEAD}\n1 5 5 5 copy_a\n1 5 5 5 copy_b\n# dropped 0\n{END}\n")
    with pytest.raises(Unavailable) as e:
        kerneltime.named(k, word)
    assert why in str(e.value)


def test_kernel_time_missing_file():
    with pytest.raises(Unavailable) as e:
        kerneltime.read(os.path.join(TESTS, "no-such-file.kernels"))
    assert "no kernel-time file" in str(e.value)


def test_failing_superseded():
    """A row not comparable fails the step unless the row it names as its comparison is."""
    whole = {"comparison": "k6", "ok": False, "superseded_by": "k6 (marginal)"}
    good, bad = {"comparison": "k6 (marginal)", "ok": True}, {"comparison": "k6 (marginal)", "ok": False}
    assert analyze.failing([whole, good]) == [], "superseded: the marginal row comparable, the step passes"
    assert analyze.failing([whole, bad]) == [whole, bad], "superseded: the marginal row not comparable, both fail"
    assert analyze.failing([{"comparison": "x", "ok": False}]), "a plain row not comparable fails"


# ---- optional builds ----------------------------------------------------------------

def test_optional_builds_missing(tmp_path):
    """The builds shown only for the difference missing, and no kernel-time library."""
    p, doc, out = peers(tmp_path, omit=("TestSNAP-kokkos-ompt-nolto", "BabelStream-omp-nolto"), kt_lib=False,
                        args=("--groups", "testsnap,babelstream"))
    rs = rows_by_name(doc)
    assert p.returncode == 0, f"optional: exit 0 with the no-LTO builds missing ({p.returncode}; {p.stdout.strip()[-200:]})"
    nb = {n: r for n, r in rs.items() if r.get("not_built")}
    assert sorted(nb) == sorted(["TestSNAP Kokkos OpenMPTarget without -foffload-lto vs testsnap omp",
                                 "TestSNAP Kokkos OpenMPTarget without -foffload-lto vs testsnap omp (Y products counted)",
                                 "BabelStream OpenMP without -foffload-lto Copy vs microbench omp copy",
                                 "BabelStream OpenMP without -foffload-lto Triad vs microbench omp triad"]), \
        f"optional: the four no-LTO rows 'not built' ({sorted(nb)})"
    others = [r for r in rs.values() if not r.get("not_built")]
    assert len(others) == 8 and all(r["ok"] for r in others), f"optional: the 8 other rows comparable ({len(others)})"
    assert all(((r.get("device") or {}).get("why") or "").startswith("not available: no lib/libpp_kernel_time.so")
               for r in rs.values()) and not doc.get("device_runs"), \
        "optional: no kernel-time library: every device cell 'not available: no lib/...', no profiled run"
    md = open(os.path.join(out, "peers.md")).read() if os.path.exists(os.path.join(out, "peers.md")) else ""
    assert "(not built: TestSNAP-kokkos-ompt-nolto)" in md, "optional: peers.md says 'not built'"


def test_main_build_missing_fails(tmp_path):
    p, doc, out = peers(tmp_path, omit=("TestSNAP-kokkos-ompt",), kt_lib=False, args=("--groups", "testsnap"))
    r = rows_by_name(doc).get("TestSNAP Kokkos OpenMPTarget vs testsnap omp", {})
    assert p.returncode == 1 and r.get("not_built") and not r.get("optional"), \
        f"optional: a main build missing: its row 'not built', exit 1 ({p.returncode})"


# ---- the CUPTI library, where CUPTI is ------------------------------------------------

def test_kernel_time_library(tmp_path):
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
        pytest.skip(f"no cupti.h and libcupti.so.13 under {home} (CUDA_HOME)")
    so, path = str(tmp_path / "libpp_kernel_time.so"), str(tmp_path / "k.txt")
    cc(so, os.path.join(REFS_SRC, "kernel_time.c"), os.path.join(REFS_SRC, "kernel_table.c"),
       flags=("-shared", "-fPIC", "-fvisibility=hidden", "-Werror", "-I" + inc[0], "-L" + lib[0],
              "-Wl,-rpath," + lib[0], "-l:libcupti.so.13", "-pthread"))
    p = subprocess.run([sys.executable, "-c", "import ctypes, sys; "
                        "sys.exit(ctypes.CDLL(sys.argv[1]).InitializeInjection() != 1)", so],
                       env=dict(os.environ, PP_KERNEL_TIME_OUT=path), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, f"ktlib: InitializeInjection returns 1 ({p.returncode}; {p.stderr.strip()[-200:]})"
    text = open(path).read() if os.path.exists(path) else ""
    assert text.startswith(kerneltime.HEADER) and text.endswith("# end\n"), \
        f"ktlib: a complete kernel-time file at exit ({text[:200]!r})"
    with pytest.raises(Unavailable) as e:
        kerneltime.parse(text)
    assert "CUPTI:" in str(e.value) or "no kernel recorded" in str(e.value), f"ktlib: not available: {e.value}"


# ---- inside the suite --------------------------------------------------------------

def test_suite_peers(bin_dir, tmp_path):
    """`suite --peers DIR`: the step runs in the suite's own invocation, into OUT/peers, on the
    suite's --bin. A CPU build has no cuda model, so every ProxyPort run fails there: the table
    must say so (rejected, never compared) and the suite must exit 1."""
    # no kernel-time library: its profiled runs of a CPU build's omp model would really run
    # (testsnap's 100 steps on the host), and the device view is checked elsewhere
    refs, _ = fixture(str(tmp_path), kt_lib=False)
    out = str(tmp_path / "suite")
    env = dict(os.environ, PEERS_FAKE_STATE=str(tmp_path / "state"))
    p = subprocess.run([sys.executable, os.path.join(VALIDATE, "suite"), "--bin", bin_dir, "--apps",
                        "microbench", "--scale", "small", "--fast", "--out", out, "--peers", refs],
                       env=env, capture_output=True, text=True, timeout=600)
    md = os.path.join(out, "peers", "peers.md")
    assert os.path.exists(os.path.join(out, "summary.md")) and os.path.exists(md), \
        f"suite --peers: summary.md and peers/peers.md in one invocation ({p.returncode}; {p.stderr.strip()[-300:]})"
    doc = json.load(open(os.path.join(out, "peers", "peers.json")))
    pp = [r for r in doc.get("runs", []) if r["side"] == "proxyport"]
    assert pp and all(r.get("rejected", "").startswith("failed: exit status") for r in pp) \
        and all(os.path.dirname(r["argv"][0]) == os.path.abspath(bin_dir) for r in pp), \
        f"suite --peers: ProxyPort's runs are the suite's --bin, rejected as failed ({len(pp)})"
    assert p.returncode == 1 and doc.get("command", "").startswith("suite --peers"), \
        f"suite --peers: exit 1 (rows not comparable) ({p.returncode})"


def test_analyze_is_what_the_step_reports():
    """analyze.failing: the rows that fail the step; an optional build not built fails nothing."""
    t = [{"ok": False, "optional": True, "not_built": "x"}, {"ok": False}, {"ok": True}]
    assert analyze.failing(t) == [t[1]]

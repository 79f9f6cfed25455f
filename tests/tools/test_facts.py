"""validate/compile-facts: its parsers on captured compiler output (tests/fixtures/facts/*.log,
*.ptx: real output of clang-19 + ptxas 11.8, nvcc 13 and hipcc/clang AMDGPU, paths
shortened), and the tool on a real sm_90 compile of one kernel file (skipped without
clang-19 and the legacy ptxas)."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from pptools.facts import compiler_output as cf
from pptools.facts import kernel_names, occupancy
from pptools.facts import tool as facts_tool

from conftest import REPO, TESTS, tool_path

FACTS = os.path.join(TESTS, "fixtures", "facts")


def read(name):
    with open(os.path.join(FACTS, name), encoding="utf-8") as f:
        return f.read()


def test_ptxas_openmp():
    """clang OpenMP NVPTX: ptxas -v of the device image, per entry function."""
    p = cf.parse_ptxas(read("ptxas-openmp.log"))
    assert sorted(p) == ["__omp_offloading_fe00_51e664_spmv_l63", "__omp_offloading_fe00_51e664_spmv_l72",
                         "__omp_offloading_fe00_51e664_spmv_l98"], "openmp kernels"
    assert p.get("__omp_offloading_fe00_51e664_spmv_l72") == \
        {"registers": 32, "smem_static": 8200, "stack": 0, "spill_stores": 0, "spill_loads": 0}


def test_ptxas_cuda():
    """nvcc: spills, barriers, static shared memory."""
    c = cf.parse_ptxas(read("ptxas-cuda.log"))
    assert c.get("_Z14k_tile_scatterPKmPKdPmPdxiiPKjx") == \
        {"registers": 48, "smem_static": 20480, "stack": 8, "spill_stores": 4, "spill_loads": 8, "barriers": 1}
    assert [v["registers"] for k, v in c.items() if "ExclusiveSum" in k] == [24], "cub kernel regs"


def test_amd_resource_usage():
    """AMDGPU: hipcc at compile time (with locations) and clang at the link (<unknown>)."""
    h = cf.parse_amd_resource(read("amd-hipcc.log"))
    assert {f: h.get("_Z6k_initPdm", {}).get(f) for f in ("sgprs", "vgprs", "registers", "lds")} == \
        {"sgprs": 13, "vgprs": 8, "registers": 8, "lds": 0}, "hip k_init"
    a = cf.parse_amd_resource(read("amd-link.log"))
    assert {f: a.get("__omp_offloading_fe00_a74047_triad_l3", {}).get(f)
            for f in ("sgprs", "vgprs", "occupancy_waves", "dynamic_stack")} == \
        {"sgprs": 26, "vgprs": 20, "occupancy_waves": 8, "dynamic_stack": False}, "amd link triad"


def test_openmp_remarks():
    """OpenMP remarks: front-end form (file:line: remark:) and <unknown> at the link."""
    r = cf.parse_remarks(read("ptxas-openmp.log"))
    assert r[0] == {"file": "spmv/kernels/omp.c", "line": 72, "text": "Transformed generic-mode kernel to SPMD-mode. [OMP120]"}
    assert [x["line"] for x in r if "heap to the stack" in x["text"]] == [None], "remark without location"
    assert cf.parse_remarks(read("amd-link.log")) == [], "no resource lines as remarks"
    back = cf.parse_remarks("remark: spmv/kernels/omp.c:98:1: Transformed generic-mode kernel to SPMD-mode. "
                            "[OMP120] [-Rpass=openmp-opt]")
    assert (back[0]["file"], back[0]["line"]) == ("spmv/kernels/omp.c", 98), "back-end remark form"


def test_ptx_launch_bounds():
    assert cf.parse_ptx_bounds(read("openmp.ptx")) == \
        {"__omp_offloading_fe00_51e64e_atomic_update_l49": {"max_threads": [128, 1, 1]}}, "maxntid"


def test_kernel_names():
    """OpenMP symbols and demangled CUDA kernels."""
    assert kernel_names.omp_symbol("__omp_offloading_fe00_51e64d_triad_l31_1", {"51e64d": "omp.c"}) == \
        {"source": "omp.c", "line": 31, "function": "triad", "region": 1}, "omp symbol"
    assert kernel_names.omp_symbol("__omp_offloading_10302_9a_atomic_update_l35", {})["function"] == "atomic_update", \
        "omp symbol with underscores"
    assert kernel_names.kernel_name("k_tile_scatter(unsigned long const*, double const*)") == "tile_scatter", "cuda k_ name"
    assert kernel_names.kernel_name(
        "void cub::detail::DeviceRadixSortOnesweepKernel<cub::P1000, (cub::SortOrder)0, int>(int*)") == \
        "DeviceRadixSortOnesweepKernel", "template kernel name"
    assert kernel_names.launch_clauses(
        "#pragma omp target teams num_teams(nb, 1) thread_limit(f(t), 2) ompx_dyn_cgroup_mem(s * 8) ompx_bare") == \
        {"num_teams": "nb, 1", "thread_limit": "f(t), 2", "ompx_dyn_cgroup_mem": "s * 8"}, "launch clauses"


@pytest.mark.parametrize("arch, regs, smem, threads, want", [
    ("sm_90", 48, 0, 256, (5, 40, "registers")),        # cuda lookups
    ("sm_90", 94, 0, 256, (2, 16, "registers")),        # omp lookups
    ("sm_90", 64, 0, 1024, (1, 32, "registers")),
    ("sm_90", 20, 0, 128, (16, 64, "threads")),         # threads cap
    ("sm_90", 32, 30720, 64, (7, 14, "shared memory")),  # 30 KiB x 64 threads
    ("sm_86", 32, 0, 256, (6, 48, "threads")),          # sm_86's 48 warps
    ("sm_70", 32, 49152, 256, (2, 16, "shared memory")),  # sm_70, no system reserve
    ("gfx90a", 32, 0, 256, None),                       # unknown arch
    ("sm_90", 32, 0, None, None)])                      # unknown block
def test_occupancy(arch, regs, smem, threads, want):
    """Theoretical occupancy (CUDA occupancy calculator rules): the cases docs/performance.md cites."""
    o = occupancy.occupancy(arch, regs, smem, threads)
    assert (o and (o["blocks"], o["warps"], o["limit"])) == want


def test_block_threads():
    assert (occupancy.block_threads([128, 2, 1]), occupancy.block_threads(256)) == (256, 256)


# ---- names as shown: escaped (pptools/text.py), as the C apps print them ---------------

ESC = "\x1b]0;pwn\x07"  # sets a terminal's title
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def test_text_table_escapes_names():
    """Names from the build's files and compilers (folder, kernel, source, remark) are shown
    \\xNN: none drives the terminal or forges a line of the table."""
    doc = {"build": {"dir": f"/b{ESC}", "compiler": "clang", "tag": "t", "offload": "nvidia", "arch": "sm_90"},
           "kernels": [{"app": "microbench", "model": "omp", "kernel": f"k{ESC}\nFAKE LINE", "line": 3,
                        "registers": 32, "remarks": [f"r{ESC}"]}],
           "files": [{"source": f"s{ESC}.c", "model": "omp", "status": "failed", "method": "m",
                      "remarks": [f"r{ESC}\nFAKE\x7f"]}]}
    text = facts_tool.text_table(doc)
    print(text)
    assert not RAW.search(text) and "\\x1b" in text, "every name shown escaped"
    assert len(text.splitlines()) == 5, "the heading, the header, one kernel, one file and its remark: no forged line"


def test_usage_error_one_escaped_line():
    r = subprocess.run([sys.executable, tool_path("compile-facts"), f"--bogus{ESC}"], capture_output=True, text=True,
                       timeout=60)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("compile-facts: "), \
        f"exit 2 and one line ({r.returncode}: {r.stderr[-500:]!r})"
    assert "\\x1b" in lines[0] and not RAW.search(r.stderr), "the unknown argument shown escaped"


@pytest.fixture(scope="module")
def real_compile(tmp_path_factory):
    """compile-facts on a one-file build folder: microbench's ompx.c for sm_90 with
    clang-19 and the legacy ptxas (.toolchain/cuda-legacy)."""
    src_root = os.path.realpath(REPO)
    cuda = os.path.join(src_root, ".toolchain", "cuda-legacy")
    clang = shutil.which("clang-19")
    if not clang or not os.path.exists(os.path.join(cuda, "bin", "ptxas")):
        pytest.skip("needs clang-19 and .toolchain/cuda-legacy/bin/ptxas (scripts/cuda-legacy-root)")
    work = str(tmp_path_factory.mktemp("facts-real"))
    with open(os.path.join(work, "CMakeCache.txt"), "w", encoding="utf-8") as f:
        f.write(f"CMAKE_HOME_DIRECTORY:INTERNAL={src_root}\nCMAKE_C_COMPILER:FILEPATH={clang}\n"
                "PP_OFFLOAD:STRING=nvidia\nPP_NVIDIA_ARCH:STRING=sm_90\n")
    src = os.path.join(src_root, "microbench", "kernels", "ompx.c")
    cmd = [clang, "-I" + os.path.join(src_root, "microbench"), "-I" + os.path.join(src_root, "common", "include"),
           "-O3", "-std=c11", "-fopenmp", "--offload-arch=sm_90", "--cuda-path=" + cuda,
           "--libomptarget-nvptx-bc-path=/usr/lib/llvm-19/lib/libomptarget-nvptx-sm_90.bc",
           "-o", "ompx.o", "-c", src]
    with open(os.path.join(work, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump([{"directory": work, "file": src, "arguments": cmd}], f)
    out = os.path.join(work, "facts.json")
    r = subprocess.run([sys.executable, tool_path("compile-facts"), work, "--out", out], capture_output=True, text=True)
    print(r.stdout + r.stderr)
    return r, work, cuda, out


def test_real_sm90_compile(real_compile):
    r, work, cuda, out = real_compile
    assert r.returncode == 0, "compile-facts exit"
    with open(out, encoding="utf-8") as f:
        doc = json.load(f)
    ks = {k["kernel"]: k for k in doc["kernels"]}
    assert all(x in ks for x in ("triad", "copy", "atomic_capture")), "ompx kernels found"
    t = ks.get("triad", {})
    assert isinstance(t.get("registers"), int) and 0 < t["registers"] <= 255, "triad registers read"
    assert (t.get("spill_stores"), t.get("spill_loads")) == (0, 0), "triad spills read"
    assert (t.get("source"), t.get("model")) == ("microbench/kernels/ompx.c", "ompx"), "triad source line"
    assert ks.get("atomic_capture", {}).get("max_threads") == [128, 1, 1], "atomic launch bounds"
    assert cuda in t.get("method", ""), "method names the legacy ptxas"
    assert not os.path.exists(os.path.join(work, "ompx.o")), "no file left in the source tree"

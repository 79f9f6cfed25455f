#!/usr/bin/env python3
"""test_compile_facts.py FIXTURES_DIR: validate/compile-facts' parsers on
captured compiler output (tests/facts/*.log, *.ptx: real output of clang-19 +
ptxas 11.8, nvcc 13 and hipcc/clang AMDGPU, paths shortened). Exit 0 when every
check holds, 1 with each failed check named."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "validate"))
from pptools.facts import compiler_output as cf  # noqa: E402  # noqa: E402
from pptools.facts import kernel_names, occupancy

fails, n = [], 0


def check(what, got, want):
    global n
    n += 1
    if got != want:
        fails.append(f"{what}: got {got!r}, expected {want!r}")


def read(d, name):
    with open(os.path.join(d, name), encoding="utf-8") as f:
        return f.read()


def real(src_root, work):
    """compile-facts on a one-file build folder: microbench's ompx.c for sm_90
    with clang-19 and the legacy ptxas (.toolchain/cuda-legacy). Exit 77 (skip)
    when either is missing."""
    import json
    import shutil
    import subprocess
    cuda = os.path.join(src_root, ".toolchain", "cuda-legacy")
    clang = shutil.which("clang-19")
    if not clang or not os.path.exists(os.path.join(cuda, "bin", "ptxas")):
        print("SKIP: needs clang-19 and .toolchain/cuda-legacy/bin/ptxas (scripts/cuda-legacy-root)")
        sys.exit(77)
    os.makedirs(work, exist_ok=True)
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
    r = subprocess.run([sys.executable, os.path.join(HERE, "..", "validate", "compile-facts"), work, "--out", out],
                       capture_output=True, text=True)
    print(r.stdout + r.stderr)
    check("compile-facts exit", r.returncode, 0)
    with open(out, encoding="utf-8") as f:
        doc = json.load(f)
    ks = {k["kernel"]: k for k in doc["kernels"]}
    check("ompx kernels found", all(x in ks for x in ("triad", "copy", "atomic_capture")), True)
    t = ks.get("triad", {})
    check("triad registers read", isinstance(t.get("registers"), int) and 0 < t["registers"] <= 255, True)
    check("triad spills read", (t.get("spill_stores"), t.get("spill_loads")), (0, 0))
    check("triad source line", (t.get("source"), t.get("model")), ("microbench/kernels/ompx.c", "ompx"))
    check("atomic launch bounds", ks.get("atomic_capture", {}).get("max_threads"), [128, 1, 1])
    check("method names the legacy ptxas", cuda in t.get("method", ""), True)
    check("no file left in the source tree", os.path.exists(os.path.join(work, "ompx.o")), False)


def main():
    if sys.argv[1] == "--real":
        real(os.path.realpath(sys.argv[2]), sys.argv[3])
        for f in fails:
            print(f"FAIL {f}")
        print(f"compile-facts on a real sm_90 compile: {n - len(fails)} of {n} checks passed")
        sys.exit(1 if fails else 0)
    d = sys.argv[1]
    # clang OpenMP NVPTX: ptxas -v of the device image, per entry function.
    p = cf.parse_ptxas(read(d, "ptxas-openmp.log"))
    check("openmp kernels", sorted(p), ["__omp_offloading_fe00_51e664_spmv_l63",
                                        "__omp_offloading_fe00_51e664_spmv_l72",
                                        "__omp_offloading_fe00_51e664_spmv_l98"])
    check("spmv_l72", p.get("__omp_offloading_fe00_51e664_spmv_l72"),
          {"registers": 32, "smem_static": 8200, "stack": 0, "spill_stores": 0, "spill_loads": 0})
    # nvcc: spills, barriers, static shared memory.
    c = cf.parse_ptxas(read(d, "ptxas-cuda.log"))
    check("tile_scatter", c.get("_Z14k_tile_scatterPKmPKdPmPdxiiPKjx"),
          {"registers": 48, "smem_static": 20480, "stack": 8, "spill_stores": 4, "spill_loads": 8, "barriers": 1})
    check("cub kernel regs", [v["registers"] for k, v in c.items() if "ExclusiveSum" in k], [24])
    # AMDGPU: hipcc at compile time (with locations) and clang at the link (<unknown>).
    h = cf.parse_amd_resource(read(d, "amd-hipcc.log"))
    check("hip k_init", {f: h.get("_Z6k_initPdm", {}).get(f) for f in ("sgprs", "vgprs", "registers", "lds")},
          {"sgprs": 13, "vgprs": 8, "registers": 8, "lds": 0})
    a = cf.parse_amd_resource(read(d, "amd-link.log"))
    check("amd link triad", {f: a.get("__omp_offloading_fe00_a74047_triad_l3", {}).get(f)
                             for f in ("sgprs", "vgprs", "occupancy_waves", "dynamic_stack")},
          {"sgprs": 26, "vgprs": 20, "occupancy_waves": 8, "dynamic_stack": False})
    # OpenMP remarks: front-end form (file:line: remark:) and <unknown> at the link.
    r = cf.parse_remarks(read(d, "ptxas-openmp.log"))
    check("remark 0", r[0], {"file": "spmv/kernels/omp.c", "line": 72,
                             "text": "Transformed generic-mode kernel to SPMD-mode. [OMP120]"})
    check("remark without location", [x["line"] for x in r if "heap to the stack" in x["text"]], [None])
    check("no resource lines as remarks", cf.parse_remarks(read(d, "amd-link.log")), [])
    back = cf.parse_remarks("remark: spmv/kernels/omp.c:98:1: Transformed generic-mode kernel to SPMD-mode. "
                            "[OMP120] [-Rpass=openmp-opt]")
    check("back-end remark form", (back[0]["file"], back[0]["line"]), ("spmv/kernels/omp.c", 98))
    # PTX launch bounds.
    b = cf.parse_ptx_bounds(read(d, "openmp.ptx"))
    check("maxntid", b, {"__omp_offloading_fe00_51e64e_atomic_update_l49": {"max_threads": [128, 1, 1]}})
    # Names: OpenMP symbols and demangled CUDA kernels.
    check("omp symbol", kernel_names.omp_symbol("__omp_offloading_fe00_51e64d_triad_l31_1", {"51e64d": "omp.c"}),
          {"source": "omp.c", "line": 31, "function": "triad", "region": 1})
    check("omp symbol with underscores", kernel_names.omp_symbol("__omp_offloading_10302_9a_atomic_update_l35", {})["function"],
          "atomic_update")
    check("cuda k_ name", kernel_names.kernel_name("k_tile_scatter(unsigned long const*, double const*)"), "tile_scatter")
    check("template kernel name", kernel_names.kernel_name(
        "void cub::detail::DeviceRadixSortOnesweepKernel<cub::P1000, (cub::SortOrder)0, int>(int*)"),
        "DeviceRadixSortOnesweepKernel")
    check("launch clauses", kernel_names.launch_clauses(
        "#pragma omp target teams num_teams(nb, 1) thread_limit(f(t), 2) ompx_dyn_cgroup_mem(s * 8) ompx_bare"),
        {"num_teams": "nb, 1", "thread_limit": "f(t), 2", "ompx_dyn_cgroup_mem": "s * 8"})
    # theoretical occupancy (CUDA occupancy calculator rules): the cases docs/performance.md cites
    occ = lambda *a: (lambda o: o and (o["blocks"], o["warps"], o["limit"]))(occupancy.occupancy(*a))
    check("occupancy: cuda lookups 48 regs x 256", occ("sm_90", 48, 0, 256), (5, 40, "registers"))
    check("occupancy: omp lookups 94 regs x 256", occ("sm_90", 94, 0, 256), (2, 16, "registers"))
    check("occupancy: 64 regs x 1024", occ("sm_90", 64, 0, 1024), (1, 32, "registers"))
    check("occupancy: threads cap", occ("sm_90", 20, 0, 128), (16, 64, "threads"))
    check("occupancy: shared memory (30 KiB x 64 threads)", occ("sm_90", 32, 30720, 64), (7, 14, "shared memory"))
    check("occupancy: sm_86's 48 warps", occ("sm_86", 32, 0, 256), (6, 48, "threads"))
    check("occupancy: sm_70, no system reserve", occ("sm_70", 32, 49152, 256), (2, 16, "shared memory"))
    check("occupancy: unknown arch", occupancy.occupancy("gfx90a", 32, 0, 256), None)
    check("occupancy: unknown block", occupancy.occupancy("sm_90", 32, 0, None), None)
    check("block threads", (occupancy.block_threads([128, 2, 1]), occupancy.block_threads(256)), (256, 256))
    for f in fails:
        print(f"FAIL {f}")
    print(f"compile-facts parsers: {n - len(fails)} of {n} checks passed")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()

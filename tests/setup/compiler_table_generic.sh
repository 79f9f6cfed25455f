#!/bin/sh
# compiler_table_generic.sh SRC WORK CC: the generic path built and run. CC
# (gcc-12) is configured with no CMake id (tests/setup/toolchains/unknown_id.cmake),
# so the offload table has no row for it, and PP_OMP_OFFLOAD_FLAGS gives its
# flags; microbench and spmv are built for the cpu target and run with the omp
# model, which must validate; the build record (--version, the JSON's build
# object, the device line) must say it was the generic path.
set -u
src=$1 work=$2 cc=$3
b=$work/build
fail() { echo "FAIL: $*"; exit 1; }
tc=$src/tests/setup/toolchains/unknown_id.cmake
mkdir -p "$work"
# a build folder kept from an earlier run is reused, unless its configure read another
# toolchain file (one that has moved: CMake would still include it)
[ ! -d "$b/CMakeFiles" ] || grep -qsF "$tc" "$b"/CMakeFiles/*/CMakeSystem.cmake || rm -rf "$b"
cmake -S "$src" -B "$b" --toolchain "$tc" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_C_FLAGS=-O2 -DPP_OFFLOAD=cpu -DPP_OMP_OFFLOAD_FLAGS="-fopenmp -foffload=disable" \
  -DPP_BUILD_TESTS=OFF -DPP_ENABLE_CUDA=OFF -DPP_ENABLE_HIP=OFF -DPP_ENABLE_MPI=OFF > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configure"; }
grep -E "omp compiler|omp flags|built models" "$work/configure.log"
grep -q "omp compiler   generic-gcc-12: generic (PP_OMP_OFFLOAD_FLAGS)" "$work/configure.log" || fail "summary: not the generic path"
cmake --build "$b" -j2 --target microbench spmv > "$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; fail "build"; }
"$b/bin/microbench" --version > "$work/version.txt" 2>&1 || fail "--version"
cat "$work/version.txt"
grep -q "OpenMP compiler .*; generic (PP_OMP_OFFLOAD_FLAGS)$" "$work/version.txt" || fail "--version does not name the generic path"
"$b/bin/microbench" --backend host,omp --size 4096 --tpb 256 --kernels triad,dot,atomic_update --warmup 1 --samples 2 \
  --bootstrap 50 --ceiling-mib 8 --json "$work/microbench.json" > "$work/microbench.txt" 2>&1 ||
  { cat "$work/microbench.txt"; fail "microbench"; }
"$b/bin/spmv" --backend omp --warmup 1 --samples 2 --bootstrap 50 --json "$work/spmv.json" > "$work/spmv.txt" 2>&1 ||
  { cat "$work/spmv.txt"; fail "spmv"; }
python3 - "$work/microbench.json" "$work/spmv.json" <<'PY'
import json, sys
errors = []
for path in sys.argv[1:]:
    d = json.load(open(path))
    b = d["build"]
    omp = [r for r in d["results"] if r["model"] == "omp"]
    if not omp: errors.append(f"{path}: no omp rows")
    if not d.get("validated") or not all(r["valid"] for r in d["results"]): errors.append(f"{path}: not validated")
    if not b["omp_compiler_banner"].endswith("; generic (PP_OMP_OFFLOAD_FLAGS)"): errors.append(f"{path}: banner {b['omp_compiler_banner']!r}")
    if b["tag"] != "generic-gcc-12" or any(r["label"] != "omp[generic-gcc-12]" for r in omp): errors.append(f"{path}: tag/labels")
    if b["offload_flags"] != "-fopenmp -foffload=disable -DPP_OFFLOAD_CPU=1 -DPP_OFFLOAD_HOST_FALLBACK=PP_OMP_OFFLOAD_FLAGS":
        errors.append(f"{path}: offload_flags {b['offload_flags']!r}")
    dev = [x for x in d["devices"] if x["model"] == "omp"]
    if not dev or "PP_OMP_OFFLOAD_FLAGS has no host offload device" not in json.dumps(dev[0]): errors.append(f"{path}: device {dev}")
    if "not available with the generic path" not in json.dumps([x for x in d["devices"] if x["model"] == "ompx"]):
        errors.append(f"{path}: ompx reason")
    print(f"{path}: {len(omp)} omp rows, banner {b['omp_compiler_banner']!r}")
print("FAIL: " + "; ".join(errors) if errors else "PASS generic path: omp validated on the cpu target")
sys.exit(1 if errors else 0)
PY

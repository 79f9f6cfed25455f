#!/usr/bin/env bash
# Builds the public reference codes of issue 17 for the GPU node (sm_90) from
# source trees already on disk, into OUT (git-ignored, e.g. .refs). Nothing of
# theirs is committed; this script only drives their own build systems.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: validate/refs/build.sh SRC_ROOT OUT [WHAT...]
  WHAT: xsbench babelstream-cuda babelstream-omp babelstream-omp-nolto testsnap
        testsnap-ompt testsnap-ompt-nolto (default: all seven); testsnap-host (not
        for the node: Kokkos OpenMP build run once here to check the generated
        TestSNAP header against LAMMPS's forces)

SRC_ROOT holds the public sources, made by validate/refs/sources.sh (pinned commits):
  XSBench/      github:ANL-CESAR/XSBench ba08e52 (cuda/ is built)
  BabelStream/  github:UoB-HPC/BabelStream 57637d5
  TestSNAP/     github:FitSNAP/TestSNAP, branch Kokkos_V2 d11d3a8 (its GPU path;
                testsnap: Kokkos CUDA, nvcc; testsnap-ompt: Kokkos OpenMPTarget, clang-19,
                with -foffload-lto; testsnap-ompt-nolto: the same without it)
  kokkos/       github:kokkos/kokkos, tag 4.6.01 (patched here for CUDA 13: 3 calls)
  nvml/         nvml.h for BabelStream's CUDA build (PyPI nvidia-nvml-dev 13.0.87)
From a folder of bare clones MIRRORS/<owner>+<name>/repo, or from GitHub:
  validate/refs/sources.sh https://github.com SRC_ROOT
TestSNAP's refdata_2J14_W.h is a missing blob in every public mirror: it is
generated from inputs/testsnap/W_2J14_2000_disp (validate/refs/testsnap_refdata.py).

OUT gets bin/ (stripped binaries), lib/libpeers_spin.so (always: the peers
step's spin preload, validate/refs/spin.c), lib/libpp_kernel_time.so and
lib/libcupti.so.13 (always, where CUPTI is found: the peers step's device-time
view, validate/refs/kernel_time.c), versions.txt (commit, flags of each) and
logs/. Build trees go to SRC_ROOT/_build. Environment: JOBS (2), CUDA_HOME
(/usr/local/cuda), CUDA_LEGACY (<repo>/.toolchain/cuda-legacy: ptxas 11.8 for
clang-19 offload), CLANG (clang++-19).
EOF
}

[ $# -ge 2 ] || { usage >&2; exit 2; }
case $1 in -h|--help) usage; exit 0;; esac
SRC=$(cd "$1" && pwd)
mkdir -p "$2"; OUT=$(cd "$2" && pwd)
shift 2
WHAT=${*:-xsbench babelstream-cuda babelstream-omp babelstream-omp-nolto testsnap testsnap-ompt testsnap-ompt-nolto}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
JOBS=${JOBS:-2}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
CUDA_LEGACY=${CUDA_LEGACY:-$REPO/.toolchain/cuda-legacy}
CLANG=${CLANG:-clang++-19}
NVCC=$CUDA_HOME/bin/nvcc
BUILD=$SRC/_build
export PATH=$CUDA_HOME/bin:$PATH
mkdir -p "$OUT/bin" "$OUT/logs" "$BUILD"
VERS=$OUT/versions.txt
[ -e "$VERS" ] || echo "# reference codes built by validate/refs/build.sh on $(hostname) ($(date -u +%FT%TZ)); $($NVCC --version | tail -1)" > "$VERS"

commit() { git -C "$SRC/$1" rev-parse HEAD; }
# name  source-commit  note: one line per build, replacing an older one
record() { grep -v "^$1 " "$VERS" > "$VERS.tmp" || true; echo "$*" >> "$VERS.tmp"; mv "$VERS.tmp" "$VERS"; }
# Runs a build step with its output in logs/NAME.log and its wall time shown.
step() {
  local name=$1; shift
  local t0=$SECONDS
  if ! "$@" > "$OUT/logs/$name.log" 2>&1; then
    echo "build.sh: $name failed; tail of $OUT/logs/$name.log:" >&2
    tail -20 "$OUT/logs/$name.log" >&2; exit 1
  fi
  echo "build.sh: $name done in $((SECONDS - t0)) s"
}
install_bin() { cp "$1" "$OUT/bin/$2"; strip "$OUT/bin/$2"; }

# lib/libpeers_spin.so: preloaded by the peers step into the public codes so
# that they wait for the GPU by spinning, as ProxyPort does (spin.c says how)
build_spin() {
  mkdir -p "$OUT/lib"
  gcc -std=c11 -O2 -Wall -shared -fPIC -o "$OUT/lib/libpeers_spin.so" "$REPO/validate/refs/spin.c" -ldl
  record libpeers_spin "$(git -C "$REPO" rev-parse --short HEAD)" "validate/refs/spin.c: gcc -shared -fPIC (LD_PRELOAD, CU_CTX_SCHED_SPIN)"
}

# lib/libpp_kernel_time.so: the peers step's device-time view (CUPTI kernel
# records, loaded through CUDA_INJECTION64_PATH; kernel_time.c says how), with
# libcupti.so.13 copied beside it (found through RUNPATH $ORIGIN: the node may
# have only the driver). Left out, with a line saying so, where CUPTI is missing.
build_kernel_time() {
  local inc lib d
  for d in "$CUDA_HOME/extras/CUPTI/include" "$CUDA_HOME/include"; do
    [ -e "$d/cupti.h" ] && { inc=$d; break; }
  done
  for d in "$CUDA_HOME/extras/CUPTI/lib64" "$CUDA_HOME/lib64" "$CUDA_HOME/lib"; do
    [ -e "$d/libcupti.so.13" ] && { lib=$d; break; }
  done
  if [ -z "${inc:-}" ] || [ -z "${lib:-}" ]; then
    echo "build.sh: no cupti.h or libcupti.so.13 under $CUDA_HOME: lib/libpp_kernel_time.so not built (no device-time view)" >&2
    return 0
  fi
  mkdir -p "$OUT/lib"
  cp "$lib/libcupti.so.13" "$OUT/lib/"
  # shellcheck disable=SC2016 # $ORIGIN is for the loader, not the shell
  gcc -std=c11 -O2 -Wall -shared -fPIC -fvisibility=hidden -I"$inc" -o "$OUT/lib/libpp_kernel_time.so" \
    "$REPO/validate/refs/kernel_time.c" "$REPO/validate/refs/kernel_table.c" \
    -L"$OUT/lib" -l:libcupti.so.13 -lpthread -Wl,-rpath,'$ORIGIN'
  record libpp_kernel_time "$(git -C "$REPO" rev-parse --short HEAD)" "validate/refs/kernel_time.c kernel_table.c: gcc -shared -fPIC, CUPTI $(grep -m1 -o 'CUPTI_API_VERSION [0-9]*' "$inc/cupti_version.h" | cut -d' ' -f2) (libcupti.so.13 copied to lib/; CUDA_INJECTION64_PATH)"
}

build_xsbench() {
  local flags="-Xcompiler -O3 -arch=sm_90 -std=c++17 -O3"
  step xsbench make -C "$SRC/XSBench/cuda" -j"$JOBS" SM_VERSION=90 CFLAGS="$flags"
  install_bin "$SRC/XSBench/cuda/XSBench" XSBench-cuda
  record XSBench-cuda "$(commit XSBench)" "cuda/: make SM_VERSION=90 CFLAGS=\"$flags\""
}

# BabelStream's CUDA model reads the memory clock through NVML: a stub with
# the driver's soname satisfies the link; the GPU node's driver provides it.
nvml_stub() {
  local d=$BUILD/nvml-stub
  mkdir -p "$d"
  cat > "$d/stub.c" <<'EOF'
/* Link-time stand-in for libnvidia-ml.so.1 (the driver's copy is used at run time). */
int nvmlInit_v2(void) { return 999; }
int nvmlDeviceGetHandleByPciBusId_v2(const char *b, void **d) { (void)b; (void)d; return 999; }
int nvmlDeviceGetClockInfo(void *d, int t, unsigned *c) { (void)d; (void)t; (void)c; return 999; }
const char *nvmlErrorString(int e) { (void)e; return "stub"; }
EOF
  gcc -shared -fPIC -Wl,-soname,libnvidia-ml.so.1 -o "$d/libnvidia-ml.so" "$d/stub.c"
  echo "$d"
}

build_babelstream_cuda() {
  local inc stub b=$BUILD/babelstream-cuda
  inc=$(dirname "$(find "$SRC/nvml" -name nvml.h | head -1)")
  stub=$(nvml_stub)
  # RELEASE_FLAGS=-O3: BabelStream adds -march=native otherwise (this CPU, not the node's)
  step babelstream-cuda-cmake cmake -S "$SRC/BabelStream" -B "$b" -DMODEL=cuda \
    -DCMAKE_CUDA_COMPILER="$NVCC" -DCUDA_ARCH=sm_90 -DCMAKE_BUILD_TYPE=Release \
    -DRELEASE_FLAGS=-O3 -DCUDA_EXTRA_FLAGS="-I$inc" -DCMAKE_EXE_LINKER_FLAGS="-L$stub"
  step babelstream-cuda make -C "$b" -j"$JOBS"
  install_bin "$b/cuda-stream" BabelStream-cuda
  record BabelStream-cuda "$(commit BabelStream)" "cmake -DMODEL=cuda -DCUDA_ARCH=sm_90 -DRELEASE_FLAGS=-O3 (nvcc, static cudart, libnvidia-ml.so.1 from the driver)"
}

# $1: "nolto" builds BabelStream-omp-nolto without -foffload-lto (the build the
# earlier comparisons used), so that the peers table shows both.
build_babelstream_omp() {
  local lto=-foffload-lto name=BabelStream-omp b=$BUILD/babelstream-omp
  [ "${1:-}" = nolto ] && { lto=; name=BabelStream-omp-nolto; b=$BUILD/babelstream-omp-nolto; }
  [ -x "$CUDA_LEGACY/bin/ptxas" ] || { echo "build.sh: no $CUDA_LEGACY/bin/ptxas (scripts/cuda-legacy-root): $name skipped" >&2; return 0; }
  # BabelStream puts OFFLOAD_FLAGS into its default release flags, which
  # RELEASE_FLAGS=-O3 (no -march=native) replaces: CXX_EXTRA_FLAGS carries them.
  # -foffload-lto (compile and link: BabelStream passes CXX_EXTRA_FLAGS to both),
  # as ProxyPort's omp build has it: both sides built with the same flags.
  local off="-fopenmp --offload-arch=sm_90 --cuda-path=$CUDA_LEGACY --libomptarget-nvptx-bc-path=/usr/lib/llvm-19/lib/libomptarget-nvptx-sm_90.bc${lto:+ $lto}"
  step "$name-cmake" cmake -S "$SRC/BabelStream" -B "$b" -DMODEL=omp \
    -DCMAKE_CXX_COMPILER="$CLANG" -DCMAKE_BUILD_TYPE=Release -DRELEASE_FLAGS=-O3 \
    -DOFFLOAD=ON -DOFFLOAD_FLAGS="$off" -DCXX_EXTRA_FLAGS="${off// /;}"
  step "$name" make -C "$b" -j"$JOBS"
  install_bin "$b/omp-stream" "$name"
  record "$name" "$(commit BabelStream)" "cmake -DMODEL=omp -DOFFLOAD=ON -DRELEASE_FLAGS=-O3 -DCXX_EXTRA_FLAGS=\"${off//$CUDA_LEGACY/.toolchain/cuda-legacy}\" ($CLANG; needs .gpu-rt at run time)"
}

# Kokkos 4.6 predates CUDA 13, which changed three runtime signatures
# (graph edges take edge data; advise/prefetch take a cudaMemLocation).
patch_kokkos() {
  local f=$SRC/kokkos/core/src/Cuda/Kokkos_Cuda_Instance.hpp
  grep -q "cudaMemLocationTypeDevice, device}" "$f" && return 0
  sed -i -e 's/cudaGraphAddDependencies(graph, from, to, numDependencies)/cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies)/' \
    -e 's/cudaMemAdvise(devPtr, count, advice, device)/cudaMemAdvise(devPtr, count, advice, cudaMemLocation{cudaMemLocationTypeDevice, device})/' \
    -e 's/cudaMemPrefetchAsync(devPtr, count, dstDevice,$/cudaMemPrefetchAsync(devPtr, count, cudaMemLocation{cudaMemLocationTypeDevice, dstDevice}, 0,/' "$f"
  [ "$(grep -c cudaMemLocationTypeDevice "$f")" = 2 ] || { echo "build.sh: Kokkos CUDA 13 patch did not apply" >&2; exit 1; }
}

# TestSNAP's W_2J14 header, rewritten only when it changed (no needless rebuild)
refdata() {
  python3 "$REPO/validate/refs/testsnap_refdata.py" "$REPO/inputs/testsnap/W_2J14_2000_disp" "$BUILD/refdata_2J14_W.h"
  cmp -s "$BUILD/refdata_2J14_W.h" "$SRC/TestSNAP/src/refdata_2J14_W.h" ||
    cp "$BUILD/refdata_2J14_W.h" "$SRC/TestSNAP/src/refdata_2J14_W.h"
}

build_testsnap() {
  local kb=$BUILD/kokkos kk=$BUILD/kokkos-install tb=$BUILD/testsnap
  local wrap=$SRC/kokkos/bin/nvcc_wrapper
  patch_kokkos
  # -arch=sm_90 in CXX flags: nvcc_wrapper's own default (sm_70) is gone in CUDA 13
  if [ ! -e "$kk/lib/cmake/Kokkos/KokkosConfig.cmake" ]; then
    step kokkos-cmake cmake -S "$SRC/kokkos" -B "$kb" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_INSTALL_PREFIX="$kk" -DCMAKE_CXX_COMPILER="$wrap" -DCMAKE_CXX_FLAGS=-arch=sm_90 \
      -DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_SERIAL=ON \
      -DKokkos_ARCH_HOPPER90=ON -DBUILD_SHARED_LIBS=OFF
    step kokkos make -C "$kb" -j"$JOBS" install
  fi
  refdata
  step testsnap-cmake cmake -S "$SRC/TestSNAP" -B "$tb" -DCMAKE_BUILD_TYPE=Release -Dref_data=14 \
    -DKokkos_ROOT="$kk" -DCMAKE_CXX_COMPILER="$kk/bin/nvcc_wrapper" -DCMAKE_CXX_FLAGS=-arch=sm_90
  # link the CUDA runtime statically (Kokkos's config names libcudart.so)
  sed -i "s|[^ ]*/libcudart\.so|$CUDA_HOME/lib64/libcudart_static.a -lrt -lpthread|" \
    "$tb/CMakeFiles/test_snap.dir/link.txt"
  step testsnap make -C "$tb" -j"$JOBS"
  install_bin "$tb/test_snap" TestSNAP-kokkos-cuda
  record TestSNAP-kokkos-cuda "$(commit TestSNAP)" "branch Kokkos_V2, -Dref_data=14 (refdata generated from W_2J14_2000_disp), Kokkos $(git -C "$SRC/kokkos" describe --tags) $(commit kokkos) CUDA+Serial HOPPER90 (3-call CUDA 13 patch)"
}

# TestSNAP on Kokkos OpenMPTarget, compiled by clang-19 for sm_90: the same
# compiler as ProxyPort's omp build of testsnap, for issue 17's comparison.
# Kokkos adds -fopenmp=libomp -fopenmp-targets=nvptx64 -Xopenmp-target
# -march=sm_90 itself (also to its exported target, so TestSNAP gets them);
# CMAKE_CXX_FLAGS adds ptxas 11.8 and the device runtime, as for babelstream-omp.
# No patch: Kokkos 4.6.01's OpenMPTarget backend compiles as is with clang 19.
# It needs a GPU: without one Kokkos::initialize aborts ("no GPU available");
# forced onto the host (KOKKOS_VISIBLE_DEVICES=0 OMP_TARGET_OFFLOAD=DISABLED)
# the first kernel aborts on a View in OpenMPTargetSpace (device-only memory).
# $1: "nolto" builds TestSNAP-kokkos-ompt-nolto without -foffload-lto (Kokkos
# too, in its own trees), so that the peers table shows both, as for BabelStream.
build_testsnap_ompt() {
  local kb=$BUILD/kokkos-ompt kk=$BUILD/kokkos-ompt-install tb=$BUILD/testsnap-ompt
  local name=TestSNAP-kokkos-ompt tag=testsnap-ompt kt=kokkos-ompt lto=-foffload-lto
  if [ "${1:-}" = nolto ]; then
    kb=$BUILD/kokkos-ompt-nolto kk=$BUILD/kokkos-ompt-nolto-install tb=$BUILD/testsnap-ompt-nolto
    name=TestSNAP-kokkos-ompt-nolto tag=testsnap-ompt-nolto kt=kokkos-ompt-nolto lto=
  fi
  [ -x "$CUDA_LEGACY/bin/ptxas" ] || { echo "build.sh: no $CUDA_LEGACY/bin/ptxas (scripts/cuda-legacy-root): $tag skipped" >&2; return 0; }
  # -foffload-lto in CMAKE_CXX_FLAGS (compile and link of Kokkos and TestSNAP), as
  # ProxyPort's omp build has it: both sides built with the same flags.
  local off="--cuda-path=$CUDA_LEGACY --libomptarget-nvptx-bc-path=/usr/lib/llvm-19/lib/libomptarget-nvptx-sm_90.bc${lto:+ $lto}"
  local kopts="-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_OPENMPTARGET=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ARCH_HOPPER90=ON -DBUILD_SHARED_LIBS=OFF"
  if [ ! -e "$kk/lib/cmake/Kokkos/KokkosConfig.cmake" ]; then
    # shellcheck disable=SC2086
    step "$kt-cmake" cmake -S "$SRC/kokkos" -B "$kb" -DCMAKE_INSTALL_PREFIX="$kk" \
      -DCMAKE_CXX_COMPILER="$CLANG" -DCMAKE_CXX_FLAGS="$off" $kopts
    step "$kt" make -C "$kb" -j"$JOBS" install
  fi
  refdata
  # runpath to LLVM 19's libomp/libomptarget, as BabelStream's omp build has (the
  # node has no LLVM: .gpu-rt/activate's LD_LIBRARY_PATH comes first there)
  step "$tag-cmake" cmake -S "$SRC/TestSNAP" -B "$tb" -DCMAKE_BUILD_TYPE=Release \
    -Dref_data=14 -DKokkos_ROOT="$kk" -DCMAKE_CXX_COMPILER="$CLANG" -DCMAKE_CXX_FLAGS="$off" \
    -DCMAKE_EXE_LINKER_FLAGS=-Wl,-rpath,/usr/lib/llvm-19/lib
  step "$tag" make -C "$tb" -j"$JOBS"
  install_bin "$tb/test_snap" "$name"
  record "$name" "$(commit TestSNAP)" "branch Kokkos_V2, -Dref_data=14 (refdata generated from W_2J14_2000_disp), Kokkos $(git -C "$SRC/kokkos" describe --tags) $(commit kokkos) cmake $kopts, $CLANG, CMAKE_CXX_FLAGS=\"${off//$CUDA_LEGACY/.toolchain/cuda-legacy}\" (needs .gpu-rt at run time)"
}

# Not for the GPU node: TestSNAP on Kokkos OpenMP (g++), run once here to
# check the generated header: its "RMS |Fj| deviation" against LAMMPS's
# forces must pass parse.py (seen: 1.3e-14 eV/A, one step in ~3 s with
# OMP_NUM_THREADS=32, the team size TestSNAP's CPU path asks for).
build_testsnap_host() {
  local kb=$BUILD/kokkos-omp kk=$BUILD/kokkos-omp-install tb=$BUILD/testsnap-host
  if [ ! -e "$kk/lib/cmake/Kokkos/KokkosConfig.cmake" ]; then
    step kokkos-omp-cmake cmake -S "$SRC/kokkos" -B "$kb" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_INSTALL_PREFIX="$kk" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=17 \
      -DKokkos_ENABLE_OPENMP=ON -DBUILD_SHARED_LIBS=OFF
    step kokkos-omp make -C "$kb" -j"$JOBS" install
  fi
  refdata
  step testsnap-host-cmake cmake -S "$SRC/TestSNAP" -B "$tb" -DCMAKE_BUILD_TYPE=Release \
    -Dref_data=14 -DKokkos_ROOT="$kk" -DCMAKE_CXX_COMPILER=g++
  step testsnap-host make -C "$tb" -j"$JOBS"
  OMP_NUM_THREADS=32 OMP_PROC_BIND=false "$tb/test_snap" -ns 1 > "$OUT/logs/testsnap-host-run.txt" 2>&1
  python3 "$REPO/validate/refs/parse.py" testsnap "$OUT/logs/testsnap-host-run.txt" > /dev/null
  echo "build.sh: testsnap-host: $(grep 'RMS |Fj|' "$OUT/logs/testsnap-host-run.txt") (accepted)"
}

build_spin
build_kernel_time
for w in $WHAT; do
  case $w in
    xsbench) build_xsbench ;;
    babelstream-cuda) build_babelstream_cuda ;;
    babelstream-omp) build_babelstream_omp ;;
    babelstream-omp-nolto) build_babelstream_omp nolto ;;
    testsnap) build_testsnap ;;
    testsnap-ompt) build_testsnap_ompt ;;
    testsnap-ompt-nolto) build_testsnap_ompt nolto ;;
    testsnap-host) build_testsnap_host ;;
    *) echo "build.sh: unknown target $w" >&2; usage >&2; exit 2 ;;
  esac
done
du -sh "$OUT/bin"/*

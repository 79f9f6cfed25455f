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
        Issue 45's seeds (not in the default; "papers" names all seven):
        cgsolve-cuda cgsolve-ompt cgsolve-ompt22 cgsolve-kmode (the papers' CGSolve
        on Kokkos CUDA, Kokkos OpenMPTarget with clang-19 and with clang-22, and the
        kernel-mode fork with clang-22; two binaries each, see below), testsnap-kmode
        (TestSNAP on the fork, clang-22), xsbench-omp xsbench-omp22 (XSBench's
        openmp-offload/ with clang-19 and clang-22). OpenMP ones with -foffload-lto.
        A build that fails is recorded in versions.txt as NOT BUILT with the
        compiler's first error line, and the others go on.

SRC_ROOT holds the public sources, made by validate/refs/sources.sh (pinned commits):
  XSBench/      github:ANL-CESAR/XSBench ba08e52 (cuda/ is built)
  BabelStream/  github:UoB-HPC/BabelStream 57637d5
  TestSNAP/     github:FitSNAP/TestSNAP, branch Kokkos_V2 d11d3a8 (its GPU path;
                testsnap: Kokkos CUDA, nvcc; testsnap-ompt: Kokkos OpenMPTarget, clang-19,
                with -foffload-lto; testsnap-ompt-nolto: the same without it)
  kokkos/       github:kokkos/kokkos, tag 4.6.01 (patched here for CUDA 13: 3 calls)
  nvml/         nvml.h for BabelStream's CUDA build (PyPI nvidia-nvml-dev 13.0.87)
  code-examples/ github:kokkos/code-examples, branch europar2024 89da74f: the papers'
                CGSolve (papers/europar-2024/cgsolve). CGSolve-kokkos-KIND-ompx is its
                main.cpp as pinned (cgsolve_ompx.hpp: the hand-written ompx_bare SpMV,
                "OMPT" rows); CGSolve-kokkos-KIND includes main.cpp's commented
                alternative cgsolve.hpp instead ("KK" rows: Kokkos's own kernels, and
                on OpenMPTarget plain-OpenMP "OMPT" rows), in a copy in the build tree
  kokkos-kmode/ github:rgayatri23/kokkos, branch europar2024 9189ab9: the kernel-mode
                Kokkos fork papers/europar-2024/README.md builds with (needs clang >= 20)
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
clang-19 offload), CLANG (clang++-19), CLANG22 (clang++-22), LLVM22
(<repo>/.toolchain/llvm-22: LLVM 22's offload runtime, scripts/llvm-offload).
versions.txt gives each seed's build time, binary size and the runtime it needs.
EOF
}

[ $# -ge 2 ] || { usage >&2; exit 2; }
case $1 in -h|--help) usage; exit 0;; esac
SRC=$(cd "$1" && pwd)
mkdir -p "$2"; OUT=$(cd "$2" && pwd)
shift 2
WHAT=${*:-xsbench babelstream-cuda babelstream-omp babelstream-omp-nolto testsnap testsnap-ompt testsnap-ompt-nolto}
WHAT=${WHAT//papers/cgsolve-cuda cgsolve-ompt cgsolve-ompt22 cgsolve-kmode testsnap-kmode xsbench-omp xsbench-omp22}
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

# Kokkos 4.6.01 on CUDA (nvcc_wrapper) into $BUILD/kokkos-install, once; KOKKOS_S:
# "built in N s" in this run, or "reused" (built by an earlier run: with its time
# where that run kept it in the install's build-seconds.txt)
kokkos_cuda() {
  local kb=$BUILD/kokkos kk=$BUILD/kokkos-install t0=$SECONDS
  patch_kokkos
  KOKKOS_S=reused
  # -arch=sm_90 in CXX flags: nvcc_wrapper's own default (sm_70) is gone in CUDA 13
  if [ ! -e "$kk/lib/cmake/Kokkos/KokkosConfig.cmake" ]; then
    step kokkos-cmake cmake -S "$SRC/kokkos" -B "$kb" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_INSTALL_PREFIX="$kk" -DCMAKE_CXX_COMPILER="$SRC/kokkos/bin/nvcc_wrapper" -DCMAKE_CXX_FLAGS=-arch=sm_90 \
      -DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_SERIAL=ON \
      -DKokkos_ARCH_HOPPER90=ON -DBUILD_SHARED_LIBS=OFF
    step kokkos make -C "$kb" -j"$JOBS" install
    echo $((SECONDS - t0)) > "$kk/build-seconds.txt"
    KOKKOS_S="built in $((SECONDS - t0)) s"
  elif [ -e "$kk/build-seconds.txt" ]; then
    KOKKOS_S="reused, built in $(cat "$kk/build-seconds.txt") s"
  fi
}

KOKKOS_OMPT_OPTS="-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_OPENMPTARGET=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ARCH_HOPPER90=ON -DBUILD_SHARED_LIBS=OFF"
# kokkos_ompt NAME SRCDIR CXX CXXFLAGS [LDFLAGS]: Kokkos OpenMPTarget (sm_90) from
# SRCDIR into $BUILD/NAME-install (build tree $BUILD/NAME), once; KOKKOS_S as
# above. Returns 1 if it failed (FIRST_ERROR: try_step's), the log in logs/NAME.log.
kokkos_ompt() {
  local kb=$BUILD/$1 kk=$BUILD/$1-install t0=$SECONDS
  KOKKOS_S=reused
  if [ ! -e "$kk/lib/cmake/Kokkos/KokkosConfig.cmake" ]; then
    # shellcheck disable=SC2086
    try_step "$1-cmake" cmake -S "$2" -B "$kb" -DCMAKE_INSTALL_PREFIX="$kk" \
      -DCMAKE_CXX_COMPILER="$3" -DCMAKE_CXX_FLAGS="$4" -DCMAKE_EXE_LINKER_FLAGS="${5:-}" $KOKKOS_OMPT_OPTS || return 1
    try_step "$1" make -C "$kb" -j"$JOBS" install || return 1
    echo $((SECONDS - t0)) > "$kk/build-seconds.txt"
    KOKKOS_S="built in $((SECONDS - t0)) s"
  elif [ -e "$kk/build-seconds.txt" ]; then
    KOKKOS_S="reused, built in $(cat "$kk/build-seconds.txt") s"
  fi
}

# TestSNAP's W_2J14 header, rewritten only when it changed (no needless rebuild)
refdata() {
  python3 "$REPO/validate/refs/testsnap_refdata.py" "$REPO/inputs/testsnap/W_2J14_2000_disp" "$BUILD/refdata_2J14_W.h"
  cmp -s "$BUILD/refdata_2J14_W.h" "$SRC/TestSNAP/src/refdata_2J14_W.h" ||
    cp "$BUILD/refdata_2J14_W.h" "$SRC/TestSNAP/src/refdata_2J14_W.h"
}

build_testsnap() {
  local kk=$BUILD/kokkos-install tb=$BUILD/testsnap
  kokkos_cuda
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
  local kk=$BUILD/kokkos-ompt-install tb=$BUILD/testsnap-ompt
  local name=TestSNAP-kokkos-ompt tag=testsnap-ompt kt=kokkos-ompt lto=-foffload-lto
  if [ "${1:-}" = nolto ]; then
    kk=$BUILD/kokkos-ompt-nolto-install tb=$BUILD/testsnap-ompt-nolto
    name=TestSNAP-kokkos-ompt-nolto tag=testsnap-ompt-nolto kt=kokkos-ompt-nolto lto=
  fi
  [ -x "$CUDA_LEGACY/bin/ptxas" ] || { echo "build.sh: no $CUDA_LEGACY/bin/ptxas (scripts/cuda-legacy-root): $tag skipped" >&2; return 0; }
  # -foffload-lto in CMAKE_CXX_FLAGS (compile and link of Kokkos and TestSNAP), as
  # ProxyPort's omp build has it: both sides built with the same flags.
  local off="--cuda-path=$CUDA_LEGACY --libomptarget-nvptx-bc-path=/usr/lib/llvm-19/lib/libomptarget-nvptx-sm_90.bc${lto:+ $lto}"
  local kopts=$KOKKOS_OMPT_OPTS
  kokkos_ompt "$kt" "$SRC/kokkos" "$CLANG" "$off"
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

# ---- Issue 45: the papers' CGSolve, TestSNAP on the kernel-mode Kokkos fork,
# XSBench's own OpenMP offload code. Builds that fail are recorded in
# versions.txt as "NAME COMMIT NOT BUILT: <the compiler's first error line>;
# tried: ..." (run.sh's papers step reports them), and the build goes on.

# LLVM 22: Debian's clang-22 with the offload runtime scripts/llvm-offload makes
# (it reads CUDA 13's cubins: no legacy CUDA root); its device runtime is given
# to the device link (-Xoffload-linker -L), its omp.h/ompx.h with -I.
LLVM22=${LLVM22:-$REPO/.toolchain/llvm-22}
CLANG22=${CLANG22:-clang++-22}
# OpenMP offload flags (compile and link), -foffload-lto as ProxyPort's omp build
OFF19="--cuda-path=$CUDA_LEGACY --libomptarget-nvptx-bc-path=/usr/lib/llvm-19/lib/libomptarget-nvptx-sm_90.bc -foffload-lto"
LINK19="-Wl,-rpath,/usr/lib/llvm-19/lib"
OFF22="--cuda-path=$CUDA_HOME -I$LLVM22/include --libomptarget-nvptx-bc-path=$LLVM22/lib/nvptx64-nvidia-cuda/libomptarget-nvptx.bc -foffload-lto"
LINK22="-L$LLVM22/lib -Wl,-rpath,$LLVM22/lib -Xoffload-linker -L$LLVM22/lib/nvptx64-nvidia-cuda"

# a path or command line as versions.txt shows it
short() { local x=${1//$CUDA_LEGACY/.toolchain/cuda-legacy}; x=${x//$LLVM22/.toolchain/llvm-22}; x=${x//$BUILD/SRC\/_build}; echo "${x//$SRC/SRC}"; }

# try_step NAME CMD...: as step, but a failure returns 1 (the build goes on)
# with FIRST_ERROR set to the log's first error line: the compiler's own words
try_step() {
  local name=$1; shift
  local t0=$SECONDS
  if ! "$@" > "$OUT/logs/$name.log" 2>&1; then
    FIRST_ERROR=$(grep -m1 -E '(^|: )(fatal )?error( #?[A-Za-z0-9-]+)?:|undefined reference' "$OUT/logs/$name.log" ||
      grep -m1 'CMake Error' "$OUT/logs/$name.log" || tail -1 "$OUT/logs/$name.log")
    FIRST_ERROR=$(short "$FIRST_ERROR")
    echo "build.sh: $name failed after $((SECONDS - t0)) s: $FIRST_ERROR (logs/$name.log)" >&2
    return 1
  fi
  echo "build.sh: $name done in $((SECONDS - t0)) s"
}

# bin_info NAME: the stripped binary's size and the run-time libraries it needs
# (DT_NEEDED): which offload runtime must travel, or the driver alone
bin_info() {
  local f=$OUT/bin/$1 needed rt
  needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  case $needed in
    *libomptarget.so.19*) rt="LLVM 19's offload runtime (.gpu-rt)" ;;
    *libomptarget.so*) rt="LLVM 22's offload runtime (.gpu-rt-llvm22)" ;;
    *libcuda.so*) rt="the NVIDIA driver only (libcuda.so.1; cudart static)" ;;
    *) rt="no GPU runtime library" ;;
  esac
  echo "$(stat -c %s "$f") bytes, needs $rt; NEEDED: ${needed% }"
}

# nvcc_wrapper's link line names libcudart.so (Kokkos's config): the static one instead
static_cudart() { sed -i "s|[^ ]*/libcudart\.so|$CUDA_HOME/lib64/libcudart_static.a -lrt -lpthread|" "$1"; }

# The papers' CGSolve: kokkos/code-examples branch europar2024 (89da74f),
# papers/europar-2024/cgsolve. (papers/HiPC-2024, the GH200 paper's own copy, is
# in no ref of the public snapshot: its main ends 2024-02-14.) main.cpp runs N =
# 150, 255 and 325 in one process (argv[1], N, is read but unused; argv[2] is
# the iteration limit, default 200) and includes cgsolve_ompx.hpp: on an
# OpenMPTarget build that runs only its "OMPT" path (SpMV as a hand-written
# ompx_bare kernel with a 2-D thread_limit, which needs LLVM >= 20; dot and
# axpby in plain OpenMP); its Kokkos path (run_kk_test) is commented out, so
# a CUDA build would print no figure (and nvcc has no <ompx.h>). main.cpp's
# commented alternative, cgsolve.hpp, runs the Kokkos path ("KK": TeamPolicy
# SpMV, Kokkos dot and axpby; on the fork, its kernel mode) and, on
# OpenMPTarget, a plain-OpenMP path ("OMPT": target teams distribute + parallel
# for + simd). Each build makes both: CGSolve-kokkos-KIND-ompx from main.cpp as
# pinned, CGSolve-kokkos-KIND from a copy in the build tree whose main.cpp
# includes cgsolve.hpp instead (those two lines, nothing else).
cgsolve_kk_src() {
  local pin=$SRC/code-examples/papers/europar-2024 d=$BUILD/cgsolve-kk-src
  mkdir -p "$d/cgsolve"
  cp -p "$pin/common.cmake" "$d/"
  cp -p "$pin"/cgsolve/* "$d/cgsolve/"
  sed -i -e 's|^//#include "cgsolve.hpp"$|#include "cgsolve.hpp"|' \
    -e 's|^#include "cgsolve_ompx.hpp"$|//#include "cgsolve_ompx.hpp"|' "$d/cgsolve/main.cpp"
  [ "$(diff "$pin/cgsolve/main.cpp" "$d/cgsolve/main.cpp" | grep -c '^[<>]')" = 4 ] ||
    { echo "build.sh: the cgsolve.hpp switch did not apply to main.cpp" >&2; exit 1; }
  CG_KK_SRC=$d/cgsolve
}

# both CGSolve builds of KIND recorded as not built: their Kokkos failed to build
cgsolve_kokkos_failed() {
  local v
  for v in -ompx ''; do
    record "CGSolve-kokkos-$1$v" "$(commit code-examples)" "NOT BUILT: its Kokkos (kokkos-$1) did not build: $FIRST_ERROR (logs/kokkos-$1-cmake.log or logs/kokkos-$1.log)"
  done
}

# build_cgsolve KIND: cuda (Kokkos 4.6.01 CUDA, nvcc), ompt (Kokkos 4.6.01
# OpenMPTarget, clang-19), ompt22 (the same with clang-22), kmode (the
# kernel-mode fork rgayatri23/kokkos, branch europar2024, clang-22: its
# TeamPolicy kernels are ompx_bare with a 2-D thread_limit, LLVM >= 20).
build_cgsolve() {
  local kind=$1 kk cxx flags ldflags kdesc why src b name t0 v cc=
  case $kind in
    cuda)
      kokkos_cuda; kk=$BUILD/kokkos-install; cxx=$kk/bin/nvcc_wrapper; flags=-arch=sm_90; ldflags=
      kdesc="Kokkos $(git -C "$SRC/kokkos" describe --tags) $(commit kokkos) CUDA+Serial HOPPER90 (3-call CUDA 13 patch), nvcc_wrapper -arch=sm_90, static cudart" ;;
    ompt|ompt22|kmode)
      if [ "$kind" = ompt ]; then
        if [ ! -x "$CUDA_LEGACY/bin/ptxas" ]; then
          for v in -ompx ''; do record "CGSolve-kokkos-ompt$v" "$(commit code-examples)" "NOT BUILT: no $(short "$CUDA_LEGACY")/bin/ptxas (scripts/cuda-legacy-root)"; done
          return 0
        fi
        cxx=$CLANG flags=$OFF19 ldflags=$LINK19
        kokkos_ompt kokkos-ompt "$SRC/kokkos" "$cxx" "$flags" || { cgsolve_kokkos_failed ompt; return 0; }
        kdesc="Kokkos $(git -C "$SRC/kokkos" describe --tags) $(commit kokkos)"
      else
        if [ ! -e "$LLVM22/lib/nvptx64-nvidia-cuda/libompdevice.a" ]; then
          for v in -ompx ''; do record "CGSolve-kokkos-$kind$v" "$(commit code-examples)" "NOT BUILT: no LLVM 22 offload runtime in $(short "$LLVM22") (scripts/llvm-offload)"; done
          return 0
        fi
        cxx=$CLANG22 flags=$OFF22 ldflags=$LINK22
        if [ "$kind" = ompt22 ]; then
          kokkos_ompt kokkos-ompt22 "$SRC/kokkos" "$cxx" "$flags" "$ldflags" || { cgsolve_kokkos_failed ompt22; return 0; }
          kdesc="Kokkos $(git -C "$SRC/kokkos" describe --tags) $(commit kokkos)"
        else
          kokkos_ompt kokkos-kmode "$SRC/kokkos-kmode" "$cxx" "$flags" "$ldflags" || { cgsolve_kokkos_failed kmode; return 0; }
          kdesc="kernel-mode Kokkos fork rgayatri23/kokkos europar2024 $(commit kokkos-kmode)"
        fi
      fi
      kk=$BUILD/kokkos-$kind-install cc=${cxx/clang++/clang}
      kdesc+=" OpenMPTarget+Serial HOPPER90 (Kokkos install $KOKKOS_S), $(short "$cxx") CMAKE_CXX_FLAGS=\"$(short "$flags")\" CMAKE_EXE_LINKER_FLAGS=\"$(short "$ldflags")\"" ;;
    *) echo "build.sh: build_cgsolve: unknown kind $kind" >&2; exit 2 ;;
  esac
  [ "$kind" = cuda ] && kdesc=${kdesc/static cudart/static cudart (Kokkos install $KOKKOS_S)}
  cgsolve_kk_src
  for v in ompx kk; do
    name=CGSolve-kokkos-$kind src=$CG_KK_SRC b=$BUILD/cgsolve-$kind-$v
    why="main.cpp with cgsolve.hpp (KK$([ "$kind" = cuda ] || echo ' and OMPT') rows)"
    if [ $v = ompx ]; then
      name+=-ompx src=$SRC/code-examples/papers/europar-2024/cgsolve why="main.cpp as pinned (cgsolve_ompx.hpp: OMPT rows, ompx_bare SpMV)"
    fi
    rm -rf "$b"  # a whole build each time: its time is the build's
    t0=$SECONDS
    # project(CGSolve) enables C too: clang's own C compiler for the clang builds,
    # since CMake's C check links with CMAKE_EXE_LINKER_FLAGS (-Xoffload-linker)
    if try_step "$name-cmake" cmake -S "$src" -B "$b" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kk" \
         -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" \
         ${cc:+-DCMAKE_C_COMPILER="$cc"} &&
       { [ "$kind" != cuda ] || static_cudart "$b/CMakeFiles/cgsolve.dir/link.txt"; } &&
       try_step "$name" make -C "$b" -j"$JOBS"; then
      install_bin "$b/cgsolve" "$name"
      record "$name" "$(commit code-examples)" "papers/europar-2024/cgsolve, $why; $kdesc; built in $((SECONDS - t0)) s; $(bin_info "$name")"
    else
      rm -f "$OUT/bin/$name"
      case $kind-$v in
        cuda-ompx) why="tried: main.cpp as pinned with nvcc; not pursued: cgsolve_ompx.hpp includes LLVM's <ompx.h> and runs only the OpenMPTarget path (run_kk_test is commented out), so a CUDA build prints no figure; CGSolve-kokkos-cuda (cgsolve.hpp) is the Kokkos CUDA build" ;;
        ompt-ompx) why="tried: main.cpp as pinned with clang-19 -foffload-lto; ompx_bare's 2-D thread_limit(x, y, z) needs LLVM >= 20 (clang-19 accepts one dimension only): CGSolve-kokkos-ompt22-ompx is this file built with clang-22" ;;
        *) why="tried: $why, $(short "$cxx") $(short "$flags"), as logged in logs/$name.log" ;;
      esac
      record "$name" "$(commit code-examples)" "NOT BUILT: $FIRST_ERROR; $why"
    fi
  done
}

# TestSNAP (the same Kokkos_V2 commit and generated W_2J14 header as testsnap)
# on the kernel-mode fork, clang-22 -foffload-lto
build_testsnap_kmode() {
  local kk=$BUILD/kokkos-kmode-install tb=$BUILD/testsnap-kmode name=TestSNAP-kokkos-kmode t0
  if [ ! -e "$LLVM22/lib/nvptx64-nvidia-cuda/libompdevice.a" ]; then
    record "$name" "$(commit TestSNAP)" "NOT BUILT: no LLVM 22 offload runtime in $(short "$LLVM22") (scripts/llvm-offload)"
    return 0
  fi
  if ! kokkos_ompt kokkos-kmode "$SRC/kokkos-kmode" "$CLANG22" "$OFF22" "$LINK22"; then
    record "$name" "$(commit TestSNAP)" "NOT BUILT: its Kokkos (kokkos-kmode) did not build: $FIRST_ERROR (logs/kokkos-kmode.log)"
    return 0
  fi
  refdata
  rm -rf "$tb"
  t0=$SECONDS
  if try_step testsnap-kmode-cmake cmake -S "$SRC/TestSNAP" -B "$tb" -DCMAKE_BUILD_TYPE=Release \
       -Dref_data=14 -DKokkos_ROOT="$kk" -DCMAKE_CXX_COMPILER="$CLANG22" -DCMAKE_CXX_FLAGS="$OFF22" \
       -DCMAKE_EXE_LINKER_FLAGS="$LINK22" -DCMAKE_C_COMPILER="${CLANG22/clang++/clang}" &&
     try_step testsnap-kmode make -C "$tb" -j"$JOBS"; then
    install_bin "$tb/test_snap" "$name"
    record "$name" "$(commit TestSNAP)" "branch Kokkos_V2, -Dref_data=14 (refdata generated from W_2J14_2000_disp), kernel-mode Kokkos fork rgayatri23/kokkos europar2024 $(commit kokkos-kmode) OpenMPTarget+Serial HOPPER90 (Kokkos install $KOKKOS_S), $CLANG22, CMAKE_CXX_FLAGS=\"$(short "$OFF22")\" CMAKE_EXE_LINKER_FLAGS=\"$(short "$LINK22")\"; built in $((SECONDS - t0)) s; $(bin_info "$name")"
  else
    rm -f "$OUT/bin/$name"
    record "$name" "$(commit TestSNAP)" "NOT BUILT: $FIRST_ERROR; tried: $CLANG22 $(short "$OFF22"), logs/testsnap-kmode.log"
  fi
}

# XSBench's own OpenMP offload port (openmp-offload/ of the pinned commit; event
# based, kernel 0 only), its Makefile with the compiler and flags given on the
# command line: its own -std=gnu99 -Wall -O3, sm_90 instead of its sm_80, and
# -foffload-lto. $1: 19 (clang-19, ptxas 11.8) or 22 (clang-22, CUDA 13).
build_xsbench_omp() {
  local ver=$1 name=XSBench-omp b cc flags ldflags t0
  b=$BUILD/xsbench-omp$ver
  if [ "$ver" = 19 ]; then
    cc=${CLANG/clang++/clang} flags=$OFF19 ldflags=$LINK19
    [ -x "$CUDA_LEGACY/bin/ptxas" ] || { record "$name" "$(commit XSBench)" "NOT BUILT: no $(short "$CUDA_LEGACY")/bin/ptxas (scripts/cuda-legacy-root)"; return 0; }
  else
    cc=${CLANG22/clang++/clang} flags=$OFF22 ldflags=$LINK22 name=XSBench-omp22
    [ -e "$LLVM22/lib/nvptx64-nvidia-cuda/libompdevice.a" ] || { record "$name" "$(commit XSBench)" "NOT BUILT: no LLVM 22 offload runtime in $(short "$LLVM22") (scripts/llvm-offload)"; return 0; }
  fi
  rm -rf "$b"; cp -r "$SRC/XSBench/openmp-offload" "$b"
  flags="-std=gnu99 -Wall -O3 -fopenmp --offload-arch=sm_90 $flags"
  t0=$SECONDS
  if try_step "$name" make -C "$b" -j"$JOBS" CC="$cc" CFLAGS="$flags" LDFLAGS="-lm $ldflags"; then
    install_bin "$b/XSBench" "$name"
    record "$name" "$(commit XSBench)" "openmp-offload/: make CC=$cc CFLAGS=\"$(short "$flags")\" LDFLAGS=\"-lm $(short "$ldflags")\"; built in $((SECONDS - t0)) s; $(bin_info "$name")"
  else
    rm -f "$OUT/bin/$name"
    record "$name" "$(commit XSBench)" "NOT BUILT: $FIRST_ERROR; tried: make CC=$cc CFLAGS=\"$(short "$flags")\""
  fi
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
    cgsolve-cuda) build_cgsolve cuda ;;
    cgsolve-ompt) build_cgsolve ompt ;;
    cgsolve-ompt22) build_cgsolve ompt22 ;;
    cgsolve-kmode) build_cgsolve kmode ;;
    testsnap-kmode) build_testsnap_kmode ;;
    xsbench-omp) build_xsbench_omp 19 ;;
    xsbench-omp22) build_xsbench_omp 22 ;;
    *) echo "build.sh: unknown target $w" >&2; usage >&2; exit 2 ;;
  esac
done
du -sh "$OUT/bin"/*

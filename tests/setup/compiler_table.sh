#!/bin/sh
# compiler_table.sh SRC WORK ID|- VERSION BANNER [--debian-llvm] [--llvm-runtime] [--preset P] [-- CMAKE_ARGS...]
# Configures ProxyPort (configure only) with a fake C compiler: WORK/root/bin/cc,
# a script that prints BANNER (printf %b) for --version and fails otherwise,
# whose CMake id and version are forced to ID and VERSION
# (tests/setup/toolchains/fake_id.cmake). --debian-llvm gives that root Debian's LLVM
# layout: lib/libomptarget-nvptx-sm_80.bc and bin/ld.lld. --llvm-runtime makes
# WORK/rt an LLVM >= 20 offload runtime of its own (scripts/llvm-offload's layout:
# include/omp.h, lib/<triple>/libomptarget-<gpu>.bc and libompdevice.a), for
# -DPP_OMP_RUNTIME_DIR=WORK/rt/lib. --preset P configures
# through CMakePresets.json's preset P. Prints cmake's output; exits with its status.
set -u
src=$1 work=$2 id=$3 version=$4 banner=$5
[ "$id" = - ] && id=""   # no id: a compiler CMake does not know (CTest drops empty arguments)
shift 5
preset=""
rm -rf "$work"
mkdir -p "$work/root/bin" "$work/root/lib"
while [ $# -gt 0 ]; do
  case $1 in
    --debian-llvm) touch "$work/root/lib/libomptarget-nvptx-sm_80.bc"
                   printf '#!/bin/sh\nexit 1\n' > "$work/root/bin/ld.lld"; chmod +x "$work/root/bin/ld.lld"; shift ;;
    --llvm-runtime) mkdir -p "$work/rt/include" "$work/rt/lib/nvptx64-nvidia-cuda" "$work/rt/lib/amdgcn-amd-amdhsa"
                    touch "$work/rt/include/omp.h" "$work/rt/lib/nvptx64-nvidia-cuda/libomptarget-nvptx.bc" \
                      "$work/rt/lib/nvptx64-nvidia-cuda/libompdevice.a" "$work/rt/lib/amdgcn-amd-amdhsa/libomptarget-amdgpu.bc" \
                      "$work/rt/lib/amdgcn-amd-amdhsa/libompdevice.a"; shift ;;
    --preset) preset=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "compiler_table.sh: unknown argument '$1'"; exit 2 ;;
  esac
done
cc=$work/root/bin/cc
printf '%s\n' '#!/bin/sh' 'case "$1" in --version|-v|-V) printf "%b\n" "$PP_FAKE_BANNER_TEXT";; *) exit 1;; esac' > "$cc.in"
# the banner is baked in (CMake runs the compiler with its own environment)
{ echo '#!/bin/sh'; printf 'PP_FAKE_BANNER_TEXT=%s\n' "'$(printf '%s' "$banner" | sed "s/'/'\\\\''/g")'"; echo 'export PP_FAKE_BANNER_TEXT'
  tail -n 1 "$cc.in"; } > "$cc"
rm -f "$cc.in"
chmod +x "$cc"
cd "$src" || exit 2
set -- -DCMAKE_TOOLCHAIN_FILE="$src/tests/setup/toolchains/fake_id.cmake" -DPP_FAKE_ID="$id" -DPP_FAKE_VERSION="$version" \
  -DCMAKE_C_COMPILER="$cc" -DPP_BUILD_TESTS=OFF -DPP_ENABLE_CUDA=OFF -DPP_ENABLE_HIP=OFF -DPP_ENABLE_MPI=OFF -Wno-dev "$@"
if [ -n "$preset" ]; then
  exec cmake --preset "$preset" -B "$work/build" "$@"
fi
exec cmake -S "$src" -B "$work/build" "$@"

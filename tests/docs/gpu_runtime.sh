#!/bin/sh
# gpu_runtime.sh SRC BUILD: packs BUILD's OpenMP offload runtime with
# scripts/gpu-runtime into a temporary folder and checks the pack: the
# libraries, that they resolve among themselves, and what activate sets.
# Exit 77 (skipped) when BUILD's binaries link no libomptarget.
set -u
src=$1 build=$2
w=$(mktemp -d) || exit 2
trap 'rm -rf "$w"' EXIT
fail() { echo "gpu_runtime.sh: $*"; exit 1; }

ls "$build"/bin/* > /dev/null 2>&1 || { echo "no binaries in $build/bin (not built): skipped"; exit 77; }
"$src/scripts/gpu-runtime" --out "$w/rt" "$build"; rc=$?
[ $rc = 3 ] && { echo "no libomptarget in $build: skipped"; exit 77; }
[ $rc = 0 ] || fail "scripts/gpu-runtime exited $rc"
for f in activate manifest.txt lib/libomp.so.5 lib/libomptarget.so; do
  [ -e "$w/rt/$f" ] || fail "no $f in the pack"
done
ls "$w/rt"/lib/libomptarget.so.* > /dev/null 2>&1 || fail "no versioned libomptarget"
# Every library the runtime loads is in the pack or part of the base system.
missing=$(LD_LIBRARY_PATH="$w/rt/lib" ldd "$w"/rt/lib/libomptarget.so.* | grep -v "$w/rt/lib" |
  grep "=>" | grep -Ev '^\s*(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt)\.so')
[ -z "$missing" ] || fail "resolved outside the pack: $missing"
# activate, sourced by sh from another folder, sets both variables.
env=$(cd / && OMP_TARGET_OFFLOAD= LD_LIBRARY_PATH=/x sh -c ". '$w/rt/activate' && echo \"\$LD_LIBRARY_PATH|\$OMP_TARGET_OFFLOAD\"")
[ "$env" = "$w/rt/lib:/x|MANDATORY" ] || fail "activate set '$env'"
# Every binary of the build that links libomptarget loads the packed one under activate,
# unless it names its runtime's folder in a DT_RPATH (Spack's compiler wrappers), which the
# loader searches before LD_LIBRARY_PATH: such a binary needs no pack, and is counted apart.
pinned=0 checked=0
for bin in "$build"/bin/*; do
  ldd "$bin" 2>/dev/null | grep -q libomptarget || continue
  if readelf -d "$bin" 2>/dev/null | grep -q '(RPATH)'; then pinned=$((pinned + 1)); continue; fi
  checked=$((checked + 1))
  (. "$w/rt/activate" && ldd "$bin") | grep "libomptarget" | grep -q "$w/rt/lib" ||
    fail "$bin does not load the packed libomptarget under activate"
done
[ $checked -gt 0 ] || [ $pinned = 0 ] || { echo "every binary pins its runtime by DT_RPATH ($pinned): the pack is not what they load: skipped"; exit 77; }
note=; [ $pinned = 0 ] || note=" ($pinned with a DT_RPATH left out)"
echo "gpu_runtime.sh: $(grep -vc '^#' "$w/rt/manifest.txt") libraries packed and resolved; $checked binaries load them$note"

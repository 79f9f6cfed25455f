#!/bin/sh
# omp_profile_live.sh OMP_PROFILE MICROBENCH: microbench's omp dot (4096 elements, 2 launch
# shapes x (1 warm-up + 5 samples) = 12 regions) under LLVM's profile, then the summary.
set -u
w=$(mktemp -d "${TMPDIR:-/tmp}/pp-omp-profile.XXXXXX")
trap 'rm -rf "$w"' EXIT
LIBOMPTARGET_PROFILE="$w/trace.json" LIBOMPTARGET_PROFILE_GRANULARITY=1 \
  "$2" --backend omp --kernels dot --size 4096 --tpb 64,128 --warmup 1 --samples 5 --bootstrap 0 \
  --ceiling-mib 1 --no-energy --quiet > "$w/run.txt" 2>&1 || { cat "$w/run.txt"; exit 1; }
python3 "$1" "$w/trace.json"

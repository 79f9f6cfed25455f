#!/usr/bin/env bash
# Perlmutter's GNU route (site/perlmutter.toml, build gnu: preset perlmutter-gnu, cc
# is GCC with NVPTX offload, plus CUDA) on an NVIDIA GPU node, with Debian's gcc-12
# and gcc-12-offload-nvptx standing in for PrgEnv-gnu's cc:
#   1. configure the perlmutter-gnu preset with gcc-12 for this GPU's sm (GCC emits
#      PTX for at most sm_80, which the driver JIT-compiles), no MPI, and build;
#   2. the build's log through validate/warnings-gate (a new warning is a finding);
#   3. validate/gpu-check.sh on its binaries: every app's small and odd cases,
#      every built model (host, omp through GCC, cuda), each validated.
# Writes DIR (default build/gnu-route) and DIR/gnu-route.log; exits non-zero if a step
# failed. Refuses in one line (exit 2) where no NVIDIA GPU answers nvidia-smi.
# Usage: validate/gnu-route.sh [--dry-run] [-B DIR]   (--dry-run: the commands, run nothing)
set -euo pipefail
dry=0 dir=build/gnu-route
while (($#)); do
  case $1 in
    --dry-run) dry=1 ;;
    -B) [[ $# -ge 2 ]] || { echo "gnu-route: -B needs a folder" >&2; exit 2; }; dir=$2; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "gnu-route: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

sm=sm_90  # the dry run's; a real run asks the GPU
if ((!dry)); then
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .') || cap=""
  [[ $cap =~ ^[0-9]+$ ]] || { echo "gnu-route: no NVIDIA GPU answers nvidia-smi here: run it on a GPU node (--dry-run prints the commands)" >&2; exit 2; }
  sm=sm_$cap
  if ! command -v gcc-12 >/dev/null || [[ ! -d /usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none ]]; then
    echo "gnu-route: needs gcc-12 and gcc-12-offload-nvptx (scripts/compilers setup, or apt-get install gcc-12-offload-nvptx)" >&2; exit 2
  fi
fi

configure=(cmake --preset perlmutter-gnu -B "$dir" -DCMAKE_C_COMPILER=gcc-12 -DPP_NVIDIA_ARCH="$sm"
           -DPP_ENABLE_MPI=OFF -DPP_BUILD_TESTS=OFF)
build=(cmake --build "$dir" -j "$(nproc)")
gate=(validate/warnings-gate "$dir/gnu-route.log")
check=(validate/gpu-check.sh "$dir/bin")
if ((dry)); then
  printf '%s\n' "${configure[*]}" "${build[*]}" "${gate[*]}" "${check[*]}"
  exit 0
fi
mkdir -p "$dir"
{ "${configure[@]}" && "${build[@]}"; } 2>&1 | tee "$dir/gnu-route.log" ||
  { echo "gnu-route: the build failed ($dir/gnu-route.log)" >&2; exit 1; }
rc=0
"${gate[@]}" || rc=1
"${check[@]}" || rc=1
echo "gnu-route: $( ((rc)) && echo FAILED || echo passed ) on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1) ($sm)"
exit $rc

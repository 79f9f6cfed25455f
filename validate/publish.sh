#!/usr/bin/env bash
# The suite's published reference run on a GPU node (results/<device>/):
# the public codes first (validate/refs/run.sh: XSBench, BabelStream, TestSNAP on
# Kokkos CUDA and OpenMPTarget; same node, same call), then every app's published
# runs (the [[publish]] rows of its manifest, <app>/app.toml) through
# validate/gpu-run.sh (each file's exact command in its .cmd), then the correctness
# sweep (validate/gpu-check.sh -> gpu-check.txt).
usage() {
  cat <<'EOF'
usage: validate/publish.sh [--dry-run] [--binary-stamp-only] [--no-refs] [--no-check]
                           [--ncu] OUTDIR
Run from the repository root with the binaries (BIN, default build/nvidia-sm90/bin, built
from a clean commit), .gpu-rt (LLVM 19's OpenMP runtime from scripts/gpu-runtime, sourced when present) and, for the
references, REFS (default .refs: validate/refs/build.sh's output).
  --dry-run            print the commands, run nothing
  --binary-stamp-only  passed to gpu-run.sh: a copy of the tree whose .git does not match
                       (a GPU node the sources were sent to); the binaries' build stamp decides
  --no-refs            skip the public codes;  --no-check  skip gpu-check.sh
  --ncu                also profile xsbench_like's baseline kernels (ompx, cuda) with ncu
Writes into OUTDIR: refs/ (their outputs, refs.json), APP*.{json,csv,txt,cmd}, gpu-check.txt,
publish.log (each step's exit code and elapsed seconds). Exit: 0 every step passed, 1 a step
failed (the others still run), 2 bad usage. About 9.5 minutes on an H200 (the apps' host rows
included; the check ~120 s): where a job may run at most 10 minutes, run it with --no-check
and validate/gpu-check.sh in a second job.
EOF
}
set -u
dry=0 stamp="" refs=1 check=1 ncu=0
while [ $# -gt 0 ]; do
  case $1 in
    --dry-run) dry=1 ;;
    --binary-stamp-only) stamp=--binary-stamp-only ;;
    --no-refs) refs=0 ;;
    --no-check) check=0 ;;
    --ncu) ncu=1 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "publish.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
[ $# -eq 1 ] || { usage >&2; exit 2; }
out=$1
bin=${BIN:-build/nvidia-sm90/bin}
refdir=${REFS:-.refs}
export BIN="$bin" PP_INPUTS="${PP_INPUTS:-$PWD/inputs}" OMP_TARGET_OFFLOAD=MANDATORY
if [ $dry = 0 ]; then
  [ -x "$bin/microbench" ] || { echo "publish.sh: no binaries in $bin (set BIN)" >&2; exit 2; }
  mkdir -p "$out" || exit 2
  # bash: .gpu-rt/activate finds its packages by BASH_SOURCE (under dash it took
  # the caller's folder, unpacked nothing and marked the runtime unpacked)
  # shellcheck disable=SC1091
  [ -f .gpu-rt/activate ] && . .gpu-rt/activate
  : > "$out/publish.log"
fi
fail=0 t0=$(date +%s)
# step NAME COMMAND...: runs it (or prints it), logs its exit code and time.
step() {
  name=$1; shift
  if [ $dry = 1 ]; then echo "$*"; return; fi
  "$@"; rc=$?
  [ $rc = 0 ] || fail=1
  echo "$name rc=$rc $(($(date +%s) - t0)) s" | tee -a "$out/publish.log"
}
R="validate/gpu-run.sh $stamp"
[ $refs = 1 ] && step refs sh -c "validate/refs/run.sh '$refdir' '$out/refs' > '$out/refs.log' 2>&1"
# Every app's published runs, in apps.txt's order: the [[publish]] rows of its manifest
# (name: the result files', default the app's; args), "NAME APP ARGS..." a line. The
# suite's published cases ([suite] published) keep gpu-run.sh's --backend all: ReFrame
# takes every model's references from them, the host model's included (tests/test_reframe_rows.py).
if ! runs=$(PYTHONPATH="$(dirname "$0")${PYTHONPATH:+:$PYTHONPATH}" python3 -m pptools.apps publish); then
  echo "publish.sh: the published runs of the apps' manifests (pptools/apps.py) cannot be read" >&2
  exit 2
fi
set -f # words, never patterns
nl='
'
IFS=$nl
for run in $runs; do
  IFS=' '
  set -- $run
  name=$1 app=$2
  shift 2
  if [ "$name" = "$app" ]; then step "$name" $R "$app" "$out" "$@"
  else step "$name" env NAME="$name" $R "$app" "$out" "$@"; fi
done
unset IFS
set +f
if [ $ncu = 1 ]; then
  step ncu sh -c "timeout 120 ncu -k 'regex:k_baseline|fused' -c 2 --section SpeedOfLight --section Occupancy \
--section LaunchStats --section MemoryWorkloadAnalysis '$bin/xsbench_like' --backend ompx,cuda -s large \
--variant baseline --warmup 0 --samples 1 > '$out/ncu-xs-baseline.txt' 2>&1"
fi
[ $check = 1 ] && step gpu-check sh -c "validate/gpu-check.sh '$bin' > '$out/gpu-check.txt' 2>&1"
[ $dry = 1 ] || echo "publish.sh: $( [ $fail = 0 ] && echo 'every step passed' || echo 'a step FAILED') ($out/publish.log)"
exit $fail

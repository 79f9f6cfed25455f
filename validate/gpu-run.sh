#!/bin/sh
# Reference runs on a GPU node; their output is what validate/results/<device>/
# publishes. Usage: validate/gpu-run.sh APP OUTDIR [extra app options]
#   BIN   folder of the binaries (default build/nvidia-sm90/bin)
#   NAME  file stem (default APP)
# Writes OUTDIR/NAME.json, NAME.csv, NAME.txt (table and progress) and
# NAME.cmd (the exact command and the GPU it ran on).
set -eu
app=$1 out=$2
shift 2
bin=${BIN:-build/nvidia-sm90/bin}
name=${NAME:-$app}
mkdir -p "$out"
export OMP_TARGET_OFFLOAD=MANDATORY # a silent host fallback must never pass as a GPU result
cmd="$bin/$app --backend all $* --json $out/$name.json --csv $out/$name.csv"
{
  echo "$cmd" | sed "s|$out/|<outdir>/|g"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>&1 || true
} > "$out/$name.cmd"
# shellcheck disable=SC2086
$cmd > "$out/$name.txt" 2>&1

#!/bin/sh
# Reference runs on a GPU node; their output is what validate/results/<device>/
# publishes. Usage: validate/gpu-run.sh APP OUTDIR [extra app options]
#   BIN   folder of the binaries (default build/nvidia-sm90/bin)
# Writes OUTDIR/APP.json, APP.csv, APP.txt (table) and APP.cmd (the command).
set -eu
app=$1 out=$2
shift 2
bin=${BIN:-build/nvidia-sm90/bin}
mkdir -p "$out"
export OMP_TARGET_OFFLOAD=MANDATORY # a silent host fallback must never pass as a GPU result
cmd="$bin/$app --backend all $* --json $out/$app.json --csv $out/$app.csv"
echo "$cmd" > "$out/$app.cmd"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv \
  > "$out/$app.gpu" 2>&1 || true
# shellcheck disable=SC2086
$cmd > "$out/$app.txt" 2> "$out/$app.log"

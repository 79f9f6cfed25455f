#!/bin/sh
# Experiment (microbench, 2^24 elements): the standard-OpenMP loop with one
# team per tpb iterations (default) versus N teams each owning one contiguous
# block (dist_schedule(static) schedule(static,1), --blocks N), against ompx
# and cuda at the same grid. Wall-clock rows, then ncu device time of triad.
# Usage: omp-blocked.sh BIN OUTDIR
set -u
bin=$1 out=$2
export OMP_TARGET_OFFLOAD=MANDATORY
for tpb in 256 1024; do
  for b in 0 264 528 1056 2112 4224; do
    echo "== tpb=$tpb blocks=$b"
    $bin/microbench --backend omp,ompx,cuda --kernels zaxpy_d,triad,dot,reduce --size 2^24 \
      --tpb $tpb --blocks $b --quiet --ceiling-mib 256 | grep -E '^(zaxpy_d|triad|dot|reduce) '
  done
done > "$out/omp-blocked.txt" 2>&1
for b in 0 528 1056; do
  echo "== ncu blocks=$b"
  ncu --clock-control none --metrics gpu__time_duration.sum,launch__registers_per_thread -k regex:'triad' \
    $bin/microbench --backend omp,ompx,cuda --kernels triad --size 2^24 --tpb 256 --blocks $b \
    --warmup 0 --samples 1 --ceiling-mib 64 --quiet 2>&1 | grep -E '^  [_k]|duration|registers'
done > "$out/omp-blocked-ncu.txt" 2>&1
grep -E "^==|^triad" "$out/omp-blocked.txt"; cat "$out/omp-blocked-ncu.txt"

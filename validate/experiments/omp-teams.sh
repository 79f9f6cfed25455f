#!/bin/sh
# Experiment (microbench, 2^24 elements, 256 threads): does the standard-OpenMP
# kernel's speed depend on the team count and on clang's no-thread-state /
# no-nested-parallelism assumptions? Wall-clock rows from microbench, device
# kernel time from ncu. Usage: omp-teams.sh BIN_PLAIN BIN_ASSUME OUTDIR
set -u
plain=$1 assume=$2 out=$3
export OMP_TARGET_OFFLOAD=MANDATORY
for b in 0 528 2112 8448; do
  for v in plain assume; do
    eval bin=\$$v
    echo "== $v blocks=$b"
    $bin/microbench --backend omp,ompx,cuda --kernels zaxpy_d,copy,triad,reduce --size 2^24 --tpb 256 \
      --blocks $b --quiet --ceiling-mib 256 | grep -E '^(zaxpy_d|copy|triad|reduce) '
  done
done > "$out/omp-teams.txt" 2>&1
for v in plain assume; do
  eval bin=\$$v
  for b in 0 2112; do
    echo "== ncu $v blocks=$b"
    ncu --clock-control none --metrics gpu__time_duration.sum,launch__registers_per_thread -k regex:'triad' \
      $bin/microbench --backend omp,ompx,cuda --kernels triad --size 2^24 --tpb 256 --blocks $b \
      --warmup 0 --samples 1 --ceiling-mib 64 --quiet 2>&1 | grep -E 'triad|duration|registers'
  done
done > "$out/omp-teams-ncu.txt" 2>&1
cat "$out/omp-teams.txt" "$out/omp-teams-ncu.txt"

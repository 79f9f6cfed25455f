#!/bin/sh
# Experiment: does the way the host waits for the GPU (--gpu-wait: driver
# default, spin, yield, block) change the OpenMP models' per-region cost and
# its run-to-run variance? Usage: gpu-wait.sh BIN OUTDIR
set -u
bin=$1 out=$2
export OMP_TARGET_OFFLOAD=MANDATORY
for rep in 1 2; do
  for w in auto spin yield; do
    echo "== rep $rep gpu-wait $w"
    $bin/microbench --backend omp,ompx,cuda --kernels zaxpy_d,triad,launch_empty,launch_sync,launch_async \
      --size 2^24 --tpb 256 --gpu-wait $w --quiet --ceiling-mib 256 | grep -E '^(zaxpy|triad|launch)'
    $bin/spmv --backend all --deck inputs/minife/n150.deck --gpu-wait $w --quiet --ceiling-mib 256 | grep -E '^spmv'
    $bin/cgsolve --backend omp,ompx,cuda --deck inputs/minife/n150.deck --gpu-wait $w --quiet --samples 5 \
      --ceiling-mib 256 | grep -E '^cg_solve'
  done
done > "$out/gpu-wait.txt" 2>&1
cat "$out/gpu-wait.txt"

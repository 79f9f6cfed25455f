#!/bin/sh
# spmv/sweep.sh [BIN] [DECK]: the launch-parameter sweep behind spmv's
# defaults, on a GPU node. One line per model and configuration (median,
# GB/s by the papers' count, %copy by minimum traffic, vs-nat, check).
#   BIN   folder of the binaries (default build/nvidia-sm90/bin)
#   DECK  input deck (default inputs/minife/n150.deck)
set -u
bin=${1:-build/nvidia-sm90/bin}
deck=${2:-inputs/minife/n150.deck}
export OMP_TARGET_OFFLOAD=MANDATORY
run() {
  echo "== $*"
  "$bin/spmv" --deck "$deck" --quiet --ceiling-mib 256 --samples 20 "$@" | grep -E '^spmv' || echo "(failed: $?)"
}
# standard OpenMP: loop form and team shape
for form in rows lanes teams; do
  for vl in 4 8 16; do run --backend omp,cuda --no-vendor --omp-form $form --vector-len $vl --rows-per-team $((256 / vl)); done
done
# kernel mode and CUDA: vector length x threads per team
for vl in 2 4 8 16 32; do
  for tpb in 128 256 512; do run --backend ompx,cuda --no-vendor --vector-len $vl --rows-per-team $((tpb / vl)); done
done
# the papers' variants: reduction, grid loop (and its team count), loads
for red in shuffle shared; do
  for grid in blocks loop; do run --backend ompx,cuda --no-vendor --reduce $red --grid $grid; done
done
for teams in 528 1056 2112 4224 8448; do run --backend ompx,cuda --no-vendor --grid loop --teams $teams; done
run --backend ompx,cuda --no-vendor --ompx-loads plain
# the vendor library once
run --backend cuda

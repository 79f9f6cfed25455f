#!/bin/sh
# Correctness sweep on a GPU node: every app of apps.txt, every built model, small and odd
# sizes and launch shapes, and a 2-rank MPI cgsolve on one GPU. Prints one
# line per command and the failures; exits non-zero if any command failed.
# Usage: validate/gpu-check.sh [BIN]   (default build/nvidia-sm90/bin)
set -u
# Run from the source tree: its inputs/, whichever binaries (carried without their share/).
export PP_INPUTS="${PP_INPUTS:-$PWD/inputs}"
b=${1:-build/nvidia-sm90/bin}
export OMP_TARGET_OFFLOAD=MANDATORY
# --no-energy: a correctness sweep; repeating short rows for the energy counter would only slow it
fast="--warmup 1 --samples 3 --quiet --ceiling-mib 64 --no-energy"
fail=0 checked=" "
# the apps a check ran (the arguments that are binaries of $b)
note() { for a in "$@"; do case $a in "$b"/*) checked="$checked${a#"$b"/} " ;; esac; done; }
# run_check STRICT CMD...: one command, ok when it exits 0; with STRICT 1 a
# variant that a built model refuses ("NOT RUN", other than "not built")
# fails it too. check: not strict; tscheck: strict.
run_check() {
  strict=$1
  shift
  note "$@"
  if out=$("$@" 2>&1) && { [ "$strict" = 0 ] || ! echo "$out" | grep "NOT RUN" | grep -vq "not built"; }; then
    echo "ok   $*"
  else
    echo "FAIL $*"; echo "$out" | grep -E "FAIL|rror|NOT RUN|:" | grep -v "not built" | head -5; fail=1
  fi
}
check() { run_check 0 "$@"; }
tscheck() { run_check 1 "$@"; }
check $b/microbench --backend all --size 2^12,1000003 --tpb 64,256,1024 $fast
check $b/microbench --backend all --size 2^20 --tpb 128,1024 --blocks 1056 $fast
check $b/spmv --backend all --deck inputs/minife/tiny.deck $fast
check $b/spmv --backend all --size 1,2,5,17,50 $fast
for r in shuffle shared; do for g in blocks loop; do
  check $b/spmv --backend ompx,cuda --size 17,50 --reduce $r --grid $g --rows-per-team 3 --vector-len 16 --teams 7 $fast
done; done
for f in rows lanes teams; do check $b/spmv --backend omp --size 17,50 --omp-form $f $fast; done
check $b/cgsolve --backend all --deck inputs/minife/tiny.deck --expect-relres 1e-10 $fast
check $b/cgsolve --backend all --size 50 $fast
check $b/cgsolve --backend all --size 50 --update split $fast
if command -v mpirun >/dev/null; then
  check mpirun -n 2 --allow-run-as-root --oversubscribe $b/cgsolve --backend omp,ompx,cuda --size 40 $fast
  check mpirun -n 3 --allow-run-as-root --oversubscribe $b/microbench --backend all --size 2^16 --tpb 256 $fast
fi
# xsbench_like: every model, variant and grid type, odd lookup counts (the
# expected checksum is the host's computation of the same run)
for g in unionized hash nuclide; do for l in 1000003 1 33; do
  check $b/xsbench_like --backend all -s small --grid $g -l $l --variant all $fast
done; done
check $b/xsbench_like --backend all -s small --grid hash --hash-bins 37 -l 100003 --variant all $fast
check $b/xsbench_like --backend all -s large -l 4000037 --variant all $fast
# the sorted variants' material ranges launched at once (cuda and hip streams; ompx one region, nowait regions for sorted-material)
for l in 4000037 1000003 77; do
  check $b/xsbench_like --backend all -s large -l $l --variant sorted-material,sorted-energy --material-launch concurrent $fast
done
# one kernel over all sorted lookups, each of its key's material (--material-launch single)
for l in 4000037 77; do
  tscheck $b/xsbench_like --backend all -s large -l $l --variant sorted-material,sorted-energy --material-launch single $fast
done
# every phase timed alone in one more run (--phases): the whole's verdict on each
check $b/xsbench_like --backend all -s small -l 1000003 --variant all --phases $fast
if command -v mpirun >/dev/null; then
  check mpirun -n 2 --allow-run-as-root --oversubscribe $b/xsbench_like --backend omp,ompx,cuda -s small -l 100003 --variant all $fast
  # ranks split by energy band: each samples every lookup and keeps its band (every model must run it)
  for l in 1000003 77; do
    tscheck mpirun -n 3 --allow-run-as-root --oversubscribe $b/xsbench_like --backend omp,ompx,cuda -s small -l $l \
      --variant sorted-energy,sorted-material --split energy $fast
  done
  tscheck mpirun -n 2 --allow-run-as-root --oversubscribe $b/xsbench_like --backend omp,ompx,cuda -s small -l 1000003 \
    --variant sorted-energy,sorted-material --split energy --material-launch concurrent $fast
  tscheck mpirun -n 3 --allow-run-as-root --oversubscribe $b/xsbench_like --backend omp,ompx,cuda -s small -l 1000003 \
    --variant sorted-energy,sorted-material --split energy --material-launch single --phases $fast
fi
# testsnap: every model and variant on TestSNAP's W_2 and LAMMPS's
# W_2J8_2000_disp, 2 steps.
ts="--steps 2 --warmup 1 --quiet --no-energy"
for c in W_2 W_2J8_2000_disp; do
  check $b/testsnap --case $c --backend all $ts
  for y in collapsed nested; do
    tscheck $b/testsnap --case $c --backend omp --scratch global --yi $y $ts
    for s in team global; do
      tscheck $b/testsnap --case $c --backend ompx,cuda --scratch $s --levels 3 --yi $y $ts
    done
    tscheck $b/testsnap --case $c --backend ompx,cuda --scratch global --levels 2 --yi $y $ts
  done
  tscheck $b/testsnap --case $c --backend ompx,cuda --team-size 64 $ts
  # compute_deidrj split (TestSNAP Kokkos_V2's mapping, testsnap/DEIDRJ.md)
  tscheck $b/testsnap --case $c --backend omp,ompx,cuda --deidrj split $ts
  tscheck $b/testsnap --case $c --backend ompx,cuda --deidrj split --yi nested --team-size 64 $ts
done
# an uneven generated lattice (atoms not a multiple of 32, varying neighbour
# counts) with the twojmax 14 potential, against the host model; MPI on one GPU
j14=inputs/testsnap/W_2J14_2000_disp
check $b/testsnap --lattice 5,4,4 --displace 0.3 --coeff $j14/W_2J14_TestSNAP.snapcoeff --param $j14/W_2J14_TestSNAP.snapparam --backend all $ts
tscheck $b/testsnap --lattice 5,4,4 --displace 0.3 --coeff $j14/W_2J14_TestSNAP.snapcoeff --param $j14/W_2J14_TestSNAP.snapparam --backend all --deidrj split $ts
# no neighbour pairs (atoms 100 A apart): every model gives the isolated atom's
# energy and no force (testsnap/tests/no_pairs_16.dump, tests/testsnap.cmake)
j8=inputs/testsnap/W_2J8_2000
check $b/testsnap --lattice 2,2,2 --lattice-constant 100 --coeff $j8/W_2940_2017_2.snapcoeff --param $j8/W_2940_2017_2.snapparam --reference testsnap/tests/no_pairs_16.dump --backend all $ts
if command -v mpirun >/dev/null; then
  check mpirun -n 2 --allow-run-as-root --oversubscribe $b/testsnap --case W_2J8_2000_disp --backend omp,ompx,cuda $ts
fi
# an app of the list (apps.txt, beside this folder in the source tree and an
# install) without checks of its own above: its default case, every model
apps=$(dirname "$0")/../apps.txt
if [ -f "$apps" ]; then
  for app in $(grep -v '^[[:space:]]*#' "$apps" | tr -d '[:blank:]' | grep .); do
    case $checked in *" $app "*) ;; *) check $b/$app --backend all $fast ;; esac
  done
else
  echo "FAIL no app list $apps"; fail=1
fi
[ $fail = 0 ] && echo "gpu-check: all passed" || echo "gpu-check: FAILURES"
exit $fail

#!/usr/bin/env bash
# The GPU trial of branch gpu-next (prepared without a GPU; merge a part into
# main only if it validates and is faster). In one call, on one card:
#   testsnap --deidrj levels vs split (W_2J14, omp/ompx/cuda), and main's build
#     (omp's collapsed compute_yi at thread_limit 512)
#   cgsolve n150 --update fused vs split, and main's build
#   xsbench_like omp (lookups at thread_limit 1024) vs main's build, with cuda
#   microbench 2^24 (ompx reductions in one launch, pp_ompx_grid_sum) vs main's, 100 samples
#     (BabelStream's count); cuda copy/triad at BabelStream 5's shape
#     (4 elements per thread: --blocks 16384 at tpb 256)
#   the public references (validate/refs/run.sh), TestSNAP on Kokkos
#     OpenMPTarget (clang 19) included
#   with GCC_BIN (this branch's gcc-12 build, .gpu-rt-extra/gcc-12 carried)
#     and GCC_MAIN_BIN (main's): spmv's three omp forms, cgsolve (30
#     iterations) and testsnap (W_2J8, 5 steps; this branch has simd on its
#     omp loops) under GCC 12, which maps a thread to a warp and runs all 32
#     lanes only in simd loops: spmv's default `teams` form has none
# usage (repo root, .gpu-rt and .refs carried):
#   [GCC_BIN=DIR [GCC_MAIN_BIN=DIR]] validate/trials/gpu-next.sh NEW_BIN MAIN_BIN OUT
# PARTS (default "clang refs gcc") picks the parts, so that a call carries only
# what its parts need (the device tool's 64 MiB: clang .gpu-rt + both builds; refs
# .gpu-rt + .refs; gcc .gpu-rt-extra/gcc-12 + the gcc builds).
set -u
[ $# -eq 3 ] || { echo "usage: $0 NEW_BIN MAIN_BIN OUT" >&2; exit 2; }
new=$1 main=$2 out=$3
parts=${PARTS:-clang refs gcc}
has() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
mkdir -p "$out"
# shellcheck disable=SC1091
[ -f .gpu-rt/activate ] && . .gpu-rt/activate
export OMP_TARGET_OFFLOAD=MANDATORY PP_INPUTS="$PWD/inputs"
run() {
  name=$1; shift
  echo "$name: $*" >> "$out/commands.txt"
  timeout "${T:-240}" "$@" --json "$out/$name.json" > "$out/$name.txt" 2>&1
  echo "$name rc=$?" | tee -a "$out/rc.txt"
}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
if has clang; then
  for b in new main; do eval "d=\$$b"; "$d/microbench" --version > "$out/version-$b.txt" 2>&1; done
  for f in levels split; do
    run ts-$f "$new/testsnap" --case W_2J14_2000_disp --backend omp,ompx,cuda --deidrj $f
  done
  run ts-main "$main/testsnap" --case W_2J14_2000_disp --backend omp,ompx,cuda
  for u in fused split; do
    run cg-$u "$new/cgsolve" --deck inputs/minife/n150.deck --backend omp,ompx,cuda --update $u
  done
  run cg-main "$main/cgsolve" --deck inputs/minife/n150.deck --backend omp,ompx,cuda
  run spmv-new "$new/spmv" --deck inputs/minife/n150.deck --backend omp,ompx,cuda
  for b in new main; do
    eval "d=\$$b"
    run xs-$b "$d/xsbench_like" --backend omp,cuda --variant all
    run mb-$b "$d/microbench" --backend omp,ompx,cuda --size 2^24 --tpb 256 --samples 100
  done
  run mb-bs-shape "$new/microbench" --backend cuda --size 2^24 --tpb 256 --blocks 16384 --samples 100 \
    --kernels copy,mul,add,triad,dot
fi
if has gcc && [ -n "${GCC_BIN:-}" ]; then
  (
    # shellcheck disable=SC1091
    . .gpu-rt-extra/gcc-12/activate
    for f in teams lanes rows; do
      run gcc-spmv-$f "$GCC_BIN/spmv" --backend omp --deck inputs/minife/n150.deck --samples 5 --omp-form $f
    done
    for side in new main; do
      if [ $side = new ]; then g=$GCC_BIN; else g=${GCC_MAIN_BIN:-}; fi
      [ -n "$g" ] || continue
      run gcc-cg-$side "$g/cgsolve" --backend omp --deck inputs/minife/n150.deck --max-iters 30 --samples 3
      run gcc-ts-$side "$g/testsnap" --backend omp --case W_2J8_2000_disp --warmup 1 --steps 5
    done
  )
fi
if has refs; then
  validate/refs/run.sh .refs "$out/refs" > "$out/refs.log" 2>&1; echo "refs rc=$?" | tee -a "$out/rc.txt"
fi
# time ratios new/base per row (validate/compare: stdlib Python only)
if command -v python3 > /dev/null; then
  for pair in xs-main:xs-new mb-main:mb-new cg-main:cg-fused cg-split:cg-fused ts-main:ts-levels ts-levels:ts-split \
              gcc-cg-main:gcc-cg-new gcc-ts-main:gcc-ts-new; do
    [ -f "$out/${pair%%:*}.json" ] && [ -f "$out/${pair#*:}.json" ] || continue
    a=${pair%%:*} b=${pair#*:}
    validate/compare "$out/$a.json" "$out/$b.json" > "$out/compare-$a-$b.txt" 2>&1
  done
fi
grep -hE "^(compute_deidrj|step|cg_solve|cg_update|cg_dot|lookups|baseline|copy|dot|triad) " "$out"/*.txt | head -80

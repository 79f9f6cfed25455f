#!/bin/sh
# Multi-GPU scaling runs on one node of the apps whose manifest names scaling series
# ([scaling] series in <app>/app.toml: a shell file of the app's folder, sourced once
# per rank count; the apps that split their work over ranks): one MPI rank per GPU
# (each rank takes the GPU of its node-local rank), for every rank count in GPUS.
# Writes OUT/<app>-<series>-<P>.json (+ .txt), the exact commands (commands.txt), the
# node's GPU topology and whether its MPI is CUDA-aware (node.txt), then
# validate/scaling's tables and figures.
# Usage: validate/scaling-run.sh [--dry-run] OUT [BIN]   (BIN default build/nvidia-sm90/bin)
#   --dry-run  print the commands, run and write nothing (give GPUS where no GPU is seen)
# Env: GPUS="1 2 4 8" (default: 1 and the powers of two up to the GPUs found),
#      MODELS (default omp,ompx,cuda), SAMPLES (default 3), APPS (some of the apps;
#      default all), MPIRUN (default mpirun with the options a root container needs;
#      under Slurm see validate/batch/perlmutter-scaling.sbatch: it is given "-n P"
#      after it); and each app's own, in the header of its series file
#      (cgsolve/scaling.sh: CG_HALOS, CG_EXTRA, CG_OVERLAP_HALOS, CG_N325;
#      xsbench_like/scaling.sh: XS_EXTRA, XS_SERIES; testsnap/scaling.sh: TS_CELLS, TS_STEPS).
set -u
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
dry=0
case ${1:-} in
  -h|--help) usage; exit 0 ;;
  --dry-run) dry=1; shift ;;
esac
case ${1:-} in
  "") usage >&2; exit 2 ;;
  -*) echo "scaling-run: unknown option '$1' (see --help)" >&2; exit 2 ;;
esac
out=$1
b=${2:-build/nvidia-sm90/bin}
here=$(cd "$(dirname "$0")" && pwd)
export PP_INPUTS="${PP_INPUTS:-$here/../inputs}"
export OMP_TARGET_OFFLOAD=MANDATORY # never a silent host fallback
[ $dry = 1 ] || mkdir -p "$out"
if [ -z "${GPUS:-}" ]; then # AMD nodes (no nvidia-smi): give GPUS
  n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU') || n=0
  [ "$n" -gt 0 ] || { echo "scaling-run: no GPU found (nvidia-smi -L); set GPUS" >&2; exit 3; }
  GPUS=1; p=2; while [ $p -le "$n" ]; do GPUS="$GPUS $p"; p=$((p * 2)); done
fi
MODELS=${MODELS:-omp,ompx,cuda}
SAMPLES=${SAMPLES:-3}
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --bind-to none}
common="--backend $MODELS --warmup 1 --quiet"
samples="--samples $SAMPLES" # (an app whose steps are its samples gives --steps instead)
# the apps with series and their series files, "APP FILE" a line (pptools/apps.py)
apps() { PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" python3 -m pptools.apps "$@"; }
scaled=$(for a in $(apps list --with scaling.series); do echo "$a $here/../$a/$(apps get "$a" scaling.series)"; done) ||
  { echo "scaling-run: the apps' manifests (pptools/apps.py) cannot be read" >&2; exit 2; }

[ $dry = 1 ] || {
  echo "# $(date -u +%FT%TZ) $(hostname)"
  nvidia-smi --query-gpu=index,name,uuid,pci.bus_id,driver_version --format=csv
  nvidia-smi topo -m 2>/dev/null
  rocm-smi --showproductname --showuniqueid --showbus 2>/dev/null # AMD nodes
  rocm-smi --showtopo 2>/dev/null
  echo "MPI: $(mpirun --version 2>&1 | head -1)"
  echo "CUDA-aware MPI (ompi_info mpi_built_with_cuda_support): $(ompi_info --parsable --all 2>/dev/null |
    grep -m1 mpi_built_with_cuda_support:value | cut -d: -f7)"
} > "$out/node.txt"

fail=0
# run APP SERIES P ARGS...: one MPI run, its result file and log, timed
# (SERIES DIR/NAME: into OUT/DIR/, out of validate/scaling's view). Its variables are
# its own (r_*): the loop's $p must survive a run of another rank count.
run() {
  r_app=$1 r_series=$2 r_p=$3; shift 3
  case $r_series in
    */*) f=$out/${r_series%/*}/$r_app-${r_series##*/}-$r_p ;;
    *) f=$out/$r_app-$r_series-$r_p ;;
  esac
  cmd="$MPIRUN -n $r_p $b/$r_app $common $* --json $f.json"
  if [ $dry = 1 ]; then echo "$cmd"; return; fi
  mkdir -p "${f%/*}"
  echo "$cmd" >> "$out/commands.txt"
  t0=$(date +%s)
  if $cmd > "$f.txt" 2>&1; then s=ok; else s="FAIL (exit $?)"; fail=1; fi
  echo "[$r_app $r_series P=$r_p $(( $(date +%s) - t0 ))s] $s"
}

APPS=${APPS:-} # empty: every app with series
has() { [ -z "$APPS" ] && return 0; case " $APPS " in *" $1 "*) return 0 ;; esac; return 1; }
for p in $GPUS; do
  set -- $scaled # (no pipe into a loop: mpirun would read the list, and fail would stay in a subshell)
  while [ $# -ge 2 ]; do
    app=$1 file=$2
    shift 2
    has "$app" || continue
    # series NAME P ARGS...: one run of this app (its series file's one command)
    series() { run "$app" "$@"; }
    . "$file"
  done
done
[ $dry = 1 ] && exit 0
python3 "$here/scaling" "$out" || fail=1
exit $fail

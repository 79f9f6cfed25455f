#!/bin/sh
# Multi-GPU scaling runs on one node (a subset of apps.txt: the apps that split their work over ranks)
# of cgsolve, xsbench_like and testsnap:
# one MPI rank per GPU (each rank takes the GPU of its node-local rank), for
# every rank count in GPUS. Writes OUT/<app>-<series>-<P>.json (+ .txt), the
# exact commands (commands.txt), the node's GPU topology and whether its MPI is
# CUDA-aware (node.txt), then validate/scaling's tables and figures.
# Usage: validate/scaling-run.sh OUT [BIN]   (BIN default build/nvidia-sm90/bin)
# Env: GPUS="1 2 4 8" (default: 1 and the powers of two up to the GPUs found),
#      MODELS (default omp,ompx,cuda), SAMPLES (default 3), TS_CELLS (default 20:
#      16000 atoms), TS_STEPS (default 20), APPS (a subset of the three; default
#      all), CG_HALOS (cgsolve's --halo paths side by side, default "auto
#      host": auto is the series without suffix, the others get -halo-<path>),
#      (every cgsolve series names --overlap: off but in the overlap series)
#      CG_EXTRA (default 1: also n255-strong with --overlap on, with
#      --cg-variant chronopoulos-gear, and with both, on the first path of
#      CG_HALOS; the series of path P other than auto are named
#      n255-strong-halo-P-overlap and so on), CG_OVERLAP_HALOS (the paths that
#      get the --overlap on series, default the first of CG_HALOS), CG_N325 (default 1: the n325
#      deck too; xsbench_like's series without suffix split its sorted variant
#      by energy band), XS_EXTRA (default 1: xsbench_like also with --split
#      lookups, with --material-launch concurrent (the 12 per-material
#      lookups kernels at once), with that and --phases (sorted-energy alone: a
#      row per phase, large-event-phases), with --material-launch single (one
#      lookups kernel over all sorted lookups; -single, and -single-phases), weak (17M lookups per GPU), strong at 170M lookups; and, in
#      OUT/onegpu/, one GPU running what one rank of the 17M --split lookups
#      run runs, 17M/P lookups: the bound the workload sets on that series,
#      whatever the communication), XS_SERIES (default: every xsbench_like
#      series above; else the names to run, e.g. "large-event
#      large-event-concurrent"), MPIRUN (default mpirun with the
#      options a root container needs; under Slurm see validate/batch/perlmutter-scaling.sbatch:
#      it is given "-n P" after it).
set -u
out=${1:?usage: validate/scaling-run.sh OUT [BIN]}
b=${2:-build/nvidia-sm90/bin}
here=$(cd "$(dirname "$0")" && pwd)
export PP_INPUTS="${PP_INPUTS:-$here/../inputs}"
export OMP_TARGET_OFFLOAD=MANDATORY # never a silent host fallback
mkdir -p "$out"
if [ -z "${GPUS:-}" ]; then # AMD nodes (no nvidia-smi): give GPUS
  n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU') || n=0
  [ "$n" -gt 0 ] || { echo "scaling-run: no GPU found (nvidia-smi -L); set GPUS" >&2; exit 3; }
  GPUS=1; p=2; while [ $p -le "$n" ]; do GPUS="$GPUS $p"; p=$((p * 2)); done
fi
MODELS=${MODELS:-omp,ompx,cuda}
SAMPLES=${SAMPLES:-3}
TS_CELLS=${TS_CELLS:-20}
TS_STEPS=${TS_STEPS:-20}
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --bind-to none}
common="--backend $MODELS --warmup 1 --quiet"
samples="--samples $SAMPLES" # testsnap: every step is a sample (--steps)
j14=$PP_INPUTS/testsnap/W_2J14_2000_disp

{
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
# (SERIES DIR/NAME: into OUT/DIR/, out of validate/scaling's view).
run() {
  app=$1 series=$2 p=$3; shift 3
  case $series in */*) f=$out/${series%/*}/$app-${series##*/}-$p ;; *) f=$out/$app-$series-$p ;; esac
  mkdir -p "${f%/*}"
  cmd="$MPIRUN -n $p $b/$app $common $* --json $f.json"
  echo "$cmd" >> "$out/commands.txt"
  t0=$(date +%s)
  if $cmd > "$f.txt" 2>&1; then s=ok; else s="FAIL (exit $?)"; fail=1; fi
  echo "[$app $series P=$p $(( $(date +%s) - t0 ))s] $s"
}

APPS=${APPS:-} # empty: every app below
CG_HALOS=${CG_HALOS:-auto host}
CG_EXTRA=${CG_EXTRA:-1}
XS_EXTRA=${XS_EXTRA:-1}
XS_L=17000000 # XSBench's default lookups (-s large)
has() { [ -z "$APPS" ] && return 0; case " $APPS " in *" $1 "*) return 0 ;; esac; return 1; }
XS_SERIES=${XS_SERIES:-}
# xs_run SERIES P ARGS...: run that xsbench_like series unless XS_SERIES leaves it out
xs_run() { [ -z "$XS_SERIES" ] || case " $XS_SERIES " in *" $1 "*) ;; *) return 0 ;; esac; run xsbench_like "$@"; }
for p in $GPUS; do
  if has cgsolve; then
    n255=$PP_INPUTS/minife/n255.deck
    for halo in $CG_HALOS; do
      sfx=; [ "$halo" = auto ] || sfx=-halo-$halo
      run cgsolve n255-strong$sfx "$p" $samples --deck "$n255" --halo "$halo" --overlap off
      run cgsolve n255-weak$sfx "$p" $samples --size 255 --scaling weak --halo "$halo" --overlap off
    done
    [ "${CG_N325:-1}" = 1 ] && run cgsolve n325-strong "$p" $samples --deck "$PP_INPUTS/minife/n325.deck" --overlap off
    if [ "$CG_EXTRA" = 1 ]; then
      h0=${CG_HALOS%% *}
      for halo in ${CG_OVERLAP_HALOS:-$h0}; do
        sfx=; [ "$halo" = auto ] || sfx=-halo-$halo
        run cgsolve n255-strong$sfx-overlap "$p" $samples --deck "$n255" --halo "$halo" --overlap on
      done
      sfx=; [ "$h0" = auto ] || sfx=-halo-$h0
      run cgsolve n255-strong$sfx-cg1 "$p" $samples --deck "$n255" --halo "$h0" --overlap off \
        --cg-variant chronopoulos-gear
      run cgsolve n255-strong$sfx-cg1-overlap "$p" $samples --deck "$n255" --halo "$h0" --overlap on \
        --cg-variant chronopoulos-gear
    fi
  fi
  if has xsbench_like; then
    xs="-s large --variant baseline,sorted-energy"
    xs_run large-event "$p" $samples $xs --split energy
    if [ "$XS_EXTRA" = 1 ]; then
      xs_run large-event-split-lookups "$p" $samples $xs --split lookups
      xs_run large-event-concurrent "$p" $samples $xs --split energy --material-launch concurrent
      xs_run large-event-phases "$p" $samples -s large --variant sorted-energy --split energy \
        --material-launch concurrent --phases
      xs_run large-event-single "$p" $samples $xs --split energy --material-launch single
      xs_run large-event-single-phases "$p" $samples -s large --variant sorted-energy --split energy \
        --material-launch single --phases
      xs_run large-event-weak "$p" $samples $xs --split energy --lookups $((XS_L * p))
      xs_run large-event-l170m "$p" $samples $xs --split energy --lookups $((10 * XS_L))
      if [ "$p" -gt 1 ]; then # not a series: one process on one GPU (file names out of the tool's pattern)
        xs_run "onegpu/large-event-l$((XS_L / p))" 1 $samples $xs --split lookups \
          --lookups $((XS_L / p))
      fi
    fi
  fi
  has testsnap && run testsnap w2j14-lattice"$TS_CELLS"-strong "$p" --lattice "$TS_CELLS" \
    --coeff "$j14/W_2J14_TestSNAP.snapcoeff" --param "$j14/W_2J14_TestSNAP.snapparam" --steps "$TS_STEPS"
done
python3 "$here/scaling" "$out" || fail=1
exit $fail

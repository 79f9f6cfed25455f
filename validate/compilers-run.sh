#!/usr/bin/env bash
# Runs the compiler matrix built by `scripts/compilers build` on a GPU node and
# writes one results folder. Needs no git, cmake or compiler on the node: only
# the build/matrix-run/<preset>/<tag>/ folders (scripts/compilers pack: bin/,
# runtime, models, apps; or build/matrix/<preset> itself), the
# inputs/ decks, and the runtimes: .gpu-rt (LLVM 19, ../shared/gpu/omp-runtime.sh)
# and .gpu-rt-extra/{gcc-12,clang-16} (scripts/compilers setup).
set -uo pipefail
# Run from the source tree: its inputs/, whichever binaries (carried without their share/).
export PP_INPUTS="${PP_INPUTS:-$PWD/inputs}"

usage() {
  cat <<'EOF'
Usage: validate/compilers-run.sh [--preset nvidia-sm90] [--root DIR] [--only TAG,...] [--apps LIST]
                                 [--with-host] [--full] [--debug] [--dry-run] OUTDIR

For every built tag (DIR/<tag>/; DIR default build/matrix-run/<preset> when it
exists, else build/matrix/<preset>) and app, with that compiler's
runtime activated:  APP --backend <the tag's models> <short sizes> --json OUTDIR/<app>-<tag>.json
Also writes OUTDIR/<app>-<tag>.txt (table and messages), OUTDIR/commands.sh (every
command exactly as run, with its environment), OUTDIR/gpu.txt and OUTDIR/summary.tsv.
The result files are left separate: validate/compare reads any number of them.

  --with-host  also run the host model (default: GPU models only; host rows take long)
  --full       the apps' default sizes instead of the short ones below
  --debug      libomptarget/libgomp diagnostics: LIBOMPTARGET_INFO=-1, LIBOMPTARGET_DEBUG=1
               (clang builds; DEBUG prints only from a debug-built libomptarget) and, for
               clang-16, llvm-omp-device-info's device list first; GOMP_DEBUG=1 (gcc).
               Other runtime variables pass through (e.g. LIBOMPTARGET_NEXTGEN_PLUGINS=0
               selects LLVM 16's older CUDA plugin).
  --dry-run    print the commands only

RUN_TIMEOUT (seconds, default 600) ends a run that takes longer; it is reported
as TIMEOUT with the last lines of its output.

Short sizes (whole matrix, 3 apps x ~10 builds, in a few GPU minutes); override with
MB_ARGS, SPMV_ARGS, CG_ARGS:
  microbench  --size 2^24 --tpb 256,1024 --samples 10 --bootstrap 200
  spmv        --deck inputs/minife/n150.deck --samples 5 --bootstrap 200
  cgsolve     --deck inputs/minife/n150.deck --warmup 1 --samples 3 --bootstrap 200
Exit: 0 every run validated, 1 a validation failed, 3 a run failed otherwise, 2 usage.
EOF
}

preset=nvidia-sm90 root="" only="" apps_opt="" host=0 full=0 debug=0 dry=0 out=""
while (($#)); do
  case $1 in
    --preset) preset=${2:?}; shift ;;
    --root) root=${2:?}; shift ;;
    --only) only=${2:?}; shift ;;
    --apps) apps_opt=${2:?}; shift ;;
    --with-host) host=1 ;;
    --full) full=1 ;;
    --debug) debug=1 ;;
    --dry-run) dry=1 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "compilers-run: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) [[ -z $out ]] || { echo "compilers-run: one OUTDIR only" >&2; exit 2; }; out=$1 ;;
  esac
  shift
done
[[ -n $out ]] || { usage >&2; exit 2; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
top=$root
if [[ -z $top ]]; then top=build/matrix-run/$preset; [[ -d $top ]] || top=build/matrix/$preset; fi
tags=()
# base builds first (clang-19, gcc-12, ...), then the flag sets (clang-19+lto, ...)
for d in $(ls -d "$top"/*/ 2>/dev/null | grep -v '+'; ls -d "$top"/*/ 2>/dev/null | grep '+'); do
  t=$(basename "$d")
  [[ -f $d/runtime ]] || continue
  [[ -z $only || ",$only," == *",$t,"* ]] && tags+=("$t")
done
((${#tags[@]})) || { echo "compilers-run: no built tags in $top${only:+ matching $only} (scripts/compilers build)" >&2; exit 2; }

mb_args=${MB_ARGS:---size 2^24 --tpb 256,1024 --samples 10 --bootstrap 200}
spmv_args=${SPMV_ARGS:---deck inputs/minife/n150.deck --samples 5 --bootstrap 200}
cg_args=${CG_ARGS:---deck inputs/minife/n150.deck --warmup 1 --samples 3 --bootstrap 200}
if ((full)); then mb_args=${MB_ARGS:-} spmv_args=${SPMV_ARGS:-} cg_args=${CG_ARGS:-}; fi
app_args() { case $1 in microbench) echo "$mb_args" ;; spmv) echo "$spmv_args" ;; cgsolve) echo "$cg_args" ;; *) echo "" ;; esac; }

# activation NAME: the shell lines that set up compiler NAME's runtime.
activation() {
  case $1 in
    # (no .gpu-rt: a machine with LLVM 19 installed, e.g. the build machine)
    clang-19) echo "{ [ ! -f .gpu-rt/activate ] || . .gpu-rt/activate; }" ;;
    gcc-*) echo ". .gpu-rt-extra/$1/activate" ;;
    # .gpu-rt unpacked (libLLVM-16 takes its dependencies from it), but not on the path: LLVM 16 only
    clang-16) echo "(. .gpu-rt/activate) && . .gpu-rt-extra/clang-16/activate" ;;
    *) echo "true" ;;
  esac
}
debug_env() {   # also lists the devices the runtime sees, where it has llvm-omp-device-info
  ((debug)) || return 0
  case $1 in
    clang-*) echo 'export LIBOMPTARGET_INFO=-1 LIBOMPTARGET_DEBUG=1 && { [ -z "${PP_OMP_DEVICE_INFO:-}" ] || "$PP_OMP_DEVICE_INFO" || true; }' ;;
    gcc-*) echo "export GOMP_DEBUG=1" ;;
  esac
}

mkdir -p "$out"
{ echo "# compilers-run.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"; echo "cd \"$repo\""; } > "$out/commands.sh"
((dry)) || nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$out/gpu.txt" 2>&1
printf 'app\ttag\tbackends\texit\tseconds\tresult\n' > "$out/summary.tsv"
runs=() worst=0
for t in "${tags[@]}"; do
  d=$top/$t
  [[ -f $d/apps ]] || continue
  while read -r app; do
    [[ -n $app && ( -z $apps_opt || ",$apps_opt," == *",$app,"* ) ]] && runs+=("$t $app")
  done < "$d/apps"
done
n=${#runs[@]} i=0
for r in "${runs[@]}"; do
  t=${r% *} app=${r#* } i=$((i + 1))
  d=$top/$t rt=$(cat "$d/runtime")
  models=$(cat "$d/models")
  ((host)) || models=$(echo "$models" | tr , '\n' | grep -vx host | paste -sd, -)
  [[ -n $models ]] || { echo "[$i/$n] $app $t: no GPU model built; skipped"; continue; }
  stem=$app-$t
  # shellcheck disable=SC2046
  cmd="$d/bin/$app --backend $models $(app_args "$app") --json $out/$stem.json"
  setup=$(activation "$rt")
  dbg=$(debug_env "$rt")
  line="( $setup && export OMP_TARGET_OFFLOAD=MANDATORY${dbg:+ && $dbg} && timeout ${RUN_TIMEOUT:-600} $cmd ) > $out/$stem.txt 2>&1"
  echo "$line" >> "$out/commands.sh"
  if ((dry)); then echo "$line"; continue; fi
  printf '[%d/%d] %-10s %-26s %-14s ' "$i" "$n" "$app" "$t" "$models"
  s0=$(date +%s)
  missing=$(for f in $(echo "$setup" | grep -oE '\.gpu-rt[a-z-]*(/[a-z0-9.-]+)?/activate'); do [[ -f $f ]] || echo "$f"; done)
  if [[ -n $missing ]]; then # a runtime not carried here: an error of the setup, not of the compiler
    echo "runtime missing: $missing" > "$out/$stem.txt"
    rc=3
  else
    bash -c "$line"
    rc=$?
  fi
  sec=$(($(date +%s) - s0))
  case $rc in 0) res=PASS ;; 1) res=FAIL ;; 124) res=TIMEOUT ;; *) res="ERROR($rc)" ;; esac
  [[ -z $missing ]] || res="ERROR(runtime missing: $missing)"
  echo "$res (${sec} s)"
  # what differed first (FAIL rows), then runtime messages
  [[ $res == PASS ]] || { grep -E " FAIL " "$out/$stem.txt"; grep -E "rror|failure|refus|mandatory" "$out/$stem.txt"; } |
    head -n 4 | sed 's/^/      /'
  [[ $res != TIMEOUT ]] || tail -n 3 "$out/$stem.txt" | sed 's/^/      last: /'
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$app" "$t" "$models" "$rc" "$sec" "$res" >> "$out/summary.tsv"
  if ((rc == 1 && worst == 0)); then worst=1; elif ((rc != 0 && rc != 1)); then worst=3; fi
done
((dry)) && exit 0
echo "results in $out (summary.tsv, <app>-<tag>.json/.txt, commands.sh)"
exit $worst

#!/usr/bin/env bash
# Runs the compiler matrix built by `scripts/compilers build` on a GPU node and
# writes one results folder. Needs no git, cmake or compiler on the node: only
# the build/matrix-run/<preset>/<tag>/ folders (scripts/compilers pack: bin/,
# runtime, models, apps, build-fail; or its .tar.xz, or build/matrix/<preset>
# itself), the inputs/ decks, and the runtimes: .gpu-rt (LLVM 19,
# scripts/gpu-runtime: the clang-19 tags), .gpu-rt-llvm22 (LLVM 22: the clang-22
# tags) and .gpu-rt-extra/{gcc-12,clang-16} (scripts/compilers setup).
set -uo pipefail
# Run from the source tree: its inputs/, whichever binaries (carried without their share/).
export PP_INPUTS="${PP_INPUTS:-$PWD/inputs}"

usage() {
  cat <<'EOF'
Usage: validate/compilers-run.sh [--preset nvidia-sm90] [--root DIR] [--only TAG,...] [--apps LIST]
                                 [--budget SECONDS] [--with-host] [--full] [--debug] [--dry-run] OUTDIR

For every built tag (DIR/<tag>/; DIR default build/matrix-run/<preset> when it
exists, else build/matrix-run-<preset>.tar.xz unpacked there (scripts/compilers pack),
else build/matrix/<preset>; --only takes tags or patterns, 'clang-19*') and app, with
that compiler's runtime activated:  APP --backend <the tag's models> <short sizes> --json OUTDIR/<app>-<tag>.json
Also writes OUTDIR/<app>-<tag>.txt (table and messages), OUTDIR/commands.sh (every
command exactly as run, with its environment), OUTDIR/gpu.txt and OUTDIR/summary.tsv
(one line per app x tag: PASS, FAIL (a row not validated), BUILD-FAIL (the tag's
build-fail file: the compiler did not build the app, or one model of it), TIMEOUT, CRASH(SIGNAL), ERROR(...)
(exit 2/3, no JSON, runtime missing) or SKIPPED(budget); its note column says why).
The result files are left separate: validate/compare reads any number of them;
`validate/compare --report DIR --status OUTDIR/summary.tsv OUTDIR/*.json` draws every
line that has no result as a cell of that name.

  --with-host  also run the host model (default: GPU models only; host rows take long)
  --budget S   the whole matrix in S seconds (also MATRIX_BUDGET): each run's timeout is at
               most what is left; a run that cannot start with >= 10 s left is SKIPPED(budget)
  --full       the apps' default sizes instead of the short ones below
  --debug      libomptarget/libgomp diagnostics: LIBOMPTARGET_INFO=-1, LIBOMPTARGET_DEBUG=1
               (clang builds; DEBUG prints only from a debug-built libomptarget) and, for
               clang-16, llvm-omp-device-info's device list first; GOMP_DEBUG=1 (gcc).
               Other runtime variables pass through (e.g. LIBOMPTARGET_NEXTGEN_PLUGINS=0
               selects LLVM 16's older CUDA plugin).
  --dry-run    print the commands only

RUN_TIMEOUT (seconds, default 600) ends a run that takes longer (SIGTERM, SIGKILL 10 s
later); it is reported as TIMEOUT with the last lines of its output.

Runtimes, from the folder it runs in: .gpu-rt (clang-19, scripts/gpu-runtime), .gpu-rt-llvm22
(clang-22: scripts/compilers setup, or scripts/gpu-runtime --llvm .toolchain/llvm-22),
.gpu-rt-extra/{gcc-12,clang-16} (scripts/compilers setup).

Order: the base builds (clang-19, clang-16, clang-22, gcc-12: slow tags last), then the flag sets,
so that a --budget cuts the flag sweep of the slowest compiler first.

Short sizes (5 apps x 10 builds in about 4 minutes on an H100 or H200;
docs/compilers.md): each app's [compilers] args in its manifest (<app>/app.toml), or
the value of the variable its env names there (MB_ARGS, SPMV_ARGS, CG_ARGS, XS_ARGS,
TS_ARGS); an app without them runs its default case. Slow tags (SLOW_TAGS, a shell
pattern, default 'gcc-*': GCC 12's offload runs 160-620x slower than cuda,
docs/performance.md) keep the sizes, so that their cells compare with the others, and
take fewer repetitions: the manifest's [compilers] slow, appended ('' turns it off).
Exit: 0 every run validated, 1 a validation failed or an app did not build,
3 a run failed otherwise (timeout, crash, error, skipped), 2 usage.
EOF
}

preset=nvidia-sm90 root="" only="" apps_opt="" host=0 full=0 debug=0 dry=0 out="" budget=${MATRIX_BUDGET:-}
while (($#)); do
  case $1 in
    --preset) preset=${2:?}; shift ;;
    --root) root=${2:?}; shift ;;
    --only) only=${2:?}; shift ;;
    --apps) apps_opt=${2:?}; shift ;;
    --budget) budget=${2:?}; shift ;;
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
[[ -z $budget || $budget =~ ^[1-9][0-9]*$ ]] || { echo "compilers-run: --budget '$budget': seconds, a positive integer" >&2; exit 2; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
top=$root
tarball=build/matrix-run-$preset.tar.xz
# the packed matrix, unpacked where it is newer than the last unpacking (a warm node keeps
# build/matrix-run from an earlier call; python's lzma where the node has no xz)
if [[ -z $top && -f $tarball && $tarball -nt build/matrix-run/$preset/.unpacked ]]; then
  rm -rf "build/matrix-run/$preset" && mkdir -p build/matrix-run &&
  { if command -v xz >/dev/null; then tar -C build/matrix-run -xJf "$tarball"
    else python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$tarball" build/matrix-run; fi; } &&
    touch "build/matrix-run/$preset/.unpacked" ||
    { echo "compilers-run: cannot unpack $tarball" >&2; exit 2; }
fi
if [[ -z $top ]]; then top=build/matrix-run/$preset; [[ -d $top ]] || top=build/matrix/$preset; fi
slow_pat=${SLOW_TAGS-gcc-*}
is_slow() { [[ -n $slow_pat && $1 == $slow_pat ]]; }   # $slow_pat unquoted: a pattern
tags=() pats=()
IFS=, read -ra pats <<< "$only"   # (no word splitting: a pattern must not glob files here)
# base builds first (clang-19, gcc-12, ...), then the flag sets (clang-19+lto, ...); slow tags last in each
all=$(ls -d "$top"/*/ 2>/dev/null | xargs -r -n1 basename)
for t in $(for pass in base flags; do for slow in 0 1; do for t in $all; do
             [[ $pass == base && $t == *+* || $pass == flags && $t != *+* ]] && continue
             if is_slow "$t"; then ((slow)) && echo "$t"; else ((slow)) || echo "$t"; fi
           done; done; done); do
  [[ -f $top/$t/runtime ]] || continue
  # --only: tags or shell patterns ('clang-19*')
  keep=$([[ -z $only ]] && echo 1; for p in "${pats[@]}"; do [[ $t == $p ]] && echo 1; done)
  [[ -n $keep ]] && tags+=("$t")
done
((${#tags[@]})) || { echo "compilers-run: no built tags in $top${only:+ matching $only} (scripts/compilers build)" >&2; exit 2; }

# Each app's short run and a slow tag's fewer repetitions, from its manifest's [compilers]
# (pptools/apps.py), read once per app (app_manifest_args, before the runs).
declare -A short_args=() slow_args=()
manifest() { PYTHONPATH="$repo/validate" python3 -m pptools.apps get "$@" | paste -sd' ' -; }
app_manifest_args() {   # app_manifest_args APP: short_args[APP] and slow_args[APP]
  local env a
  env=$(manifest "$1" compilers.env --default "") || exit 2
  if [[ -n $env && -n ${!env:-} ]]; then a=${!env}   # the variable the manifest names
  elif ((full)); then a=""
  else a=$(manifest "$1" compilers.args --default "") || exit 2; fi
  short_args[$1]=$a
  slow_args[$1]=$(manifest "$1" compilers.slow --default "") || exit 2
}
app_args() {   # app_args APP TAG: the app's options (a slow tag's fewer repetitions appended)
  local a=${short_args[$1]}
  if ((!full)) && is_slow "$2" && [[ -n ${slow_args[$1]} ]]; then a+=" ${slow_args[$1]}"; fi
  echo "$a"
}

# activation NAME: the shell lines that set up compiler NAME's runtime (none on the cpu preset).
activation() {
  [[ $preset != cpu ]] || { echo "true"; return; }
  case $1 in
    # (no .gpu-rt: a machine with LLVM 19 installed, e.g. the build machine)
    clang-19) echo "{ [ ! -f .gpu-rt/activate ] || . .gpu-rt/activate; }" ;;
    gcc-*) echo ". .gpu-rt-extra/$1/activate" ;;
    # LLVM 16's runtime with libLLVM-16's own dependencies (scripts/compilers setup): no .gpu-rt
    clang-16) echo ". .gpu-rt-extra/clang-16/activate" ;;
    # LLVM 22's runtime (scripts/llvm-offload) and libLLVM-22 with its dependencies
    clang-22) echo ". .gpu-rt-llvm22/activate" ;;
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
# build_fail TAG: the tag's build-fail lines as "app<TAB>models<TAB>why" (models: those that did
# not build; older two-column files: every model of the tag)
build_fail() {
  [[ -f $top/$1/build-fail ]] || return 0
  local app f2 f3
  while IFS=$'\t' read -r app f2 f3; do
    if [[ -n $f3 && $f2 =~ ^[a-z,]+$ ]]; then printf '%s\t%s\t%s\n' "$app" "$f2" "$f3"
    else printf '%s\t%s\t%s\n' "$app" "$(cat "$top/$1/models")" "$f2${f3:+ $f3}"; fi
  done < "$top/$1/build-fail"
}
# tag_models TAG [APP]: the GPU models of a tag's build (host too with --with-host), less
# those that APP's build left out (a model's BUILD-FAIL: scripts/compilers build_without)
tag_models() {
  local m drop=""; m=$(cat "$top/$1/models")
  [[ -z ${2:-} ]] || drop=$(build_fail "$1" | awk -F'\t' -v a="$2" '$1 == a {print $2}')
  echo "$m" | tr , '\n' | grep -v '^$' | { ((host)) && cat || grep -vx host; } |
    grep -vxF -f <(echo "$drop" | tr , '\n' | grep -v '^$'; echo "@none@") | paste -sd, -
}
# classify RC SECONDS TIMEOUT JSON: the cell of a finished run
classify() {
  local rc=$1 sec=$2 lim=$3 json=$4
  case $rc in
    0|1) if [[ ! -s $json ]]; then echo "ERROR(no json)"; elif ((rc)); then echo FAIL; else echo PASS; fi ;;
    124) echo TIMEOUT ;;
    137) if ((sec >= lim)); then echo TIMEOUT; else echo "CRASH(KILL)"; fi ;;
    2) echo "ERROR(2: usage)" ;;
    3) echo "ERROR(3: runtime)" ;;
    *) if ((rc > 128)); then echo "CRASH($(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128))))"
       else echo "ERROR($rc)"; fi ;;
  esac
}
tsv() { local IFS=$'\t'; echo "$*" >> "$out/summary.tsv"; }

mkdir -p "$out"
{ echo "# compilers-run.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"; echo "cd \"$repo\""; } > "$out/commands.sh"
((dry)) || nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$out/gpu.txt" 2>&1
printf 'app\ttag\tbackends\texit\tseconds\tresult\tnote\n' > "$out/summary.tsv"
want() { [[ -n $1 && ( -z $apps_opt || ",$apps_opt," == *",$1,"* ) ]]; }
runs=() worst=0
for t in "${tags[@]}"; do
  d=$top/$t
  # what the compiler did not build: a cell for each such app x model, nothing to run
  while IFS=$'\t' read -r app failed why; do
    want "$app" || continue
    failed=$(echo "$failed" | tr , '\n' | { ((host)) && cat || grep -vx host; } | paste -sd, -)
    [[ -n $failed ]] || continue
    echo "[build] $app $t: BUILD-FAIL of $failed: $why"
    ((dry)) || tsv "$app" "$t" "$failed" - 0 BUILD-FAIL "$why"
    worst=$((worst ? worst : 1))
  done < <(build_fail "$t")
  [[ -f $d/apps ]] || continue
  while read -r app; do want "$app" && runs+=("$t $app"); done < "$d/apps"
done
for r in "${runs[@]}"; do [[ -n ${short_args[${r#* }]+set} ]] || app_manifest_args "${r#* }"; done
n=${#runs[@]} i=0 start=$(date +%s)
for r in "${runs[@]}"; do
  t=${r% *} app=${r#* } i=$((i + 1))
  d=$top/$t rt=$(cat "$d/runtime")
  models=$(tag_models "$t" "$app")
  [[ -n $models ]] || { echo "[$i/$n] $app $t: no GPU model built; skipped"; continue; }
  stem=$app-$t
  lim=${RUN_TIMEOUT:-600}
  if [[ -n $budget ]] && ((!dry)); then
    left=$((budget - ($(date +%s) - start)))
    if ((left < 10)); then
      echo "[$i/$n] $app $t: SKIPPED(budget): ${budget} s spent"
      tsv "$app" "$t" "$models" - 0 "SKIPPED(budget)" "the matrix's --budget of $budget s was spent before this run"
      worst=3; continue
    fi
    ((left < lim)) && lim=$left
  fi
  cmd="$d/bin/$app --backend $models $(app_args "$app" "$t") --json $out/$stem.json"
  setup=$(activation "$rt")
  dbg=$(debug_env "$rt")
  line="( $setup && export OMP_TARGET_OFFLOAD=MANDATORY${dbg:+ && $dbg} && timeout -k 10 $lim $cmd ) > $out/$stem.txt 2>&1"
  echo "$line" >> "$out/commands.sh"
  if ((dry)); then echo "$line"; continue; fi
  printf '[%d/%d] %-12s %-26s %-14s ' "$i" "$n" "$app" "$t" "$models"
  s0=$(date +%s)
  rm -f "$out/$stem.json"
  missing=$(for f in $(echo "$setup" | grep -oE '\.gpu-rt[a-z0-9-]*(/[a-z0-9.-]+)?/activate'); do [[ -f $f ]] || echo "$f"; done)
  if [[ -n $missing ]]; then # a runtime not carried here: an error of the setup, not of the compiler
    echo "runtime missing: $missing" > "$out/$stem.txt"
    rc=3
  else
    bash -c "$line" 2>> "$out/$stem.txt"   # (bash's own "Segmentation fault" line too)
    rc=$?
  fi
  sec=$(($(date +%s) - s0))
  res=$(classify "$rc" "$sec" "$lim" "$out/$stem.json")
  note=""
  [[ -z $missing ]] || { res="ERROR(runtime missing)"; note="runtime missing: $missing"; }
  echo "$res (${sec} s)"
  # what differed first (FAIL rows), then runtime messages
  [[ $res == PASS ]] || { grep -E " FAIL " "$out/$stem.txt"; grep -E "rror|failure|refus|mandatory" "$out/$stem.txt"; } |
    head -n 4 | sed 's/^/      /'
  case $res in
    TIMEOUT) note="no result within $lim s"; tail -n 3 "$out/$stem.txt" | sed 's/^/      last: /' ;;
    CRASH*) note="killed by a signal after $sec s; last output: $(grep -vE '^bash: line|^$' "$out/$stem.txt" | tail -n 1 | cut -c1-160)" ;;
    ERROR*) [[ -n $note ]] || note=$(grep -vE '^\[|^bash: line|^$' "$out/$stem.txt" | tail -n 1 | cut -c1-200) ;;
  esac
  tsv "$app" "$t" "$models" "$rc" "$sec" "$res" "$(echo "$note" | tr '\t' ' ')"
  case $res in PASS) ;; FAIL) ((worst)) || worst=1 ;; *) worst=3 ;; esac
done
((dry)) && exit 0
echo "results in $out (summary.tsv, <app>-<tag>.json/.txt, commands.sh)"
exit $worst

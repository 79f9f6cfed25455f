#!/bin/sh
# Correctness sweep on a GPU node: every app of apps.txt, every built model, small and odd
# sizes and launch shapes, MPI ranks on one GPU. Each app's checks are the [gpu_check]
# lines of its manifest (<app>/app.toml, read by pptools/apps.py beside this script in
# the source tree and an install); an app without them runs its default case on every
# model. Prints one line per command and the failures; exits non-zero if any command failed.
# Usage: validate/gpu-check.sh [--dry-run] [BIN]   (default build/nvidia-sm90/bin)
#   --dry-run  print the commands (the MPI ones where mpirun is), run nothing
set -u
dry=0
case ${1:-} in
  -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  --dry-run) dry=1; shift ;;
  -*) echo "gpu-check: unknown option '$1' (see --help)" >&2; exit 2 ;;
esac
# Run from the source tree: its inputs/, whichever binaries (carried without their share/).
export PP_INPUTS="${PP_INPUTS:-$PWD/inputs}"
b=${1:-build/nvidia-sm90/bin}
export OMP_TARGET_OFFLOAD=MANDATORY
# --no-energy: a correctness sweep; repeating short rows for the energy counter would only slow it
fast="--warmup 1 --samples 3 --quiet --ceiling-mib 64 --no-energy"
fail=0
# run_check STRICT CMD...: one command, ok when it exits 0; with STRICT 1 a
# variant that a built model refuses ("NOT RUN", other than "not built")
# fails it too. check: not strict; tscheck: strict (a manifest's "strict:" lines).
run_check() {
  strict=$1
  shift
  if [ $dry = 1 ]; then echo "$*"; return; fi
  if out=$("$@" 2>&1) && { [ "$strict" = 0 ] || ! echo "$out" | grep "NOT RUN" | grep -vq "not built"; }; then
    echo "ok   $*"
  else
    echo "FAIL $*"; echo "$out" | grep -E "FAIL|rror|NOT RUN|:" | grep -v "not built" | head -5; fail=1
  fi
}
check() { run_check 0 "$@"; }
tscheck() { run_check 1 "$@"; }
# "check ARGS" or "tscheck ARGS", one a line, read before any runs (mpirun reads stdin)
here=$(dirname "$0")
if ! lines=$(PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" python3 -m pptools.apps gpu-check "$b" "$fast"); then
  echo "FAIL the checks of the apps' manifests (pptools/apps.py) cannot be read"; exit 1
fi
have_mpirun=0
command -v mpirun >/dev/null && have_mpirun=1
set -f # the arguments are words, never patterns
nl='
'
IFS=$nl
for line in $lines; do
  IFS=' '
  set -- $line
  fn=$1
  shift
  [ "$1" != mpirun ] || [ $have_mpirun = 1 ] && $fn "$@"
done
unset IFS
set +f
[ $dry = 1 ] && exit 0
[ $fail = 0 ] && echo "gpu-check: all passed" || echo "gpu-check: FAILURES"
exit $fail

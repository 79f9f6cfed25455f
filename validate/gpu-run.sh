#!/bin/sh
# Reference runs on a GPU node; their output is what results/<device>/
# publishes. Usage: validate/gpu-run.sh [--allow-dirty] APP OUTDIR [extra app options]
#   BIN   folder of the binaries (default build/nvidia-sm90/bin)
#   NAME  file stem (default APP)
# Writes OUTDIR/NAME.json, NAME.csv, NAME.txt (table and progress) and
# NAME.cmd (the exact command and the GPU it ran on).
# Published results must name their exact code: a tree with uncommitted
# changes (checked with git where the tree has it, and always in the binary's
# own build stamp, build.git_dirty in the JSON) is refused unless
# --allow-dirty is given; a refused run's files are renamed *.dirty.
set -eu
# Run from the source tree: its inputs/, whichever binaries (carried without their share/).
export PP_INPUTS="${PP_INPUTS:-$PWD/inputs}"
allow_dirty=0 tree_check=1
# --binary-stamp-only: the tree here is a copy whose .git need not match (a GPU node the
# sources were sent to); only the binary's own build stamp (built from a clean commit) decides.
while :; do
  case "${1:-}" in
    --allow-dirty) allow_dirty=1; shift ;;
    --binary-stamp-only) tree_check=0; shift ;;
    -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "gpu-run: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "usage: validate/gpu-run.sh [--allow-dirty] [--binary-stamp-only] APP OUTDIR [app options]" >&2; exit 2; }
app=$1 out=$2
shift 2
bin=${BIN:-build/nvidia-sm90/bin}
name=${NAME:-$app}
# File modes are not compared: a copy of the tree on a GPU node (rsync, tar) may lose them.
if [ $allow_dirty = 0 ] && [ $tree_check = 1 ] && git rev-parse --git-dir >/dev/null 2>&1 &&
   ! git -c core.fileMode=false diff --quiet HEAD; then
  echo "gpu-run: the tree has uncommitted changes; commit them (and rebuild) or pass --allow-dirty:" >&2
  git -c core.fileMode=false diff --stat HEAD | tail -6 >&2
  exit 2
fi
mkdir -p "$out"
export OMP_TARGET_OFFLOAD=MANDATORY # a silent host fallback must never pass as a GPU result
# every model unless the options name them (an app takes each option once)
case " $* " in *" --backend "*) models= ;; *) models="--backend all " ;; esac
cmd="$bin/$app $models$* --json $out/$name.json --csv $out/$name.csv"
{
  echo "$cmd" | sed "s|$out/|<outdir>/|g"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>&1 || true
} > "$out/$name.cmd"
status=0
# shellcheck disable=SC2086
$cmd > "$out/$name.txt" 2>&1 || status=$?
if [ $allow_dirty = 0 ] && [ -f "$out/$name.json" ] &&
   PYTHONPATH="$(dirname "$0")${PYTHONPATH:+:$PYTHONPATH}" python3 -c 'import sys; from pptools import result
sys.exit(0 if (result.load_result(sys.argv[1]).get("build") or {}).get("git_dirty") else 1)' "$out/$name.json"; then
  for f in json csv txt cmd; do [ -f "$out/$name.$f" ] && mv "$out/$name.$f" "$out/$name.$f.dirty"; done
  echo "gpu-run: $bin/$app was built from a dirty tree (build.git_dirty); results renamed *.dirty. Rebuild from a clean commit or pass --allow-dirty" >&2
  exit 2
fi
exit $status

#!/usr/bin/env bash
# Runs the public reference codes built by validate/refs/build.sh on the GPU
# node, the way ProxyPort's published cases run, and writes each output plus
# RESULTS/refs.json (parsed figures, exact commands). Exit 1 if any run failed
# or its output was rejected by parse.py.
set -uo pipefail

usage() {
  cat <<'EOF'
usage: validate/refs/run.sh OUT RESULTS [WHAT...]
  OUT: build.sh's output (bin/, versions.txt); RESULTS: a new folder
  WHAT: xsbench babelstream-cuda babelstream-omp testsnap testsnap-ompt
        (default: those built)
Runs: XSBench -m event -s large -k 0 and -k 6; BabelStream at 2^24 and 2^25
doubles with its default iteration count; TestSNAP W_2J14 (2000 atoms) 100
steps on Kokkos CUDA (testsnap) and Kokkos OpenMPTarget (testsnap-ompt).
BabelStream-omp and TestSNAP-kokkos-ompt need LLVM 19's runtime: on a node
without it, bring .gpu-rt (scripts/gpu-runtime .refs/bin/BabelStream-omp) and run
from the repo root (run.sh sources .gpu-rt/activate for them).
EOF
}
[ $# -ge 2 ] || { usage >&2; exit 2; }
case $1 in -h|--help) usage; exit 0;; esac
OUT=$(cd "$1" && pwd) || exit 2
mkdir -p "$2"; RES=$(cd "$2" && pwd)
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
BIN=$OUT/bin
if [ $# -gt 0 ]; then WHAT=$*; else
  WHAT=""
  [ -x "$BIN/XSBench-cuda" ] && WHAT+=" xsbench"
  [ -x "$BIN/BabelStream-cuda" ] && WHAT+=" babelstream-cuda"
  [ -x "$BIN/BabelStream-omp" ] && WHAT+=" babelstream-omp"
  [ -x "$BIN/TestSNAP-kokkos-cuda" ] && WHAT+=" testsnap"
  [ -x "$BIN/TestSNAP-kokkos-ompt" ] && WHAT+=" testsnap-ompt"
fi
: > "$RES/runs.tsv"
[ -e "$OUT/versions.txt" ] && cp "$OUT/versions.txt" "$RES/"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1; } > "$RES/node.txt"

# name kind command...: runs one reference, output (stdout+stderr) to NAME.txt
one() {
  local name=$1 kind=$2; shift 2
  echo "run.sh: $name: $*"
  "$@" > "$RES/$name.txt" 2>&1
  local rc=$?
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$kind" "$rc" "$name.txt" "${*//$OUT/OUT}" >> "$RES/runs.tsv"
}

# LLVM 19's libomp/libomptarget for the clang-19 OpenMP offload builds
gpu_rt() {
  # shellcheck disable=SC1091
  if [ -e "$REPO/.gpu-rt/activate" ]; then . "$REPO/.gpu-rt/activate"; fi
}

for w in $WHAT; do
  case $w in
    xsbench)
      for k in 0 6; do one "XSBench-cuda-k$k" xsbench "$BIN/XSBench-cuda" -m event -s large -k $k; done ;;
    babelstream-cuda)
      for p in 24 25; do one "BabelStream-cuda-2p$p" babelstream "$BIN/BabelStream-cuda" -s $((1 << p)); done ;;
    babelstream-omp)
      gpu_rt
      for p in 24 25; do one "BabelStream-omp-2p$p" babelstream "$BIN/BabelStream-omp" -s $((1 << p)); done ;;
    testsnap)
      one TestSNAP-kokkos-cuda-W_2J14-2000 testsnap "$BIN/TestSNAP-kokkos-cuda" -ns 100 ;;
    testsnap-ompt)
      gpu_rt
      one TestSNAP-kokkos-ompt-W_2J14-2000 testsnap "$BIN/TestSNAP-kokkos-ompt" -ns 100 ;;
    *) echo "run.sh: unknown reference $w" >&2; usage >&2; exit 2 ;;
  esac
done
python3 "$HERE/parse.py" --collect "$RES"
rc=$?
echo "run.sh: $RES/refs.json written$([ $rc = 0 ] || echo ', with rejected runs (see above)')"
exit $rc

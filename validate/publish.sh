#!/usr/bin/env bash
# The published set of one GPU node (results/<machine>/): the suite at its reference
# scale with energy and the public codes beside it by the same method, the
# correctness sweep, the energy meter against nvidia-smi, the node's record and
# the set's manifest (validate/published checks it). See --help.
set -u
usage() {
  cat <<'EOF2'
usage: validate/publish.sh [--dry-run] [--no-peers] [--no-check] [--part PART] OUTDIR
Run from the repository root on the GPU node, with the binaries (BIN, default
build/nvidia-sm90/bin, built from a clean commit), the OpenMP runtime (.gpu-rt, sourced
when present) and the public codes (REFS, default .refs: validate/refs/build.sh's output).
  suite      validate/suite --scale reference (every app, every GPU model, energy on):
             OUTDIR/<app>/run1.*, suite.json, summary.md, figures/
  no-energy  the same with --no-energy (OUTDIR/no-energy/: suite.json, summary.*): what
             the meter costs (validate/published check holds it to 1.5x)
  peers      validate/peers --refs REFS (the public codes by the same method): OUTDIR/peers/
  checks     gpu-check and energy-check:
  gpu-check     validate/gpu-check.sh (OUTDIR/gpu-check.txt)
  energy-check  validate/energy-check (OUTDIR/energy-check.txt: cuda, ompx and omp triad,
             20 s each, against nvidia-smi)
  --part     one of them, or all (default); a job limited to 10 minutes runs them apart
Then OUTDIR/node.txt (nvidia-smi) and OUTDIR/manifest.toml (validate/published manifest:
the machine, the software, the commit of the binaries, each step's exact command).
About 12 minutes on an H200 (suite ~2.5, no-energy ~2, peers ~5, checks ~3). Exit 0 every step passed, 1 a
step failed (the others still run), 2 bad usage.
EOF2
}
dry=0 peers=1 check=1 part=all
while [ $# -gt 0 ]; do
  case $1 in
    --dry-run) dry=1 ;;
    --no-peers) peers=0 ;;
    --no-check) check=0 ;;
    --part) shift; part=${1:-}; case $part in suite|no-energy|peers|gpu-check|energy-check|checks|all) ;; *) echo "publish.sh: --part: suite, no-energy, peers, gpu-check, energy-check, checks or all" >&2; exit 2 ;; esac ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "publish.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
[ $# -eq 1 ] || { usage >&2; exit 2; }
out=$1 bin=${BIN:-build/nvidia-sm90/bin} refs=${REFS:-.refs}
export PP_INPUTS="${PP_INPUTS:-$PWD/inputs}" OMP_TARGET_OFFLOAD=MANDATORY
if [ $dry = 0 ]; then
  [ -x "$bin/microbench" ] || { echo "publish.sh: no binaries in $bin (set BIN)" >&2; exit 2; }
  mkdir -p "$out" || exit 2
  # shellcheck disable=SC1091
  [ -f .gpu-rt/activate ] && . .gpu-rt/activate
  touch "$out/publish.log"
fi
fail=0 t0=$(date +%s)
# step NAME COMMAND...: runs it (or prints it); publish.log gets its command, exit code and time.
step() {
  name=$1; shift
  if [ $dry = 1 ]; then echo "$*"; return; fi
  "$@"; rc=$?
  [ $rc = 0 ] || fail=1
  printf '%s\trc=%s\t%ss\t%s\n' "$name" $rc $(($(date +%s) - t0)) "$*" | tee -a "$out/publish.log"
}
want() { [ "$part" = all ] || [ "$part" = "$1" ] || { [ "$part" = checks ] && [ "${1%-check}" != "$1" ]; }; }
if want suite; then
  step suite python3 validate/suite --bin "$bin" --scale reference --out "$out"
fi
if want no-energy; then # kept: its result files (JSON), suite.json and summary (figures, text, CSV again)
  step no-energy sh -c "python3 validate/suite --bin '$bin' --scale reference --no-energy --out '$out/no-energy' && rm -rf '$out/no-energy/figures' '$out'/no-energy/*/*.txt '$out'/no-energy/*/*.csv"
fi
if want peers && [ $peers = 1 ]; then
  step peers python3 validate/peers --refs "$refs" --bin "$bin" --out "$out/peers"
fi
if want gpu-check && [ $check = 1 ]; then
  step gpu-check sh -c "validate/gpu-check.sh '$bin' > '$out/gpu-check.txt' 2>&1"
fi
if want energy-check && [ $check = 1 ]; then
  step energy-check sh -c "python3 validate/energy-check --build '$(dirname "$bin")' --out /tmp/pp-energy-check \
    -- '$bin/microbench' --backend cuda,ompx,omp --kernels triad --size 2^28 --tpb 256 --warmup 20 --samples 100 \
    --energy-min-s 20 --bootstrap 0 > '$out/energy-check.txt' 2>&1"
fi
if [ $dry = 0 ]; then
  { date -u +%FT%TZ; nvidia-smi --query-gpu=index,name,uuid,driver_version,memory.total,clocks.max.sm,power.limit \
      --format=csv 2>&1; nvidia-smi topo -m 2>&1; } > "$out/node.txt"
  step manifest python3 validate/published manifest "$out"
fi
exit $fail

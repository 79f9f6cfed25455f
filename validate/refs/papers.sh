#!/usr/bin/env bash
# Issue 45's seeds on the GPU node: the papers' CGSolve in every build, TestSNAP
# on the kernel-mode Kokkos fork, XSBench's OpenMP offload port and ProxyPort's
# cgsolve at the papers' sizes, each output kept, then papers.py's tables. A
# build that is missing is a row saying why, never a silent gap.
set -uo pipefail

usage() {
  cat <<'EOF'
usage: validate/refs/papers.sh [--dry-run] [--part 19|22] REFS BIN RESULTS [WHAT...]
  REFS     build.sh's output (.refs): bin/ and versions.txt (build.sh REFS papers)
  BIN      ProxyPort's binaries, e.g. build/nvidia-sm90/bin (cgsolve is used)
  RESULTS  a new folder
  WHAT     cgsolve proxyport testsnap xsbench (default: all four, in that order)
  --dry-run  list the runs (and what is not built, and why) without running them
  --part P   only the runs of part P: 19 = Kokkos CUDA, XSBench CUDA and everything
             on LLVM 19's runtime (ProxyPort's clang-19 build too); 22 = everything on
             LLVM 22's. The two runtimes packed with --xz are 42 + 45 MB: where what a
             GPU session may carry is smaller than both, run the parts in two sessions
             and merge them here: validate/refs/papers.py --collect RES19 RES22 (the
             tables go to RES19). A part's own tables list the other part's runs as
             "in part P"; the merge refuses a run that neither folder ran.

What runs (one GPU; each run under `timeout`):
  cgsolve    the papers' CGSolve (kokkos/code-examples europar2024), every build:
             CGSolve-kokkos-{cuda,ompt,ompt22,kmode}[-ompx] 150 200. Its main.cpp runs
             N = 150, 255 and 325 in turn in one process whatever argv[1] (N) says;
             argv[2] is the CG iteration limit (200, as miniFE; it also stops at an
             absolute residual of 1e-7). 8 builds, 2 not buildable (recorded in
             versions.txt: the -ompx file needs LLVM >= 20 and is no CUDA code).
  proxyport  BIN/cgsolve --deck inputs/minife/nN.deck --backend cuda,omp,ompx
             --warmup 1 --samples 5 for N = 150, 255, 325 (--csv/--json kept).
  testsnap   TestSNAP-kokkos-kmode (the fork, clang-22), and TestSNAP-kokkos-cuda
             and -ompt where built (the base), W_2J14 2000 atoms, -ns 10 and -ns 110.
  xsbench    XSBench-omp (clang-19) and XSBench-omp22 (clang-22), and XSBench-cuda
             where built (the base): -m event -s large -k 0, and with -l 170000000.

Offload runtimes (the node has no LLVM): REPO/.gpu-rt for LLVM 19 binaries and
REPO/.gpu-rt-llvm22 for LLVM 22 ones (scripts/gpu-runtime .refs/bin/XSBench-omp
build/nvidia-sm90; scripts/gpu-runtime --llvm .toolchain/llvm-22), each activated
in the subshell of the binaries that name it (OMP_TARGET_OFFLOAD=MANDATORY); GPU_RT19,
GPU_RT22 override the folders. A binary whose runtime is found nowhere is "not run".

Writes RESULTS/NAME.txt (each run's stdout+stderr; ProxyPort's also .csv/.json),
runs.tsv (name kind arg state exit output command note wall_s), versions.txt,
node.txt, and papers.json, papers.csv, papers.md (validate/refs/papers.py): SpMV
per call and whole solve per iteration normalized to Kokkos CUDA at each N, TestSNAP
grind times, XSBench lookups/s.

Estimated time on an H100/H200 node: 6-9 minutes in all (each run's wall time goes
to runs.tsv; nothing of this has run yet). cgsolve 3-5 min: 6 binaries of ~30-45 s,
each mostly the papers' single-threaded host-side matrix generation (1.1, 5.7 and
~12 s of CPU for N = 150, 255, 325 on the 2-core build machine), the copies of its
2-21 GB matrix and two paths x 200 iterations (~2-5 s at N = 325); proxyport ~1 min
(n150 ~6 s, n255 16 s seen on an H200, n325 ~32 s); testsnap <= 1 min (6 runs of a
few seconds, Kokkos start-up included); xsbench 1-2 min (6 runs of 10-20 s, mostly
XSBench's host initialization of the large problem: ~8 s of CPU here). --part 19
and --part 22 take about half each (3-5 min).

Exit: 0 every run that could run ran and was accepted (builds recorded as not built
are rows with their reason); 1 a run failed, an output was refused, or a binary is
missing with no recorded reason; 2 usage.
EOF
}

DRY=0 PART=
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --dry-run) DRY=1; shift ;;
    --part) [ "${2:-}" = 19 ] || [ "${2:-}" = 22 ] || { echo "papers.sh: --part takes 19 or 22" >&2; exit 2; }
            PART=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 3 ] || { usage >&2; exit 2; }
REFS=$(cd "$1" && pwd) || exit 2
BINDIR=$(cd "$2" 2>/dev/null && pwd) || BINDIR=$2
mkdir -p "$3"; RES=$(cd "$3" && pwd)
shift 3
WHAT=${*:-cgsolve proxyport testsnap xsbench}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
RT19=${GPU_RT19:-$REPO/.gpu-rt}
RT22=${GPU_RT22:-$REPO/.gpu-rt-llvm22}
VERS=$REFS/versions.txt
CG_BUILDS="cuda cuda-ompx ompt ompt-ompx ompt22 ompt22-ompx kmode kmode-ompx"
XS_L2=170000000

: > "$RES/runs.tsv"
[ -e "$VERS" ] && cp "$VERS" "$RES/"
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1; } > "$RES/node.txt"

tsv() { local IFS=$'\t'; echo "$*" >> "$RES/runs.tsv"; }
# why NAME is missing: versions.txt's NOT BUILT reason, or (rc 1) nothing recorded
why_missing() {
  local line
  line=$(grep "^$1 " "$VERS" 2>/dev/null | tail -1)
  case $line in
    *"NOT BUILT: "*) echo "${line#*NOT BUILT: }" | tr '\t' ' '; return 0 ;;
    '') echo "no binary and no line in versions.txt: not built (validate/refs/build.sh SRC REFS papers)"; return 1 ;;
    *) echo "versions.txt says it was built, but $1 is not in REFS/bin (not carried?)"; return 1 ;;
  esac
}

# The offload runtime a binary names (libomptarget.so.19.x or .22.x): the folder to
# activate, "" for none needed (or found by the loader), or rc 1 with the reason
runtime_for() {
  local so d
  so=$(grep -ao 'libomptarget\.so\.[0-9][0-9]*' "$1" | head -1)
  [ -n "$so" ] || { echo ""; return 0; }
  case $so in libomptarget.so.19) d=$RT19 ;; libomptarget.so.22) d=$RT22 ;; *) d= ;; esac
  if [ -n "$d" ] && [ -e "$d/activate" ]; then echo "$d"; return 0; fi
  if ldd "$1" 2>/dev/null | grep -q "$so.* => /"; then echo ""; return 0; fi
  echo "needs ${so}.x and there is no ${d#"$REPO"/}/activate here (scripts/gpu-runtime; see --help)"
  return 1
}

# The part a run belongs to (--part): 22 for the LLVM 22 builds, 19 for the others
part_of() {
  case $1 in
    *ompt22*|*kmode*|XSBench-omp22*) echo 22 ;;
    cgsolve-n*) if [ -x "$BINDIR/cgsolve" ] && grep -aq 'libomptarget\.so\.22' "$BINDIR/cgsolve"; then echo 22; else echo 19; fi ;;
    *) echo 19 ;;
  esac
}

# one NAME KIND ARG TIMEOUT OUTFILE BINARY ARGS...: a run, or its row saying why not
# (optional=1 in the environment: a missing base build is a row, not an error)
one() {
  local name=$1 kind=$2 arg=$3 limit=$4 out=$5 bin=$6; shift 6
  local cmd="${bin//$REFS/REFS} $*" rt note rc t0 part
  cmd=${cmd//$BINDIR/BIN}; cmd=${cmd//$REPO\//}
  part=$(part_of "$name")
  if [ -n "$PART" ] && [ "$part" != "$PART" ]; then
    tsv "$name" "$kind" "$arg" other-part - - "$cmd" "$part" 0
    return 0
  fi
  if [ ! -x "$bin" ]; then
    if [ "$(basename "$bin")" = cgsolve ]; then
      note="no ProxyPort cgsolve in $BINDIR (build the nvidia-sm90 preset)"; rc=1
    else
      note=$(why_missing "$(basename "$bin")"); rc=$?
    fi
    if [ $rc = 0 ] || [ "${optional:-0}" = 1 ]; then
      [ "${optional:-0}" = 1 ] && [ $rc != 0 ] && note="optional base, not in REFS/bin (validate/refs/build.sh SRC REFS xsbench testsnap testsnap-ompt)"
      echo "papers.sh: $name: not built: $note"
      tsv "$name" "$kind" "$arg" not-built - - "$cmd" "$note" 0
    else
      echo "papers.sh: $name: MISSING: $note" >&2
      tsv "$name" "$kind" "$arg" missing - - "$cmd" "$note" 0
    fi
    return 0
  fi
  if ! rt=$(runtime_for "$bin"); then
    echo "papers.sh: $name: not run: $rt" >&2
    tsv "$name" "$kind" "$arg" no-runtime - - "$cmd" "$rt" 0
    return 0
  fi
  echo "papers.sh: $name: ${rt:+(. ${rt#"$REPO"/}/activate) }$cmd"
  if [ $DRY = 1 ]; then return 0; fi
  t0=${EPOCHREALTIME/./}
  (
    # shellcheck disable=SC1091
    if [ -n "$rt" ]; then . "$rt/activate"; fi
    export OMP_TARGET_OFFLOAD=${OMP_TARGET_OFFLOAD:-MANDATORY}
    exec timeout -k 10 "$limit" "$bin" "$@"
  ) > "$RES/$out.txt" 2>&1
  rc=$?
  [ $rc = 124 ] && echo "papers.sh: timed out after $limit s" >> "$RES/$out.txt"
  local us=$((${EPOCHREALTIME/./} - t0)) file=$out.txt wall
  wall=$((us / 1000000)).$(printf %01d $((us / 100000 % 10)))
  [ "$kind" = cgsolve-pp ] && file=$out.csv
  tsv "$name" "$kind" "$arg" ran "$rc" "$file" "$cmd" "${rt:+runtime ${rt#"$REPO"/}}" "$wall"
  echo "papers.sh: $name: exit $rc, $wall s"
}

for w in $WHAT; do
  case $w in
    cgsolve)
      for b in $CG_BUILDS; do
        one "CGSolve-kokkos-$b" cgsolve-paper "CGSolve-kokkos-$b" 600 "CGSolve-kokkos-$b" \
          "$REFS/bin/CGSolve-kokkos-$b" 150 200
      done ;;
    proxyport)
      for n in 150 255 325; do
        one "cgsolve-n$n" cgsolve-pp "$n" 600 "cgsolve-n$n" "$BINDIR/cgsolve" \
          --deck "$REPO/inputs/minife/n$n.deck" --backend cuda,omp,ompx --warmup 1 --samples 5 \
          --csv "$RES/cgsolve-n$n.csv" --json "$RES/cgsolve-n$n.json"
      done ;;
    testsnap)
      for b in cuda ompt kmode; do
        for s in 10 110; do
          optional=$([ $b = kmode ] && echo 0 || echo 1) \
            one "TestSNAP-kokkos-$b-ns$s" testsnap "$s" 300 "TestSNAP-kokkos-$b-ns$s" \
            "$REFS/bin/TestSNAP-kokkos-$b" -ns "$s"
        done
      done ;;
    xsbench)
      for b in cuda omp omp22; do
        for l in default $XS_L2; do
          if [ "$l" = default ]; then set -- -m event -s large -k 0; n=17000000
          else set -- -m event -s large -k 0 -l $XS_L2; n=$XS_L2; fi
          optional=$([ $b = cuda ] && echo 1 || echo 0) \
            one "XSBench-$b-l$n" "$([ $b = cuda ] && echo xsbench-cuda || echo xsbench-omp)" "$n" 300 \
            "XSBench-$b-l$n" "$REFS/bin/XSBench-$b" "$@"
        done
      done ;;
    *) echo "papers.sh: unknown WHAT $w" >&2; usage >&2; exit 2 ;;
  esac
done
[ $DRY = 1 ] && exit 0
python3 "$HERE/papers.py" --collect ${PART:+--partial} "$RES"
rc=$?
echo "papers.sh: $RES/papers.md written$([ $rc = 0 ] || echo ', with failed, refused or missing runs (see above)')"
exit $rc

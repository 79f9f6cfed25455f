#!/bin/sh
# validate/publish.sh end to end on stand-in binaries (the real ones run only on
# a GPU node): every step runs in order, one failing step (xsbench_like) fails the
# run (exit 1) without stopping the others, and the log names each step.
# Usage: publish_test.sh SRC_ROOT WORK
set -u
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work/bin" || exit 1
# a stand-in for every app of the list (apps.txt)
for app in $(grep -v '^[[:space:]]*#' "$src/apps.txt" | tr -d '[:blank:]' | grep .); do
  printf '#!/bin/sh\necho "%s $*" >> "%s/calls.txt"\n[ %s != xsbench_like ]\n' "$app" "$work" "$app" > "$work/bin/$app"
  chmod +x "$work/bin/$app"
done
cd "$src" || exit 1
# --binary-stamp-only: the tree check of gpu-run.sh would make the test depend on a clean checkout
BIN="$work/bin" validate/publish.sh --no-refs --binary-stamp-only "$work/out" > "$work/publish.out" 2>&1
rc=$?
cat "$work/publish.out"
[ "$rc" = 1 ] || { echo "publish_test: exit $rc, expected 1 (xsbench_like's stand-in fails)"; exit 1; }
# one line "NAME rc=N S s" per step of the dry run (its commands, gpu-check's included)
steps=$(validate/publish.sh --dry-run --no-refs "$work/out" | grep -c .)
logged=$(grep -c '^[^ ]* rc=[0-9]* ' "$work/out/publish.log")
[ "$steps" -gt 1 ] && [ "$logged" = "$steps" ] ||
  { echo "publish_test: publish.log has $logged step lines, the dry run $steps steps"; exit 1; }
grep -q "^xsbench-large rc=1 " "$work/out/publish.log" || { echo "publish_test: the failed step is not logged as failed"; exit 1; }
grep -q "^gpu-check rc=1 " "$work/out/publish.log" || { echo "publish_test: gpu-check must fail on the failing stand-in"; exit 1; }
[ "$(grep -c '^microbench --backend all --size 2^24,2^26 --json' "$work/calls.txt")" = 1 ] ||
  { echo "publish_test: microbench was not run once at the published sizes, every model"; exit 1; }
# the published cases that ReFrame takes references from keep every model (host included)
for c in 'xsbench_like --backend all -s large --variant all --json' 'testsnap --backend all --case W_2J14_2000_disp --json'; do
  grep -q "^$c" "$work/calls.txt" || { echo "publish_test: not run with every model: $c"; exit 1; }
done
# the apps refuse an option given twice (the last value would win): no step passes one twice
dup=$(awk '{ split("", seen); for (i = 2; i <= NF; i++) if ($i ~ /^--?[A-Za-z]/ && seen[$i]++) { print; next } }' "$work/calls.txt")
[ -z "$dup" ] || { echo "publish_test: an option given twice: $dup"; exit 1; }
echo "publish_test: every step ran, the failure was reported"

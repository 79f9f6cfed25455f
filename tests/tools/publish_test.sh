#!/bin/sh
# validate/publish.sh end to end on stand-in binaries (the real ones run only on
# a GPU node): every step runs in order, a failing step fails the run (exit 1)
# without stopping the others, and publish.log names each step with its exit code.
# Usage: publish_test.sh SRC_ROOT WORK
set -u
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work/bin" || exit 1
# a stand-in for every app of the list: logs its call, prints nothing (so the suite,
# which validates every run's JSON, must fail), xsbench_like also exits 1
for app in $(grep -v '^[[:space:]]*#' "$src/apps.txt" | tr -d '[:blank:]' | grep .); do
  printf '#!/bin/sh\necho "%s $*" >> "%s/calls.txt"\n[ %s != xsbench_like ]\n' "$app" "$work" "$app" > "$work/bin/$app"
  chmod +x "$work/bin/$app"
done
cd "$src" || exit 1
BIN="$work/bin" timeout 300 validate/publish.sh --no-peers "$work/out" > "$work/publish.out" 2>&1
rc=$?
cat "$work/publish.out"
[ "$rc" = 1 ] || { echo "publish_test: exit $rc, expected 1 (the stand-ins print no results)"; exit 1; }
# one line "NAME<TAB>rc=N<TAB>S s<TAB>COMMAND" per step: the dry run's commands and the manifest
steps=$(validate/publish.sh --dry-run --no-peers "$work/out" | grep -c .)
logged=$(grep -c "^[a-z-]*	rc=[0-9]*	" "$work/out/publish.log")
[ "$logged" = $((steps + 1)) ] ||
  { echo "publish_test: publish.log has $logged step lines, expected $((steps + 1)) (dry run + manifest)"; exit 1; }
for s in suite no-energy gpu-check energy-check manifest; do
  grep -q "^$s	rc=" "$work/out/publish.log" || { echo "publish_test: step $s not logged"; exit 1; }
done
grep -q "^suite	rc=[1-9]" "$work/out/publish.log" || { echo "publish_test: the suite on empty stand-ins must fail"; exit 1; }
grep -q "^gpu-check	rc=[1-9]" "$work/out/publish.log" || { echo "publish_test: gpu-check must fail on the failing stand-in"; exit 1; }
# the suite and gpu-check reached the stand-ins (the steps after a failure still ran)
grep -q "^microbench " "$work/calls.txt" && grep -q "^xsbench_like " "$work/calls.txt" ||
  { echo "publish_test: the stand-ins were not called"; exit 1; }
[ -s "$work/out/node.txt" ] || { echo "publish_test: no node.txt"; exit 1; }
# the apps refuse an option given twice (the last value would win): no step passes one twice
dup=$(awk '{ split("", seen); for (i = 2; i <= NF; i++) if ($i ~ /^--?[A-Za-z]/ && seen[$i]++) { print; next } }' "$work/calls.txt")
[ -z "$dup" ] || { echo "publish_test: an option given twice: $dup"; exit 1; }
echo "publish_test: every step ran, the failure was reported"

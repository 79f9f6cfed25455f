#!/bin/sh
# gpu_check_plan.sh SOURCE_DIR: validate/gpu-check.sh --dry-run plans every app of
# apps.txt (the [gpu_check] lines of its manifest, or its default case) and runs
# nothing (its binaries here do not exist).
set -u
cd "$1" || exit 2
out=$(validate/gpu-check.sh --dry-run /nonexistent/bin 2>&1) || { echo "FAIL gpu-check --dry-run: exit $?: $out"; exit 1; }
fails=0
for app in $(grep -v '^[[:space:]]*#' apps.txt | tr -d '[:blank:]' | grep .); do
  n=$(printf '%s\n' "$out" | grep -c "/nonexistent/bin/$app ")
  [ "$n" -gt 0 ] || { echo "FAIL gpu-check plans no check of $app"; fails=1; }
  echo "$app: $n checks"
done
printf '%s\n' "$out" | grep -q "^ok\|^FAIL\|all passed" && { echo "FAIL the dry run ran something: $out"; fails=1; }
[ $fails = 0 ] && echo "gpu_check_plan: every app planned, nothing run"
exit $fails

#!/bin/sh
# scaling_plan.sh SOURCE_DIR WORK: validate/scaling-run.sh --dry-run at 1 and 2 GPUs plans
# every app whose manifest names scaling series, at both rank counts, and runs and writes
# nothing (its binaries here do not exist).
set -u
cd "$1" || exit 2
w=$2
rm -rf "$w"
out=$(GPUS="1 2" MPIRUN=mpirun validate/scaling-run.sh --dry-run "$w/out" /nonexistent/bin 2>&1) ||
  { echo "FAIL scaling-run --dry-run: exit $?: $out"; exit 1; }
fails=0
for app in $(PYTHONPATH=validate python3 -m pptools.apps list --with scaling.series); do
  for p in 1 2; do
    n=$(printf '%s\n' "$out" | grep -c "^mpirun -n $p /nonexistent/bin/$app .* --json $w/out/$app-.*-$p\.json$")
    [ "$n" -gt 0 ] || { echo "FAIL scaling-run plans no run of $app on $p GPU(s)"; fails=1; }
    echo "$app, $p GPU(s): $n runs"
  done
done
[ -e "$w" ] && { echo "FAIL the dry run wrote $w"; fails=1; }
[ $fails = 0 ] && echo "scaling_plan: every app with series planned, nothing run"
exit $fails

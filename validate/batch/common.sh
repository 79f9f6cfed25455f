# shellcheck shell=bash
# Sourced by the job scripts of validate/batch, in the repository root (submit
# from there). Sets PP_BIN (the apps: $PP_BIN, else the site file's build folder,
# else build/$PP_PRESET/bin) and
# PP_RESULTS (one folder for the job, one subfolder per GPU); pp_report lists
# each GPU's verdict after the launch.
[[ -x validate/suite ]] || { echo "batch: submit from the ProxyPort repository root" >&2; exit 2; }
# A site file (PP_SITE_FILE; build PP_SITE_BUILD, else its default): its build's
# modules and environment, the suite's run.env, and the build folder scripts/setup
# --site made (build/<site>-<build>); every result records the file.
if [[ -n ${PP_SITE_FILE:-} ]]; then
  pp_site_code=$(python3 "$PWD/validate/site" shell \
    "$PP_SITE_FILE" ${PP_SITE_BUILD:+--build "$PP_SITE_BUILD"} --run) || exit 2
  eval "$pp_site_code"
  export PP_BIN=${PP_BIN:-$PWD/build/$pp_site_name-$pp_site_build/bin}
fi
export PP_BIN=${PP_BIN:-$PWD/build/${PP_PRESET:?set PP_PRESET, PP_SITE_FILE or PP_BIN}/bin}
# every app of the one list (apps.txt) must be built
for app in $(grep -v '^[[:space:]]*#' apps.txt | tr -d '[:blank:]' | grep .); do
  [[ -x $PP_BIN/$app ]] || { echo "batch: no $app in $PP_BIN (build first: see the script's header)" >&2; exit 2; }
done
export PP_RESULTS=${PP_RESULTS:-$PWD/runs/batch-${PP_JOB:-job}-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$PP_RESULTS"
echo "batch: apps from $PP_BIN, results in $PP_RESULTS"

pp_report() {  # the launcher's status as the job's; one verdict line per GPU
  local rc=$1 s
  for s in "$PP_RESULTS"/*/summary.md; do
    [[ -e $s ]] || { echo "batch: no summary written (see $PP_RESULTS/*.log)"; return 1; }
    echo "${s%/summary.md}:"; grep -e '^- every app validated' -e '^- reportable' "$s"
  done
  return "$rc"
}

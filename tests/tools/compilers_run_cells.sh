#!/usr/bin/env bash
# Every outcome of a compiler-matrix cell, end to end without a GPU or a build:
# validate/compilers-run.sh on a fake matrix (one tag per outcome, stub
# binaries) must record PASS, FAIL, BUILD-FAIL, TIMEOUT and CRASH(SEGV) in
# summary.tsv, and `compare --report --status` must draw each as its word in
# the heat map (heatmap.json "cells") and exit 1.
# Usage: tests/tools/compilers_run_cells.sh WORKDIR
# CELLS_FAULT=no-status leaves --status out of the report (the check must then fail).
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
w=${1:?usage: compilers_run_cells.sh WORKDIR}
rm -rf "$w" && mkdir -p "$w/root"

# stub APP TAG BEHAVIOUR [MODELS]: a fake build of APP; BEHAVIOUR pass|fail writes a result
# (cuda 1 ms, the others' M[TAG] 2 ms, valid or not; for the models of --backend), sleep
# outlives the timeout, segv crashes.
stub() {
  local d=$w/root/$2
  mkdir -p "$d/bin"
  echo clang-19 > "$d/runtime"
  echo "${4:-omp,cuda}" > "$d/models"
  echo "$1" >> "$d/apps"
  cat > "$d/bin/$1" <<EOF
#!/usr/bin/env bash
json=""; be=""
while ((\$#)); do [[ \$1 == --json ]] && json=\$2; [[ \$1 == --backend ]] && be=\$2; shift; done
case $3 in
  sleep) sleep 30 ;;
  segv) kill -SEGV \$\$ ;;
esac
python3 - "\$json" "\$be" <<'PY'
import json, sys
valid = "$3" == "pass"
rows = [{"kernel": k, "model": m, "label": "" if m == "cuda" else f"{m}[$2]", "size": 1000, "variant": "",
         "samples": [(1e-3 if m == "cuda" else 2e-3) * (1 + 0.01 * i) for i in range(5)],
         "valid": valid or m == "cuda", "check": "checksum 1 == 1" if valid or m == "cuda" else "checksum 2 != 1"}
        for k in ("event", "step") for m in sys.argv[2].split(",")]
json.dump({"schema": "proxyport-result-1", "app": "$1", "validated": valid, "results": rows,
           "devices": []}, open(sys.argv[1], "w"))
PY
[[ $3 == pass ]]
EOF
  chmod +x "$d/bin/$1"
}
stub xsbench_like good pass
stub xsbench_like wrong fail
stub xsbench_like hang sleep
stub xsbench_like crash segv
# the app did not build at all (every model), and one model of it did not (built without it)
mkdir -p "$w/root/nobuild"
echo clang-19 > "$w/root/nobuild/runtime"
echo omp > "$w/root/nobuild/models"
: > "$w/root/nobuild/apps"
printf 'xsbench_like\tomp\txsbench_like/kernels/omp.c:1:1: error: planted\n' > "$w/root/nobuild/build-fail"
stub xsbench_like halfbuilt pass omp,ompx,cuda
printf 'xsbench_like\tomp\txsbench_like/kernels/omp.c:2:2: error: planted\n' > "$w/root/halfbuilt/build-fail"

out=$w/out
RUN_TIMEOUT=2 SLOW_TAGS='' "$repo/validate/compilers-run.sh" --preset cpu --root "$w/root" "$out"
rc=$?
echo "compilers-run exit $rc"
cat "$out/summary.tsv"
status=(--status "$out/summary.tsv")
[[ ${CELLS_FAULT:-} != no-status ]] || status=()
python3 "$repo/validate/compare" --report "$w/report" "${status[@]}" "$out"/*.json
rrc=$?
echo "compare exit $rrc"
python3 - "$out/summary.tsv" "$w/report" "$rc" "$rrc" <<'EOF'
import json, os, sys
tsv, rep, rc, rrc = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
res = {l.split("\t")[1]: l.split("\t")[5] for l in open(tsv).read().splitlines()[1:]}
rows = [l.split("\t") for l in open(tsv).read().splitlines()[1:]]
want = {"good": "PASS", "wrong": "FAIL", "nobuild": "BUILD-FAIL", "hang": "TIMEOUT", "crash": "CRASH(SEGV)"}
errors = [f"summary.tsv {t}: {res.get(t)} != {w}" for t, w in want.items() if res.get(t) != w]
half = sorted((r[2], r[5]) for r in rows if r[1] == "halfbuilt")
if half != [("omp", "BUILD-FAIL"), ("ompx,cuda", "PASS")]:
    errors.append(f"halfbuilt: {half} is not omp BUILD-FAIL and the run of ompx,cuda")
if rc != 3: errors.append(f"compilers-run exit {rc} != 3 (a timeout or crash)")
if rrc != 1: errors.append(f"compare --report exit {rrc} != 1")
h = json.load(open(os.path.join(rep, "heatmap.json")))
cells = {(r, c): h["cells"][i][j] for i, r in enumerate(h["rows"]) for j, c in enumerate(h["cols"])}
for tag, w in {"wrong": "FAIL", "nobuild": "BUILD-FAIL", "hang": "TIMEOUT", "crash": "CRASH",
               "halfbuilt": "BUILD-FAIL"}.items():
    for col in ("xsbench_like:event", "xsbench_like:step"):
        if cells.get((f"omp[{tag}]", col)) != w:
            errors.append(f"heat map omp[{tag}] {col}: {cells.get((f'omp[{tag}]', col))!r} != {w!r}")
for x in ("omp[good]", "ompx[halfbuilt]"):
    if x not in h["rows"] or cells.get((x, "xsbench_like:event")) is not None or \
            not 1.9 < h["values"][h["rows"].index(x)][0] < 2.1:
        errors.append(f"{x} is not a plain 2x value")
md = open(os.path.join(rep, "report.md")).read()
if "| xsbench_like | omp[nobuild] | **BUILD-FAIL** | xsbench_like/kernels/omp.c:1:1: error: planted |" not in md:
    errors.append("report.md lacks the BUILD-FAIL line with its reason")
print("FAIL: " + "; ".join(errors) if errors else "PASS: every cell outcome recorded and drawn")
sys.exit(1 if errors else 0)
EOF

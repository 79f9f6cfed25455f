#!/usr/bin/env bash
# The compiler matrix on the CPU (scripts/test step, not the default ctest: it
# builds): clang-19 and gcc-12 builds (cpu preset) of microbench, xsbench_like
# and testsnap, each run briefly; every run must validate and label its omp rows
# omp[clang-19] / omp[gcc-12] (microbench: host[TAG] too, and gcc-12's ompx
# reported as not available).
# Usage: tests/setup/compiler_matrix.sh [--no-build] [--tags TAG,...] [--apps LIST]
# --tags: the matrix cells (default clang-19,gcc-12; scripts/test runs clang-22 in a step of
# its own, after scripts/llvm-offload); --apps: of apps.txt, or all (default: the three
# below; each app's short run: its manifest's [compilers] cpu).
# MATRIX_FAULT=NAME plants a microbench fault in both compilers' runs,
# MATRIX_FAULT=APP:NAME one of APP's (xsbench_like:xs-checksum, testsnap:snap-force):
# the check must then fail.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
apps=(microbench xsbench_like testsnap) # a subset of apps.txt: the default, the apps CI runs for every cell
tags=(clang-19 gcc-12) build=1
while (($#)); do
  case $1 in
    --no-build) build=0 ;;
    --tags) IFS=, read -ra tags <<< "${2:?--tags TAG,...}"; shift ;;
    --apps) if [[ ${2:?--apps LIST|all} == all ]]; then mapfile -t apps < <(grep -v '^[[:space:]]*#' apps.txt | tr -d '[:blank:]' | grep .)
            else IFS=, read -ra apps <<< "$2"; fi; shift ;;
    *) echo "compiler_matrix.sh: unknown argument '$1'"; exit 2 ;;
  esac
  shift
done
if ((build)); then
  scripts/compilers build --preset cpu --apps "$(IFS=,; echo "${apps[*]}")" --only "$(IFS=,; echo "${tags[*]}")"
fi
fault_app=microbench fault=${MATRIX_FAULT:-}
[[ $fault != *:* ]] || { fault_app=${fault%%:*}; fault=${fault#*:}; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMP_TARGET_OFFLOAD=MANDATORY OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive PP_INPUTS=$repo/inputs
# Short runs: each app's [compilers] cpu in its manifest (<app>/app.toml; else its default
# case on the omp model).
args() { PYTHONPATH="$repo/validate" python3 -m pptools.apps get "$1" compilers.cpu --default "--backend omp"; }
fail=0
for tag in "${tags[@]}"; do
  for app in "${apps[@]}"; do
    bin=build/matrix/cpu/$tag/bin/$app
    [[ -x $bin ]] || { echo "FAIL: $bin was not built"; fail=1; continue; }
    planted=()
    [[ -z $fault || $app != "$fault_app" ]] || planted=(--inject-fault "$fault")
    rc=0
    # shellcheck disable=SC2046
    "$bin" $(args "$app") --bootstrap 50 --ceiling-mib 8 "${planted[@]}" --json "$out/$app-$tag.json" \
      > "$out/$app-$tag.txt" 2>&1 || rc=$?
    if ((rc != 0)); then
      echo "FAIL: $tag $app exit $rc"; grep -E " FAIL |rror" "$out/$app-$tag.txt" | head -n 5; fail=1; continue
    fi
    python3 - "$out/$app-$tag.json" "$tag" "$app" <<'EOF' || fail=1
import json, sys
path, tag, app = sys.argv[1:4]
d = json.load(open(path))
b = d["build"]
labels = {r["label"] for r in d["results"]}
want = {f"omp[{tag}]"} | ({f"host[{tag}]"} if app == "microbench" else set())
errors = []
if not want <= labels: errors.append(f"labels {sorted(labels)} lack {sorted(want - labels)}")
if b.get("tag") != tag: errors.append(f"build.tag {b.get('tag')!r} != {tag!r}")
if not d.get("validated"): errors.append("not validated")
if not d["results"] or not all(r["valid"] for r in d["results"]): errors.append("a row failed")
if tag.startswith("gcc") and app == "microbench":
    ompx = [x for x in d["devices"] if x["model"] == "ompx"]
    if not ompx or "not available with gcc" not in ompx[0].get("reason", ""):
        errors.append(f"ompx not reported as unavailable: {ompx}")
print((f"FAIL {tag} {app}: " + "; ".join(errors)) if errors else
      f"PASS {tag} {app}: {len(d['results'])} rows of {sorted(labels)} validated ({b['omp_compiler_banner']})")
sys.exit(1 if errors else 0)
EOF
  done
done
[[ ! -f $out/microbench-gcc-12.txt ]] || grep -h "ompx\[gcc-12\]" "$out/microbench-gcc-12.txt" || true
exit $fail

#!/usr/bin/env bash
# The compiler matrix on the CPU (scripts/test step, not the default ctest: it
# builds): clang-19 and gcc-12 builds of microbench (cpu preset), each run
# briefly; both must validate and label their omp rows omp[clang-19] and
# omp[gcc-12], with gcc-12's ompx reported as not available.
# Usage: tests/compiler_matrix.sh [--no-build]
# MATRIX_FAULT=NAME plants a microbench fault in both runs (the check must then fail).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
if [[ ${1:-} != --no-build ]]; then
  scripts/compilers build --preset cpu --apps microbench --only clang-19,gcc-12
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMP_TARGET_OFFLOAD=MANDATORY OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive
fail=0
for tag in clang-19 gcc-12; do
  bin=build/matrix/cpu/$tag/bin/microbench
  [[ -x $bin ]] || { echo "FAIL: $bin was not built"; fail=1; continue; }
  rc=0
  "$bin" --backend host,omp --size 4096 --tpb 256 --kernels triad,dot,atomic_update --warmup 1 --samples 2 \
    --bootstrap 50 --ceiling-mib 8 ${MATRIX_FAULT:+--inject-fault "$MATRIX_FAULT"} --json "$out/$tag.json" > "$out/$tag.txt" 2>&1 || rc=$?
  if ((rc != 0)); then echo "FAIL: $tag microbench exit $rc"; tail -n 20 "$out/$tag.txt"; fail=1; continue; fi
  python3 - "$out/$tag.json" "$tag" <<'EOF' || fail=1
import json, sys
path, tag = sys.argv[1], sys.argv[2]
d = json.load(open(path))
b = d["build"]
labels = {r["label"] for r in d["results"]}
want = {f"omp[{tag}]", f"host[{tag}]"}
errors = []
if not want <= labels: errors.append(f"labels {sorted(labels)} lack {sorted(want - labels)}")
if b.get("tag") != tag: errors.append(f"build.tag {b.get('tag')!r} != {tag!r}")
if not d.get("validated"): errors.append("not validated")
if not all(r["valid"] for r in d["results"]): errors.append("a row failed")
if tag.startswith("gcc"):
    ompx = [x for x in d["devices"] if x["model"] == "ompx"]
    if not ompx or "not available with gcc" not in ompx[0].get("reason", ""):
        errors.append(f"ompx not reported as unavailable: {ompx}")
print(("FAIL: " + "; ".join(errors)) if errors else
      f"PASS {tag}: {sorted(labels)} validated ({b['omp_compiler_banner']})")
sys.exit(1 if errors else 0)
EOF
done
grep -h "ompx\[gcc-12\]" "$out/gcc-12.txt" || true
exit $fail

#!/bin/sh
# new_app.sh SOURCE_DIR BIN_DIR WORK CC (env CMAKE, CTEST: the tools): the proof that
# adding an app is its folder and a line of apps.txt (docs/developer-guide.md, "Adding
# an app"). In a copy of the source tree, microbench/ is copied to newbench/ (renamed in
# its CMakeLists.txt and its main.c's app name; its manifest without microbench's
# published runs, table rows and peer group, which a new app does not have yet, and
# with a weak scaling series, as an app that splits its work over ranks has) and
# newbench added to apps.txt. Nothing else changes, and the copy must:
#   - configure and build newbench (host model, CC), which answers --version;
#   - have newbench's generic tests (tests/apps/apps.cmake, schema, energy, outputs,
#     version), and pass those that need no other target;
#   - be planned by validate/suite --dry-run (beside BIN_DIR's apps),
#     validate/gpu-check.sh --dry-run and validate/scaling-run.sh --dry-run, and be
#     known to validate/scaling.
set -u
src=$1 bindir=$2 w=$3 cc=$4
fail() { echo "new_app: FAIL $*"; exit 1; }
rm -rf "$w" && mkdir -p "$w/src" "$w/bin" || exit 2
# the source tree as a checkout has it (its files and the new ones git does not ignore)
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$src" && git ls-files -co --exclude-standard | while IFS= read -r f; do [ ! -e "$f" ] || echo "$f"; done |
    tar -cf - -T -) | tar -C "$w/src" -xf - ||
    fail "cannot copy the source tree"
else
  echo "new_app: skipped: $src is not a git checkout (a source tarball: no file list to copy)"
  exit 77
fi
cp -a "$w/src" "$w/orig"
s=$w/src
# the new app: a copy of microbench under a new name
cp -r "$s/microbench" "$s/newbench"
sed -i 's/pp_add_app(NAME microbench/pp_add_app(NAME newbench/' "$s/newbench/CMakeLists.txt"
sed -i 's/\.name = "microbench"/.name = "newbench"/' "$s/newbench/main.c"
awk '/^\[/ { drop = ($0 ~ /^\[(peers|\[publish|\[results_table)\]/) } /^published *=/ { next } !drop' \
  "$s/microbench/app.toml" > "$s/newbench/app.toml"
cat >> "$s/newbench/app.toml" <<'EOF'

[scaling]
series = "scaling.sh"
EOF
cat > "$s/newbench/scaling.sh" <<'EOF'
# newbench's scaling series: each rank its own arrays (weak scaling)
series small-weak "$p" $samples --size 2^20 --kernels triad
EOF
echo newbench >> "$s/apps.txt"
# nothing else changed
changed=$(diff -rq "$w/orig" "$s")
[ "$changed" = "Files $w/orig/apps.txt and $s/apps.txt differ
Only in $s: newbench" ] || fail "the copy differs from the source tree elsewhere: $changed"

# configure and build it
b=$w/build
${CMAKE:-cmake} -S "$s" -B "$b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" -DPP_OFFLOAD=none \
  -DPP_ENABLE_CUDA=OFF -DPP_ENABLE_HIP=OFF -DPP_ENABLE_MPI=OFF > "$w/configure.log" 2>&1 ||
  { tail -n 30 "$w/configure.log"; fail "configure"; }
${CMAKE:-cmake} --build "$b" -j2 --target newbench > "$w/build.log" 2>&1 || { tail -n 30 "$w/build.log"; fail "build"; }
"$b/bin/newbench" --version | grep -q "^newbench (ProxyPort" || fail "newbench --version"
echo "new_app: newbench configured and built"

# its generated tests
tests=$(${CTEST:-ctest} --test-dir "$b" -N | sed -n 's/^ *Test *#[0-9]*: //p')
for t in newbench_validate newbench_fault_missed newbench_fault_unknown newbench_help newbench_bad_option \
         schema_newbench energy_unit_newbench outputs_closed_stdout_newbench version_newbench; do
  printf '%s\n' "$tests" | grep -qx "$t" || fail "no generated test $t"
done
${CTEST:-ctest} --test-dir "$b" -R '^(newbench_(validate|fault_missed|fault_unknown|help|bad_option)|outputs_closed_stdout_newbench)$' \
  > "$w/ctest.log" 2>&1 || { cat "$w/ctest.log"; fail "newbench's generated tests"; }
grep -q "100% tests passed, 0 tests failed out of 6" "$w/ctest.log" || { cat "$w/ctest.log"; fail "not 6 tests run"; }
echo "new_app: newbench has its 9 generated tests; the 6 that need no other target pass"

# planned by the tools of the copy: the suite (beside the other apps' binaries), gpu-check, scaling
for app in $(grep -v '^[[:space:]]*#' "$s/apps.txt" | tr -d '[:blank:]' | grep .); do
  ln -s "$bindir/$app" "$w/bin/$app"
done
ln -sf "$b/bin/newbench" "$w/bin/newbench"
out=$("$s/validate/suite" --bin "$w/bin" --dry-run --scale small 2>&1) || fail "suite --dry-run: $out"
printf '%s\n' "$out" | grep -q "^$w/bin/newbench --backend [a-z,]* --size 2^16,2^20$" ||
  fail "the suite does not plan newbench's small case: $out"
out=$(cd "$s" && validate/gpu-check.sh --dry-run "$w/bin" 2>&1) || fail "gpu-check --dry-run: $out"
[ "$(printf '%s\n' "$out" | grep -c "$w/bin/newbench --backend all")" -ge 2 ] ||
  fail "gpu-check does not plan newbench's checks: $out"
out=$(GPUS="1 2" MPIRUN=mpirun "$s/validate/scaling-run.sh" --dry-run "$w/scaling" "$w/bin" 2>&1) ||
  fail "scaling-run --dry-run: $out"
for p in 1 2; do
  printf '%s\n' "$out" | grep -q "^mpirun -n $p $w/bin/newbench .* --size 2^20 --kernels triad --json $w/scaling/newbench-small-weak-$p.json$" ||
    fail "scaling-run does not plan newbench on $p GPU(s): $out"
done
mkdir -p "$w/empty"
out=$("$s/validate/scaling" "$w/empty" 2>&1)
printf '%s\n' "$out" | grep -q "files of .*newbench" || fail "validate/scaling does not know newbench: $out"
echo "new_app: newbench planned by the suite, gpu-check and scaling"
echo "new_app: a new app is its folder and a line of apps.txt"

#!/bin/sh
# app_manifest_planted.sh SOURCE_DIR WORK: manifests outside their TOML subset (or with
# a key no tool knows), each of which CMake (cmake/AppManifest.cmake) and
# pptools/apps.py must both refuse with a message naming it; a good one both read.
set -u
src=$1 w=$2
rm -rf "$w" && mkdir -p "$w" || exit 1
fails=0
# (CMake wraps its messages: lines joined, spaces squeezed)
cmake_reads() {
  cmake -DSRC="$src" -DFILE="$1" -P "$src/tests/apps/app_manifest_read.cmake" > "$w/cmake.out" 2>&1
  rc=$?
  tr -s ' \n' '  ' < "$w/cmake.out"
  return $rc
}
py_reads() { PYTHONPATH="$src/validate" python3 -m pptools.apps check --file "$1" 2>&1; }
# plant NAME CMAKE_MESSAGE PYTHON_MESSAGE LINE...: a manifest of these lines
plant() {
  name=$1 cre=$2 pre=$3
  shift 3
  f=$w/$name.toml bad=$fails fails=0
  printf '%s\n' "[tests]" 'missed = "triad"' "$@" > "$f"
  out=$(cmake_reads "$f") && { echo "FAIL $name: CMake read it: $out"; fails=1; }
  echo "$out" | grep -q -- "$cre" || { echo "FAIL $name: CMake's message lacks '$cre': $out"; fails=1; }
  out=$(py_reads "$f"); rc=$?
  [ $rc = 2 ] && echo "$out" | grep -q -- "$pre" ||
    { echo "FAIL $name: pptools/apps.py: exit $rc (want 2), message lacking '$pre': $out"; fails=1; }
  [ $fails = 1 ] || echo "ok   $name"
  fails=$((fails | bad))
}
plant semicolon "a ';' or" "not a value" 'energy_unit = "GB;J"'
plant bracket "a '\[' or '\]' in a string" "an array" 'small = ["--kernels", "a[0]"]'
plant escape "a ';' or '\\\\'" "not a value" 'energy_unit = "GB\"J"'
plant inline_table "not a value of the manifests' TOML subset" "not a value" 'energy_unit = {unit = "GB/J"}'
plant dotted_key "expected \[table\]" "expected \[table\]" 'tests.energy_unit = "GB/J"'
plant unclosed "is not closed" "is not closed" 'small = ["--size",' '  "4096",'
plant twice "set again" "set again" 'missed = "dot"'
plant numbers "strings\" only" "strings\" only" 'small = [1, 2]'
# what only the tools know: the keys and their types
f=$w/typo.toml
printf '%s\n' "[tests]" 'smal = ["--size", "64"]' > "$f"
cmake_reads "$f" >/dev/null || { echo "FAIL typo: CMake refused a well-formed file"; fails=1; }
out=$(py_reads "$f"); [ $? = 2 ] && echo "$out" | grep -q "tests.smal is not a manifest key" ||
  { echo "FAIL typo: pptools/apps.py must refuse an unknown key: $out"; fails=1; }
# the control: an app's own manifest
out=$(cmake_reads "$src/microbench/app.toml") && echo "$out" | grep -q "tests.small" ||
  { echo "FAIL control: CMake cannot read microbench/app.toml: $out"; fails=1; }
py_reads "$src/microbench/app.toml" >/dev/null || { echo "FAIL control: pptools/apps.py cannot read microbench/app.toml"; fails=1; }
[ $fails = 0 ] && echo "app_manifest_planted: every planted manifest refused by both readers"
exit $fails

#!/bin/sh
# history.sh CASE CGSOLVE ARGS...: cgsolve's --history FILE is written once at
# the end through pp/outfile.h. symlink: a symlink at the path is replaced by
# the file, its target untouched; replace: an existing file is replaced whole
# (renamed over), never rewritten in place; missing: a missing directory exits
# 2 before anything runs; devfull: a device is refused with exit 2 before anything runs.
set -u
case_=$1
shift
T="history.sh $case_"
. "$(dirname "$0")/../../tests/harness/harness.sh"

case $case_ in
symlink)
  echo precious > "$w/victim"
  ln -s victim "$w/h.csv"
  run "$@" --history "$w/h.csv"
  [ "$rc" = 0 ] || fail "exit $rc"
  [ "$(cat "$w/victim")" = precious ] || fail "written through the symlink"
  [ -f "$w/h.csv" ] && [ ! -L "$w/h.csv" ] || fail "the symlink was not replaced by a file"
  [ "$(head -n1 "$w/h.csv")" = model,N,ranks,iteration,relres ] || fail "no CSV header"
  grep -q '^host,' "$w/h.csv" || fail "no host line"
  [ -z "$(find "$w" -name '*.tmp*')" ] || fail "a temporary file was left"
  ;;
replace)
  echo old > "$w/h.csv"
  ln "$w/h.csv" "$w/link" # a hard link keeps the old file's content if it is replaced
  run "$@" --history "$w/h.csv"
  [ "$rc" = 0 ] || fail "exit $rc"
  [ "$(cat "$w/link")" = old ] || fail "h.csv was rewritten in place"
  [ "$(head -n1 "$w/h.csv")" = model,N,ranks,iteration,relres ] || fail "no CSV header"
  ;;
missing)
  run "$@" --history "$w/no/such/dir/h.csv"
  [ "$rc" = 2 ] || fail "exit $rc, expected 2"
  printf '%s\n' "$out" | grep -q -- "--history: cannot write '$w/no/such/dir/h.csv'" || fail "no 'cannot write' message"
  printf '%s\n' "$out" | grep -q "warm-up\|PASS" && fail "solves ran before the refusal"
  ;;
devfull) # a device is no output (a regular file or a new path): refused before the solves
  run "$@" --history /dev/full
  [ "$rc" = 2 ] || fail "exit $rc, expected 2"
  [ "$(printf '%s\n' "$out" | grep -c -- "--history: cannot write '/dev/full': is a device")" = 1 ] || fail "not one 'is a device' message"
  printf '%s\n' "$out" | grep -q "warm-up\|PASS" && fail "solves ran before the refusal"
  ;;
*) fail "unknown case" ;;
esac
echo "history.sh $case_: OK"

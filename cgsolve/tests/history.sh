#!/bin/sh
# history.sh CASE CGSOLVE ARGS...: cgsolve's --history FILE is written once at
# the end through pp/outfile.h. symlink: a symlink at the path is replaced by
# the file, its target untouched; missing: a missing directory exits 2 before
# anything runs; devfull: a full device fails with exit 3 and one message.
set -u
case_=$1
shift
w=$(mktemp -d "${TMPDIR:-/tmp}/pp-history.XXXXXX")
trap 'rm -rf "$w"' EXIT
fail() { echo "history.sh $case_: $*"; exit 1; }
run() { out=$("$@" 2>&1); rc=$?; printf '%s\n' "$out" | tail -3; }

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
missing)
  run "$@" --history "$w/no/such/dir/h.csv"
  [ "$rc" = 2 ] || fail "exit $rc, expected 2"
  printf '%s\n' "$out" | grep -q -- "--history: cannot write '$w/no/such/dir/h.csv'" || fail "no 'cannot write' message"
  printf '%s\n' "$out" | grep -q "warm-up\|PASS" && fail "solves ran before the refusal"
  ;;
devfull)
  [ -w /dev/full ] || { echo "skipped: no /dev/full"; exit 77; }
  run "$@" --history /dev/full
  [ "$rc" = 3 ] || fail "exit $rc, expected 3"
  [ "$(printf '%s\n' "$out" | grep -c -- "--history: cannot write '/dev/full'")" = 1 ] || fail "not one 'cannot write' message"
  ;;
*) fail "unknown case" ;;
esac
echo "history.sh $case_: OK"

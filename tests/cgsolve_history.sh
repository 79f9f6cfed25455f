#!/bin/sh
# cgsolve_history.sh CASE CGSOLVE ARGS...: --history FILE goes through the
# common result-file writer (pp/outfile.h): checked before the run, written
# once at the end through a temporary file and a rename. Exit 0: the case
# behaved; 1: it did not; 77: skipped.
set -u
case_=$1
shift
w=$(mktemp -d "${TMPDIR:-/tmp}/pp-cghist.XXXXXX")
trap 'rm -rf "$w"' EXIT
fail() { echo "cgsolve_history.sh $case_: $*"; exit 1; }
run() { out=$("$@" 2>&1); rc=$?; printf '%s\n' "$out" | tail -4; }
# The file holds the header and, per model, the iterations 0..k.
is_history() {
  [ "$(head -1 "$1")" = "model,N,ranks,iteration,relres" ] || return 1
  grep -Eq '^host,[0-9]+,1,0,1$' "$1"
}

case $case_ in
symlink) # a symlink at the path is replaced by the file, the file it names is untouched
  echo precious > "$w/victim"
  ln -s "$w/victim" "$w/h.csv"
  run "$@" --history "$w/h.csv"
  [ "$rc" = 0 ] || fail "exit $rc"
  [ "$(cat "$w/victim")" = precious ] || fail "wrote through the symlink"
  [ -L "$w/h.csv" ] && fail "the symlink is still there"
  is_history "$w/h.csv" || fail "no history in h.csv: $(head -3 "$w/h.csv")"
  ;;
replace) # an existing file is replaced whole (a rename), never rewritten in place
  echo old > "$w/h.csv"
  ln "$w/h.csv" "$w/link"
  run "$@" --history "$w/h.csv"
  [ "$rc" = 0 ] || fail "exit $rc"
  [ "$(cat "$w/link")" = old ] || fail "h.csv was rewritten in place"
  is_history "$w/h.csv" || fail "no history in h.csv"
  [ "$(ls -A "$w" | wc -l)" = 2 ] || fail "other files beside the history: $(ls -A "$w")"
  ;;
missing) # refused before the run: one line, exit 2, nothing created
  run "$@" --history "$w/no/such/dir/h.csv"
  [ "$rc" = 2 ] || fail "exit $rc, expected 2"
  printf '%s\n' "$out" | grep -q "^cgsolve: --history: cannot write '$w/no/such/dir/h.csv': No such file or directory" \
    || fail "no 'cannot write' message with its reason"
  [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "more than one line of output"
  [ -z "$(ls -A "$w")" ] || fail "left behind: $(ls -A "$w")"
  ;;
devfull) # a write error at the end: exit 3 with a message, after the results
  [ -c /dev/full ] || { echo "skipped: no /dev/full"; exit 77; }
  run "$@" --history /dev/full
  [ "$rc" = 3 ] || fail "exit $rc, expected 3"
  printf '%s\n' "$out" | grep -q "^cgsolve: cannot write --history file '/dev/full': No space left on device" \
    || fail "no write error message"
  printf '%s\n' "$out" | grep -Eq "^cg_solve +host .*PASS" || fail "the results were not printed"
  ;;
*) fail "unknown case" ;;
esac
echo "cgsolve_history.sh $case_: ok"

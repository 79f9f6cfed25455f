#!/bin/sh
# outfile.sh CASE TEST_INPUT APP APP_ARGS...: result files (--json/--csv) are
# refused up front when they cannot be written, and are written through an
# exclusive temporary file renamed at the end (pp/outfile.h). Exit 0: the
# case behaved; 1: it did not; 77: skipped.
set -u
case_=$1 ti=$2
shift 2
w=$(mktemp -d "${TMPDIR:-/tmp}/pp-outfile.XXXXXX")
trap 'chmod -R u+w "$w" 2>/dev/null; rm -rf "$w"' EXIT
fail() { echo "outfile.sh $case_: $*"; exit 1; }
valid_json() { python3 -c "import json,sys; json.load(open(sys.argv[1], encoding='utf-8'))" "$1"; }
run() { out=$("$@" 2>&1); rc=$?; printf '%s\n' "$out" | tail -3; }
# A path of exactly $1 characters inside $w, made of nested directories.
long_path() {
  p=$w
  while [ $(( $1 - ${#p} )) -gt 210 ]; do p=$p/$(printf '%0200d' 0); done
  mkdir -p "$p"
  n=$(( $1 - ${#p} - 6 ))
  printf '%s/%s.json' "$p" "$(printf "%0${n}d" 0)"
}

case $case_ in
dir|missing|noperm|socket)
  opt=--json
  case $case_ in
    dir) target=$w ;;
    missing) target=$w/no/such/dir/x.json ;;
    noperm)
      [ "$(id -u)" = 0 ] && { echo "skipped: root may write anywhere"; exit 77; }
      mkdir "$w/ro" && chmod a-w "$w/ro"; target=$w/ro/x.json; opt=--csv ;;
    socket)
      python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$w/sock"
      target=$w/sock ;;
  esac
  run "$@" "$opt" "$target"
  [ "$rc" = 2 ] || fail "exit $rc, expected 2"
  printf '%s\n' "$out" | grep -q -- "$opt: cannot write" || fail "no 'cannot write' message"
  printf '%s\n' "$out" | grep -q "PASS" && fail "the benchmark ran before the refusal"
  [ -z "$(find "$w" -name '*.tmp*')" ] || fail "a temporary file was left"
  ;;
long1099) # once made the temporary name equal to the target
  target=$(long_path 1099)
  [ ${#target} = 1099 ] || fail "test setup: path has ${#target} characters"
  # A hard link to the old result shows whether the target was rewritten in
  # place (then a kill leaves half a file) or replaced by a rename.
  echo old > "$target"
  ln "$target" "$w/link"
  run "$@" --json "$target" --csv "${target%.json}.csv"
  [ "$rc" = 0 ] || fail "exit $rc"
  valid_json "$target" || fail "no valid JSON at the 1099-character path"
  [ "$(cat "$w/link")" = old ] || fail "the target was rewritten in place, not through a temporary file"
  [ "$(ls -A "$(dirname "$target")" | wc -l)" = 2 ] || fail "other files beside the results: $(ls -A "$(dirname "$target")")"
  ;;
long5000) # once truncated the temporary name onto (and deleted) another file
  prefix=$(long_path 1099)
  echo precious > "$prefix"
  target=$prefix$(printf '%03900d' 0).json
  run "$@" --json "$target"
  [ "$rc" = 2 ] || fail "exit $rc, expected 2"
  [ "$(cat "$prefix")" = precious ] || fail "an unrelated file was touched"
  ;;
symlink) # <target>.tmp is a symlink planted by someone else: never followed
  echo precious > "$w/victim"
  ln -s "$w/victim" "$w/out.json.tmp"
  ln -s "$w/victim" "$w/out.csv.tmp"
  run "$@" --json "$w/out.json" --csv "$w/out.csv"
  [ "$rc" = 0 ] || fail "exit $rc"
  [ "$(cat "$w/victim")" = precious ] || fail "wrote through the symlink"
  [ -L "$w/out.json.tmp" ] || fail "the symlink was removed"
  valid_json "$w/out.json" || fail "no valid JSON"
  ;;
replace) # an existing result is replaced whole; a symlink target is replaced, not followed
  echo old > "$w/old.json"
  ln "$w/old.json" "$w/old-link"
  echo precious > "$w/victim"
  ln -s "$w/victim" "$w/link.json"
  run "$@" --json "$w/old.json" --csv "$w/link.json"
  [ "$rc" = 0 ] || fail "exit $rc"
  valid_json "$w/old.json" || fail "old.json not replaced by valid JSON"
  [ "$(cat "$w/old-link")" = old ] || fail "old.json was rewritten in place"
  [ "$(cat "$w/victim")" = precious ] || fail "wrote through the symlink target"
  ;;
devnull) # an output is a regular file or a new path: a device is refused, never written
  run "$@" --json /dev/null
  [ "$rc" = 2 ] || fail "exit $rc, expected 2"
  printf '%s\n' "$out" | grep -q -- "--json: cannot write '/dev/null': is a device" || fail "no 'is a device' message"
  [ -c /dev/null ] || fail "/dev/null is no longer a device"
  ;;
killed) # SIGKILL while writing: the old result stays, a temporary file may remain
  echo '{"old": true}' > "$w/r.json"
  "$ti" partial "$w/r.json" kill
  [ "$(cat "$w/r.json")" = '{"old": true}' ] || fail "the result file was changed by a killed write"
  "$ti" partial "$w/new.json" kill
  [ -e "$w/new.json" ] && fail "a killed write created the result file"
  ls -A "$w" | grep -q '^\.new\.json\.tmp-' || fail "expected the temporary file of the killed write"
  ;;
aborted) # an error path removes its temporary file
  "$ti" partial "$w/r.json" abort || fail "test_input failed"
  [ -z "$(ls -A "$w")" ] || fail "left behind: $(ls -A "$w")"
  ;;
*) fail "unknown case" ;;
esac
echo "outfile.sh $case_: ok"

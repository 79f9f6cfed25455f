#!/bin/sh
# dump.sh CASE TESTSNAP ARGS...: --dump goes through pp/outfile.h like
# --json: checked before the run (exit 2), written to a temporary file
# renamed over the target (never through a symlink, never a partial file
# under the asked name), a write error is exit 3. Exit 0: the case behaved;
# 1: it did not.
set -u
case_=$1
shift
T="dump.sh $case_"
. "$(dirname "$0")/../../tests/harness/harness.sh"
ran() { printf '%s\n' "$out" | grep -q "PASS"; }
no_temp() { [ -z "$(find "$w" -name '*.tmp-*')" ] || fail "a temporary file was left"; }

case $case_ in
long1220) # once cut to 1099 characters: written under another name
  p=$w
  while [ $((1220 - ${#p})) -gt 210 ]; do p=$p/$(printf '%0200d' 0); done
  mkdir -p "$p"
  target=$p/$(printf "%0$((1220 - ${#p} - 6))d" 0).dump
  [ ${#target} = 1220 ] || fail "test setup: path has ${#target} characters"
  run "$@" --dump "$target"
  [ "$rc" = 0 ] || fail "exit $rc"
  head -1 "$target" 2>/dev/null | grep -q "ITEM: TIMESTEP" || fail "no dump at the 1220-character path"
  [ "$(ls -A "$p" | wc -l)" = 1 ] || fail "other files beside the dump: $(ls -A "$p")"
  ;;
symlink) # a symlink at the dump path is replaced, its target never written
  echo precious > "$w/victim"
  ln -s "$w/victim" "$w/out.dump"
  run "$@" --dump "$w/out.dump"
  [ "$rc" = 0 ] || fail "exit $rc"
  [ "$(cat "$w/victim")" = precious ] || fail "wrote through the symlink"
  [ ! -L "$w/out.dump" ] && head -1 "$w/out.dump" | grep -q "ITEM: TIMESTEP" || fail "the dump did not replace the symlink"
  ;;
full) # a file system that fills up (a file size limit; PMIx's shared segments kept
  # out of its way): exit 4 (an output failed), nothing under the asked name
  PMIX_MCA_gds=hash run sh -c 'trap "" XFSZ; ulimit -f 16; exec "$@"' sh "$@" --dump "$w/out.dump"
  [ "$rc" = 4 ] || fail "exit $rc, expected 4"
  printf '%s\n' "$out" | grep -q "cannot write --dump '$w/out.dump'" || fail "no 'cannot write' message"
  [ ! -e "$w/out.dump" ] || fail "a partial dump was left under the asked name"
  no_temp
  ;;
devfull) # a device is no output (a regular file or a new path): exit 2 before the run, as --json
  run "$@" --dump /dev/full
  [ "$rc" = 2 ] || fail "exit $rc, expected 2"
  printf '%s\n' "$out" | grep -q -- "--dump: cannot write '/dev/full': is a device" || fail "no 'is a device' message"
  ran && fail "the run happened before the refusal"
  ;;
missing|dir|several) # refused before the run, as --json is
  case $case_ in
    missing) target=$w/no/such/dir/out.dump bad=$target ;;
    dir) target=$w bad=$w ;;
    several) mkdir "$w/out.dump.omp"; target=$w/out.dump bad=$w/out.dump.omp ;; # --backend host,omp
  esac
  run "$@" --dump "$target"
  [ "$rc" = 2 ] || fail "exit $rc, expected 2"
  printf '%s\n' "$out" | grep -q -- "--dump: cannot write '$bad'" || fail "no 'cannot write' message for $bad"
  ran && fail "the run happened before the refusal"
  no_temp
  ;;
*) fail "unknown case" ;;
esac
echo "dump.sh $case_: PASS"

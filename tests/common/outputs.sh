#!/bin/sh
# outputs.sh CASE APP ARGS...: sets up one hostile output of the outputs
# contract (docs/running.md#output: a regular file or a new path, never
# one of the run's inputs, never another output of the run), runs APP ARGS
# with it and exits with APP's code, for expect.sh to judge.
#   fifo       --json is a FIFO without a reader (once blocked forever in open)
#   fifo_link  --history is a symlink to a FIFO
#   null_link  --csv is a symlink to /dev/null (once written through)
#   dump_full  --dump /dev/full (with several models, once created /dev/full.MODEL)
#   json_deck  ARGS start with a deck: it is copied, and --json names the copy
#   dump_data  ARGS start with a data file: it is copied, and --dump names the copy
#   json_csv   --json and --csv on one path
#   dump_json  --dump and --json on one path
#   ctl_json   --json and --csv named with control bytes, written under a file
#              size limit of 0 (the write fails at the end of the run)
#   ctl_history  the same for --history
#   stale_history  ctl_history after an earlier run of the same PID left libomp's
#              registration file empty (see limited below)
#   partial    --json and --csv under a file size limit that the CSV fits and the
#              JSON does not (a disk nearly full): exit 1 if the CSV is left behind
set -u
case_=$1
shift
w=$(mktemp -d "${TMPDIR:-/tmp}/pp-outputs.XXXXXX")
trap 'rm -rf "$w"' EXIT
ctl=$(printf 'r\033]0;pwn\007')
# limited BLOCKS CMD...: CMD under a file size limit (ulimit -f BLOCKS; SIGXFSZ
# ignored, so that a write fails with EFBIG). libomp registers each process in
# /dev/shm/__KMP_REGISTERED_LIB_<pid>_<uid>, falling back to the same name in
# /tmp; under a limit of 0 it cannot size either file and leaves them empty, and
# a later process given the same PID that finds the empty /tmp file maps it and
# dies of SIGBUS (exit 135: CI, outputs_end_history_escaped). So the files of
# the PID go before the run (left by an earlier run with that PID) and after it.
# With stale=1 an empty /tmp file of the PID is planted first: the removal
# before the run is what keeps the run alive (outputs_stale_registration).
limited() {
  blocks=$1
  shift
  (export PMIX_MCA_gds=hash; trap '' XFSZ; exec sh -c '
    reg="__KMP_REGISTERED_LIB_$$_$(id -u)"
    [ "$1" = 1 ] && : > "/tmp/$reg"
    rm -f "/dev/shm/$reg" "/tmp/$reg"
    ulimit -f "$2"
    shift 2
    exec "$@"' sh "${stale:-0}" "$blocks" "$@") &
  pid=$!
  wait $pid
  rc=$?
  rm -f "/dev/shm/__KMP_REGISTERED_LIB_${pid}_$(id -u)" "/tmp/__KMP_REGISTERED_LIB_${pid}_$(id -u)"
  return $rc
}
case $case_ in
fifo) mkfifo "$w/f.json" && "$@" --json "$w/f.json" ;;
fifo_link) mkfifo "$w/f" && ln -s f "$w/h.csv" && "$@" --history "$w/h.csv" ;;
null_link) ln -s /dev/null "$w/r.csv" && "$@" --csv "$w/r.csv" ;;
dump_full)
  before=$(ls /dev/full.* 2>/dev/null)
  "$@" --dump /dev/full
  rc=$?
  for f in /dev/full.*; do # never leave what a failing run made there
    [ -f "$f" ] && ! printf '%s\n' "$before" | grep -qxF "$f" && rm -f "$f" && echo "outputs.sh: $f was created"
  done
  exit $rc ;;
json_deck) cp "$1" "$w/in.deck" && shift && "$@" --deck "$w/in.deck" --json "$w/./in.deck" ;;
dump_data) cp "$1" "$w/in.data" && shift && "$@" --data "$w/in.data" --dump "$w/in.data" ;;
json_csv) "$@" --json "$w/r" --csv "$w/r" ;;
dump_json) "$@" --dump "$w/r" --json "$w/r" ;;
ctl_json) limited 0 "$@" --json "$w/$ctl.json" --csv "$w/$ctl.csv" ;;
ctl_history) limited 0 "$@" --history "$w/$ctl.csv" ;;
stale_history) stale=1 limited 0 "$@" --history "$w/$ctl.csv" ;;
partial)
  limited 8 "$@" --json "$w/r.json" --csv "$w/r.csv"
  rc=$?
  for f in "$w"/*; do [ -e "$f" ] && echo "outputs.sh: $(basename "$f") was left behind" && rc=1; done
  exit $rc ;;
*) echo "outputs.sh: unknown case '$case_'"; exit 1 ;;
esac

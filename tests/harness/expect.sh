#!/bin/sh
# expect.sh [--once] [--absent REGEX2] [--clean] RC REGEX -- COMMAND...: runs
# COMMAND, passes if it exits with RC and its combined output matches the
# extended regular expression REGEX. A REGEX of several lines must match
# lines of the output in that order, one pattern per line (grep alone would
# take the lines of a pattern as alternatives).
#   --once     REGEX must match exactly one line (a message printed once)
#   --absent   the output must not match REGEX2 (e.g. an MPI_ABORT banner)
#   --clean    the output must hold no raw control character but tab/newline
once=0 absent="" clean=0
while :; do
  case $1 in
    --once) once=1; shift ;;
    --absent) absent=$2; shift 2 ;;
    --clean) clean=1; shift ;;
    *) break ;;
  esac
done
want=$1 re=$2
shift 3
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out" | LC_ALL=C tr '\001-\010\013-\037\177' '?'
# 77: the command's wrapper skipped the test here (the apps exit 0-3 only)
if [ "$rc" -eq 77 ] && [ "$want" -ne 77 ]; then echo "expect.sh: skipped"; exit 77; fi
if [ "$rc" -ne "$want" ]; then echo "expect.sh: exit code $rc, expected $want"; exit 1; fi
matches() { # stdin: the output; $1: the regex
  case $1 in
    *'
'*) awk -v re="$1" 'BEGIN { n = split(re, p, "\n"); k = 1 } k <= n && $0 ~ p[k] { k++ } END { exit k <= n }' ;;
    *) grep -Eq -- "$1" ;;
  esac
}
if ! printf '%s\n' "$out" | matches "$re"; then echo "expect.sh: output does not match /$re/"; exit 1; fi
if [ "$once" = 1 ]; then
  n=$(printf '%s\n' "$out" | grep -Ec -- "$re")
  if [ "$n" -ne 1 ]; then echo "expect.sh: /$re/ matches $n lines, expected one"; exit 1; fi
fi
if [ -n "$absent" ] && printf '%s\n' "$out" | grep -Eq -- "$absent"; then
  echo "expect.sh: output matches /$absent/, which must be absent"; exit 1
fi
if [ "$clean" = 1 ] && printf '%s' "$out" | LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')"; then
  echo "expect.sh: output holds raw control characters"; exit 1
fi
echo "expect.sh: exit $rc and /$re/ as expected"

#!/bin/sh
# expect.sh RC REGEX -- COMMAND...: runs COMMAND, passes if it exits with RC
# and its combined output matches the extended regular expression REGEX.
want=$1 re=$2
shift 3
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne "$want" ]; then echo "expect.sh: exit code $rc, expected $want"; exit 1; fi
if ! printf '%s\n' "$out" | grep -Eq -- "$re"; then echo "expect.sh: output does not match /$re/"; exit 1; fi
echo "expect.sh: exit $rc and /$re/ as expected"

#!/bin/sh
# batch_lint.sh [FILE...]: every job script of validate/batch parses (bash -n)
# and, where shellcheck is installed, has no shellcheck finding.
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
[ $# -gt 0 ] || set -- validate/batch/*
rc=0
for f; do bash -n "$f" || { echo "batch_lint: $f does not parse"; rc=1; }; done
if command -v shellcheck >/dev/null; then
  shellcheck -x -s bash "$@" || rc=1
else
  echo "batch_lint: shellcheck not installed: bash -n only"
fi
[ $rc = 0 ] && echo "batch_lint: $# scripts clean"
exit $rc

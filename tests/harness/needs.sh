#!/bin/sh
# needs.sh PATH PACKAGE COMMAND...: runs COMMAND where PATH exists; otherwise
# says which optional package is missing and exits 77, which CTest reports as
# skipped (SKIP_RETURN_CODE 77), never as a failure.
[ -e "$1" ] || { echo "skipped: $2 is not installed ($1)"; exit 77; }
shift 2
exec "$@"

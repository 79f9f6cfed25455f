#!/bin/sh
# site_configure.sh SRC WORK [CMAKE_ARGS...]: a fresh configure of SRC in WORK
# (removed first), no tests; prints cmake's output, exits with its status. The
# configure summary's reasons (why a model is off) are checked on its output.
set -u
src=$1 work=$2
shift 2
rm -rf "$work"
exec cmake -S "$src" -B "$work" -DPP_BUILD_TESTS=OFF -Wno-dev "$@"

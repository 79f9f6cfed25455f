#!/bin/sh
# make_hostile.sh DIR DATA: the inputs of tests/testsnap.cmake that cannot
# live in the source tree: a FIFO (no writer: opening it for reading would
# wait forever), bytes no text file holds, and a copy of the data file DATA
# under a name with a newline and an escape character.
set -eu
d=$1
mkdir -p "$d"
[ -p "$d/fifo" ] || mkfifo "$d/fifo"
printf 'LAMMPS data file\n\n2 atoms\0\n1 atom types\n' > "$d/nul.data"
printf 'LAMMPS data file \033[2J\033]0;pwned\007\n\n2 atoms\n' > "$d/escape.data"
cp "$2" "$d/$(printf 'new\nline\033.data')"
echo "hostile inputs written to $d"

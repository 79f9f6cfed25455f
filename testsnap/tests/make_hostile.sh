#!/bin/sh
# make_hostile.sh DIR DATA [W2]: the inputs of tests/apps/testsnap.cmake that cannot
# live in the source tree: a FIFO (no writer: opening it for reading would
# wait forever), bytes no text file holds, and a copy of the data file DATA
# under a name with a newline and an escape character. With W2 (TestSNAP's
# reference folder): a copy named lit[1] (glob's special characters, to be
# taken literally), and a copy whose first neighbour index is 2^32 + 34
# (beyond int: refused, not narrowed to 34).
set -eu
d=$1
mkdir -p "$d"
[ -p "$d/fifo" ] || mkfifo "$d/fifo"
printf 'LAMMPS data file\n\n2 atoms\0\n1 atom types\n' > "$d/nul.data"
printf 'LAMMPS data file \033[2J\033]0;pwned\007\n\n2 atoms\n' > "$d/escape.data"
cp "$2" "$d/$(printf 'new\nline\033.data')"
# 60,000 atoms on a 0.3 A grid filling a 12 A cube inside a 40 A box: the
# density estimate (about 40 neighbours) passes, each atom has thousands.
awk 'BEGIN { n = 60000; print "LAMMPS data file (60000 atoms clustered in a 12 A cube)\n\n" n " atoms\n1 atom types\n";
  print "0 40 xlo xhi\n0 40 ylo yhi\n0 40 zlo zhi\n\nMasses\n\n1 183.84\n\nAtoms # atomic\n";
  for (k = 0; k < n; k++) printf "%d 1 %.2f %.2f %.2f\n", k + 1, 0.1 + 0.3 * (k % 40), 0.1 + 0.3 * (int(k / 40) % 40), 0.1 + 0.3 * int(k / 1600) }' > "$d/cluster.data"
if [ $# -ge 3 ]; then
  rm -rf "$d/lit[1]" "$d/wide_jlist"
  cp -R "$3" "$d/lit[1]"
  cp -R "$3" "$d/wide_jlist"
  sed -i '1s/.*/4294967330/' "$d/wide_jlist/jlist.txt"
fi
echo "hostile inputs written to $d"

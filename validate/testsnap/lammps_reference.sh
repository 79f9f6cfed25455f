#!/bin/sh
# lammps_reference.sh DATA COEFF PARAM OUTDIR
# Runs LAMMPS (pair_style snap only, run 0, periodic x y z, metal units) on a
# LAMMPS data file with a single-element SNAP potential and writes
# OUTDIR/peratom.dump (id x y z c_peatom fx fy fz, %.17g, sorted by id: what
# `testsnap --reference` reads), OUTDIR/in.snap and OUTDIR/log.lammps.
# LAMMPS: $LMP, else validate/testsnap/.venv/bin/lmp (install_lammps.sh), else
# `lmp` on PATH. Exit 77 when no LAMMPS with ML-SNAP is found.
set -e
if [ $# -ne 4 ]; then echo "usage: $0 DATA COEFF PARAM OUTDIR" >&2; exit 2; fi
here=$(cd "$(dirname "$0")" && pwd)
data=$(realpath "$1") coeff=$(realpath "$2") param=$(realpath "$3") out=$4
lmp=${LMP:-}
[ -z "$lmp" ] && [ -x "$here/.venv/bin/lmp" ] && lmp=$here/.venv/bin/lmp
[ -z "$lmp" ] && lmp=$(command -v lmp || true)
if [ -z "$lmp" ] || ! "$lmp" -h 2>/dev/null | grep -qw snap; then
  echo "lammps_reference.sh: no LAMMPS with pair_style snap (run validate/testsnap/install_lammps.sh or set LMP)"
  exit 77
fi
# the element name: first field of the first line after the 'nelements ncoeff' line
elem=$(grep -v '^[[:space:]]*#' "$coeff" | grep -v '^[[:space:]]*$' | sed -n 2p | awk '{print $1}')
mkdir -p "$out"
cat > "$out/in.snap" <<EOT
# testsnap reference run: pair_style snap only, zero MD steps
units           metal
atom_style      atomic
atom_modify     map array sort 0 0.0
boundary        p p p
read_data       $data
pair_style      snap
pair_coeff      * * $coeff $param $elem
compute         peatom all pe/atom
dump            d1 all custom 1 peratom.dump id x y z c_peatom fx fy fz
dump_modify     d1 sort id format float %.17g
thermo_style    custom step atoms pe
thermo_modify   format float %.17g
run             0
print           "TOTAL_PE \$(pe:%.17g) eV"
EOT
cd "$out"
"$lmp" -in in.snap -log log.lammps -screen none
grep TOTAL_PE log.lammps | tail -1
echo "wrote $out/peratom.dump ($(head -1 log.lammps))"

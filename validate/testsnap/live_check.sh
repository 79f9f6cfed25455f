#!/bin/sh
# live_check.sh TESTSNAP [COEFF PARAM [CELLS [SEED]]]
# A fresh configuration (bcc W, CELLS^3 cells, every coordinate displaced
# uniformly in [-0.1, 0.1] A, seed SEED or the clock), its reference made by
# LAMMPS now (lammps_reference.sh), and testsnap's host model validated
# against it. Exit: testsnap's code; 77 (skipped) without LAMMPS.
set -e
here=$(cd "$(dirname "$0")" && pwd)
ts=$1
coeff=${2:-$here/../../inputs/testsnap/W_2J8_2000/W_2940_2017_2.snapcoeff}
param=${3:-$here/../../inputs/testsnap/W_2J8_2000/W_2940_2017_2.snapparam}
cells=${4:-5}
seed=${5:-$(date +%s)}
work=$(mktemp -d "${TMPDIR:-/tmp}/testsnap-live.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 - "$work/data.live" "$cells" "$seed" <<'EOT'
import random, sys
path, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
a, d = 3.1803, 0.1
L = n * a
rng = random.Random(seed)
atoms = []
for iz in range(n):
    for iy in range(n):
        for ix in range(n):
            for b in (0.0, 0.5):
                atoms.append([((c + b) * a + rng.uniform(-d, d)) % L for c in (ix, iy, iz)])
with open(path, "w") as f:
    f.write("bcc W, %d^3 cells, displacements uniform in [-%g, %g] A, seed %d\n\n" % (n, d, d, seed))
    f.write("%d atoms\n1 atom types\n\n" % len(atoms))
    for ax in "xyz":
        f.write("0 %.17g %slo %shi\n" % (L, ax, ax))
    f.write("\nMasses\n\n1 183.84\n\nAtoms # atomic\n\n")
    for k, x in enumerate(atoms):
        f.write("%d 1 %.17g %.17g %.17g\n" % (k + 1, x[0], x[1], x[2]))
EOT
echo "configuration: bcc W ${cells}^3 cells, displacements +-0.1 A, seed $seed"
rc=0
"$here/lammps_reference.sh" "$work/data.live" "$coeff" "$param" "$work/lammps" || rc=$?
[ $rc -ne 0 ] && exit $rc
"$ts" --data "$work/data.live" --coeff "$coeff" --param "$param" --reference "$work/lammps/peratom.dump" \
  --backend host --warmup 0 --steps 1 --bootstrap 100 --ceiling-mib 8 --quiet

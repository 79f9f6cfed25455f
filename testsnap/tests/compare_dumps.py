#!/usr/bin/env python3
"""compare_dumps.py TOL_E TOL_F REF DUMP...: per-atom dumps written by
`testsnap --dump` (id energy fx fy fz) of runs on different rank counts must
hold the same atoms, every energy within TOL_E eV and every force component
within TOL_F eV/A of REF's. Prints the largest differences and PASS or FAIL;
exits 0 if every dump agrees, 1 otherwise, 2 on an unreadable dump."""
import sys


def load(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        print(f"compare_dumps: {path}: {e.strerror}")
        sys.exit(2)
    head = "ITEM: ATOMS id energy fx fy fz\n"
    if head not in text:
        print(f"compare_dumps: {path}: no '{head.strip()}' line")
        sys.exit(2)
    atoms = {}
    for line in text.split(head, 1)[1].splitlines():
        if line.strip():
            v = line.split()
            atoms[int(v[0])] = [float(x) for x in v[1:5]]
    return atoms


def worst(diffs):
    """Largest difference; NaN (an unwritten or broken value) wins."""
    m = 0.0
    for d in diffs:
        if d != d:
            return d
        m = max(m, d)
    return m


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        sys.exit(2)
    tol_e, tol_f = float(sys.argv[1]), float(sys.argv[2])
    ref = load(sys.argv[3])
    ok = True
    for path in sys.argv[4:]:
        other = load(path)
        if set(other) != set(ref):
            print(f"{path}: atom ids differ from {sys.argv[3]}'s: FAIL")
            ok = False
            continue
        de = worst(abs(other[i][0] - ref[i][0]) for i in ref)
        df = worst(abs(other[i][k] - ref[i][k]) for i in ref for k in (1, 2, 3))
        good = de <= tol_e and df <= tol_f
        print(f"{path}: {len(ref)} atoms, max |dE| = {de:.3g} eV (tolerance {tol_e:g}), "
              f"max |dF| = {df:.3g} eV/A (tolerance {tol_f:g}): {'PASS' if good else 'FAIL'}")
        ok = ok and good
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""check_history.py TOL REF.csv OTHER.csv...: the residual histories written
by `cgsolve --history` of runs on different rank counts must agree: the same
models, sizes and iteration counts, and every relative residual within TOL
(relative) of the reference run's. Exits 0 if so, 1 otherwise."""
import csv
import sys


def load(path):
    runs = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["model"], int(row["N"]))
            runs.setdefault(key, {})[int(row["iteration"])] = float(row["relres"])
    if not runs:
        sys.exit(f"check_history: {path} has no history")
    return runs


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tol = float(sys.argv[1])
    ref = load(sys.argv[2])
    ok = True
    for path in sys.argv[3:]:
        other = load(path)
        if set(other) != set(ref):
            print(f"{path}: runs {sorted(other)} differ from the reference's {sorted(ref)}")
            ok = False
            continue
        for key, hist in sorted(ref.items()):
            o = other[key]
            if len(o) != len(hist):
                print(f"{path} {key}: {len(o) - 1} iterations, reference {len(hist) - 1}")
                ok = False
                continue
            worst = max(abs(o[k] - v) / abs(v) if v else abs(o[k]) for k, v in hist.items())
            good = worst <= tol
            ok &= good
            print(f"{path} {key[0]} N={key[1]}: {len(hist) - 1} iterations, largest relative "
                  f"difference {worst:.3e} {'<=' if good else '>'} {tol:g}")
    print("check_history: " + ("histories agree" if ok else "HISTORIES DIFFER"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

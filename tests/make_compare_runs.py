#!/usr/bin/env python3
"""make_compare_runs.py DIR: synthetic result files with known time ratios for
validate/compare's tests. Samples are seeded Gaussian noise around a known time.

base.json     kernels a,b,c on models host and omp (omp 2x host's time), 1% noise
slow10.json   every time 10% above base, 1% noise      -> regression
fast10.json   every time 10% below base, 1% noise      -> improvement, exit 0
near1.json    every time 1% above base, 2% noise       -> not flagged
invalid.json  as base, one row with "valid": false     -> exit 1
other.json    kernels no other file has                 -> no common rows, exit 2
"""
import json
import os
import random
import sys

TIMES = {"a": 1e-3, "b": 5e-3, "c": 2e-2}
MODELS = {"host": 1.0, "omp": 2.0}


def run(path, factor, noise, seed, kernels=TIMES, invalid=None):
    rng = random.Random(seed)
    rows = []
    for k, t in kernels.items():
        for m, mf in MODELS.items():
            mu = t * mf * factor
            samples = [mu * (1.0 + rng.gauss(0.0, noise)) for _ in range(20)]
            rows.append({"kernel": k, "model": m, "size": 1024, "variant": "", "samples": samples,
                         "fom": 1.0 / mu, "fom_unit": "1/s", "fom_higher_is_better": True,
                         "valid": (k, m) != invalid, "check": "synthetic"})
    doc = {"schema": "proxyport-result-1", "app": "synthetic",
           "build": {"git_revision": f"synthetic-{os.path.basename(path)}", "c_compiler": "none"},
           "results": rows}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)


def main():
    if len(sys.argv) != 2:
        print("usage: make_compare_runs.py DIR", file=sys.stderr)
        sys.exit(2)
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    run(os.path.join(d, "base.json"), 1.00, 0.01, 1)
    run(os.path.join(d, "slow10.json"), 1.10, 0.01, 2)
    run(os.path.join(d, "fast10.json"), 0.90, 0.01, 3)
    run(os.path.join(d, "near1.json"), 1.01, 0.02, 4)
    run(os.path.join(d, "invalid.json"), 1.00, 0.01, 5, invalid=("b", "omp"))
    run(os.path.join(d, "other.json"), 1.00, 0.01, 6, kernels={"x": 1e-3})


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""make_compare_runs.py DIR: synthetic result files with known time ratios for
validate/compare's tests. Samples are seeded Gaussian noise around a known time.

base.json     kernels a,b,c on models host and omp (omp 2x host's time), 1% noise
slow10.json   every time 10% above base, 1% noise      -> regression
fast10.json   every time 10% below base, 1% noise      -> improvement, exit 0
near1.json    every time 1% above base, 2% noise       -> not flagged
invalid.json  as base, one row with "valid": false     -> exit 1
other.json    kernels no other file has                 -> no common rows, exit 2
(one file a side: compare gives ratios and "not enough runs to call")

Runs with run-to-run variation (process_samples below: every process has its
own machine state, a few % between processes, far above its sample noise),
5 processes (files) each, the same 6 rows as base.json:
runs/base-N.json     N = 1..5
runs/same-N.json     another 5 draws of the same distribution -> nothing called
runs/slow10-N.json   every row 10% slower                      -> regression

The compiler report (compare --report), app "synthetic", kernels a, b, c, each
at sizes 1024 and 4096 (the report takes 4096) with tpb=128/256 variants
(collapsed to the faster) and one "k2" variant kept as its own kernel:
cc-clang.json      cuda, omp[clang-19] (1.25x cuda's time), ompx[clang-19] (1.1x)
cc-gcc.json        cuda (repeated: the first file's is used), omp[gcc-12] (10x)
cc-clang-lto.json  omp[clang-19+lto] (0.9x omp[clang-19]: faster),
                   ompx[clang-19+lto] (1.0x: same)
cc-gcc-bad.json    as cc-gcc, omp[gcc-12] kernel b invalid (check text "max abs error 0.5")
facts-clang.json   compile facts of the clang-19 build (omp a: 40 registers, 8 B spills)
"""
import json
import math
import os
import random
import sys

TIMES = {"a": 1e-3, "b": 5e-3, "c": 2e-2}
MODELS = {"host": 1.0, "omp": 2.0}

# Run-to-run variation of one process (log-normal factors; sd as fractions):
# the machine state shared by all its rows, then each row's own, then each
# sample's noise, and a few samples slowed by an interruption.
MACHINE_SD, ROW_SD, SAMPLE_SD = 0.02, 0.015, 0.01
OUTLIER_SHARE, OUTLIER_MEAN = 0.05, 0.3
NSAMPLES = 20
# the clang-19 build's run (time factor per label); facts-clang.json has its labels' kernels
CLANG_RUN = {"cuda": 1.0, "omp[clang-19]": 1.25, "ompx[clang-19]": 1.1}


def process_samples(rng, times):
    """One process's samples of rows whose true times are `times`: a list of sample lists."""
    machine = math.exp(rng.gauss(0.0, MACHINE_SD))
    out = []
    for t in times:
        mu = t * machine * math.exp(rng.gauss(0.0, ROW_SD))
        s = [mu * (1.0 + rng.gauss(0.0, SAMPLE_SD)) for _ in range(NSAMPLES)]
        out.append([x * (1.0 + rng.expovariate(1.0 / OUTLIER_MEAN)) if rng.random() < OUTLIER_SHARE else x
                    for x in s])
    return out


def write_rows(path, rows_samples, kernels=TIMES, invalid=None, revision=None):
    """A result file of the rows kernel x model with these samples (in that order)."""
    rows = []
    it = iter(rows_samples)
    for k in kernels:
        for m in MODELS:
            samples = next(it)
            rows.append({"kernel": k, "model": m, "size": 1024, "variant": "", "samples": samples,
                         "fom": 1.0 / (sum(samples) / len(samples)), "fom_unit": "1/s", "fom_higher_is_better": True,
                         "valid": (k, m) != invalid, "check": "synthetic"})
    doc = {"schema": "proxyport-result-1", "app": "synthetic",
           "build": {"git_revision": revision or f"synthetic-{os.path.basename(path)}", "c_compiler": "none"},
           "results": rows}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)


def true_times(factor, kernels=TIMES):
    return [t * mf * factor for t in kernels.values() for mf in MODELS.values()]


def run(path, factor, noise, seed, kernels=TIMES, invalid=None):
    """One process with Gaussian sample noise only (no machine state)."""
    rng = random.Random(seed)
    write_rows(path, [[mu * (1.0 + rng.gauss(0.0, noise)) for _ in range(NSAMPLES)]
                      for mu in true_times(factor, kernels)], kernels, invalid)


def runs(d, name, factor, seed, n=5):
    """n processes with run-to-run variation: d/runs/NAME-1.json ..."""
    os.makedirs(os.path.join(d, "runs"), exist_ok=True)
    rng = random.Random(seed)
    for i in range(1, n + 1):
        write_rows(os.path.join(d, "runs", f"{name}-{i}.json"), process_samples(rng, true_times(factor)),
                   revision=f"synthetic-{name}")


def compiler_run(path, labels, seed, invalid=None):
    """labels: {label: time factor relative to cuda}; 2% noise, 20 samples."""
    rng = random.Random(seed)
    rows = []
    for k, t in TIMES.items():
        for size in (1024, 4096):
            for variant in ("tpb=128", "tpb=256", "k2"):
                for label, f in labels.items():
                    # tpb=256 is the faster tuning for every label; size 1024 is 4x faster
                    mu = t * f * (size / 4096) * (1.2 if variant == "tpb=128" else 1.0) * (2 if variant == "k2" else 1)
                    samples = [mu * (1.0 + rng.gauss(0.0, 0.02)) for _ in range(20)]
                    model = label.split("[")[0]
                    bad = invalid == (label, k)
                    rows.append({"kernel": k, "model": model, "label": label, "size": size, "variant": variant,
                                 "samples": samples, "valid": not bad,
                                 "check": "max abs error 0.5" if bad else "exact",
                                 # planted energy: work per joule 100 / the label's time factor
                                 "energy": {"fom_per_joule": 100.0 / (f * (1.2 if variant == "tpb=128" else 1.0)),
                                            "fom_per_joule_unit": "GB/J", "watts": 300.0}})
    doc = {"schema": "proxyport-result-1", "app": "synthetic",
           "build": {"git_revision": "synthetic", "c_compiler": "none"},
           "devices": [{"model": "cuda", "ran": True, "name": "Synthetic GPU"}], "results": rows}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)


def facts(path):
    ks = []
    for k in TIMES:
        for model in (label.split("[")[0] for label in CLANG_RUN if "[" in label):  # its build's labels
            regs, spill = (40, 8) if (k, model) == ("a", "omp") else (24, 0)
            ks.append({"app": "synthetic", "model": model, "kernel": k, "symbol": f"__omp_offloading_1_2_{k}_l1",
                       "registers": regs, "smem_static": 0, "stack": spill, "spill_stores": spill,
                       "spill_loads": spill, "remarks": []})
    doc = {"schema": "proxyport-compile-facts-1", "build": {"tag": "clang-19", "dir": "synthetic"},
           "kernels": ks, "files": []}
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
    runs(d, "base", 1.00, 11)
    runs(d, "same", 1.00, 12)
    runs(d, "slow10", 1.10, 13)
    compiler_run(os.path.join(d, "cc-clang.json"), CLANG_RUN, 7)
    compiler_run(os.path.join(d, "cc-gcc.json"), {"cuda": 1.0, "omp[gcc-12]": 10.0}, 8)
    compiler_run(os.path.join(d, "cc-clang-lto.json"), {"omp[clang-19+lto]": 1.25 * 0.9,
                                                        "ompx[clang-19+lto]": 1.1}, 9)
    compiler_run(os.path.join(d, "cc-gcc-bad.json"), {"cuda": 1.0, "omp[gcc-12]": 10.0}, 10,
                 invalid=("omp[gcc-12]", "b"))
    facts(os.path.join(d, "facts-clang.json"))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""check_json.py FILE [--min-rows N] [--models a,b] [--kernels k1,k2] [--ranks P]
[--copy-fraction-below X]: parses a result file back and checks its shape, that
every row validated, that each row's raw samples are stored and its statistics
and FOM follow from them."""
import argparse
import json
import math
import sys

ap = argparse.ArgumentParser()
ap.add_argument("file")
ap.add_argument("--min-rows", type=int, default=1)
ap.add_argument("--models", default="")
ap.add_argument("--kernels", default="")
ap.add_argument("--ranks", type=int, default=0, help="every row combines this many MPI ranks")
ap.add_argument("--copy-fraction-below", type=float, default=0,
                help="every fraction_of_copy_ceiling present is below this (and one is present)")
a = ap.parse_args()
with open(a.file) as f:
    d = json.load(f)
errors = []
def need(cond, msg):
    if not cond:
        errors.append(msg)
need(d.get("schema") == "proxyport-result-1", "schema")
for key in ("app", "command", "build", "problem", "devices", "results", "timing"):
    need(key in d, f"missing key {key}")
for key in ("git_revision", "c_compiler", "c_flags", "offload"):
    need(key in d.get("build", {}), f"build.{key} missing")
rows = d.get("results", [])
d_devices = d.get("devices", [])
need(len(rows) >= a.min_rows, f"{len(rows)} rows < {a.min_rows}")
need(d.get("validated") is True, "validated is not true")
need(d.get("failures") == 0, "failures != 0")
for r in rows:
    t = r["time_s"]
    need(r["valid"] is True, f"row {r['kernel']}/{r['model']} invalid")
    need(t["samples"] >= 1 and t["min"] <= t["median"] <= t["max"], f"stats order {r['kernel']}")
    need(t["ci_low"] <= t["mean"] <= t["ci_high"], f"ci {r['kernel']}")
    need(isinstance(r["fom"], (int, float)) and r["fom"] > 0 and math.isfinite(r["fom"]), f"fom {r['kernel']}")
    need(r["check"], f"empty check text {r['kernel']}")
    name = f"{r['kernel']}/{r['model']}/{r['size']}/{r['variant']}"
    # raw samples: all of them, and the statistics are theirs
    x = r.get("samples")
    if not isinstance(x, list) or len(x) != t["samples"] or not all(isinstance(v, (int, float)) and v > 0 for v in x):
        need(False, f"{name}: samples missing, wrong count or not positive")
        continue
    s = sorted(x)
    n = len(s)
    med = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    close = lambda a, b: abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)
    need(close(t["min"], s[0]) and close(t["max"], s[-1]), f"{name}: min/max are not the samples'")
    need(close(t["median"], med), f"{name}: median {t['median']} is not the samples' {med}")
    need(close(t["mean"], sum(s) / n), f"{name}: mean is not the samples'")
    # FOM from the median: bytes (GB/s) or flops (GFLOP/s) per run, summed over ranks
    work = {"GB/s": r["bytes_per_run"], "GFLOP/s": r["flops_per_run"]}.get(r["fom_unit"], 0)
    if work > 0:
        need(abs(r["fom"] - work / med / 1e9) <= 1e-6 * r["fom"], f"{name}: fom {r['fom']} != work / median")
    if a.ranks:
        need(r["ranks"] == a.ranks, f"{name}: ranks {r['ranks']} != {a.ranks}")
    f = r["fraction_of_copy_ceiling"]
    dev = next((d for d in d_devices if d["model"] == r["model"] and d.get("ran")), {})
    min_bytes = dev.get("copy_ceiling_min_row_bytes") or 0
    need(f is None or r["bytes_per_run"] >= min_bytes * r["ranks"],
         f"{name}: %copy given for a working set under the cache threshold")
    need(f is None or dev.get("copy_ceiling_gbs") is not None, f"{name}: %copy without a ceiling")
    if a.copy_fraction_below and f is not None:
        need(0 < f < a.copy_fraction_below, f"{name}: %copy {100 * f:.0f}% not below {100 * a.copy_fraction_below:.0f}%")
if a.copy_fraction_below:
    need(any(r["fraction_of_copy_ceiling"] is not None for r in rows), "no row has a fraction of the copy ceiling")
for key in ("git_dirty", "git_diff_sha256"):
    need(key in d.get("build", {}), f"build.{key} missing")
models = {r["model"] for r in rows}
for m in filter(None, a.models.split(",")):
    need(m in models, f"model {m} has no rows")
kernels = {r["kernel"] for r in rows}
for k in filter(None, a.kernels.split(",")):
    need(k in kernels, f"kernel {k} has no rows")
if errors:
    print("check_json: FAIL:", "; ".join(errors))
    sys.exit(1)
print(f"check_json: OK ({len(rows)} rows, models {sorted(models)})")

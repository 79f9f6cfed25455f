#!/usr/bin/env python3
"""check_json.py FILE [--min-rows N] [--models a,b] [--kernels k1,k2]: parses a
result file back and checks its shape and that every row validated."""
import argparse, json, math, sys

ap = argparse.ArgumentParser()
ap.add_argument("file")
ap.add_argument("--min-rows", type=int, default=1)
ap.add_argument("--models", default="")
ap.add_argument("--kernels", default="")
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

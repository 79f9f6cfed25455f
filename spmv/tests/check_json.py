#!/usr/bin/env python3
"""check_json.py OUT.json N -- COMMAND...: runs an spmv COMMAND with --json
OUT.json and checks what is spmv-specific in the result: every row validated,
the byte counts of both bandwidth figures for the N-cube, the metrics, and
the relative error stated in each row's check."""
import json
import math
import subprocess
import sys

out, N = sys.argv[1], int(sys.argv[2])
cmd = sys.argv[sys.argv.index("--") + 1:] + ["--json", out]
rc = subprocess.call(cmd)
if rc != 0:
    sys.exit(f"check_json: command exited {rc}")
d = json.load(open(out))
err = []
def need(c, m):
    if not c:
        err.append(m)
n, nnz = (N + 1) ** 3, (3 * N + 1) ** 3
paper = 8 * (n + 1) + 20 * nnz + 8 * n
minimum = 8 * (n + 1) + 12 * nnz + 16 * n
need(d["app"] == "spmv", "app")
need(d["validated"] is True, "validated is not true")
need(f"N={N}" in d["problem"], f"problem has no N={N} entry")
rows = d["results"]
need(len(rows) >= 1, "no rows")
for r in rows:
    tag = f"{r['kernel']}/{r['model']}"
    need(r["kernel"] in ("spmv", "spmv_cusparse", "spmv_hipsparse"), f"kernel {tag}")
    need(r["size"] == N, f"size {tag}")
    need(r["valid"] is True, f"{tag} invalid")
    need(r["fom_unit"] == "GB/s", f"unit {tag}")
    need(r["bytes_per_run"] == paper, f"{tag}: bytes {r['bytes_per_run']} != {paper}")
    need(r["flops_per_run"] == 2 * nnz, f"{tag}: flops")
    med = r["time_s"]["median"]
    need(math.isclose(r["fom"], paper / med / 1e9, rel_tol=1e-9), f"{tag}: FOM is not papers' bytes / median")
    m = r["metrics"]
    need(math.isclose(m.get("min_traffic_GBps", -1), minimum / med / 1e9, rel_tol=1e-9), f"{tag}: min_traffic")
    need(math.isclose(m.get("rate_GFLOPps", -1), 2 * nnz / med / 1e9, rel_tol=1e-9), f"{tag}: GFLOP/s")
    if "min_traffic_of_copy_fraction" in m:
        need(math.isclose(r["fraction_of_copy_ceiling"], m["min_traffic_of_copy_fraction"]), f"{tag}: %copy")
    need(r["check"].startswith("rel L2 err") and "<= 1e-12" in r["check"], f"{tag}: check text")
if err:
    sys.exit("check_json: FAIL: " + "; ".join(err))
print(f"check_json: OK ({len(rows)} rows, N={N}, {n} rows, {nnz} entries)")

#!/usr/bin/env python3
"""time_ratio.py --kernel K --slow MODEL --fast MODEL --most X -- COMMAND...:
runs COMMAND with --json into a temporary file and fails unless every row of
kernel K on model SLOW has a median time at most X times that of the row of K
on model FAST (the same run, so both saw the same machine load). For a kernel
whose form on one model once cost orders of magnitude more than the same work
on another: a ratio holds on a busy CI machine where a time limit would not."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--kernel", required=True)
ap.add_argument("--slow", required=True)
ap.add_argument("--fast", required=True)
ap.add_argument("--most", type=float, required=True)
ap.add_argument("command", nargs=argparse.REMAINDER)
a = ap.parse_args()
cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "run.json")
    rc = subprocess.run(cmd + ["--json", path]).returncode
    if rc != 0:
        sys.exit(f"time_ratio: the command exited {rc}")
    with open(path) as f:
        rows = [r for r in json.load(f)["results"] if r["kernel"] == a.kernel]
slow = [r for r in rows if r["model"] == a.slow]
fast = [r["time_s"]["median"] for r in rows if r["model"] == a.fast]
if not slow or len(fast) != 1:
    sys.exit(f"time_ratio: want rows of {a.kernel} on {a.slow} and one on {a.fast}")
bad = 0
for r in slow:
    ratio = r["time_s"]["median"] / fast[0]
    ok = ratio <= a.most
    bad += not ok
    print(f"time_ratio: {a.kernel} {a.slow} {r['variant'] or '-'}: {r['time_s']['median']:.4g} s, "
          f"{ratio:.3g} x {a.fast}'s {fast[0]:.4g} s ({'ok' if ok else 'FAIL'}: at most {a.most:g} x)")
sys.exit(1 if bad else 0)

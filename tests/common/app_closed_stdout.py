#!/usr/bin/env python3
"""app_closed_stdout.py DIR APP ARG...: runs APP ARG... --json DIR/r.json --csv DIR/r.csv
with its standard output a pipe whose reader has gone (`app | head -1` once head has
read its line; closed before the app starts, so every write fails): the text stops,
the run and its files do not. Passes when the app exits 0 and both files are there,
whole (the JSON parses, the CSV has its header and rows)."""
import json
import os
import subprocess
import sys

out, cmd = sys.argv[1], sys.argv[2:]
os.makedirs(out, exist_ok=True)
paths = [os.path.join(out, "r.json"), os.path.join(out, "r.csv")]
for p in paths:
    if os.path.exists(p):
        os.remove(p)
r, w = os.pipe()
os.close(r)
p = subprocess.run(cmd + ["--json", paths[0], "--csv", paths[1]], stdout=w, stderr=subprocess.PIPE, text=True)
os.close(w)
problems = []
if p.returncode != 0:
    problems.append(f"exit {p.returncode} (want 0; -13 is SIGPIPE)")
try:
    rows = json.load(open(paths[0]))["results"]
    if not rows:
        problems.append("the JSON file has no results")
except (OSError, ValueError, KeyError) as e:
    problems.append(f"the JSON file: {e}")
try:
    lines = open(paths[1]).read().splitlines()
    if len(lines) < 2:
        problems.append("the CSV file has no rows")
except OSError as e:
    problems.append(f"the CSV file: {e}")
print("app_closed_stdout:", "; ".join(problems) if problems else "PASS (exit 0, both files whole)")
if p.stderr:
    print(p.stderr[-1500:])
sys.exit(1 if problems else 0)

#!/bin/sh
# test-run.sh GOOD|BAD: runs run.sh on stand-in binaries that print parse.py's
# sample outputs (no GPU here). GOOD: every run parses, refs.json holds the
# figures and commands. BAD: one stand-in prints a planted malformed output;
# run.sh must exit 1 and refs.json must carry that run's error.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/out/bin"
fake() { printf '#!/bin/sh\ncat "%s"\n' "$here/samples/$2" > "$t/out/bin/$1"; chmod +x "$t/out/bin/$1"; }
fake XSBench-cuda xsbench-k6.txt
fake BabelStream-cuda babelstream-cuda.txt
if [ "$1" = BAD ]; then fake TestSNAP-kokkos-cuda bad-testsnap-forces.txt
else fake TestSNAP-kokkos-cuda testsnap.txt; fi
fake TestSNAP-kokkos-ompt testsnap-ompt.txt
set +e
"$here/run.sh" "$t/out" "$t/res" xsbench babelstream-cuda testsnap testsnap-ompt
rc=$?
set -e
PYTHONPATH="$here/.." python3 - "$t/res/refs.json" "$1" "$rc" <<'PY'
import sys
from pptools.result import load_json
doc = load_json(sys.argv[1]); mode, rc = sys.argv[2], int(sys.argv[3])
runs = {r["name"]: r for r in doc["runs"]}
assert len(runs) == 6, runs.keys()
assert runs["XSBench-cuda-k0"]["command"].endswith("XSBench-cuda -m event -s large -k 0")
assert runs["BabelStream-cuda-2p25"]["command"].endswith("BabelStream-cuda -s 33554432")
assert runs["XSBench-cuda-k6"]["figures"]["lookups_per_s"] == 1227000000
assert runs["BabelStream-cuda-2p24"]["figures"]["kernels"]["Triad"]["MB_per_s"] == 4110000.0
ts = runs["TestSNAP-kokkos-cuda-W_2J14-2000"]
to = runs["TestSNAP-kokkos-ompt-W_2J14-2000"]
assert to["command"].endswith("TestSNAP-kokkos-ompt -ns 100"), to
assert to["figures"]["exec_space"] == "N6Kokkos12Experimental12OpenMPTargetE", to
assert to["figures"]["routines_s"]["compute_yi"] == 0.763, to
if mode == "GOOD":
    assert rc == 0 and ts["figures"]["grind_ms_per_atom_step"] == 0.00274, (rc, ts)
else:
    assert rc == 1 and "force deviation" in ts["error"] and "figures" not in ts, (rc, ts)
print("test-run.sh: %s ok (run.sh exit %d)" % (mode, rc))
PY

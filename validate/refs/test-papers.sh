#!/bin/sh
# test-papers.sh GOOD|BAD|PARTS: runs papers.sh on stand-in binaries that print
# papers.py's planted sample outputs (no GPU here).
#   GOOD: every build that exists runs and parses; the two builds versions.txt
#         records as not built are rows with that reason; the missing optional
#         bases are rows too; the ratios to Kokkos CUDA are the samples' ones.
#   BAD:  CGSolve-kokkos-kmode prints a planted wrong output (its third size is
#         255 again), CGSolve-kokkos-kmode-ompx crashes (exit 134) and
#         CGSolve-kokkos-ompt22 is missing with no record: papers.sh must exit 1
#         and papers.json must say why for each.
#   PARTS: --part 19 and --part 22 in two folders (each exits 0 on its own), merged
#         by papers.py --collect A B into GOOD's tables; A alone without --partial
#         is refused (part 22's runs are in no folder).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
s=$here/samples
t=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT
mkdir -p "$t/refs/bin" "$t/bin"
fake() { printf '#!/bin/sh\ncat "%s"\n' "$s/$2" > "$t/refs/bin/$1"; chmod +x "$t/refs/bin/$1"; }
for b in cuda ompt ompt22 kmode; do
  case $b in cuda) f=cuda ;; *) f=ompt ;; esac
  fake "CGSolve-kokkos-$b" "papers-cgsolve-$f.txt"
done
fake CGSolve-kokkos-ompt22-ompx papers-cgsolve-ompx.txt
fake CGSolve-kokkos-kmode-ompx papers-cgsolve-ompx.txt
# TestSNAP: the sample with the step count asked and a duration of 0.01 s + 5 ms per step
cat > "$t/refs/bin/TestSNAP-kokkos-kmode" <<EOF
#!/bin/sh
n=\$2
sed -e "s/^nsteps = .*/nsteps = \$n /" -e "s/^duration = .*/duration = \$(echo "0.01 + 0.005 * \$n" | awk '{print \$1 + \$3 * \$5}') [sec]/" \
  -e "s/N6Kokkos4CudaE/N6Kokkos12Experimental12OpenMPTargetE/" "$s/testsnap.txt"
EOF
# XSBench openmp-offload: its default count is valid (exit 0); 170M says invalid (exit 1)
for b in omp omp22; do
  cat > "$t/refs/bin/XSBench-$b" <<EOF
#!/bin/sh
case "\$*" in
  *170000000*) cat "$s/papers-xsbench-omp-l170000000.txt"; exit 1 ;;
  *) cat "$s/papers-xsbench-omp-l17000000.txt" ;;
esac
EOF
done
chmod +x "$t/refs/bin"/*
# ProxyPort's cgsolve: the published H200 n150 CSV, its size replaced by the deck's N
cat > "$t/bin/cgsolve" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do
  case \$1 in --deck) n=\$(basename "\$2" .deck); n=\${n#n} ;; --csv) csv=\$2 ;; esac; shift
done
sed "s/^cgsolve,\\([a-z_]*\\),\\([a-z]*\\),150,/cgsolve,\\1,\\2,\$n,/" "$repo/results/nvidia-h200/cgsolve/run1.csv" > "\$csv"
for m in omp ompx cuda; do echo "[cgsolve 1.0s] \$m: 200 iterations, relative residual 2.818e-08, PASS"; done
EOF
chmod +x "$t/bin/cgsolve"
cat > "$t/refs/versions.txt" <<'EOF'
# planted versions.txt
CGSolve-kokkos-cuda-ompx 89da74f NOT BUILT: cgsolve_ompx.hpp:19:10: fatal error: ompx.h: No such file or directory; tried: nvcc
CGSolve-kokkos-ompt-ompx 89da74f NOT BUILT: cgsolve_ompx.hpp:123:29: error: expected ')'; tried: clang-19
EOF
if [ "$1" = BAD ]; then
  fake CGSolve-kokkos-kmode bad-papers-cgsolve-sizes.txt
  rm "$t/refs/bin/CGSolve-kokkos-ompt22"
  # a crash at N = 325 (abort: exit 134), after the lines of the first two sizes
  printf '#!/bin/sh
cat "%s"
echo "Kokkos::abort: planted"
exit 134
' "$s/bad-papers-cgsolve-truncated.txt" \
    > "$t/refs/bin/CGSolve-kokkos-kmode-ompx"
fi
export GPU_RT19="$t/none19" GPU_RT22="$t/none22"
set +e
if [ "$1" = PARTS ]; then
  "$here/papers.sh" --part 19 "$t/refs" "$t/bin" "$t/a" > "$t/a.log" 2>&1; ra=$?
  "$here/papers.sh" --part 22 "$t/refs" "$t/bin" "$t/b" > "$t/b.log" 2>&1; rb=$?
  python3 "$here/papers.py" --collect "$t/a" 2> "$t/alone.log"; ralone=$?
  python3 "$here/papers.py" --collect "$t/a" "$t/b"; rc=$?
  if ! { [ $ra = 0 ] && [ $rb = 0 ] && [ $ralone = 1 ] && grep -q "no folder given has it" "$t/alone.log"; }; then
    echo "PARTS: part exits $ra $rb, A alone $ralone"; cat "$t/a.log" "$t/b.log" "$t/alone.log"; exit 1
  fi
  res=$t/a
else
  "$here/papers.sh" "$t/refs" "$t/bin" "$t/res"; rc=$?
  res=$t/res
fi
set -e
python3 - "$res/papers.json" "$1" "$rc" "$repo/results/nvidia-h200/cgsolve/run1.csv" <<'PY'
import csv, json, sys
doc = json.load(open(sys.argv[1])); mode, rc = sys.argv[2], int(sys.argv[3])
runs = {r["name"]: r for r in doc["runs"]}
cg = doc["tables"]["cgsolve"]
def row(code, path, n):
    m = [r for r in cg if (r["code"], r["path"], r["N"]) == (code, path, n)]
    assert len(m) == 1, (code, path, n, m)
    return m[0]
assert len(runs) == 8 + 3 + 6 + 6, sorted(runs)
assert runs["CGSolve-kokkos-cuda"]["command"].endswith("CGSolve-kokkos-cuda 150 200"), runs["CGSolve-kokkos-cuda"]
assert "ompx.h: No such file" in row("CGSolve-kokkos-cuda-ompx", "OMPT", 325)["status"]
assert row("CGSolve-kokkos-ompt-ompx", "OMPT", 150)["status"].startswith("not built: cgsolve_ompx.hpp:123:29: error: expected ')'")
assert row("CGSolve-kokkos-cuda", "KK", 255)["spmv_vs_kokkos_cuda"] == 1.0
ts = {r["code"]: r for r in doc["tables"]["testsnap"]}
assert ts["TestSNAP-kokkos-cuda"]["status"].startswith("not built: optional base"), ts
assert abs(ts["TestSNAP-kokkos-kmode"]["steady_grind_ms"] - 0.005 / 2000 * 1e3) < 1e-12, ts
xs = {(r["code"], r["lookups"]): r for r in doc["tables"]["xsbench"]}
assert xs[("XSBench-omp22", 170000000)]["checksum"] == 525004 and xs[("XSBench-omp22", 170000000)]["status"] == "ok", xs
assert xs[("XSBench-cuda", 17000000)]["status"].startswith("not built: optional base"), xs
pp = row("ProxyPort cgsolve", "cuda", 325)
# the stand-in cgsolve printed the published CSV: its cuda SpMV median, in ms
want = next(float(r["time_median_s"]) * 1e3 for r in csv.DictReader(open(sys.argv[4]))
            if (r["kernel"], r["model"]) == ("cg_spmv", "cuda"))
assert pp["status"] == "ok" and abs(pp["spmv_ms"] - want) < 1e-9, (pp, want)
if mode in ("GOOD", "PARTS"):
    assert rc == 0, rc
    k, c = row("CGSolve-kokkos-kmode", "KK", 325), row("CGSolve-kokkos-cuda", "KK", 325)
    assert abs(k["spmv_vs_kokkos_cuda"] - 2230.0 / 2650.0) < 1e-6, k
    assert abs(k["solve_vs_kokkos_cuda"] - c["solve_ms_per_iter"] / k["solve_ms_per_iter"]) < 1e-12, k
    assert row("CGSolve-kokkos-kmode-ompx", "OMPT", 150)["status"] == "ok"
    md = open(sys.argv[1].replace(".json", ".md")).read()
    assert "| 325 | CGSolve-kokkos-kmode | KK |" in md and "not built: cgsolve_ompx.hpp:123:29" in md, md
else:
    assert rc == 1, rc
    assert "solves KK N=150" in runs["CGSolve-kokkos-kmode"]["error"], runs["CGSolve-kokkos-kmode"]
    assert "figures" not in runs["CGSolve-kokkos-kmode"]
    assert row("CGSolve-kokkos-kmode", "KK", 325)["status"].startswith("failed: "), cg
    assert runs["CGSolve-kokkos-ompt22"]["state"] == "missing", runs["CGSolve-kokkos-ompt22"]
    assert "no line in versions.txt" in row("CGSolve-kokkos-ompt22", "KK", 150)["status"], cg
    e = runs["CGSolve-kokkos-kmode-ompx"]["error"]
    assert e == "exit status 134: Kokkos::abort: planted", e
print("test-papers.sh: %s ok (exit %d)" % (mode, rc))
PY

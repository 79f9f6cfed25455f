#!/usr/bin/env python3
"""check_report.py COMPARE DIR [--png]: runs `compare --report` on the synthetic
compiler runs of make_compare_runs.py and checks the report against what was
planted. --png checks the figures instead (exit 77, skipped, without matplotlib)."""
import json
import os
import subprocess
import sys

fails, n = [], 0


def check(what, ok):
    global n
    n += 1
    if not ok:
        fails.append(what)


def main():
    cmp, d = sys.argv[1], sys.argv[2]
    png = "--png" in sys.argv[3:]
    if png:
        try:
            import matplotlib.pyplot  # noqa: F401
        except Exception:
            print("SKIP: matplotlib is not installed or does not import")
            sys.exit(77)
    out = os.path.join(d, "report-cc")
    r = subprocess.run([sys.executable, cmp, "--report", out, "--facts", os.path.join(d, "facts-clang.json")]
                       + [os.path.join(d, f) for f in ("cc-clang.json", "cc-gcc.json", "cc-clang-lto.json")],
                       capture_output=True, text=True)
    print(r.stdout + r.stderr)
    check("exit 0", r.returncode == 0)
    if png:
        for f in ("synthetic-native.png", "heatmap.png", "flags.png"):
            p = os.path.join(out, f)
            check(f"{f} is a PNG", os.path.exists(p) and open(p, "rb").read(8) == b"\x89PNG\r\n\x1a\n")
    else:
        with open(os.path.join(out, "heatmap.json"), encoding="utf-8") as f:
            h = json.load(f)
        check("heat map rows", h["rows"] == ["omp[clang-19]", "ompx[clang-19]", "omp[clang-19+lto]",
                                              "ompx[clang-19+lto]", "omp[gcc-12]"])
        check("heat map cols", len(h["cols"]) == 6 and "synthetic:a (k2)" in h["cols"])
        check("heat map shape", len(h["values"]) == 5 and all(len(v) == 6 for v in h["values"]))
        gcc = h["values"][4]
        check("omp[gcc-12] planted at 10x cuda", all(9.5 < v < 10.5 for v in gcc))
        check("omp[clang-19] planted at 1.25x", all(1.2 < v < 1.3 for v in h["values"][0]))
        with open(os.path.join(out, "flags.json"), encoding="utf-8") as f:
            fl = json.load(f)
        check("flag rows", fl["rows"] == ["omp[clang-19+lto]", "ompx[clang-19+lto]"])
        check("lto planted at 0.9x", all(0.85 < v < 0.95 for v in fl["values"][0]))
        md = open(os.path.join(out, "report.md"), encoding="utf-8").read()
        check("lto flagged faster", md.count("| omp[clang-19+lto] | omp[clang-19] |") == 6
              and md.count("| **faster** |") == 6)
        check("ompx lto not flagged", md.count("| ompx[clang-19+lto] | ompx[clang-19] |") == 6
              and "**slower**" not in md)
        check("ompx gcc noted", "`ompx[gcc-12]`: none: kernel mode" in md)
        check("facts beside rows", "regs 40 smem 0 stack 8 spill 8:8" in md)
        energy = md.split("## synthetic")[1].split("Energy: work per joule")[1]
        check("energy table: omp[gcc-12] 0.1 of cuda's work per joule, omp[clang-19] 0.8",
              "| a | 0.8 | 0.909 | 0.889 | 0.909 | 0.1 |" in energy)
        check("tuning variant collapsed", "| a | 4096 |" in md and "tpb=" not in md.split("## synthetic")[1])
    for f in fails:
        print(f"FAIL {f}")
    print(f"check_report: {n - len(fails)} checks passed" if not fails else f"check_report: {len(fails)} failed")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()

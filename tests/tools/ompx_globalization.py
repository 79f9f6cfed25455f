#!/usr/bin/env python3
"""test_ompx_globalization.py BUILD_DIR: no ompx kernel file of an NVIDIA clang
build globalizes a variable.

clang moves a local (or parameter) whose address may escape to memory the
OpenMP device runtime hands out (__kmpc_alloc_shared). Bare kernels
(ompx_bare) never set that runtime up: with -foffload-lto OpenMPOpt usually
turns the allocation back into a stack slot, without it the optimizer treats
the code after the allocation as unreachable. It has cost ProxyPort two silent
failures on the GPU, both invisible in the LTO preset build: xsbench_like's
lookups returned checksum 0, and the one-launch ompx reduction ended at its
first barrier (a `&shared[k]` on a pointer parameter). This test recompiles
every ompx kernel file of the build without LTO, device code only, with
OpenMPOpt's remarks, and fails on any globalization remark (OMP110-OMP113).
It first compiles tests/fixtures/ompx-globalization/escape.c the same way and requires
the remark there, so a compiler that stops reporting fails the test instead of
passing it.
Exit: 0 clean; 1 a globalized variable, or the detector blind; 77 no ompx
kernels in this build (skip)."""
import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "fixtures", "ompx-globalization", "escape.c")
REMARK = re.compile(r"remark: .*\[OMP11[0-3]\]")
REMARK_FLAGS = ["-Rpass=openmp-opt", "-Rpass-missed=openmp-opt", "-Rpass-analysis=openmp-opt"]


def args_of(entry):
    return entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])


def device_only(entry, source):
    """The entry's compile command as a non-LTO device-only compile of source."""
    own = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
    out, skip = [], False
    for a in args_of(entry):
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        elif a in ("-c", "-foffload-lto") or os.path.realpath(os.path.join(entry["directory"], a)) == own:
            continue
        else:
            out.append(a)
    return out + ["--offload-device-only", "-fno-offload-lto", "-S", "-o", os.devnull] + REMARK_FLAGS + [source]


def remarks(entry, source):
    cmd = device_only(entry, source)
    r = subprocess.run(cmd, cwd=entry["directory"], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL: the compile of {source} failed:\n  {shlex.join(cmd)}\n{r.stderr[-2000:]}")
        sys.exit(1)
    return [line for line in r.stderr.splitlines() if REMARK.search(line)]


def main():
    build = sys.argv[1]
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        entries = [e for e in json.load(f) if os.path.basename(e["file"]).startswith(("ompx", "reduce_ompx"))]
    if not entries:
        print("SKIP: no ompx kernel file in this build")
        sys.exit(77)
    # The detector first: the fixture must be reported.
    seen = remarks(entries[0], FIXTURE)
    if not seen:
        print(f"FAIL: no globalization remark on {FIXTURE}: the compiler no longer reports it, this test is blind")
        sys.exit(1)
    print(f"detector: {len(seen)} remark(s) on the fixture, as expected")
    bad = 0
    for e in entries:
        found = remarks(e, e["file"])
        rel = os.path.relpath(e["file"], os.path.join(HERE, "..", ".."))
        print(f"{rel}: {len(found)} globalized")
        for line in found:
            print("   ", line)
        bad += len(found)
    print(f"ompx globalization: {len(entries)} files, {bad} globalized variables")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

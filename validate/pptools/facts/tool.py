"""Compile facts per GPU kernel of a ProxyPort build.

compile-facts BUILD_DIR [--out FILE.json] [--text FILE] [--apps A,B] [--models M,N]
compile-facts --parse KIND LOGFILE     (the parsers alone, on captured compiler output)

For every kernel file of the build (the apps' kernels/omp.c, ompx.c, cuda.cu,
hip.hip and common/backend's), its compile command is re-run from the build's
compile_commands.json (hipcc: from the Makefile's custom command) into a
temporary folder, with flags that make the compiler report what it built:
  clang OpenMP, NVPTX   device-only compile with -Xcuda-ptxas -v (the build's
                        own ptxas, the one --cuda-path names) and -save-temps
                        for the PTX (.maxntid), plus -Rpass*=openmp-opt remarks
  clang OpenMP, AMDGPU  the device code is bitcode until the link (LTO), so the
  or -foffload-lto      app is relinked into the temporary folder with
                        --offload-opt=-pass-remarks*=... (kernel-resource-usage,
                        openmp-opt) and, for NVPTX, -Xcuda-ptxas -v
  nvcc                  -Xptxas -v -keep (PTX for launch bounds)
  hipcc                 --offload-device-only -Rpass-analysis=kernel-resource-usage
  gcc -foffload         the device code is compiled at the link by mkoffload:
                        recorded as "not available" with the reason
Nothing in the build folder is written. Kernel symbols are mapped to
(file, line, enclosing function); the ProxyPort kernel name is the function's
name (CUDA: k_NAME / NAME_kernel -> NAME), which is how result rows are named.

Output JSON: {"schema": "proxyport-compile-facts-1", "build": {...},
"kernels": [{app, model, kernel, symbol, source, line, registers, smem_static,
stack, spill_stores, spill_loads, max_threads, occupancy, launch, remarks, method, ...}],
(occupancy: NVIDIA's theoretical resident blocks and warps per SM at the block size
the kernel's PTX bound fixes (launch bounds, .maxntid), static shared memory only.)
"files": [{source, model, status, method, remarks without a kernel}]}.
Exit: 0 facts written; 2 bad usage or input; 3 a compile command failed.
"""
import argparse
import json
import os
import sys
import tempfile

from .. import cli, outfile, project
from .. import result as resultfile
from ..text import show
from .build_folder import known_apps
from .compiler_output import PARSERS
from .recompile import collect

PROG = "compile-facts"


def die(msg, code=2):
    cli.die(PROG, msg, code)


def text_table(doc):
    b = doc["build"]
    head = ("app", "model", "kernel", "line", "regs", "smem", "stack", "spill st/ld", "max thr", "occupancy", "remarks")
    rows = [head]
    for k in doc["kernels"]:
        mt = k.get("max_threads")
        rows.append((k["app"], k["model"], k["kernel"], "" if k.get("line") is None else str(k["line"]),
                     _s(k.get("registers")), _s(k.get("smem_static")), _s(k.get("stack")),
                     f"{_s(k.get('spill_stores'))}/{_s(k.get('spill_loads'))}",
                     "x".join(map(str, mt)) if isinstance(mt, list) else _s(mt), occ_text(k.get("occupancy")),
                     short_remarks(k.get("remarks", []))))
    rows = [tuple(show(c) for c in r) for r in rows]  # names from the build's files and compilers
    w = [max(len(r[i]) for r in rows) for i in range(len(head) - 1)]
    out = [show(f"compile facts of {b['dir']} ({b['compiler']}, tag {b['tag']}, offload {b['offload']} {b['arch']})",
                2000)]
    out += ["  ".join(c.ljust(w[i]) if i < len(w) else c for i, c in enumerate(r)).rstrip() for r in rows]
    for f in doc["files"]:
        if f["status"] != "ok" or f["remarks"]:
            out.append(show(f"{f['source']} ({f['model']}): {f['status']}; method: {f['method']}", 2000)
                       + "".join(f"\n    remark: {show(r, 2000)}" for r in f["remarks"]))
    return "\n".join(out)


def occ_text(o):
    """'25% (2 blocks, registers)': the fraction of the SM's warps and what limits it."""
    if not o:
        return "-"
    return f"{100 * o['fraction']:.1f}% ({o['blocks']} block{'s' if o['blocks'] != 1 else ''}, {o['limit']})"


def _s(v):
    return "-" if v is None else str(v)


def short_remarks(rs):
    """The remarks that explain gaps, a few words each, counted."""
    n = {}
    for r in rs:
        short = next((s for pat, s in (
            ("generic-mode kernel to SPMD", "SPMD-ized"), ("of shared memory", "globalized->shared"),
            ("globalized variable to the stack", "globalized->stack"), ("heap to the stack", "heap->stack"),
            ("unexpected ways", "state machine kept"), ("SPMD", "not SPMD"), ("generic-mode", "generic"),
            ("globaliz", "globalized")) if pat in r), r[:30])
        n[short] = n.get(short, 0) + 1
    return "; ".join(s if c == 1 else f"{s} x{c}" for s, c in n.items())


def main(argv=None):
    cli.run(PROG, facts_main, argv)


def facts_main(argv):
    p = cli.Parser(prog=PROG, description=__doc__.split("\n\n")[1],
                   formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("build", nargs="?", help="a configured and built ProxyPort build folder")
    p.add_argument("--out", help="JSON file (default: print the text table only)")
    p.add_argument("--text", help="also write the text table to this file")
    p.add_argument("--apps", help="comma-separated apps (default all; 'common' is the common layer)")
    p.add_argument("--models", help=f"comma-separated models: {','.join(project.device_models())} (default all)")
    p.add_argument("--parse", nargs=2, metavar=("KIND", "LOG"),
                   help=f"parse a captured log and print JSON; KIND: {', '.join(PARSERS)}")
    p.add_argument("--keep", help="keep the temporary files in this folder")
    try:
        a = p.parse_args(argv)
    except SystemExit as e:
        sys.exit(0 if e.code == 0 else 2)
    if a.parse:
        kind, log = a.parse
        if kind not in PARSERS:
            die(f"--parse {kind}: expected one of {', '.join(PARSERS)}")
        text = resultfile.read_bytes(log, limit=resultfile.RESULT_LIMIT).decode("utf-8", errors="replace")
        print(json.dumps(PARSERS[kind](text), indent=1, sort_keys=True))
        return 0
    if not a.build:
        die("expected a build folder (or --parse KIND LOG)")
    if not os.path.isdir(a.build):
        die(f"{a.build}: not a folder")
    apps = set(a.apps.split(",")) if a.apps else None
    models = set(a.models.split(",")) if a.models else None
    for x in apps or ():
        if x not in known_apps():
            die(f"--apps {x}: unknown app (known: {', '.join(known_apps())})")
    for x in models or ():
        if x not in project.device_models():
            die(f"--models {x}: expected one of {', '.join(project.device_models())}")
    if a.keep:
        outfile.out_dir(a.keep, "--keep")
        tmp = a.keep
        doc, failed = collect(a.build, apps, models, tmp)
    else:
        with tempfile.TemporaryDirectory(prefix="pp-facts-") as tmp:
            doc, failed = collect(a.build, apps, models, tmp)
    if not doc["files"]:
        die(f"{a.build}: no GPU kernel file in compile_commands.json (a cpu or host build has none)")
    text = text_table(doc)
    print(text)
    for what, path, body in (("--out", a.out, json.dumps(doc, indent=1) + "\n"), ("--text", a.text, text + "\n")):
        if path:
            outfile.write_text(path, body, what)
    print(f"{PROG}: {len(doc['kernels'])} kernels from {len(doc['files'])} kernel files"
          + (f", {len(failed)} failed" if failed else ""))
    for f in failed:
        print(f"{PROG}: FAILED {show(f, 2000)}", file=sys.stderr)
    return 3 if failed else 0

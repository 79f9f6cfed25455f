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
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from .. import cli, outfile, project
from .. import result as resultfile
from ..text import show

PROG = "compile-facts"


def openmp_device_models():
    """The device models the C (OpenMP) compiler builds: their kernels are offload regions."""
    return [m for m in project.device_models() if m in project.cc_models()]


def known_apps():
    """The apps of apps.txt and "common", the common layer's kernel files."""
    return project.apps() + ("common",)

# Kernel folders of libraries, under the app that runs them as its own (its
# link relinks them): the miniFE library's SpMV is spmv's (cgsolve's cg_spmv
# runs the same objects).
LIBRARY_APP = {"minife": "spmv"}
OPENMP_REMARKS = ["-Rpass=openmp-opt", "-Rpass-missed=openmp-opt", "-Rpass-analysis=openmp-opt"]


def die(msg, code=2):
    cli.die(PROG, msg, code)


# ---- parsers of compiler output (unit-tested on fixtures) --------------------

_PTXAS_ENTRY = re.compile(r"ptxas info\s*: Compiling entry function '([^']+)'")
_PTXAS_PROPS = re.compile(r"ptxas info\s*: Function properties for (\S+)")
_PTXAS_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_PTXAS_USED = re.compile(r"ptxas info\s*: Used (\d+) registers(.*)")


def parse_ptxas(text):
    """ptxas -v: {symbol: {registers, stack, spill_stores, spill_loads, smem_static, barriers}}.
    Only entry functions are kept (device functions' frames belong to their callers)."""
    out, cur, props = {}, None, None
    for line in text.splitlines():
        m = _PTXAS_ENTRY.search(line)
        if m:
            cur = out.setdefault(m.group(1), {})
            continue
        m = _PTXAS_PROPS.search(line)
        if m:
            props = out.get(m.group(1))
            continue
        m = _PTXAS_FRAME.search(line)
        if m and props is not None:
            props.update(stack=int(m.group(1)), spill_stores=int(m.group(2)),
                         spill_loads=int(m.group(3)))
            props = None
            continue
        m = _PTXAS_USED.search(line)
        if m and cur is not None:
            cur["registers"] = int(m.group(1))
            rest = m.group(2)
            s = re.search(r"(\d+) bytes smem", rest)
            cur["smem_static"] = int(s.group(1)) if s else 0
            b = re.search(r"used (\d+) barriers", rest)
            if b:
                cur["barriers"] = int(b.group(1))
            cur = None
    return out


_AMD_FIELDS = {"SGPRs": "sgprs", "VGPRs": "vgprs", "AGPRs": "agprs",
               "ScratchSize [bytes/lane]": "scratch_per_lane", "Occupancy [waves/SIMD]": "occupancy_waves",
               "SGPRs Spill": "sgpr_spill", "VGPRs Spill": "vgpr_spill",
               "LDS Size [bytes/block]": "lds", "Dynamic Stack": "dynamic_stack"}


def parse_amd_resource(text):
    """clang -Rpass-analysis=kernel-resource-usage (AMDGPU): {symbol: facts}."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.search(r"remark: (?:<unknown>:0:0: )?Function Name: (\S+)", line)
        if m:
            cur = out.setdefault(m.group(1), {})
            continue
        m = re.search(r"remark: (?:<unknown>:0:0: )?\s+([A-Za-z][A-Za-z /\[\]]*?): (\S+)", line)
        if m and cur is not None and m.group(1) in _AMD_FIELDS:
            v = m.group(2)
            cur[_AMD_FIELDS[m.group(1)]] = (v == "True") if v in ("True", "False") else int(v)
    for f in out.values():
        f.setdefault("registers", f.get("vgprs"))
        f.setdefault("smem_static", f.get("lds"))
        f.setdefault("stack", f.get("scratch_per_lane"))
    return out


# "FILE:L:C: remark: TEXT" from the front end, "remark: FILE:L:C: TEXT" from the
# back end (bitcode, -save-temps, the link; FILE relative to the source root there).
_REMARK = re.compile(r"^(?:(\S+?):(\d+):(\d+): )?remark: (?:<unknown>:0:0: |(\S+?):(\d+):(\d+): )?"
                     r"(.*?)(?: \[-R[a-z-]+=[a-z-]+\])?$")


def parse_remarks(text):
    """OpenMP optimization remarks: [{file, line, text}] (file/line None when the
    compiler gave no location, e.g. at the link). Resource-usage lines are not remarks."""
    out = []
    for line in text.splitlines():
        m = _REMARK.match(line.strip())
        if not m or "kernel-resource-usage" in line:
            continue
        msg = m.group(7).strip()
        if re.match(r"(Function Name|SGPRs|VGPRs|AGPRs|ScratchSize|Occupancy|LDS Size|Dynamic Stack)\b", msg):
            continue
        file, line_no = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(5))
        out.append({"file": file, "line": int(line_no) if line_no else None, "text": msg})
    return out


def same_file(remark_file, source, root):
    """A remark's file (absolute, or relative to the source root) is the kernel's source."""
    if remark_file is None or source is None:
        return True
    a = os.path.normpath(os.path.join(root, remark_file))
    return a == os.path.normpath(os.path.join(root, source))


def attach_remarks(kernels, remarks, src, root):
    """A remark on a kernel's own line goes to that kernel; one after it in the
    same function to the region that starts last before it; one before the
    function's first region (parameters, locals) to each of its kernels
    (spans: from a kernel function's definition to the next one's). The rest is
    returned, for the file's record."""
    try:
        with open(src, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    starts = {}
    for k in kernels:
        if k.get("line"):
            pat = re.compile(r"^[A-Za-z_].*\b" + re.escape(k["kernel"]) + r"\s*\(")
            d = next((i for i in range(min(k["line"], len(lines)), 0, -1) if pat.match(lines[i - 1])), None)
            if d:
                starts[k["kernel"]] = d
    bounds = sorted(starts.values()) + [len(lines) + 1]
    span = {f: (d, next(b for b in bounds if b > d)) for f, d in starts.items()}
    own = {k["line"] for k in kernels if k.get("line")}
    loose = []
    for r in remarks:
        hit = []
        if r["line"] is not None and same_file(r["file"], os.path.relpath(src, root), root):
            hit = [k for k in kernels if k.get("line") == r["line"]]
            if not hit and r["line"] not in own:
                fn = [k for k in kernels if k["kernel"] in span
                      and span[k["kernel"]][0] <= r["line"] < span[k["kernel"]][1]]
                # inside a region: the region that starts last before it; else every region
                before = [k for k in fn if k["line"] < r["line"]]
                last = max((k["line"] for k in before), default=None)
                hit = [k for k in before if k["line"] == last] or fn
        for k in hit:
            text = r["text"] if r["line"] == k["line"] else f"l{r['line']}: {r['text']}"
            if text not in k["remarks"]:
                k["remarks"].append(text)
        if not hit:
            loose.append(r["text"] if r["line"] is None else f"l{r['line']}: {r['text']}")
    return loose


def parse_ptx_bounds(text):
    """PTX: {entry: {max_threads: [x,y,z], ...}} from .maxntid/.reqntid/.minnctapersm/.maxnreg."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([\w$.]+)", line)
        if m:
            cur = out.setdefault(m.group(1), {})
            continue
        m = re.match(r"\s*\.(maxntid|reqntid|minnctapersm|maxnreg)\s+([\d,\s]+)", line)
        if m and cur is not None:
            nums = [int(x) for x in re.findall(r"\d+", m.group(2))]
            key = {"maxntid": "max_threads", "reqntid": "req_threads",
                   "minnctapersm": "min_blocks_per_sm", "maxnreg": "max_registers"}[m.group(1)]
            cur[key] = nums if len(nums) > 1 else nums[0]
    return out


# ---- theoretical occupancy (NVIDIA) --------------------------------------------
# Per SM, from the CUDA C Programming Guide's table of compute capabilities:
# warps, blocks, 32-bit registers, shared memory (bytes, the most a kernel can
# be given). Registers are allocated per warp in units of 256; each block also
# takes 1 KiB of shared memory for the system (cc >= 8.0).
SM_LIMITS = {"sm_70": (64, 32, 65536, 96 * 1024), "sm_75": (32, 16, 65536, 64 * 1024),
             "sm_80": (64, 32, 65536, 164 * 1024), "sm_86": (48, 16, 65536, 100 * 1024),
             "sm_89": (48, 24, 65536, 100 * 1024), "sm_90": (64, 32, 65536, 228 * 1024)}


def occupancy(arch, regs, smem, threads):
    """Resident blocks and warps per SM of a kernel with `regs` registers per
    thread and `smem` bytes of static shared memory, launched with blocks of
    `threads` threads (dynamic shared memory not counted): {"blocks",
    "warps", "fraction", "limit"}, or None where the arch or a figure is
    unknown."""
    lim = SM_LIMITS.get(arch)
    if not lim or not regs or not threads:
        return None
    max_warps, max_blocks, sm_regs, sm_smem = lim
    warps = -(-threads // 32)
    per_warp = -(-regs * 32 // 256) * 256
    reserve = 1024 if int(arch[3:]) >= 80 else 0
    by = {"threads": max_warps // warps, "blocks": max_blocks,
          "registers": (sm_regs // per_warp) // warps,
          "shared memory": sm_smem // ((smem or 0) + reserve) if (smem or 0) + reserve else max_blocks}
    order = ("threads", "blocks", "registers", "shared memory")  # a tie names the hardware cap first
    limit = min(by, key=lambda k: (by[k], order.index(k)))
    blocks = by[limit]
    return {"blocks": blocks, "warps": blocks * warps, "fraction": blocks * warps / max_warps, "limit": limit}


def block_threads(mt):
    """Threads per block of a .maxntid/.reqntid/launch-bounds figure: int or [x, y, z]."""
    if isinstance(mt, list):
        n = 1
        for x in mt:
            n *= x
        return n
    return mt


PARSERS = {"ptxas": parse_ptxas, "amd": parse_amd_resource, "remarks": parse_remarks, "ptx": parse_ptx_bounds}


# ---- symbols -> ProxyPort names -----------------------------------------------

_OMP_SYM = re.compile(r"^__omp_offloading_([0-9a-f]+)_([0-9a-f]+)_(.+)_l(\d+)(?:_(\d+))?$")


def demangle(symbols):
    syms = list(symbols)
    if not syms or not shutil.which("c++filt"):
        return {s: s for s in syms}
    r = subprocess.run(["c++filt"], input="\n".join(syms), capture_output=True, text=True)
    lines = r.stdout.splitlines()
    return dict(zip(syms, lines)) if len(lines) == len(syms) else {s: s for s in syms}


def kernel_name(func):
    """CUDA/HIP: k_NAME or NAME_kernel -> NAME; OpenMP: the enclosing function."""
    # Drop template arguments and the parameter list (both may nest), then
    # the return type and namespaces: "void ns::k_x<T>(int)" -> "k_x".
    flat, depth = "", 0
    for ch in func:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth = max(0, depth - 1)
        elif depth == 0:
            flat += ch
    f = flat.split("::")[-1].strip()
    f = f.split()[-1] if f.split() else func
    if f.startswith("k_"):
        return f[2:]
    if f.endswith("_kernel"):
        return f[:-7]
    return f


def omp_symbol(sym, sources):
    """(source, line, function, region index) of an OpenMP kernel symbol; sources
    maps the file-id hex (the source's inode, as clang writes it) to the path."""
    m = _OMP_SYM.match(sym)
    if not m:
        return None
    return {"source": sources.get(m.group(2)), "line": int(m.group(4)), "function": m.group(3),
            "region": int(m.group(5) or 0)}


def source_line(path, line):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    if not 1 <= line <= len(lines):
        return ""
    # A pragma or macro may continue over several lines.
    text, i = lines[line - 1].rstrip(), line
    while text.endswith("\\") and i < len(lines):
        text = text[:-1].rstrip() + " " + lines[i].strip()
        i += 1
    return re.sub(r"\s+", " ", text.strip())[:240]


def launch_clauses(text):
    """num_teams / thread_limit / ompx_dyn_cgroup_mem expressions in a pragma line."""
    out = {}
    for c in ("num_teams", "thread_limit", "ompx_dyn_cgroup_mem"):
        m = re.search(r"\b" + c + r"\s*\(", text)
        if m:
            depth, j = 1, m.end()
            while j < len(text) and depth:
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
            out[c] = text[m.end():j - 1].strip()
    return out


def cuda_launch(path, name):
    """The launch configurations <<<...>>> of kernel `name` in its source (text)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            src = f.read()
    except OSError:
        return []
    return sorted({re.sub(r"\s+", " ", m.group(1).strip())
                   for m in re.finditer(r"\b" + re.escape(name) + r"\s*<<<(.*?)>>>", src, re.S)})


# ---- the build ----------------------------------------------------------------

def read_cache(build):
    cache = {}
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^([A-Za-z_][\w.-]*):[A-Z]+=(.*)$", line.rstrip("\n"))
                if m:
                    cache[m.group(1)] = m.group(2)
    except OSError as e:
        die(f"{build}: not a configured CMake build folder ({e.strerror}: CMakeCache.txt)")
    for f in glob.glob(os.path.join(build, "CMakeFiles", "*", "CMakeCCompiler.cmake")):
        with open(f, encoding="utf-8") as fh:
            for k in ("CMAKE_C_COMPILER_ID", "CMAKE_C_COMPILER_VERSION"):
                m = re.search(r'set\(' + k + r' "([^"]*)"\)', fh.read())
                fh.seek(0)
                if m:
                    cache[k] = m.group(1)
    return cache


def build_tag(cache):
    """The build's tag as cmake/BuildTag.cmake forms it (row labels "omp[TAG]")."""
    if cache.get("PP_BUILD_TAG"):
        return cache["PP_BUILD_TAG"]
    cid = cache.get("CMAKE_C_COMPILER_ID", "").lower()
    cid = "gcc" if cid == "gnu" else cid
    tag = f"{cid}-{cache.get('CMAKE_C_COMPILER_VERSION', '?').split('.')[0]}"
    fs = cache.get("PP_OMP_FLAG_SET") or ("custom" if cache.get("PP_OMP_EXTRA_FLAGS") else "none")
    return tag if fs == "none" else f"{tag}+{fs}"


def model_of(path, argv):
    stem, ext = os.path.splitext(os.path.basename(path))
    if ext == ".cu":
        return "cuda"
    if ext == ".hip":
        return "hip"
    offload = any(a.startswith(("--offload-arch", "-fopenmp-targets", "-foffload=")) for a in argv)
    if ext == ".c" and offload:
        return "ompx" if stem.endswith("ompx") else "omp" if stem.endswith("omp") else None
    return None


def kernel_sources(build, src_root):
    """[(source, model, app, directory, argv)] of every GPU kernel file, once each."""
    path = os.path.join(build, "compile_commands.json")
    try:
        db = resultfile.load_json(path, limit=resultfile.RESULT_LIMIT)
    except resultfile.BadInput as e:
        die(f"{e}; configure with CMAKE_EXPORT_COMPILE_COMMANDS=ON (the top CMakeLists.txt sets it)")
    if not isinstance(db, list) or not all(isinstance(e, dict) and isinstance(e.get("file"), str)
                                           and isinstance(e.get("directory"), str)
                                           and (isinstance(e.get("arguments"), list) or isinstance(e.get("command"), str))
                                           for e in db):
        die(f"{path}: not a compilation database (a list of file, directory, arguments or command)")
    entries = [(e["file"], e["directory"], e.get("arguments") or shlex.split(e["command"])) for e in db]
    # hipcc is a custom command (cmake/ProxyPortApp.cmake): read it from the Makefiles
    # of this build, not of builds nested in it (tests configure and delete their own
    # under tests/ while others run: a file may vanish between listing and reading).
    for top, dirs, files in os.walk(build):
        dirs[:] = [x for x in dirs if not os.path.exists(os.path.join(top, x, "CMakeCache.txt"))]
        if "build.make" not in files:
            continue
        try:
            with open(os.path.join(top, "build.make"), encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
        except OSError:
            continue
        for line in lines:
            m = re.match(r"\s*cd (\S+) && (\S*hipcc\s.*)$", line)
            if m:
                argv = shlex.split(m.group(2))
                src = argv[argv.index("-c") + 1] if "-c" in argv else None
                if src:
                    entries.append((src, m.group(1), argv))
    out, seen = [], set()
    for src, d, argv in entries:
        src = os.path.realpath(os.path.join(d, src))
        rel = os.path.relpath(src, src_root)
        model = model_of(src, argv)
        if model is None or src in seen or rel.startswith(".."):
            continue
        parts = rel.split(os.sep)
        if not ("kernels" in parts or parts[:2] == ["common", "backend"]):
            continue
        seen.add(src)
        out.append((src, model, LIBRARY_APP.get(parts[0], parts[0]), d, argv))
    return out


def compiler_kind(argv):
    exe = os.path.basename(argv[0])
    if "nvcc" in exe:
        return "nvcc"
    if "hipcc" in exe:
        return "hipcc"
    if any(a.startswith("-foffload=") for a in argv) or re.match(r"(gcc|cc)(-\d+)?$", exe):
        return "gcc"
    return "clang"


def replace_output(argv, obj):
    argv = list(argv)
    if "-o" in argv:
        argv[argv.index("-o") + 1] = obj
    else:
        argv += ["-o", obj]
    return argv


def run(argv, cwd):
    try:
        r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace")
    except OSError as e:
        return 127, str(e)
    return r.returncode, r.stdout + r.stderr


def is_lto(argv):
    """Device code compiled at the link: AMDGPU OpenMP in LLVM 19, or -foffload-lto."""
    lto = any(a.startswith("--offload-arch=gfx") or a.startswith("-fopenmp-targets=amdgcn") for a in argv)
    for a in argv:
        if a == "-foffload-lto" or a.startswith("-foffload-lto="):
            lto = True
        elif a == "-fno-offload-lto":
            lto = False
    return lto


class Facts:
    def __init__(self, build, src_root, tmp):
        self.build, self.src_root, self.tmp = build, src_root, tmp
        self.kernels, self.files, self.failed = [], [], []
        self.inodes = {}

    def note_file(self, src, model, app, status, method, remarks=()):
        self.files.append({"source": os.path.relpath(src, self.src_root), "app": app, "model": model,
                           "status": status, "method": method, "remarks": list(remarks)})

    def add(self, app, model, symbol, facts, method, src_hint=None, bounds=None):
        k = {"app": app, "model": model, "symbol": symbol, "method": method}
        info = omp_symbol(symbol, self.inodes) if model in openmp_device_models() else None
        if info:
            src = info["source"] or src_hint
            k.update(kernel=info["function"], line=info["line"], region=info["region"])
            if src:
                text = source_line(src, info["line"])
                k["launch"] = dict(launch_clauses(text), source_text=text) if text else {}
        else:
            dem = self.demangled.get(symbol, symbol)
            k.update(kernel=kernel_name(dem), demangled=dem, line=None)
            src = src_hint
            if src:
                k["launch"] = {"configs": cuda_launch(src, dem.split("(")[0].split("::")[-1])}
        k["source"] = os.path.relpath(src, self.src_root) if src else None
        for f in ("registers", "smem_static", "stack", "spill_stores", "spill_loads"):
            k[f] = facts.get(f)
        k["max_threads"] = (bounds or {}).get("max_threads") or (bounds or {}).get("req_threads")
        extra = {f: v for f, v in facts.items() if f not in k}
        extra.update({f: v for f, v in (bounds or {}).items() if f not in ("max_threads",)})
        if extra:
            k["extra"] = extra
        k["remarks"] = []
        self.kernels.append(k)

    def index_inodes(self, srcs):
        for s in srcs:
            try:
                self.inodes[format(os.stat(s).st_ino, "x")] = s
            except OSError:
                pass

    # clang OpenMP, device code compiled with the TU: ptxas runs now.
    def clang_compile(self, src, model, app, cwd, argv):
        d = tempfile.mkdtemp(prefix="omp-", dir=self.tmp)
        extra = (["--offload-device-only", "-save-temps=obj", "-Xcuda-ptxas", "-v",
                  "-Rpass-analysis=kernel-resource-usage"] + OPENMP_REMARKS)
        rc, out = run(replace_output(argv, os.path.join(d, "k.o")) + extra, cwd)
        if rc:
            self.fail(src, model, app, "clang device compile", rc, out)
            return
        amd = parse_amd_resource(out)
        res = parse_ptxas(out) or amd
        bounds = {}
        for s in glob.glob(os.path.join(d, "*.s")):
            with open(s, encoding="utf-8", errors="replace") as f:
                bounds.update(parse_ptx_bounds(f.read()))
        method = ("clang device compile: ptxas -v of the build's ptxas (" + self.ptxas_of(argv) + "), PTX .maxntid"
                  if not amd else "clang device compile: -Rpass-analysis=kernel-resource-usage")
        self.emit(src, model, app, res, bounds, parse_remarks(out), method)

    def emit(self, src, model, app, res, bounds, remarks, method):
        self.demangled = demangle(res)
        first = len(self.kernels)
        for sym in sorted(res, key=lambda s: (omp_symbol(s, {}) or {}).get("line", 0)):
            self.add(app, model, sym, res[sym], method, src, bounds.get(sym))
        loose = attach_remarks(self.kernels[first:], remarks, src, self.src_root)
        self.note_file(src, model, app, "ok" if res else "no kernels reported", method, loose)

    def ptxas_of(self, argv):
        cp = [a.split("=", 1)[1] for a in argv if a.startswith("--cuda-path=")]
        return os.path.join(cp[-1], "bin", "ptxas") if cp else "ptxas on PATH / clang's CUDA"

    def nvcc(self, src, model, app, cwd, argv):
        d = tempfile.mkdtemp(prefix="cuda-", dir=self.tmp)
        rc, out = run(replace_output(argv, os.path.join(d, "k.o"))
                      + ["-Xptxas", "-v", "-keep", "-keep-dir", d], cwd)
        if rc:
            self.fail(src, model, app, "nvcc compile", rc, out)
            return
        bounds = {}
        for s in glob.glob(os.path.join(d, "*.ptx")):
            with open(s, encoding="utf-8", errors="replace") as f:
                bounds.update(parse_ptx_bounds(f.read()))
        self.emit(src, model, app, parse_ptxas(out), bounds, [], "nvcc -Xptxas -v, PTX .maxntid")

    def hipcc(self, src, model, app, cwd, argv):
        d = tempfile.mkdtemp(prefix="hip-", dir=self.tmp)
        rc, out = run(replace_output(argv, os.path.join(d, "k.o"))
                      + ["--offload-device-only", "-Rpass-analysis=kernel-resource-usage"], cwd)
        if rc:
            self.fail(src, model, app, "hipcc device compile", rc, out)
            return
        self.emit(src, model, app, parse_amd_resource(out), {}, [], "hipcc -Rpass-analysis=kernel-resource-usage")

    def fail(self, src, model, app, what, rc, out):
        tail = " | ".join(out.strip().splitlines()[-3:])
        self.failed.append(f"{os.path.relpath(src, self.src_root)}: {what} exit {rc}: {tail}")
        self.note_file(src, model, app, f"failed: {what} exit {rc}", what)

    # Device code compiled at the link: relink each app into the temporary folder.
    def relink(self, apps_srcs):
        for app, srcs in sorted(apps_srcs.items()):
            link = os.path.join(self.build, app, "CMakeFiles", f"{app}.dir", "link.txt")
            if not os.path.exists(link):
                for s, m in srcs:
                    self.note_file(s, m, app, f"not available: no link command {os.path.relpath(link, self.build)}",
                                   "relink")
                continue
            with open(link, encoding="utf-8") as f:
                argv = shlex.split(f.read().strip().splitlines()[0])
            d = tempfile.mkdtemp(prefix=f"link-{app}-", dir=self.tmp)
            # run in d (the linker wrapper writes its saved temps to the working
            # folder): the link's relative paths made absolute
            appdir = os.path.join(self.build, app)
            argv = [os.path.join(appdir, x) if not x.startswith("-") and not os.path.isabs(x)
                    and os.path.exists(os.path.join(appdir, x)) else x for x in argv]
            argv = replace_output(argv, os.path.join(d, app))
            argv += ["-Wl,--offload-opt=-pass-remarks-analysis=kernel-resource-usage|openmp-opt",
                     "-Wl,--offload-opt=-pass-remarks=openmp-opt",
                     "-Wl,--offload-opt=-pass-remarks-missed=openmp-opt", "-Xcuda-ptxas", "-v",
                     "-save-temps"]  # the linked PTX (its .maxntid)
            rc, out = run(argv, d)
            method = "relink (device LTO): clang-linker-wrapper remarks / ptxas -v"
            if rc:
                why = out.strip().splitlines()[-1] if out.strip() else ""
                for s, m in srcs:
                    self.note_file(s, m, app, f"not available: relink exit {rc} (build the app first?) {why}",
                                   "relink")
                continue
            res = parse_ptxas(out) or parse_amd_resource(out)
            bounds = {}
            for ptx in glob.glob(os.path.join(d, "*.s")):
                with open(ptx, encoding="utf-8", errors="replace") as f:
                    bounds.update(parse_ptx_bounds(f.read()))
            self.demangled = {}
            mine = {os.path.realpath(s): m for s, m in srcs}
            for sym, fx in res.items():
                info = omp_symbol(sym, self.inodes)
                if info and info["source"] and os.path.realpath(info["source"]) in mine:
                    self.add(app, mine[os.path.realpath(info["source"])], sym, fx, method, bounds=bounds.get(sym))
            loose = [r["text"] for r in parse_remarks(out)]
            for s, m in srcs:
                self.note_file(s, m, app, "ok", method, loose if s == srcs[0][0] else [])


def collect(build, apps, models, tmp):
    build = os.path.realpath(build)
    cache = read_cache(build)
    src_root = os.path.realpath(cache.get("CMAKE_HOME_DIRECTORY") or cache.get("ProxyPort_SOURCE_DIR") or ".")
    fx = Facts(build, src_root, tmp)
    srcs = [s for s in kernel_sources(build, src_root)
            if (not apps or s[2] in apps) and (not models or s[1] in models)]
    fx.index_inodes(s[0] for s in srcs)
    link_apps = {}
    for src, model, app, cwd, argv in srcs:
        kind = compiler_kind(argv)
        if kind == "nvcc":
            fx.nvcc(src, model, app, cwd, argv)
        elif kind == "hipcc":
            fx.hipcc(src, model, app, cwd, argv)
        elif "-DPP_OFFLOAD_CPU=1" in argv or any(a.startswith("-fopenmp-targets=") and "nvptx" not in a
                                                 and "amdgcn" not in a for a in argv):
            # the cpu target, whichever compiler (gcc's -foffload=disable builds too)
            fx.note_file(src, model, app, "not available: OpenMP offload to the host CPU (no GPU kernels)", "none")
        elif kind == "gcc":
            fx.note_file(src, model, app, "not available: GCC compiles offload code at the link (mkoffload, "
                         "LTO); its nvptx back end reports no per-kernel resources", "none")
        elif is_lto(argv):
            # The common layer's kernels are linked into every app: relinking one app is enough.
            link_apps.setdefault("microbench" if app == "common" else app, []).append((src, model))
        else:
            fx.clang_compile(src, model, app, cwd, argv)
    if link_apps:
        fx.relink(link_apps)
    cc = cache.get("CMAKE_C_COMPILER", "")
    b = {"dir": build, "source": src_root, "compiler": f"{cache.get('CMAKE_C_COMPILER_ID', '?')} "
         f"{cache.get('CMAKE_C_COMPILER_VERSION', '?')} ({cc})", "tag": build_tag(cache),
         "offload": cache.get("PP_OFFLOAD", ""), "cuda_compiler": cache.get("CMAKE_CUDA_COMPILER", ""),
         "flags": " ".join(x for x in (cache.get("CMAKE_C_FLAGS", ""), cache.get("PP_OMP_DEVICE_FLAGS", ""),
                                       cache.get("PP_OMP_EXTRA_FLAGS", "")) if x).strip(),
         "arch": cache.get("PP_NVIDIA_ARCH") if cache.get("PP_OFFLOAD") == "nvidia" else cache.get("PP_AMD_ARCH", "")}
    for k in fx.kernels:  # at the block size the PTX bounds (launch bounds, .maxntid) fix
        occ = occupancy(b["arch"], k.get("registers"), k.get("smem_static"), block_threads(k.get("max_threads")))
        if occ:
            k["occupancy"] = dict(occ, threads=block_threads(k["max_threads"]),
                                  note="static shared memory only; at the block size of the kernel's bound")
    return {"schema": "proxyport-compile-facts-1", "build": b, "kernels": fx.kernels, "files": fx.files}, fx.failed


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

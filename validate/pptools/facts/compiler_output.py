"""The compilers' reports parsed into facts per kernel symbol (unit-tested on
captured output, tests/fixtures/facts): ptxas -v, AMDGPU's kernel-resource-usage
remarks, OpenMP optimization remarks (and which kernel each belongs to), and
the launch bounds of PTX (.maxntid / .reqntid)."""
import os
import re

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


PARSERS = {"ptxas": parse_ptxas, "amd": parse_amd_resource, "remarks": parse_remarks, "ptx": parse_ptx_bounds}

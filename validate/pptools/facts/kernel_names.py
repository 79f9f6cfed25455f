"""Kernel symbols to ProxyPort's names and sources: demangling, k_NAME / NAME_kernel
-> NAME, OpenMP offload symbols -> (source, line, enclosing function), and the
launch clauses or <<<...>>> configurations written at the kernel's source."""
import re
import shutil
import subprocess

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

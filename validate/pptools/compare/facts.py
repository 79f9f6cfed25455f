"""Compile facts (validate/compile-facts JSON) beside result rows.

A row label "omp[clang-19+lto]" is model "omp" of the build tagged
"clang-19+lto"; a plain label ("cuda") is that model of whichever facts file
has it. A row's kernel matches a facts kernel of the same app and model when
the names are equal or the row's name ends in "_" + the function's name
(cgsolve's row cg_dot is the function dot); failing that, the same match in
another app's kernel files (cgsolve's cg_spmv runs spmv's kernel file)."""
from .. import result
from ..text import show

split_label = result.split_label


def load_facts(paths, die):
    docs = []
    for p in paths or ():
        try:
            doc = result.load_json(p, "--facts", limit=result.RESULT_LIMIT)
        except result.BadInput as e:
            die(f"{e} (a JSON facts file expected)")
        if not isinstance(doc, dict) or doc.get("schema") != "proxyport-compile-facts-1":
            die(f"--facts {p}: not a compile-facts file (schema proxyport-compile-facts-1)")
        if not isinstance(doc.get("build"), dict) or not isinstance(doc.get("kernels"), list) or not all(
                isinstance(k, dict) and all(isinstance(k.get(f), str) for f in ("app", "kernel", "model"))
                for k in doc["kernels"]):
            die(f"--facts {p}: a compile-facts file needs a \"build\" object and \"kernels\" with app, kernel, model")
        docs.append(doc)
    return docs


def _name_match(row_kernel, fact_kernel):
    return row_kernel == fact_kernel or row_kernel.endswith("_" + fact_kernel)


def lookup(docs, app, kernel, label):
    """The facts kernels of one row (a list: a function may hold several regions)."""
    model, tag = split_label(label)
    # A tagged label takes only its own build's facts; an untagged one any build's.
    pools = [d for d in docs if tag is None or d["build"].get("tag") == tag]
    for pool in pools:
        ks = [k for k in pool["kernels"] if k["model"] == model]
        for same_app in (True, False):
            hit = [k for k in ks if (k["app"] == app) == same_app and _name_match(kernel, k["kernel"])]
            if hit:
                exact = [k for k in hit if k["kernel"] == kernel]
                return exact or hit
    return []


def brief(ks):
    """regs 32/23 smem 0 stack 0 spill 0/0 (several regions: values joined by /)."""
    if not ks:
        return "-"

    def vals(f):
        v = []
        for k in ks:
            x = k.get(f)
            s = "-" if x is None else str(x)
            if s not in v:
                v.append(s)
        return "/".join(v)
    sp = "/".join(dict.fromkeys(f"{k.get('spill_stores', '-')}:{k.get('spill_loads', '-')}" for k in ks))
    return show(f"regs {vals('registers')} smem {vals('smem_static')} stack {vals('stack')} spill {sp}")

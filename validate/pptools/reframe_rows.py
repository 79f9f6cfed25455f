"""What the ReFrame checks read from an app's --json result file.

Plain Python (no ReFrame import, so the unit test runs without ReFrame
installed). The checks in validate/reframe/proxyport.py use:
  load(path)                      the result file (pptools.result), None if none
  problems(doc, model, exitcode)  why a run is not a pass (empty list: pass)
  perf_rows(doc, model)           {perf variable name: (FOM, unit, higher is better)}
  energy_rows(doc, model)         the same for the rows' energy: NAME_per_J (work per joule)
                                  and NAME_W (average power), where the row has energy
  references(doc, model, tol)     ReFrame reference tuples from a published file
  gpu_names(doc)                  the GPUs a run saw (references need the published one)
"""
import re

from . import result as resultfile


def load(path):
    """A run's result file, or None where it left none or a file that is not one."""
    try:
        return resultfile.load_result(path)
    except resultfile.BadInput:
        return None


EXIT_MEANING = {1: "a validation failed", 2: "bad usage or input", 3: "runtime or device error"}


def model_rows(doc, model):
    return [r for r in (doc or {}).get("results") or [] if r.get("model") == model]


def row_name(row):
    """kernel[variant]@size, with only characters ReFrame's reference keys allow
    (no ':' or spaces); xsbench_like's '(-k N)' suffix is dropped."""
    variant = re.sub(r"\s*\(.*?\)", "", row.get("variant") or "")
    variant = re.sub(r"[^A-Za-z0-9_.=+-]+", "_", variant).strip("_")
    return f"{row['kernel']}" + (f"[{variant}]" if variant else "") + f"@{row['size']}"


def problems(doc, model, exitcode):
    """Reasons the run fails its sanity check: a non-zero exit, no result
    file, no row of MODEL, or any row of MODEL not validated."""
    out = []
    if exitcode != 0:
        out.append(f"exit code {exitcode} ({EXIT_MEANING.get(exitcode, 'abnormal exit')})")
    if doc is None:
        out.append("no JSON result file")
        return out
    rows = model_rows(doc, model)
    if not rows:
        out.append(f"no result row for model '{model}'")
    bad = [f"{row_name(r)} ({r.get('check', '?')})" for r in rows if r.get("valid") is not True]
    if bad:
        out.append(f"{len(bad)} of {len(rows)} {model} row(s) not validated: " + "; ".join(bad))
    return out


def perf_rows(doc, model):
    """{name: (fom, unit, higher_is_better)} for every row of MODEL with a FOM."""
    out = {}
    for r in model_rows(doc, model):
        if isinstance(r.get("fom"), (int, float)):
            out[row_name(r)] = (r["fom"], r.get("fom_unit", ""), bool(r.get("fom_higher_is_better", True)))
    return out


def energy_rows(doc, model):
    """{name_per_J: (work per joule, its unit, True), name_W: (watts, 'W', False)} for
    every row of MODEL whose energy was measured (pp/row.h); none where it was not."""
    out = {}
    for r in model_rows(doc, model):
        e = r.get("energy")
        if not isinstance(e, dict):
            continue
        if isinstance(e.get("fom_per_joule"), (int, float)):
            out[row_name(r) + "_per_J"] = (e["fom_per_joule"], e.get("fom_per_joule_unit", ""), True)
        if isinstance(e.get("watts"), (int, float)):
            out[row_name(r) + "_W"] = (e["watts"], "W", False)
    return out


def references(doc, model, tolerance):
    """{name: (value, lower, upper, unit)} from a published result file:
    -tolerance/unbounded above for higher-is-better FOMs, unbounded below/
    +tolerance for times (lower is better)."""
    refs = {}
    for name, (fom, unit, higher) in perf_rows(doc, model).items():
        refs[name] = (fom, -tolerance, None, unit) if higher else (fom, None, tolerance, unit)
    return refs


def gpu_names(doc):
    """Names of the GPUs in a result file's device and system records, without
    the OpenMP models' suffix ("NVIDIA H200 (OpenMP offload device 0 of 1)")."""
    doc = doc or {}
    devs = [d for d in doc.get("devices") or [] if d.get("ran")]
    system = doc.get("system") or []
    devs += [d for rec in (system if isinstance(system, list) else [system]) for d in rec.get("devices") or []]
    return {re.sub(r"\s*\([^()]*\)$", "", d["name"]) for d in devs if d.get("is_gpu") and d.get("name")}

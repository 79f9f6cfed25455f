"""The executed runs read into the peers table's rows.

Every run is read first on its own: a public run through its code's reader
(codes.parse), a ProxyPort run through its result file (pptools/result.py) and
its code's proxyport_figures; a failed or invalid run, or one of another
problem, is Rejected with the reason and never enters a row. XSBench's
checksums are then compared across the sides at each lookup count: a run whose
checksum differs from XSBench's there is rejected too. Each code makes its rows
(rows.py says when a row is comparable), and every row then gets the
device-time cell (devtime.py; the profiled runs are read here too).
"""
import os

from .. import result
from . import codes, kerneltime, rows, xsbench
from .kerneltime import Unavailable
from .public import Rejected


def proxyport(run, out):
    """Figures of one ProxyPort run, or Rejected."""
    if run["exit"] != 0:
        raise Rejected(f"failed: exit status {run['exit']}")
    path = os.path.join(out, run["json"])
    try:
        doc = result.load_result(path, "peers")
    except result.BadInput as e:
        raise Rejected(f"result file unreadable: {e}") from None
    return codes.CODES[run["group"]].proxyport_figures(rows.rows_of(doc, path), run["want"])


def read_runs(runs, out):
    """Fills run['figures'] or run['rejected'] for every run."""
    for run in runs:
        run.pop("figures", None), run.pop("rejected", None)
        try:
            if "exit" not in run:
                raise Rejected("not run (the step was cut short)")
            if run["side"] == "public":
                try:
                    text = result.read_text(os.path.join(out, run["output"]), "peers output")
                except result.BadInput as e:
                    raise Rejected(f"output unreadable: {e}") from None
                exit_status = run["exit"] if isinstance(run["exit"], int) else -1
                run["figures"] = codes.parse(run["group"], text, exit_status, run["want"])
            else:
                run["figures"] = proxyport(run, out)
        except Rejected as e:
            run["rejected"] = str(e)
    return runs


def _check_profiled(run, out):
    """Rejected (as Rejected or Unavailable) unless the profiled run itself is good."""
    if "exit" not in run:
        raise Unavailable("not run (the step was cut short)")
    if run["side"] == "public":
        text = result.read_text(os.path.join(out, run["output"]), "peers output")
        codes.parse(run["group"], text, run["exit"] if isinstance(run["exit"], int) else -1, run["want"])
        return
    if run["exit"] != 0:
        raise Unavailable(f"failed: exit status {run['exit']}")
    doc = result.load_result(os.path.join(out, run["json"]), "peers")
    bad = [r["kernel"] for r in doc["results"] if not r.get("valid")]
    if bad or not doc["results"]:
        raise Unavailable(f"rows not valid: {', '.join(bad) or '(none)'}")


def read_device_runs(druns, out):
    """Fills run['kernels'] or run['unavailable'] for every profiled run."""
    for run in druns:
        run.pop("kernels", None), run.pop("unavailable", None)
        try:
            try:
                _check_profiled(run, out)
            except (Rejected, result.BadInput) as e:
                raise Unavailable(str(e)) from None
            run["kernels"] = kerneltime.read(os.path.join(out, run["kernel_file"]))
        except Unavailable as e:
            run["unavailable"] = str(e)
    return druns


def attach_device(table, druns, out, off=None):
    """Sets row['device'] on every row: the cell, or {'why': off} when the view is off."""
    if off is None:
        read_device_runs(druns, out)
    for row in table:
        if off is not None or "device_key" not in row:
            row["device"] = {"why": f"not available: {off or 'no device-time method for this row'}"}
        else:
            row["device"] = codes.CODES[row["device_key"][0]].device_cell(druns, row["device_key"])
    return table


def analyze(runs, out, missing=None, druns=None, device_off=None):
    """The rows. missing: {group: [binaries not built]} (the step's left_out);
    druns: the profiled runs of the device-time view; device_off: why the view
    is off (then every row's device cell says so)."""
    missing = {b for bins in (missing or {}).values() for b in bins}
    read_runs(runs, out)
    xsbench.check_checksums(runs)
    groups = {r["group"] for r in runs}
    table = []
    for g, code in codes.CODES.items():
        if g in groups:
            table += code.table_rows(runs, missing)
    if device_off is None and not druns:
        device_off = "no profiled runs in this step"
    return attach_device(table, druns or [], out, device_off)


def failing(table):
    """The rows that make the step fail: not comparable, unless an optional build not built,
    or a row whose comparison is another row that is comparable (superseded_by: XSBench's
    marginal row where its fixed costs are too large for the whole-run one)."""
    ok = {r.get("comparison") for r in table if r["ok"]}
    return [r for r in table if not r["ok"] and not (r.get("optional") and r.get("not_built"))
            and not (r.get("superseded_by") and r["superseded_by"] in ok)]

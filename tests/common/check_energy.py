#!/usr/bin/env python3
"""check_energy.py [options] --run FILE -- COMMAND...

Runs COMMAND with `--json FILE` (exit 0 needed), then checks every row's
energy (read through pptools/result.py) against what the test planted:

  --watts W        the devices' planted power: each row's average and idle
                   power within 10% of W
  --unit U         each whole row's work-per-joule unit (repeatable: any of them)
  --readers N      devices read (one reader per device and node)
  --ranks N        the file comes from N ranks; per_rank lists them, every
                   rank's device read by the rank in --read-by (e.g. 0,0)
  --read-by LIST   comma-separated: the rank that reads each rank's device
  --absent TEXT    every row's energy is the string TEXT (not measured)
  --below          every row is marked below the counter's resolution (error >= 2%)
  --repeated       every row was repeated for the counter's resolution
  --fastest-tpb    of each kernel's rows at several tpb (same model and size) the fastest
                   alone has energy; the others name it (microbench --energy-tpb fastest)
  --largest-size   of each kernel's rows at several sizes (same model and launch) only those at the
                   largest size are metered; the others name it (microbench --energy-sizes largest)
  --or-wrap-gap    a row may instead say its reader was starved past one wrap of
                   the counter (a loaded machine: that refusal is right too)

Always: the file passes result.schema.json; joules per repetition x repetitions = watts x region seconds;
joules per repetition = watts x the row's median time x metered_time_ratio, and a ratio off 1 by more than
2% has a note; the work per joule is FOM x median / joules (rates); not below resolution unless the error
says so; per_node sums to the row's joules.
Exit 0 good, 1 a check failed, 2 usage or the command failed."""
import argparse
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "validate"))
from pptools import result  # noqa: E402


def groups_of(rows, key):
    """{key(row): [rows]} in the file's order."""
    out = {}
    for r in rows:
        out.setdefault(key(r), []).append(r)
    return out


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--run", required=True)
    ap.add_argument("--watts", type=float)
    ap.add_argument("--unit", action="append", default=[])
    ap.add_argument("--readers", type=int)
    ap.add_argument("--ranks", type=int, default=1)
    ap.add_argument("--read-by")
    ap.add_argument("--absent")
    ap.add_argument("--below", action="store_true")
    ap.add_argument("--repeated", action="store_true")
    ap.add_argument("--or-wrap-gap", action="store_true")
    ap.add_argument("--fastest-tpb", action="store_true")
    ap.add_argument("--largest-size", action="store_true")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        print("check_energy: no command", file=sys.stderr)
        return 2
    p = subprocess.run(cmd + ["--json", a.run])
    if p.returncode != 0:
        print(f"check_energy: the command exited {p.returncode}", file=sys.stderr)
        return 2
    doc = result.load_result(a.run)
    errs = result.schema_errors(doc)
    if errs is None:
        print("check_energy: jsonschema is not installed", file=sys.stderr)
        return 2
    bad = [f"schema: {e}" for e in errs]
    rows = [r for r in doc["results"] if not (isinstance(r.get("energy"), str) and "a part of" in r["energy"])]
    if not rows:
        bad.append("no whole rows")
    if a.largest_size:
        sized = [g for g in groups_of(rows, lambda r: (r["kernel"], r["model"], r["variant"])).values() if len(g) > 1]
        if not sized:
            bad.append("no kernel ran at several sizes")
        for g in sized:
            top = max(r["size"] for r in g)
            for r in g:
                w = f"{r['kernel']} {r['model']} {r['size']} {r['variant']}"
                want = f"not measured: the kernel's energy is measured at the largest size, {top} (--energy-sizes all)"
                if r["size"] < top and r["energy"] != want:
                    bad.append(f"{w}: below the largest size {top}, energy {r['energy']!r}")
                if r["size"] == top and r["energy"] == want:
                    bad.append(f"{w}: the largest size, but no energy")
        rows = [r for r in rows if not (isinstance(r["energy"], str) and "at the largest size" in r["energy"])]
    if a.fastest_tpb:
        groups = groups_of(rows, lambda r: (r["kernel"], r["model"], r["size"]))
        swept = [g for g in groups.values() if len(g) > 1]
        if not swept:
            bad.append("no kernel ran at several tpb")
        for g in swept:
            best = max(g, key=lambda r: r["fom"] if r["fom_higher_is_better"] else -r["fom"])
            for r in g:
                w = f"{r['kernel']} {r['model']} {r['size']} {r['variant']}"
                if r is best and not isinstance(r["energy"], dict):
                    bad.append(f"{w}: the fastest, but no energy: {r['energy']!r}")
                elif r is not best and r["energy"] != ("not measured: the kernel's energy is measured at its "
                                                      f"fastest launch, {best['variant']} (--energy-tpb all)"):
                    bad.append(f"{w}: not the fastest ({best['variant']}), energy {r['energy']!r}")
        rows = [r for r in rows if isinstance(r["energy"], dict) or not any(len(g) > 1 for g in [groups[
            (r["kernel"], r["model"], r["size"])]])]
    for r in rows:
        w = f"{r['kernel']} {r['model']} {r['size']} {r['variant']}"
        e = r.get("energy")
        if a.absent is not None:
            if e != a.absent:
                bad.append(f"{w}: energy {e!r}, expected {a.absent!r}")
            continue
        if a.or_wrap_gap and isinstance(e, str) and "longer than one wrap of the counter" in e:
            continue
        if not isinstance(e, dict):
            bad.append(f"{w}: no energy: {e!r}")
            continue
        if a.watts is not None:
            for k in ("watts", "idle_watts"):
                if not abs(e[k] - a.watts) <= 0.1 * a.watts:
                    bad.append(f"{w}: {k} {e[k]:.3f}, planted {a.watts}")
        total = e["joules_per_rep"] * e["region_runs"] * e["calls_per_run"]
        if not math.isclose(total, e["watts"] * e["region_s"], rel_tol=1e-9):
            bad.append(f"{w}: {total:.4g} J over the runs, but {e['watts']:.4g} W x {e['region_s']:.4g} s")
        ratio = e["metered_time_ratio"]
        row_j = e["watts"] * r["time_s"]["median"] * ratio
        if not math.isclose(e["joules_per_rep"], row_j, rel_tol=1e-6):
            bad.append(f"{w}: {e['joules_per_rep']:.6g} J/rep, but W x median x ratio is {row_j:.6g}")
        if abs(ratio - 1) > 0.02 and "the row's time per repetition" not in e.get("note", ""):
            bad.append(f"{w}: metered runs at {ratio:.3g}x the row's time and no note says so")
        if r["fom_higher_is_better"]:
            want = r["fom"] * r["time_s"]["median"] / e["joules_per_rep"]
            if not math.isclose(e["fom_per_joule"], want, rel_tol=1e-6):
                bad.append(f"{w}: fom_per_joule {e['fom_per_joule']:.6g}, FOM x median / J is {want:.6g}")
        if a.unit and e["fom_per_joule_unit"] not in a.unit:
            bad.append(f"{w}: unit {e['fom_per_joule_unit']}, expected one of {a.unit}")
        if e["below_counter_resolution"] != (e["counter_error"] >= 0.02):
            bad.append(f"{w}: below_counter_resolution {e['below_counter_resolution']} with error {e['counter_error']}")
        if a.repeated and not e["repeated_for_resolution"]:
            bad.append(f"{w}: not repeated for the counter's resolution (error {e['counter_error']:.3g})")
        if a.below and not e["below_counter_resolution"]:
            bad.append(f"{w}: not marked below the counter's resolution (error {e['counter_error']:.3g})")
        if e["below_counter_resolution"] and not a.below:
            bad.append(f"{w}: below the counter's resolution (error {e['counter_error']:.3g})")
        if a.readers is not None and e["readers"] != a.readers:
            bad.append(f"{w}: {e['readers']} readers, expected {a.readers}")
        if len(e["per_rank"]) != a.ranks:
            bad.append(f"{w}: per_rank lists {len(e['per_rank'])} ranks, expected {a.ranks}")
        if a.read_by is not None:
            got = ",".join(str(x["read_by"]) for x in e["per_rank"])
            if got != a.read_by:
                bad.append(f"{w}: read_by {got}, expected {a.read_by}")
        node = sum(e["per_node"].values())
        if not math.isclose(node, e["joules_per_rep"], rel_tol=1e-9):
            bad.append(f"{w}: per_node sums to {node:.6g}, the row has {e['joules_per_rep']:.6g}")
    for b in bad:
        print("check_energy: FAIL:", b)
    if not bad:
        print(f"check_energy: OK {len(rows)} rows")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

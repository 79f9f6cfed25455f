#!/usr/bin/env python3
"""Parse the outputs of the public reference codes (validate/refs) into figures.

usage: parse.py KIND FILE            print the figures of one output as JSON
       parse.py --collect RESULTS    write RESULTS/refs.json from RESULTS/runs.tsv
KIND: xsbench | babelstream | testsnap (either TestSNAP build: Kokkos CUDA or OpenMPTarget)

An output is rejected (exit 1, a message naming the file and what is wrong)
when a figure is missing or unreadable, or when the code's own verification
failed: XSBench's checksum not "(Valid)", BabelStream's "FAILED validation",
TestSNAP's force deviation above FORCE_TOL against the reference forces.
runs.tsv (written by run.sh): name, kind, exit status, output file, command.
"""
import json
import os
import sys

# the readers of the public codes' outputs are the peers step's (validate/pptools/peers):
# one reader per code; this script adds the checks of a reference run's record
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
from pptools.peers import babelstream, testsnap, xsbench  # noqa: E402
from pptools.peers.public import Rejected  # noqa: E402

FORCE_TOL = testsnap.FORCE_TOL  # eV/A; the generated W_2J14 reference agrees to ~1e-13
BABEL_KERNELS = babelstream.KERNELS


class Malformed(Exception):
    pass


def _read(reader, text):
    try:
        return reader(text)
    except Rejected as e:
        raise Malformed(str(e)) from None


def parse_xsbench(text):
    x = _read(xsbench.read, text)
    for k, what in (("lookups", "lookups"), ("lookups_per_s", "lookups/s")):
        if x[k] < 0:
            raise Malformed("unreadable %s: %r" % (what, format(x[k], ",")))
    if x["device"] is None:
        raise Malformed("no CUDA device in its output")
    r = {k: x[k] for k in ("method", "size", "device", "runtime_s", "lookups", "lookups_per_s", "checksum")}
    r["kernel"] = x["kernel"] or "baseline"
    r["valid"] = x["valid"]
    if not r["valid"]:
        raise Malformed("checksum %d not valid" % r["checksum"])
    return r


def parse_babelstream(text):
    x = _read(babelstream.read, text)
    for k, what in (("elements", "number of elements"), ("precision", "precision"), ("times", "iteration count")):
        if x[k] is None:
            raise Malformed("no %s in its output" % what)
    r = {"elements": x["elements"], "precision": x["precision"], "times": x["times"]}
    if x["unit"] != "MB":
        raise Malformed("bandwidth unit %s, expected MB" % x["unit"])
    kernels = {}
    for row in x["rows"]:
        mbs, tmin, tmax, tavg = row["per_s"], row["min_s"], row["max_s"], row["avg_s"]
        if not (mbs > 0 and 0 < tmin <= tavg <= tmax):
            raise Malformed("inconsistent result row: %r" % row["line"])
        kernels[row["name"]] = {"MB_per_s": mbs, "min_s": tmin, "max_s": tmax, "avg_s": tavg}
    missing = [k for k in BABEL_KERNELS if k not in kernels]
    if missing:
        raise Malformed("kernels missing: %s" % ", ".join(missing))
    r["kernels"] = kernels
    return r


def parse_testsnap(text):
    x = _read(testsnap.read, text)
    for k, what in (("nghost", "nghostatoms"), ("nneighs", "nneighs")):
        if x[k] is None:
            raise Malformed("no %s in its output" % what)
    r = {k: x[k] for k in ("natoms", "nghost", "nsteps", "nneighs", "twojmax", "duration_s",
                           "grind_ms_per_atom_step", "rms_force_dev", "exec_space", "routines_s")}
    if not r["routines_s"]:
        raise Malformed("no routine timings")
    if not r["grind_ms_per_atom_step"] > 0:
        raise Malformed("grind time not positive")
    if not r["rms_force_dev"] <= FORCE_TOL:  # also catches nan
        raise Malformed("force deviation %g > %g eV/A" % (r["rms_force_dev"], FORCE_TOL))
    return r


PARSERS = {"xsbench": parse_xsbench, "babelstream": parse_babelstream,
           "testsnap": parse_testsnap}


def parse_file(kind, path):
    try:
        return PARSERS[kind](open(path, errors="replace").read())
    except Malformed as e:
        raise Malformed("%s: %s" % (path, e)) from None


def collect(results):
    runs, bad = [], 0
    for line in open(os.path.join(results, "runs.tsv")):
        name, kind, rc, out, cmd = line.rstrip("\n").split("\t")
        run = {"name": name, "kind": kind, "exit": int(rc), "output": out, "command": cmd}
        try:
            if run["exit"] != 0:
                raise Malformed("%s: exit status %s" % (out, rc))
            run["figures"] = parse_file(kind, os.path.join(results, out))
        except Malformed as e:
            run["error"] = str(e)
            print("parse.py: %s" % e, file=sys.stderr)
            bad += 1
        runs.append(run)
    meta = {}
    vpath = os.path.join(results, "versions.txt")
    if os.path.exists(vpath):
        meta["versions"] = [line.rstrip("\n") for line in open(vpath) if line.strip()]
    doc = dict(meta, runs=runs)
    with open(os.path.join(results, "refs.json"), "w") as o:
        json.dump(doc, o, indent=1)
        o.write("\n")
    return bad


def main(argv):
    if len(argv) == 3 and argv[1] == "--collect":
        return 1 if collect(argv[2]) else 0
    if len(argv) != 3 or argv[1] not in PARSERS:
        sys.stderr.write(__doc__)
        return 2
    try:
        print(json.dumps(parse_file(argv[1], argv[2]), indent=1))
    except (Malformed, OSError) as e:
        print("parse.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

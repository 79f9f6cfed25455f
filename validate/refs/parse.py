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
import re
import sys

FORCE_TOL = 1e-6  # eV/A; the generated W_2J14 reference agrees to ~1e-13
BABEL_KERNELS = ("Copy", "Mul", "Add", "Triad", "Dot")


class Malformed(Exception):
    pass


def field(text, pattern, what, conv=str):
    m = re.search(pattern, text, re.M)
    if not m:
        raise Malformed("no %s" % what)
    try:
        return conv(m.group(1))
    except ValueError:
        raise Malformed("unreadable %s: %r" % (what, m.group(1)))


def commas(s):
    if not re.fullmatch(r"\d{1,3}(,\d{3})*", s):
        raise ValueError(s)
    return int(s.replace(",", ""))


def parse_xsbench(text):
    r = {
        "method": field(text, r"^Simulation Method:\s+(.+?)\s*$", "simulation method"),
        "size": field(text, r"^H-M Benchmark Size:\s+(\S+)", "benchmark size"),
        "device": field(text, r"^CUDA Device:\s+(.+?)\s*$", "CUDA device"),
        "runtime_s": field(text, r"^Runtime:\s+(\S+) seconds", "runtime", float),
        "lookups": field(text, r"^Lookups:\s+(\S+)\s*$", "lookups", commas),
        "lookups_per_s": field(text, r"^Lookups/s:\s+(\S+)\s*$", "lookups/s", commas),
        "checksum": field(text, r"^Verification checksum: (\d+) ", "checksum", int),
    }
    kern = re.search(r'^Simulation Kernel:"(.+)"', text, re.M)
    r["kernel"] = kern.group(1) if kern else "baseline"
    r["valid"] = bool(re.search(r"^Verification checksum: \d+ \(Valid\)", text, re.M))
    if not r["valid"]:
        raise Malformed("checksum %d not valid" % r["checksum"])
    return r


def parse_babelstream(text):
    if "FAILED validation" in text:
        raise Malformed("BabelStream validation failed")
    r = {
        "elements": field(text, r"^Number of elements: (\d+)\s*$", "number of elements", int),
        "precision": field(text, r"^Precision: (\w+)", "precision"),
        "times": field(text, r"^Running .* (\d+) times in", "iteration count", int),
    }
    unit = field(text, r"^Function\s+(\S+)/s\s+Min", "result header")
    if unit != "MB":
        raise Malformed("bandwidth unit %s, expected MB" % unit)
    table = text[re.search(r"^Function\s+MB/s", text, re.M).end():]
    kernels = {}
    for line in table.splitlines()[1:]:
        w = line.split()
        if not w:
            continue
        if len(w) != 5:
            raise Malformed("bad result row: %r" % line)
        try:
            mbs, tmin, tmax, tavg = map(float, w[1:])
        except ValueError:
            raise Malformed("bad result row: %r" % line)
        if not (mbs > 0 and 0 < tmin <= tavg <= tmax):
            raise Malformed("inconsistent result row: %r" % line)
        kernels[w[0]] = {"MB_per_s": mbs, "min_s": tmin, "max_s": tmax, "avg_s": tavg}
    missing = [k for k in BABEL_KERNELS if k not in kernels]
    if missing:
        raise Malformed("kernels missing: %s" % ", ".join(missing))
    r["kernels"] = kernels
    return r


def parse_testsnap(text):
    num = r"([-+0-9.eE]+)"
    r = {
        "natoms": field(text, r"^natoms = (\d+)", "natoms", int),
        "nghost": field(text, r"^nghostatoms = (\d+)", "nghostatoms", int),
        "nsteps": field(text, r"^nsteps = (\d+)", "nsteps", int),
        "nneighs": field(text, r"^nneighs = (\d+)", "nneighs", int),
        "twojmax": field(text, r"^twojmax = (\d+)", "twojmax", int),
        "duration_s": field(text, r"^duration = %s \[sec\]" % num, "duration", float),
        "grind_ms_per_atom_step": field(text, r"^grind time = %s \[msec/atom-step\]" % num,
                                        "grind time", float),
        "rms_force_dev": field(text, r"^RMS \|Fj\| deviation %s \[eV/A\]" % num,
                               "force deviation", float),
        "exec_space": field(text, r"^Kokkos::ExecutionSpace = (\S+)", "execution space"),
    }
    r["routines_s"] = {k: float(v) for k, v in
                       re.findall(r"^(compute_\w+) = ([-+0-9.eE]+)\s*$", text, re.M)}
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
        raise Malformed("%s: %s" % (path, e))


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
        meta["versions"] = [l.rstrip("\n") for l in open(vpath) if l.strip()]
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

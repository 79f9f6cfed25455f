#!/usr/bin/env python3
"""check_schema.py [options] FILE
   check_schema.py [options] --run FILE -- COMMAND...

Validates a result file against validate/schema/result.schema.json (JSON
Schema 2020-12, with the `jsonschema` package) and checks what a schema cannot
say: one `system` record per MPI rank, in rank order, each naming the devices
its rank opened. --run first runs COMMAND with `--json FILE` (exit 0 needed).

  --ranks N         the file must come from N ranks
  --gpu-identity    every GPU device (every model, omp and ompx included) is
                    named by its driver: UUID, driver API version and a name
                    that is not just the OpenMP device number
  --expect PATH=JSON  the value at PATH is JSON (e.g. system.0.env.OMP_NUM_THREADS="2")
  --mutate SPEC     change the parsed file before checking (tests that the
                    check fails): del:PATH, rename:PATH:NEWKEY, set:PATH:JSON;
                    PATH is dot-separated keys and list indices (results.0.fom)
Exit: 0 valid, 1 invalid, 2 usage error or jsonschema missing (never a skip:
CI must have it; scripts/setup installs python3-jsonschema)."""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "validate", "schema", "result.schema.json")
sys.path.insert(0, os.path.join(HERE, "..", "..", "validate"))
from pptools import result  # noqa: E402


def die(msg):
    print(f"check_schema: {msg}", file=sys.stderr)
    sys.exit(2)


def walk(doc, path):
    """The container holding PATH's last part, and that part (int for lists)."""
    parts = path.split(".")
    node = doc
    for p in parts[:-1]:
        node = node[int(p)] if isinstance(node, list) else node[p]
    last = parts[-1]
    return node, int(last) if isinstance(node, list) else last


def mutate(doc, spec):
    kind, _, rest = spec.partition(":")
    try:
        if kind == "del":
            node, k = walk(doc, rest)
            del node[k]
        elif kind == "rename":
            path, _, new = rest.rpartition(":")
            node, k = walk(doc, path)
            node[new] = node.pop(k)
        elif kind == "set":
            path, _, value = rest.partition(":")
            node, k = walk(doc, path)
            node[k] = json.loads(value)
        else:
            die(f"--mutate {spec}: expected del:, rename: or set:")
    except (KeyError, IndexError, ValueError) as e:
        die(f"--mutate {spec}: no such path in the file ({e})")


def semantic(d, a):
    """Checks beyond the schema; returns error strings."""
    errs = []
    systems = d.get("system", [])
    ranks = d.get("mpi_ranks")
    if len(systems) != ranks:
        errs.append(f"system has {len(systems)} records for {ranks} MPI ranks")
    for i, s in enumerate(systems):
        if s.get("rank") != i:
            errs.append(f"system[{i}] is rank {s.get('rank')}")
    if a.ranks and ranks != a.ranks:
        errs.append(f"mpi_ranks {ranks} != {a.ranks}")
    ran = sorted(x["model"] for x in d.get("devices", []) if x.get("ran"))
    for s in systems:
        have = sorted(x["model"] for x in s.get("devices", []))
        if have != ran:
            errs.append(f"rank {s.get('rank')}'s devices {have} are not the models that ran {ran}")
    if a.gpu_identity:
        gpus = [(f"devices[{x['model']}]", x) for x in d.get("devices", []) if x.get("ran") and x.get("is_gpu")]
        gpus += [(f"system[{s['rank']}].devices[{x['model']}]", x) for s in systems for x in s.get("devices", [])
                 if x.get("is_gpu")]
        if not gpus:
            errs.append("--gpu-identity: no GPU device in the file")
        for where, x in gpus:
            for k in ("uuid", "driver_api", "pci_bus_id", "runtime"):
                if not x.get(k):
                    errs.append(f"{where}: {k} unknown")
            if x.get("name", "").startswith("OpenMP offload device"):
                errs.append(f"{where}: name '{x['name']}' does not name the GPU")
    return errs


def main():
    argv = sys.argv[1:]
    cmd = []
    if "--" in argv:
        k = argv.index("--")
        argv, cmd = argv[:k], argv[k + 1:]
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("file")
    ap.add_argument("--schema", default=SCHEMA)
    ap.add_argument("--run", action="store_true")
    ap.add_argument("--ranks", type=int, default=0)
    ap.add_argument("--gpu-identity", action="store_true")
    ap.add_argument("--mutate", action="append", default=[])
    ap.add_argument("--expect", action="append", default=[])
    a = ap.parse_args(argv)
    try:
        import jsonschema  # noqa: F401  (pptools.result.schema_errors uses it)
    except ImportError:
        die(f"the Python package jsonschema is not installed for {sys.executable} "
            "(scripts/setup installs python3-jsonschema; or pip install jsonschema)")
    if a.run:
        if not cmd:
            die("--run needs -- COMMAND")
        if os.path.exists(a.file):
            os.remove(a.file)
        r = subprocess.run(cmd + ["--json", a.file])
        if r.returncode != 0:
            print(f"check_schema: FAIL: the command exited {r.returncode}")
            sys.exit(1)
    try:  # the tools' reader and schema check (validate/pptools/result.py)
        doc = result.load_json(a.file, limit=result.RESULT_LIMIT)
        for spec in a.mutate:
            mutate(doc, spec)
        errs = result.schema_errors(doc, a.schema)
    except result.BadInput as e:
        die(str(e))
    if not errs:  # the semantic checks assume the shape the schema guarantees
        errs = semantic(doc, a)
    for spec in a.expect:
        path, _, want = spec.partition("=")
        try:
            node, k = walk(doc, path)
            got = node[k]
        except (KeyError, IndexError, ValueError, TypeError):
            errs.append(f"{path}: not in the file")
            continue
        try:
            want_v = json.loads(want)
        except ValueError:
            die(f"--expect {spec}: the value is not JSON")
        if got != want_v:
            errs.append(f"{path} is {json.dumps(got)}, expected {want}")
    if errs:
        for e in errs[:20]:
            print(f"check_schema: FAIL: {e}")
        if len(errs) > 20:
            print(f"check_schema: ... and {len(errs) - 20} more")
        sys.exit(1)
    sysinfo = doc["system"][0]
    print(f"check_schema: OK {os.path.basename(a.file)}: {len(doc['results'])} rows, "
          f"{len(doc['system'])} system record(s), host {sysinfo['hostname']}")


main()

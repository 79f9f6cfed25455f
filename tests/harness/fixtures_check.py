#!/usr/bin/env python3
"""fixtures_check.py CTEST BUILD_DIR [--planted]: the inputs tests make for other tests
are CTest fixtures (tests/CMakeLists.txt's pp_fixture), read from `ctest --show-only`:
  - a test that runs a generator (a script named make_*) has the label fixture and sets
    up a fixture (FIXTURES_SETUP), and a fixture-labelled test has no other label: it is
    not a test of any tier, CTest runs it wherever a test that requires it runs;
  - a test that names a fixture's folder (a folder of the build its setup writes into)
    requires that fixture (FIXTURES_REQUIRED): without it, CTest could run it first, or
    alone (-R, -L), and it would read a stale or missing input.
--planted: the same on the list with one requirement of each fixture removed and one
fixture's label changed: each must be reported (exit 0 if all are, 1 if one is not).
Exit 0 all kept, 1 each broken rule printed, 2 usage."""
import json
import os
import subprocess
import sys


def props(t):
    return {p["name"]: p["value"] for p in t.get("properties", [])}


def names(t, dirs):
    """Whether test t's command names one of dirs (or a file in one, also inside a sh -c line)."""
    return any(d == a or d + os.sep in a for d in dirs for a in t.get("command") or [])


def check(tests, build):
    bad = []
    folders = {}  # fixture -> folders its setup writes
    for t in tests:
        p = props(t)
        cmd = t.get("command") or []
        runs_generator = any(os.path.basename(a).startswith("make_") for a in cmd)
        if "fixture" in p.get("LABELS", []) or runs_generator:
            if not p.get("FIXTURES_SETUP"):
                bad.append(f"{t['name']}: makes inputs (label fixture or a make_* generator) but sets up no fixture")
            if p.get("LABELS", []) != ["fixture"]:
                bad.append(f"{t['name']}: a fixture's setup labelled {p.get('LABELS', [])}, not fixture alone")
            for f in p.get("FIXTURES_SETUP", []):
                folders.setdefault(f, set()).update(a for a in cmd if a.startswith(build + os.sep))
    required = 0
    for t in tests:
        p = props(t)
        for f, dirs in sorted(folders.items()):
            if f in p.get("FIXTURES_SETUP", []):
                continue
            named = names(t, dirs)
            if named and f not in p.get("FIXTURES_REQUIRED", []):
                bad.append(f"{t['name']}: reads the fixture {f}'s folder but does not require it (FIXTURES_REQUIRED {f})")
            required += named
    return bad, folders, required


def main(argv):
    planted = "--planted" in argv
    args = [a for a in argv[1:] if a != "--planted"]
    if len(args) != 2 or not os.path.isdir(args[1]):
        print(__doc__.split("\n")[0], file=sys.stderr)
        return 2
    ctest, build = args[0], os.path.realpath(args[1])
    out = subprocess.run([ctest, "--test-dir", build, "--show-only=json-v1"], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"fixtures_check: ctest --show-only failed: {out.stderr.strip()}")
        return 2
    tests = json.loads(out.stdout)["tests"]
    if planted:
        _, folders, _ = check(tests, build)
        want = []
        for f in sorted(folders):  # the first test that reads f's folder loses its requirement
            for t in tests:
                for p in t.get("properties", []) if names(t, folders[f]) else []:
                    if p["name"] == "FIXTURES_REQUIRED" and f in p["value"]:
                        p["value"] = [v for v in p["value"] if v != f]
                        want.append(f"{t['name']}: reads the fixture {f}'s folder")
                        break
                else:
                    continue
                break
        setup = next(t for t in tests if "fixture" in props(t).get("LABELS", []))
        for p in setup["properties"]:
            if p["name"] == "LABELS":
                p["value"] = ["unit"]
        want.append(f"{setup['name']}: a fixture's setup labelled ['unit']")
        bad, _, _ = check(tests, build)
        missed = [w for w in want if not any(b.startswith(w) for b in bad)]
        for b in bad:
            print(b)
        if missed or len(bad) != len(want):
            print(f"fixtures_check --planted: {len(want)} planted, {len(bad)} reported; not reported: {missed}")
            return 1
        print(f"fixtures_check --planted: all {len(want)} planted faults reported")
        return 0
    bad, folders, required = check(tests, build)
    for b in bad:
        print(b)
    if bad:
        print(f"fixtures_check: {len(bad)} test(s) break the fixtures' rules (tests/CMakeLists.txt, pp_fixture)")
        return 1
    print(f"fixtures_check: {len(folders)} fixtures ({', '.join(sorted(folders))}), "
          f"{required} tests that read their folders require them")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

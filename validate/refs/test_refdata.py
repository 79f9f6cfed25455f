#!/usr/bin/env python3
"""test_refdata.py GOOD|PLANTED: checks testsnap_refdata.py on W_2J14_2000_disp.
GOOD: the header holds 2000 atoms x 26 neighbours, every rij inside the cutoff
and equal to the minimum image from the data file, jlist never the atom itself,
forces equal to peratom.dump's. PLANTED: a copy of the case with one atom moved
by 0.5 A, so neighbour counts differ; the generator must refuse it (exit != 0)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
case = os.path.join(here, "..", "..", "inputs", "testsnap", "W_2J14_2000_disp")
gen = [sys.executable, os.path.join(here, "testsnap_refdata.py")]
import testsnap_refdata as tr  # noqa: E402  (beside this script: its folder is on sys.path)


def array(text, name):
    body = re.search(r"\.%s = \{(.*?)\}" % name, text, re.S).group(1)
    return np.array([float(v) for v in body.replace(",", " ").split()])


with tempfile.TemporaryDirectory() as t:
    out = os.path.join(t, "refdata.h")
    if sys.argv[1] == "GOOD":
        subprocess.run(gen + [case, out], check=True)
        h = open(out).read()
        n = int(re.search(r"REFDATA_NLOCAL (\d+)", h).group(1))
        nin = int(re.search(r"REFDATA_NINSIDE (\d+)", h).group(1))
        rc = float(re.search(r"\.rcutfac = (\S+),", h).group(1))
        jl = array(h, "jlist").astype(int).reshape(n, nin)
        rij = array(h, "rij").reshape(n, nin, 3)
        assert (n, nin) == (2000, 26), (n, nin)
        assert (jl != np.arange(n)[:, None]).all() and jl.min() >= 0 and jl.max() < n
        assert (np.linalg.norm(rij, axis=2) < rc).all()
        box, x = tr.read_data(os.path.join(case, "data.W_2J14_2000_disp"))
        d = x[jl] - x[:, None, :]
        d -= box * np.round(d / box)
        assert np.abs(d - rij).max() < 1e-12
        f = tr.read_forces(os.path.join(case, "peratom.dump"), n)
        assert np.array_equal(array(h, "fj").reshape(n, 3), f)
        assert len(array(h, "coeff")) == 205
        print("test_refdata: GOOD ok")
    else:
        bad = os.path.join(t, "case")
        shutil.copytree(case, bad)
        data = os.path.join(bad, "data.W_2J14_2000_disp")
        lines = open(data).read().split("\n")
        k = next(i for i, line in enumerate(lines) if line.startswith("1 1 "))
        w = lines[k].split()
        w[2] = repr(float(w[2]) - 0.5)
        lines[k] = " ".join(w)
        open(data, "w").write("\n".join(lines))
        r = subprocess.run(gen + [bad, out], capture_output=True, text=True)
        print(r.stdout + r.stderr)
        assert r.returncode != 0 and "neighbour counts differ" in r.stderr, r.returncode
        print("test_refdata: PLANTED refused ok")

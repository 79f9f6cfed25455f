"""The tools as a Python package (pyproject.toml): its version is the project's, every
console script names a callable main, and the scripts of validate/ run from anywhere
without PYTHONPATH (they find the package beside themselves)."""
import importlib
import os
import re
import subprocess
import sys

import pytest

from conftest import REPO, VALIDATE

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = pytest.importorskip("tomli")

with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
    PYPROJECT = tomllib.load(f)
SCRIPTS = PYPROJECT["project"]["scripts"]
# each console script and the script of validate/ that runs the same main
SHIMS = {"pp-suite": "suite", "pp-compare": "compare", "pp-peers": "peers", "pp-portability": "portability",
         "pp-scaling": "scaling", "pp-energy-check": "energy-check", "pp-compile-facts": "compile-facts",
         "pp-omp-profile": "omp-profile",
         "pp-results-table": "results-table.py", "pp-site": "site", "pp-published": "published",
         "pp-doc-tables": "doc-tables"}


def test_version_is_the_projects():
    with open(os.path.join(REPO, "CMakeLists.txt")) as f:
        cmake = re.search(r"project\(ProxyPort VERSION ([0-9.]+)", f.read()).group(1)
    assert PYPROJECT["project"]["version"] == cmake, "pyproject.toml's version is CMakeLists.txt's project(VERSION)"


def test_every_shim_has_its_console_script():
    assert set(SCRIPTS) == set(SHIMS)


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_console_script_names_a_main(name):
    module, _, attr = SCRIPTS[name].partition(":")
    assert callable(getattr(importlib.import_module(module), attr))
    with open(os.path.join(VALIDATE, SHIMS[name])) as f:
        assert f"from {module} import {attr}" in f.read(), f"validate/{SHIMS[name]} runs {SCRIPTS[name]}"


@pytest.mark.parametrize("shim", sorted(SHIMS.values()))
def test_shim_runs_from_anywhere(shim, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([sys.executable, "-I", os.path.join(VALIDATE, shim), "--help"], cwd=tmp_path,
                       capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 0 and p.stdout.startswith("usage:"), f"validate/{shim} --help from {tmp_path}: {p.stderr[-300:]}"


def test_shim_through_a_symlink(tmp_path):
    link = tmp_path / "suite"
    os.symlink(os.path.join(VALIDATE, "suite"), link)
    p = subprocess.run([sys.executable, "-I", str(link), "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr[-300:]

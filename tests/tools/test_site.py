"""The site files and their reader (validate/pptools/site, the validate/site script):
  - every site/*.toml passes the schema; debian.toml's matrix is the compiler
    matrix's cells; Perlmutter's account gets _g, Frontier's scratch its project folder;
  - bad files are refused with one line (exit 2 of the script);
  - the shell code loads the modules (a fake `module` records them), exports env
    and PP_SITE_FILE, sets the cmake array; a missing compiler fails.
SITE_TEST_FAULT=schema plants a schema that accepts anything: the refusals must fail."""
import json
import os
import subprocess
import sys

import pytest

from pptools import site
from pptools.bounded import BadInput

from conftest import REPO, VALIDATE, tool_path


def cli(*args, env=None):
    """validate/site ARGS, as scripts/setup, scripts/run and the batch jobs call it."""
    return subprocess.run([sys.executable, tool_path("site"), *args], capture_output=True, text=True,
                          env=dict(os.environ, **(env or {})))


def site_file(name):
    return os.path.join(REPO, "site", f"{name}.toml")


@pytest.mark.parametrize("name", ["debian", "perlmutter", "frontier"])
def test_shipped_loads(name):
    s = site.load(site_file(name))
    assert s.name == name and s.builds, f"site/{name}.toml loads ({len(s.builds)} builds)"
    for b in s.builds:
        site.preset_cache(b["preset"])  # every build names a real preset (BadInput if not)


@pytest.fixture(scope="module")
def cells():
    deb = site.load(site_file("debian"))
    return lambda p, sweep: [b["name"] for b in deb.matrix(p, sweep)]


def test_debian_matrix(cells):
    assert cells("cpu", False) == ["clang-19", "gcc-12", "clang-22"], f"debian cpu matrix {cells('cpu', False)}"
    assert cells("nvidia-sm90", False) == ["clang-19", "gcc-12", "clang-16", "clang-22"], \
        f"debian nvidia-sm90 matrix {cells('nvidia-sm90', False)}"
    assert len(cells("cpu", True)) == 8 and len(cells("nvidia-sm90", True)) == 11, "the flag sweep: 8 cpu, 11 nvidia cells"
    deb = site.load(site_file("debian"))
    assert [b["name"] for b in deb.builds if b.get("cuda")] == ["clang-19"], "one cuda build (clang-19)"


def test_perlmutter_account_and_scratch():
    pm = site.load(site_file("perlmutter"))
    assert pm.account({"SBATCH_ACCOUNT": "m1234"}) == "m1234_g", "Perlmutter account m1234 -> m1234_g"
    assert pm.account({"SBATCH_ACCOUNT": "m1234_g"}) == "m1234_g", "Perlmutter account m1234_g kept"
    assert pm.account({}) is None, "no account variable: none"
    assert pm.scratch({"PSCRATCH": "/p/u"}) == "/p/u/proxyport", "Perlmutter scratch from PSCRATCH"


def test_frontier_scratch():
    fr = site.load(site_file("frontier"))
    assert fr.scratch({"MEMBERWORK": "/l/u", "SBATCH_ACCOUNT": "ABC123"}) == "/l/u/abc123/proxyport", \
        "Frontier scratch $MEMBERWORK/<project>/proxyport"
    with pytest.raises(BadInput):
        fr.scratch({"MEMBERWORK": "/l/u"})  # without an account: refused


def test_frontier_sbatch_args():
    r = cli("sbatch-args", site_file("frontier"), env={"SBATCH_ACCOUNT": "ABC123"})
    assert r.stdout.split() == ["--account=ABC123", "--partition=batch", "--time=30"], f"frontier sbatch-args {r.stdout.split()}"


def test_module_form_as_the_script():
    """python3 -m pptools.site (validate/ on the path) prints what validate/site prints."""
    env = dict(os.environ, PYTHONPATH=VALIDATE)
    m = subprocess.run([sys.executable, "-m", "pptools.site", "suite-args", site_file("perlmutter")],
                       capture_output=True, text=True, env=env)
    assert m.returncode == 0 and m.stdout == cli("suite-args", site_file("perlmutter")).stdout


HEAD = 'format = "proxyport-site/1"\n[site]\nname = "x"\n'
BAD = {
    "unknown key": 'format = "proxyport-site/1"\n[site]\nname = "x"\ncolour = 1\n[[build]]\nname = "a"\npreset = "cpu"\n',
    "no build": HEAD,
    "bad scale": HEAD + '[run]\nscale = "huge"\n[[build]]\nname = "a"\npreset = "cpu"\n',
    "unknown app": HEAD + '[run]\napps = ["nope"]\n[[build]]\nname = "a"\npreset = "cpu"\n',
    "two builds one name": HEAD + '[[build]]\nname = "a"\npreset = "cpu"\n[[build]]\nname = "a"\npreset = "cpu"\n',
    "not toml": 'format = \n',
    "env not a string": HEAD + '[[build]]\nname = "a"\npreset = "cpu"\nenv = { X = 1 }\n',
}


@pytest.fixture
def planted_schema(tmp_path, monkeypatch):
    """SITE_TEST_FAULT=schema: a schema that accepts anything (the refusals must then fail)."""
    if os.environ.get("SITE_TEST_FAULT") == "schema":
        any_schema = tmp_path / "any.json"
        any_schema.write_text(json.dumps({}))
        monkeypatch.setattr(site, "SCHEMA", str(any_schema))


@pytest.mark.parametrize("what", list(BAD))
def test_bad_file_refused_one_line(what, tmp_path, planted_schema):
    p = tmp_path / "bad.toml"
    p.write_text(BAD[what])
    try:
        site.load(str(p))
    except BadInput as e:
        assert "\n" not in str(e), f"refused: {what} ({e})"
    except Exception as e:  # anything else is a reader bug, not a refusal
        pytest.fail(f"refused: {what} (crashed: {type(e).__name__}: {e})")
    else:
        pytest.fail(f"refused: {what}")


def test_missing_file_exit_2(tmp_path):
    r = cli("check", str(tmp_path / "missing.toml"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, f"missing file: exit 2, one line ({r.stderr.strip()})"


def test_missing_file_names_shipped(tmp_path):
    """A site file not found from the current folder: the message says the path is taken
    relative to it, lists the shipped site files and names the one meant."""
    r = subprocess.run([sys.executable, tool_path("site"), "path", "perlmutter.toml"], capture_output=True,
                       text=True, cwd=tmp_path)
    err = r.stderr.strip()
    assert r.returncode == 2 and len(err.splitlines()) == 1, f"exit 2, one line ({r.returncode}: {err})"
    assert f"relative to the current folder, {tmp_path})" in err, f"names the folder looked from ({err})"
    assert "site/debian.toml, site/frontier.toml, site/perlmutter.toml" in err, f"lists the shipped ones ({err})"
    assert f"did you mean --site {site_file('perlmutter')}?" in err, f"names the one meant ({err})"
    r = cli("path", site_file("frontier"))
    assert r.returncode == 0 and r.stdout.strip() == site_file("frontier"), "an existing file: its absolute path"


def test_unknown_preset_exit_2():
    r = cli("preset", "nope")
    assert r.returncode == 2 and "unknown preset 'nope'" in r.stderr


def test_unknown_build_exit_2():
    r = cli("shell", site_file("debian"), "--build", "nope")
    assert r.returncode == 2 and "no build 'nope'" in r.stderr


@pytest.fixture
def shell_site(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('format = "proxyport-site/1"\n[site]\nname = "t"\n[run]\nenv = { RUNVAR = "r 1" }\n'
                 '[[build]]\nname = "a"\npreset = "cpu"\ncc = "sh"\nmodules = ["m/1", "acc"]\nmodule_use = ["{site_dir}/mods"]\n'
                 'env = { V = "x y" }\ncmake = ["-DA=1"]\nflag_set = "lto"\nflags = "-foffload-lto"\n'
                 '[[build]]\nname = "b"\npreset = "cpu"\ncc = "no-such-compiler-here"\n')
    return str(p)


def test_shell_code(shell_site, tmp_path):
    code = cli("shell", shell_site, "--run").stdout
    # a fake module command records what it is asked
    script = ('module() { echo "module $*" >> "$LOG"; }\n' + code +
              '\necho "V=$V RUNVAR=$RUNVAR SITE=$PP_SITE_FILE"; printf "[%s]" "${pp_site_cmake[@]}"; echo')
    log = tmp_path / "log"
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=dict(os.environ, LOG=str(log)))
    logged = log.read_text() if log.exists() else ""
    assert r.returncode == 0, f"shell code runs ({r.stderr.strip()})"
    assert logged == f"module use {tmp_path}/mods\nmodule load m/1 acc\n", f"modules used and loaded in order ({logged!r})"
    assert f"V=x y RUNVAR=r 1 SITE={shell_site}" in r.stdout, f"env and PP_SITE_FILE exported ({r.stdout.strip()})"
    assert "[-DA=1][-DPP_OMP_EXTRA_FLAGS=-foffload-lto][-DPP_OMP_FLAG_SET=lto]" in r.stdout, "cmake array with the flag set"


def test_shell_missing_compiler_stops(shell_site):
    code = cli("shell", shell_site, "--build", "b").stdout
    r = subprocess.run(["bash", "-c", code + "\necho reached"], capture_output=True, text=True)
    assert r.returncode == 1 and "reached" not in r.stdout and "not found" in r.stderr, \
        "a build whose compiler is not found stops the script"

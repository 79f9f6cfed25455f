#!/usr/bin/env python3
"""The site files and their reader (validate/pptools/site).

  site_test.py shipped     every site/*.toml passes the schema; debian.toml's
                           matrix is the compiler matrix's cells; Perlmutter's
                           account gets _g, Frontier's scratch its project folder
  site_test.py refused     bad files are refused with one line (exit 2 of the CLI)
  site_test.py shell       the shell code loads the modules (a fake `module`
                           records them), exports env and PP_SITE_FILE, sets
                           the cmake array; a missing compiler fails
SITE_TEST_FAULT=schema plants a schema that accepts anything: `refused` must fail.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "validate"))
from pptools import site  # noqa: E402
from pptools.bounded import BadInput  # noqa: E402

fails = []


def check(ok, what):
    print(("PASS " if ok else "FAIL ") + what)
    if not ok:
        fails.append(what)


def cli(*args, env=None):
    e = dict(os.environ, PYTHONPATH=os.path.join(REPO, "validate"), **(env or {}))
    return subprocess.run([sys.executable, "-m", "pptools.site", *args], capture_output=True, text=True, env=e)


def shipped():
    for name in ("debian", "perlmutter", "frontier"):
        s = site.load(os.path.join(REPO, "site", f"{name}.toml"))
        check(s.name == name and s.builds, f"site/{name}.toml loads ({len(s.builds)} builds)")
        for b in s.builds:
            site.preset_cache(b["preset"])  # every build names a real preset (BadInput if not)
    deb = site.load(os.path.join(REPO, "site", "debian.toml"))
    cells = lambda p, sweep: [b["name"] for b in deb.matrix(p, sweep)]  # noqa: E731
    check(cells("cpu", False) == ["clang-19", "gcc-12", "clang-22"], f"debian cpu matrix {cells('cpu', False)}")
    check(cells("nvidia-sm90", False) == ["clang-19", "gcc-12", "clang-16", "clang-22"],
          f"debian nvidia-sm90 matrix {cells('nvidia-sm90', False)}")
    check(len(cells("cpu", True)) == 8 and len(cells("nvidia-sm90", True)) == 11, "the flag sweep: 8 cpu, 11 nvidia cells")
    check([b["name"] for b in deb.builds if b.get("cuda")] == ["clang-19"], "one cuda build (clang-19)")
    pm = site.load(os.path.join(REPO, "site", "perlmutter.toml"))
    check(pm.account({"SBATCH_ACCOUNT": "m1234"}) == "m1234_g", "Perlmutter account m1234 -> m1234_g")
    check(pm.account({"SBATCH_ACCOUNT": "m1234_g"}) == "m1234_g", "Perlmutter account m1234_g kept")
    check(pm.account({}) is None, "no account variable: none")
    check(pm.scratch({"PSCRATCH": "/p/u"}) == "/p/u/proxyport", "Perlmutter scratch from PSCRATCH")
    fr = site.load(os.path.join(REPO, "site", "frontier.toml"))
    check(fr.scratch({"MEMBERWORK": "/l/u", "SBATCH_ACCOUNT": "ABC123"}) == "/l/u/abc123/proxyport",
          "Frontier scratch $MEMBERWORK/<project>/proxyport")
    try:
        fr.scratch({"MEMBERWORK": "/l/u"})
        check(False, "Frontier scratch without an account is refused")
    except BadInput:
        check(True, "Frontier scratch without an account is refused")
    r = cli("sbatch-args", os.path.join(REPO, "site", "frontier.toml"), env={"SBATCH_ACCOUNT": "ABC123"})
    check(r.stdout.split() == ["--account=ABC123", "--partition=batch", "--time=30"], f"frontier sbatch-args {r.stdout.split()}")


BAD = {
    "unknown key": 'format = "proxyport-site/1"\n[site]\nname = "x"\ncolour = 1\n[[build]]\nname = "a"\npreset = "cpu"\n',
    "no build": 'format = "proxyport-site/1"\n[site]\nname = "x"\n',
    "bad scale": 'format = "proxyport-site/1"\n[site]\nname = "x"\n[run]\nscale = "huge"\n[[build]]\nname = "a"\npreset = "cpu"\n',
    "unknown app": 'format = "proxyport-site/1"\n[site]\nname = "x"\n[run]\napps = ["nope"]\n[[build]]\nname = "a"\npreset = "cpu"\n',
    "two builds one name": 'format = "proxyport-site/1"\n[site]\nname = "x"\n[[build]]\nname = "a"\npreset = "cpu"\n[[build]]\nname = "a"\npreset = "cpu"\n',
    "not toml": 'format = \n',
    "env not a string": 'format = "proxyport-site/1"\n[site]\nname = "x"\n[[build]]\nname = "a"\npreset = "cpu"\nenv = { X = 1 }\n',
}


def refused():
    if os.environ.get("SITE_TEST_FAULT") == "schema":
        site.SCHEMA = os.path.join(tempfile.mkdtemp(), "any.json")
        with open(site.SCHEMA, "w") as f:
            json.dump({}, f)
    with tempfile.TemporaryDirectory() as d:
        for what, text in BAD.items():
            p = os.path.join(d, "bad.toml")
            with open(p, "w") as f:
                f.write(text)
            try:
                site.load(p)
                check(False, f"refused: {what}")
            except BadInput as e:
                check("\n" not in str(e), f"refused: {what} ({e})")
            except Exception as e:  # anything else is a reader bug, not a refusal
                check(False, f"refused: {what} (crashed: {type(e).__name__}: {e})")
        r = cli("check", os.path.join(d, "missing.toml"))
        check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, f"missing file: exit 2, one line ({r.stderr.strip()})")
        r = cli("preset", "nope")
        check(r.returncode == 2 and "unknown preset 'nope'" in r.stderr, "unknown preset: exit 2")
        r = cli("shell", os.path.join(REPO, "site", "debian.toml"), "--build", "nope")
        check(r.returncode == 2 and "no build 'nope'" in r.stderr, "unknown build: exit 2")


def shell():
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "s.toml")
        with open(p, "w") as f:
            f.write('format = "proxyport-site/1"\n[site]\nname = "t"\n[run]\nenv = { RUNVAR = "r 1" }\n'
                    '[[build]]\nname = "a"\npreset = "cpu"\ncc = "sh"\nmodules = ["m/1", "acc"]\nmodule_use = ["{site_dir}/mods"]\n'
                    'env = { V = "x y" }\ncmake = ["-DA=1"]\nflag_set = "lto"\nflags = "-foffload-lto"\n'
                    '[[build]]\nname = "b"\npreset = "cpu"\ncc = "no-such-compiler-here"\n')
        code = cli("shell", p, "--run").stdout
        # a fake module command records what it is asked
        script = ('module() { echo "module $*" >> "$LOG"; }\n' + code +
                  '\necho "V=$V RUNVAR=$RUNVAR SITE=$PP_SITE_FILE"; printf "[%s]" "${pp_site_cmake[@]}"; echo')
        r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=dict(os.environ, LOG=os.path.join(d, "log")))
        log = open(os.path.join(d, "log")).read() if os.path.exists(os.path.join(d, "log")) else ""
        check(r.returncode == 0, f"shell code runs ({r.stderr.strip()})")
        check(log == f"module use {d}/mods\nmodule load m/1 acc\n", f"modules used and loaded in order ({log!r})")
        check(f"V=x y RUNVAR=r 1 SITE={p}" in r.stdout, f"env and PP_SITE_FILE exported ({r.stdout.strip()})")
        check("[-DA=1][-DPP_OMP_EXTRA_FLAGS=-foffload-lto][-DPP_OMP_FLAG_SET=lto]" in r.stdout, "cmake array with the flag set")
        code = cli("shell", p, "--build", "b").stdout
        r = subprocess.run(["bash", "-c", code + "\necho reached"], capture_output=True, text=True)
        check(r.returncode == 1 and "reached" not in r.stdout and "not found" in r.stderr,
              "a build whose compiler is not found stops the script")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    {"shipped": shipped, "refused": refused, "shell": shell}.get(what, lambda: sys.exit(f"usage: {__doc__}"))()
    sys.exit(1 if fails else 0)

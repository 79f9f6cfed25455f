"""validate/site COMMAND FILE ...  (or pp-site, or python3 -m pptools.site with validate/ on the path)

  check FILE                       check FILE against site/schema.json; list its builds
  path FILE                        FILE's absolute path; exit 2 naming the shipped site
                                   files when there is no such file
  shell FILE [--build NAME] [--run]
                                   bash code that loads the build's modules, exports its
                                   env (and with --run the suite's run.env) and PP_SITE_FILE,
                                   and sets pp_site_{name,build,preset,cc} and the array
                                   pp_site_cmake; the scripts eval it
  matrix FILE --preset P [--flags] the compiler matrix's builds for P, one line each:
                                   name|cc|flag_set|flags|cuda (scripts/compilers)
  suite-args FILE                  the suite options of run (--scale, --apps, --repeat,
                                   --fast), one a line
  preset NAME                      a CMakePresets.json preset's cache variables, KEY=VALUE
                                   lines (inherits resolved); exit 2 for an unknown preset
  sbatch-args FILE                 the batch options of scheduler (account, partition,
                                   options, time limit), one a line
Exit 2 with one line for a bad file or bad usage.
"""
import argparse
import shlex
import signal
import sys

from .. import cli
from ..text import show
from . import existing, load, preset_cache

PROG = "site"


def q(s):
    return shlex.quote(str(s))


def shell(site, name, with_run):
    b = site.build(name)
    out = [f"export PP_SITE_FILE={q(site.path)}",
           f"pp_site_name={q(site.name)}", f"pp_site_build={q(b['name'])}",
           f"pp_site_preset={q(b['preset'])}", f"pp_site_cc={q(b.get('cc', ''))}",
           "pp_site_cmake=(" + " ".join(q(c) for c in b.get("cmake", [])) + ")"]
    if b.get("flags") or b.get("flag_set"):
        out.append("pp_site_cmake+=(" + q(f"-DPP_OMP_EXTRA_FLAGS={b.get('flags', '')}") + " "
                   + q(f"-DPP_OMP_FLAG_SET={b.get('flag_set', 'custom')}") + ")")
    mods, uses = b.get("modules", []), b.get("module_use", [])
    if mods or uses:
        # `module` is a shell function: a script has it only when exported or initialized here
        out.append('if ! type module >/dev/null 2>&1; then for _f in "${LMOD_PKG:-/nonexistent}/init/bash" '
                   '"${MODULESHOME:-/nonexistent}/init/bash" /usr/share/lmod/lmod/init/bash '
                   '/etc/profile.d/lmod.sh /usr/share/modules/init/bash; do '
                   '[ -r "$_f" ] && . "$_f" && break; done; unset _f; fi')
        what = q(f"site {site.name}, build {b['name']}")
        out.append(f'type module >/dev/null 2>&1 || {{ echo "site: "{what}" loads modules, but this shell has '
                   'no module command (Lmod or Environment Modules)" >&2; return 2 2>/dev/null || exit 2; }')
        for u in uses:
            out.append(f"module use {q(u)} || {{ echo \"site: module use \"{q(u)}\" failed\" >&2; "
                       "return 1 2>/dev/null || exit 1; }")
        if mods:
            m = " ".join(q(x) for x in mods)
            out.append(f"module load {m} || {{ echo \"site: \"{what}\": module load \"{q(' '.join(mods))}\" failed\" >&2; "
                       "return 1 2>/dev/null || exit 1; }")
    env = dict(b.get("env", {}))
    if with_run:
        env.update(site.run.get("env", {}))
    out += [f"export {k}={q(v)}" for k, v in env.items()]
    if b.get("cc"):
        out.append(f"command -v {q(b['cc'])} >/dev/null || {{ echo \"site: \"{q(site.name)}\" build \"{q(b['name'])}\": "
                   f"compiler \"{q(b['cc'])}\" not found after its modules (PATH=$PATH)\" >&2; "
                   "return 1 2>/dev/null || exit 1; }")
    return "\n".join(out)


def suite_args(site):
    r, out = site.run, []
    if "scale" in r:
        out += ["--scale", r["scale"]]
    if "apps" in r:
        out += ["--apps", ",".join(r["apps"])]
    if "repeat" in r:
        out += ["--repeat", str(r["repeat"])]
    if r.get("fast"):
        out.append("--fast")
    return out


def sbatch_args(site):
    s, out = site.scheduler, []
    acct = site.account()
    if acct:
        out.append(f"--account={acct}")
    if s.get("partition"):
        out.append(f"--partition={s['partition']}")
    out += s.get("options", [])
    if s.get("time_limit"):
        t = s["time_limit"]
        out.append("--time=" + (f"{int(t[:-1])}" if t.endswith("m") else f"{int(t[:-1]) * 60}" if t.endswith("h") else t))
    return out


def run(argv):
    p = cli.Parser(prog=PROG, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("command", choices=("check", "path", "shell", "matrix", "suite-args", "sbatch-args", "preset"))
    p.add_argument("file", help="the site file (preset: the preset's name)")
    p.add_argument("--build")
    p.add_argument("--run", action="store_true")
    p.add_argument("--preset")
    p.add_argument("--flags", action="store_true")
    a = p.parse_args(argv)
    if a.command == "preset":
        for k, v in preset_cache(a.file).items():
            print(f"{k}={v}")
        return 0
    if a.command == "path":
        print(existing(a.file))
        return 0
    site = load(a.file)
    if a.command == "check":
        print(f"site {show(site.name)} ({show(site.path, 2000)}): {len(site.builds)} build(s), "
              f"scheduler {site.scheduler['type']}")
        for b in site.builds:
            print(f"  {show(b['name']):<22} preset {show(b['preset']):<16} cc {show(b.get('cc', '(preset)')):<10} "
                  f"modules {show(' '.join(b.get('modules', [])), 1000) or '-'}")
    elif a.command == "shell":
        print(shell(site, a.build, a.run))
    elif a.command == "matrix":
        if not a.preset:
            p.error("matrix needs --preset")
        for b in site.matrix(a.preset, a.flags):
            print("|".join([b["name"], b.get("cc", ""), b.get("flag_set", "none"), b.get("flags", ""),
                            "1" if b.get("cuda") else "0"]))
    elif a.command == "suite-args":
        print("\n".join(suite_args(site)))
    else:
        print("\n".join(sbatch_args(site)))
    return 0


def main(argv=None):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly
    cli.run(PROG, run, sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()

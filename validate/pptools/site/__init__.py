"""Site configuration files (site/*.toml, schema site/schema.json): per build
the preset, compiler, modules, flags and environment; the scheduler and
launcher; the suite's cases. One reader for scripts/setup, scripts/run,
scripts/compilers (through `python3 -m pptools.site`, see __main__.py) and the
ReFrame configurations (import). Every problem is a BadInput: one line, exit 2.

TOML is read with the standard library's tomllib (Python >= 3.11), else the
tomli package; the schema is checked with jsonschema. The check is as strict as
the file's consumers: nesting at most result.MAX_DEPTH levels (tomllib
recurses: a deeper array was a RecursionError of 3,000 lines), an integer
field an integer (JSON Schema takes 3.0 for one; the suite's --repeat does
not), every preset one of CMakePresets.json's (scripts/setup's cmake --preset
takes no other), and no control character in any string (module names,
compilers and flags are printed and handed to the shell).
"""
import json
import os
import re

from .. import project
from ..bounded import BadInput, read_text
from ..result import MAX_DEPTH, depth
from ..text import clean, show

SCHEMA = os.path.join(project.ROOT, "site", "schema.json")
FORMAT = "proxyport-site/1"


def _toml():
    try:
        import tomllib
        return tomllib
    except ImportError:
        try:
            import tomli
            return tomli
        except ImportError:
            raise BadInput("reading a site file needs Python >= 3.11 (tomllib) or the tomli package "
                           "(module load python, or scripts/tools-venv: a venv with it, no root)") from None


def _validate(doc, path):
    try:
        import jsonschema
    except ImportError:
        raise BadInput("checking a site file needs the jsonschema package (scripts/tools-venv: a venv with it, "
                       "no root, then .venv/bin/pp-site; or apt install python3-jsonschema as root)") from None
    schema = json.loads(read_text(SCHEMA, what="site schema"))
    base = jsonschema.Draft202012Validator
    # an integer is an int: JSON Schema's integer takes 3.0, which the consumers refuse
    ints = base.TYPE_CHECKER.redefine("integer", lambda _, x: isinstance(x, int) and not isinstance(x, bool))
    cls = jsonschema.validators.extend(base, type_checker=ints)
    errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.path) or "(top)"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise BadInput(f"site file {path}: {where}: {show(e.message)}{more}")


def _strings(x, where):
    """(where, string) for every key and string value of a parsed document."""
    if isinstance(x, str):
        yield where, x
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _strings(v, f"{where}/{i}" if where else str(i))
    elif isinstance(x, dict):
        for k, v in x.items():
            at = f"{where}/{k}" if where else k
            yield at, k
            yield from _strings(v, at)


def _presets(doc, path):
    """Every preset the file names is a visible configure preset of CMakePresets.json."""
    known = presets()
    for i, b in enumerate(doc["build"]):
        for where, p in [(f"build/{i}/preset", b["preset"])] + [
                (f"build/{i}/matrix_presets/{j}", m) for j, m in enumerate(b.get("matrix_presets", []))]:
            if p not in known:
                raise BadInput(f"site file {path}: {where}: unknown preset '{show(p)}' "
                               f"(CMakePresets.json: {', '.join(known)})")


class Site:
    """A checked site file; strings have their placeholders replaced."""

    def __init__(self, path, doc):
        self.path = os.path.abspath(path)
        self.doc = doc
        self.name = doc["site"]["name"]
        self.run = doc.get("run", {})
        self.scheduler = doc.get("scheduler", {"type": "local"})
        self.builds = doc["build"]

    def build(self, name=None):
        """The named build, else the one marked default, else the first."""
        if name:
            for b in self.builds:
                if b["name"] == name:
                    return b
            raise BadInput(f"site file {self.path}: no build '{name}' (builds: "
                           f"{', '.join(b['name'] for b in self.builds)})")
        return next((b for b in self.builds if b.get("default")), self.builds[0])

    def matrix(self, preset, sweep):
        """The compiler matrix's builds for preset: base ones, and sweep ones when asked."""
        kinds = ("base", "sweep") if sweep else ("base",)
        return [b for b in self.builds if b.get("matrix", "none") in kinds
                and preset in b.get("matrix_presets", [b["preset"]])]

    def account(self, environ=os.environ):
        """The project to charge (scheduler.account_env), with account_suffix added; None if unset."""
        var = self.scheduler.get("account_env")
        acct = environ.get(var) if var else None
        suffix = self.scheduler.get("account_suffix", "")
        if acct and suffix and not acct.endswith(suffix):
            acct += suffix
        return acct or None

    def scratch(self, environ=os.environ, default=None):
        """The first scratch variable set (scheduler.scratch_env), with scratch_subdir; else default."""
        for var in self.scheduler.get("scratch_env", []):
            if environ.get(var):
                parts = [environ[var]]
                if self.scheduler.get("scratch_account_dir"):
                    acct = self.account(environ)
                    if not acct:
                        raise BadInput(f"site {self.name}: scratch is per project: set "
                                       f"{self.scheduler.get('account_env')} (or PP_SCRATCH)")
                    if var != "PP_SCRATCH":
                        parts.append(acct.lower())
                return os.path.join(*parts, self.scheduler.get("scratch_subdir", ""))
        return default


def _expand(x, values):
    if isinstance(x, str):
        return re.sub(r"\{(repo|site_dir|toolchain)\}", lambda m: values[m.group(1)], x)
    if isinstance(x, list):
        return [_expand(v, values) for v in x]
    if isinstance(x, dict):
        return {k: _expand(v, values) for k, v in x.items()}
    return x


def shipped():
    """The site files this checkout ships (site/*.toml), as paths."""
    d = os.path.join(project.ROOT, "site")
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".toml")) if os.path.isdir(d) else []


def existing(path):
    """path as an absolute path when it is a file; else BadInput naming the folder it was
    taken relative to and the shipped site files (the one meant, when its name is one)."""
    if os.path.isfile(path):
        return os.path.abspath(path)
    ours = shipped()
    stem = os.path.basename(path)
    meant = [p for p in ours if os.path.basename(p) in (stem, stem + ".toml")]
    hint = f"; did you mean --site {meant[0]}?" if meant else ""
    listed = ", ".join(os.path.relpath(p, project.ROOT) for p in ours) or "none"
    raise BadInput(f"site file {path}: no such file (a path is relative to the current folder, {os.getcwd()}); "
                   f"the shipped site files, in {project.ROOT}: {listed}{hint}")


def load(path, environ=os.environ):
    """The site file at path, checked against site/schema.json; BadInput if not one."""
    existing(path)
    text = read_text(path, what="site file", limit=1 << 20)
    deep = f"site file {path}: nested more than {MAX_DEPTH} levels deep"
    try:
        doc = _toml().loads(text)
    except RecursionError:
        raise BadInput(deep) from None
    except ValueError as e:  # tomllib.TOMLDecodeError is a ValueError
        raise BadInput(f"site file {path}: not TOML: {show(e)}") from None
    if depth(doc) > MAX_DEPTH:
        raise BadInput(deep)
    for where, x in _strings(doc, ""):
        if not clean(x):
            raise BadInput(f"site file {path}: {show(where)}: '{show(x)}' holds a control character")
    _validate(doc, path)
    _presets(doc, path)
    names = [b["name"] for b in doc["build"]]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise BadInput(f"site file {path}: build names must differ ({', '.join(dup)} repeated)")
    if sum(bool(b.get("default")) for b in doc["build"]) > 1:
        raise BadInput(f"site file {path}: more than one build has default = true")
    apps = doc.get("run", {}).get("apps", [])
    bad = [a for a in apps if a not in project.apps()]
    if bad:
        raise BadInput(f"site file {path}: run.apps: unknown app(s) {', '.join(bad)} (apps.txt: "
                       f"{', '.join(project.apps())})")
    values = {"repo": project.ROOT, "site_dir": os.path.dirname(os.path.abspath(path)),
              "toolchain": environ.get("PP_TOOLCHAIN") or os.path.join(project.ROOT, ".toolchain")}
    return Site(path, _expand(doc, values))


def preset_cache(name, path=os.path.join(project.ROOT, "CMakePresets.json")):
    """{cache variable: value} of a configure preset, inherits resolved (base first);
    BadInput if there is no such visible preset."""
    return preset(name, path)[1]


def presets(path=os.path.join(project.ROOT, "CMakePresets.json")):
    """The visible configure presets of CMakePresets.json, in its order."""
    doc = json.loads(read_text(path, what="CMake presets"))
    return [p["name"] for p in doc.get("configurePresets", []) if not p.get("hidden")]


def preset(name, path=os.path.join(project.ROOT, "CMakePresets.json")):
    """(generator, {cache variable: value}) of a configure preset, inherits resolved
    (base first, so the named preset wins); BadInput if there is no such visible preset."""
    doc = json.loads(read_text(path, what="CMake presets"))
    presets = {p["name"]: p for p in doc.get("configurePresets", [])}
    if name not in presets or presets[name].get("hidden"):
        shown = [n for n, p in presets.items() if not p.get("hidden")]
        raise BadInput(f"unknown preset '{show(name)}' (CMakePresets.json: {', '.join(shown)})")
    chain, p = [], presets[name]
    while p:
        chain.append(p)
        parent = p.get("inherits")
        p = presets[parent[0] if isinstance(parent, list) else parent] if parent else None
    cache, gen = {}, None
    for p in reversed(chain):
        cache.update({k: v["value"] if isinstance(v, dict) else v for k, v in p.get("cacheVariables", {}).items()})
        gen = p.get("generator", gen)
    return gen, cache

"""Each app's manifest, <app>/app.toml: what the suite, the tests and the tools
need to know about an app beyond its folder (its cases, its small run, its
units, its GPU checks, its series, its published rows). docs/developer-guide.md
describes the keys; KEYS below is their one list.

The manifests are TOML in a subset that cmake/AppManifest.cmake reads the same
way (so the build needs no Python): [table] and [[table]] headers, then
key = "string" | integer | float | true | false | ["string", ...] (an array may
span lines), comments; no dotted keys, inline tables, escapes, and no '#', ';',
'\\', '[' or ']' inside a string. `python3 -m pptools.apps check` reads every
manifest here and with tomllib (Python >= 3.11), which must agree, and checks
the keys against KEYS; CTest runs it (app_manifests), and app_manifests_cmake
compares what CMake read with what this module reads.

Found beside apps.txt in the source tree and in an install
(P/share/proxyport/<app>/app.toml), as project.py finds the lists.

    python3 -m pptools.apps list [--with KEY]       the apps (whose manifest has KEY)
    python3 -m pptools.apps get APP KEY [--set NAME=VALUE ...] [--default TEXT]
                                                    KEY's value: an array one element a
                                                    line, {NAME} replaced
    python3 -m pptools.apps gpu-check BIN FAST      validate/gpu-check.sh's checks
    python3 -m pptools.apps publish                 validate/publish.sh's steps
    python3 -m pptools.apps check [--cmake FILE]    every manifest: syntax, keys, tomllib,
                                                    and what CMake read (its dump FILE)
    python3 -m pptools.apps check --file MANIFEST   one file: syntax and keys
"""
import argparse
import functools
import os
import re
import sys

from . import project
from .bounded import BadInput, read_text

MANIFEST = "app.toml"

# Every key a manifest may have: "table.key" (top-level keys alone, [[table]] rows as
# "table[].key") and its type: str, list (of strings), int, float, bool.
KEYS = {
    # the rows that stand for the app (portability's default table, scaling's series;
    # absent: every row), and whether only the largest size measured stands for it
    "headline_rows": list, "headline_largest_size": bool,
    # its samples are its steps (testsnap): --steps, never --samples
    "steps_are_samples": bool,
    # kernel folders of libraries the app links as its own (compile-facts)
    "libraries": list,
    # validate/suite (pptools/suite/cases.py): the cases, the published file, the
    # options an optimized run may declare
    "suite.reference": list, "suite.small": list, "suite.published": str, "suite.optimizable": list,
    # the generated CTest tests (tests/apps/apps.cmake)
    "tests.small": list, "tests.schema_models": str, "tests.missed": str, "tests.missed_fail": str,
    "tests.energy_unit": str,
    # validate/gpu-check.sh: one check a line; its timing options if not the sweep's
    "gpu_check.lines": list, "gpu_check.fast": str,
    # validate/compilers-run.sh: the matrix's short run, a slow tag's fewer repetitions,
    # the variable that overrides the short run
    "compilers.args": list, "compilers.slow": list, "compilers.env": str,
    # tests/setup/compiler_matrix.sh: the CPU matrix's short run
    "compilers.cpu": list,
    # validate/scaling-run.sh and validate/scaling: the series (a shell file of the app's
    # folder) and how a strong series' runs must agree with its 1-rank run
    "scaling.series": str, "scaling.agree": str, "scaling.metrics": list,
    "scaling.tolerance": float, "scaling.floor": float, "scaling.quantity": str, "scaling.unit": str,
    # pptools/peers: the public code's group this app stands beside
    "peers.group": str,
    # validate/publish.sh: the published runs (name: the result files', default the app)
    "publish[].name": str, "publish[].args": list,
    # validate/results-table.py: the rows of docs/results.md's table
    "results_table[].label": str, "results_table[].file": str, "results_table[].kernel": str,
    "results_table[].size": int, "results_table[].variant": str, "results_table[].note": str,
}
ARRAY_TABLES = {k.split("[]")[0] for k in KEYS if "[]" in k}
AGREE = ("exact", "per-atom", "relative")

_NAME = r"[a-z][a-z0-9_]*"
_STRING = r'"([^"\\#;\[\]\n]*)"'
_SCALAR = re.compile(r"^(true|false|[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)$")


def _scalar(text, where):
    m = re.fullmatch(_STRING, text)
    if m:
        return m.group(1)
    if not _SCALAR.match(text):
        raise BadInput(f"{where}: '{text}' is not a value of the manifests' TOML subset "
                       "(a \"string\" without # ; \\ [ ], a number, true, false, or an array of strings)")
    if text in ("true", "false"):
        return text == "true"
    return float(text) if re.search(r"[.eE]", text) else int(text)


def _array(text, where):
    items = re.findall(_STRING, text)
    shape = re.sub(r"\s", "", re.sub(_STRING, "S", text))
    if not re.fullmatch(r"(S(,S)*,?)?", shape):
        raise BadInput(f"{where}: an array of the manifests' TOML subset holds \"strings\" only "
                       "(without # ; \\ [ ]), comma-separated")
    return items


def _code(line):
    return re.sub(r"#.*", "", line).strip()  # no string holds a '#'


def parse(text, path):
    """The manifest's text as {key: value} (top-level keys), {table: {key: value}} and
    {array table: [{key: value}, ...]}; BadInput on anything outside the subset."""
    doc = table = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        where = f"{path}:{i + 1}"
        code = _code(lines[i])
        i += 1
        if not code:
            continue
        m = re.fullmatch(rf"\[\[({_NAME})\]\]", code) or re.fullmatch(rf"\[({_NAME})\]", code)
        if m:
            name = m.group(1)
            if code.startswith("[["):
                rows = doc.setdefault(name, [])
                if not isinstance(rows, list):
                    raise BadInput(f"{where}: [[{name}]] after [{name}] or {name} = ...")
                rows.append({})
                table = rows[-1]
            else:
                if name in doc:
                    raise BadInput(f"{where}: [{name}] is defined again")
                table = doc[name] = {}
            continue
        m = re.fullmatch(rf"({_NAME})\s*=\s*(.*)", code)
        if not m:
            raise BadInput(f"{where}: expected [table], [[table]] or key = value")
        key, value = m.group(1), m.group(2)
        if value.startswith("["):
            while not value.endswith("]"):  # an array over several lines
                if i >= len(lines):
                    raise BadInput(f"{where}: the array of {key} is not closed with ]")
                value += " " + _code(lines[i])
                i += 1
            parsed = _array(value[1:-1], where)
        else:
            parsed = _scalar(value, where)
        if key in table:
            raise BadInput(f"{where}: {key} is set again")
        table[key] = parsed
    return doc


def flatten(doc):
    """{"table.key" or "table.N.key": value} of a parsed manifest, in the file's order."""
    out = {}
    for k, v in doc.items():
        if isinstance(v, dict):
            out.update({f"{k}.{k2}": v2 for k2, v2 in v.items()})
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            for n, row in enumerate(v):
                out.update({f"{k}.{n}.{k2}": v2 for k2, v2 in row.items()})
        else:
            out[k] = v
    return out


def validate(doc, path):
    """BadInput for a key KEYS does not know or a value of the wrong type."""
    for name in ARRAY_TABLES:
        if name in doc and not isinstance(doc[name], list):
            raise BadInput(f"{path}: {name} is written [[{name}]], one table per row")
    for k, v in flatten(doc).items():
        parts = k.split(".")
        generic = f"{parts[0]}[].{parts[2]}" if len(parts) == 3 else k
        want = KEYS.get(generic)
        if want is None:
            raise BadInput(f"{path}: {k} is not a manifest key (pptools/apps.py KEYS; "
                           "docs/developer-guide.md#the-manifest-apptoml)")
        if want is float and isinstance(v, int) and not isinstance(v, bool):
            continue
        if not isinstance(v, want) or (want is int and isinstance(v, bool)):
            raise BadInput(f"{path}: {k} must be {want.__name__}, not {type(v).__name__}")
        if isinstance(v, list) and k != "gpu_check.lines" and any(re.search(r"\s", x) for x in v):
            raise BadInput(f"{path}: {k}: an element with a space (the scripts split these lists on "
                           "spaces: one option or value an element)")
    agree = doc.get("scaling", {}).get("agree")
    if agree is not None and agree not in AGREE:
        raise BadInput(f"{path}: scaling.agree must be one of {', '.join(AGREE)}")


def path_of(app):
    return os.path.join(project.ROOT, app, MANIFEST)


@functools.lru_cache(maxsize=None)
def manifest(app):
    """The app's manifest, parsed and checked; BadInput if it has none or a bad one."""
    if app not in project.apps():
        raise BadInput(f"'{app}' is not an app of {project.APPS_TXT}")
    path = path_of(app)
    doc = parse(read_text(path, what="app manifest", limit=1 << 20), path)
    validate(doc, path)
    return doc


def get(app, key, default=None):
    """A value by its dotted key ("suite.small", "headline_rows", "publish"), or default."""
    node = manifest(app)
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return default
        node = node[part]
    return node


def apps_with(key):
    """The apps (apps.txt's order) whose manifest has key."""
    return tuple(a for a in project.apps() if get(a, key) is not None)


def expand(text, values):
    """text with each {NAME} of values replaced; BadInput for any other {NAME}."""
    def sub(m):
        if m.group(1) not in values:
            raise BadInput(f"'{text}': no value for {{{m.group(1)}}} here (known: "
                           f"{', '.join('{' + k + '}' for k in values) or 'none'})")
        return values[m.group(1)]
    return re.sub(r"\{([a-z_]+)\}", sub, text)


def gpu_check_lines(bindir, fast):
    """validate/gpu-check.sh's checks, in apps.txt's order: "check ARGS" or "tscheck ARGS"
    (strict: a variant a built model refuses fails it). An app without lines of its own
    runs its default case on every model."""
    out = []
    for app in project.apps():
        values = {"app": f"{bindir}/{app}", "fast": get(app, "gpu_check.fast", fast)}
        for line in get(app, "gpu_check.lines", ["{app} --backend all {fast}"]):
            fn, _, rest = line.partition("strict: ")
            out.append(("tscheck " + expand(rest, values)) if not fn else ("check " + expand(line, values)))
    return out


def publish_steps():
    """validate/publish.sh's runs: (name, app, args), in apps.txt's order."""
    return [(p.get("name", app), app, p.get("args", [])) for app in project.apps()
            for p in get(app, "publish", [])]


def _canonical(k, v):
    if isinstance(v, list):
        return f"{k} = [" + ", ".join(f'"{x}"' for x in v) + "]"
    if isinstance(v, str):
        return f'{k} = "{v}"'
    if isinstance(v, bool):
        return f"{k} = {'true' if v else 'false'}"
    return f"{k} = {v!r}"


def canonical(app, doc):
    """One line per key, "app.key = value", as cmake/AppManifest.cmake writes its dump."""
    return [_canonical(f"{app}.{k}", v) for k, v in flatten(doc).items()]


def check(cmake_dump=None):
    """Every manifest: the subset, the keys, tomllib's reading, CMake's reading.
    ([problems], [canonical lines], whether tomllib read them too)"""
    problems, lines = [], []
    try:
        import tomllib
    except ImportError:
        tomllib = None
    for app in project.apps():
        path = path_of(app)
        try:
            doc = manifest(app)
        except BadInput as e:
            problems.append(str(e))
            continue
        lines += canonical(app, doc)
        if tomllib is not None:
            ref = tomllib.loads(read_text(path, what="app manifest", limit=1 << 20))
            if ref != doc:
                problems.append(f"{path}: tomllib reads it otherwise: {ref} != {doc}")
    if cmake_dump:
        got = [x for x in read_text(cmake_dump, what="CMake's manifest dump").split("\n") if x]

        def norm(line):  # CMake keeps numbers as written: compare them as numbers
            k, _, v = line.partition(" = ")
            return k, (float(v) if _SCALAR.match(v) and v not in ("true", "false") else v)
        if [norm(x) for x in got] != [norm(x) for x in lines]:
            for a, b in zip(got + ["(none)"] * len(lines), lines + ["(none)"] * len(got)):
                if norm(a) != norm(b):
                    problems.append(f"CMake read '{a}' where this module reads '{b}'")
                    break
    return problems, lines, tomllib is not None


def main(argv):
    p = argparse.ArgumentParser(prog="apps", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("list")
    s.add_argument("--with", dest="key")
    s = sub.add_parser("get")
    s.add_argument("app")
    s.add_argument("key")
    s.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    s.add_argument("--default")
    s = sub.add_parser("gpu-check")
    s.add_argument("bin")
    s.add_argument("fast")
    sub.add_parser("publish")
    s = sub.add_parser("check")
    s.add_argument("--cmake", metavar="FILE")
    s.add_argument("--file", metavar="MANIFEST", help="only this file (any path): the subset and the keys")
    a = p.parse_args(argv)
    if a.cmd == "list":
        print("\n".join(apps_with(a.key) if a.key else project.apps()))
    elif a.cmd == "get":
        values = dict(x.partition("=")[::2] for x in a.set)
        v = get(a.app, a.key)
        if v is None:
            if a.default is None:
                raise BadInput(f"{path_of(a.app)}: no {a.key}")
            v = a.default
        if isinstance(v, (dict, list)) and v and not all(isinstance(x, str) for x in v):
            raise BadInput(f"{a.key} is a table, not a value")
        for x in (v if isinstance(v, list) else [v]):  # TOML's spelling of booleans
            print(expand(x, values) if isinstance(x, str) else str(x).lower() if isinstance(x, bool) else x)
    elif a.cmd == "gpu-check":
        print("\n".join(gpu_check_lines(a.bin, a.fast)))
    elif a.cmd == "publish":
        for name, app, args in publish_steps():
            print(" ".join([name, app] + args))
    elif a.file:
        doc = parse(read_text(a.file, what="app manifest", limit=1 << 20), a.file)
        validate(doc, a.file)
        print(f"{a.file}: {len(flatten(doc))} keys")
    else:
        problems, lines, with_tomllib = check(a.cmake)
        for x in problems:
            print(f"FAIL {x}")
        if problems:
            return 1
        print(f"app manifests: {len(project.apps())} read, {len(lines)} keys, "
              f"{'the same as tomllib' if with_tomllib else 'no tomllib here to compare with'}"
              f"{', the same as CMake' if a.cmake else ''}")
    return 0


if __name__ == "__main__":
    from . import cli
    cli.run("apps", main, sys.argv[1:])

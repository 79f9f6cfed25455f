"""The result file (validate/schema/result.schema.json) and every JSON file the
tools read: the one place that parses JSON.

Reading is bounded and never blocks: a path is opened with O_NONBLOCK and must
be a regular file (fstat after open, so a FIFO, a device such as /dev/zero or a
folder is refused before a byte is read), of at most `limit` bytes, UTF-8, with
numbers that are finite (no NaN/Infinity, no float that overflows to inf, no
integer of more than 30 digits) and at most MAX_DEPTH levels of nesting.
Everything wrong is a BadInput: one line, which the tools print with exit 2.
The names every table and figure shows (app, kernel, model, label, variant,
unit) are at most MAX_NAME characters: a longer one is refused, not drawn.

A result file is checked for the type of every field the tools use, and the
numbers they compute with for their range (a sample of 1e308 s would make
every statistic inf), once, at load: a tool never meets a wrong type later.

Row identity: rows(doc) keys each row by key(app, row) =
(app, kernel, label, size, variant), where label() is the row's "label" when
it has one (builds by different compilers are different models,
"omp[clang-19]") and its "model" otherwise; size and variant as strings.
family(variant) groups the launch-shape variants ("tpb=256", a tuning sweep)
into one family, the best of which a summary keeps; other variants
(xsbench_like's -k modes) stay apart.
"""
import json
import math
import os
import re

from . import project
from .bounded import SMALL_LIMIT, BadInput, read_bytes, read_text  # noqa: F401 (re-exported)

MAX_DEPTH = 64            # a result file nests 5 deep; plans and facts about as much
RESULT_LIMIT = 64 << 20   # the largest published result file is under 1 MiB
MAX_INT_DIGITS = 30
MAX_SECONDS = 1e9         # a timed run or sample in seconds: 0 <= t <= 1e9 (31 years)
MAX_NUMBER = 1e100        # any other number the tools compute with (FOMs, bytes, metrics)
MAX_NAME = 256            # a row's names (kernel, model, label, variant, unit): the apps write < 64
SCHEMA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "schema",
                      "result.schema.json")


def _finite_float(s):
    x = float(s)
    if not math.isfinite(x):
        raise ValueError(f"number {s} out of range")
    return x


def _bounded_int(s):
    if len(s.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"integer of {len(s)} digits")
    return int(s)


def _no_constant(s):
    raise ValueError(f"{s} is not a number JSON allows")


def depth(doc):
    """The nesting depth of a parsed document (iterative: any depth is measured)."""
    deepest, stack = 0, [(doc, 1)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, d)
            stack.extend((v, d + 1) for v in (node.values() if isinstance(node, dict) else node))
    return deepest


def parse_json(text, name, max_depth=MAX_DEPTH):
    """A JSON text with finite numbers and bounded nesting (name: for messages)."""
    try:
        doc = json.loads(text, parse_float=_finite_float, parse_int=_bounded_int, parse_constant=_no_constant)
    except RecursionError:
        raise BadInput(f"{name}: nested more than {max_depth} levels deep") from None
    except ValueError as e:  # json.JSONDecodeError is one
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise BadInput(f"{name}: not JSON: {msg}") from None
    if depth(doc) > max_depth:
        raise BadInput(f"{name}: nested more than {max_depth} levels deep")
    return doc


def load_json(path, what=None, limit=SMALL_LIMIT, max_depth=MAX_DEPTH):
    """Any JSON file the tools read (plans, declarations, facts, configs), bounded."""
    name = f"{what} {path}" if what else str(path)
    return parse_json(read_text(path, what, limit), name, max_depth)


# ---------------------------------------------------------------- types and ranges

def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


_TYPE_WORDS = {"str": "a string", "bool": "true or false", "int": "an integer", "number": "a number",
               "list": "a list", "dict": "an object", "null": "null"}


class _Check:
    """Type checks of one document; every failure names the field."""

    def __init__(self, name):
        self.name = name

    def fail(self, where, why):
        raise BadInput(f"{self.name}: {where}: {why}")

    def typed(self, obj, key, types, where, optional=True):
        """obj[key] if of one of types ("str", "bool", "int", "number", "list", "dict", "null")."""
        if key not in obj:
            if optional:
                return None
            self.fail(where, f"no \"{key}\"")
        v = obj[key]
        ok = {"str": isinstance(v, str), "bool": isinstance(v, bool), "null": v is None,
              "int": isinstance(v, int) and not isinstance(v, bool), "number": is_number(v),
              "list": isinstance(v, list), "dict": isinstance(v, dict)}
        if not any(ok[t] for t in types):
            self.fail(f"{where}.{key}" if where else key,
                      f"{json.dumps(v)[:40]} is not {' or '.join(_TYPE_WORDS[t] for t in types)}")
        return v

    def shown(self, obj, key, where, optional=True):
        """obj[key] if a string of at most MAX_NAME characters (a name the tools show)."""
        v = self.typed(obj, key, ("str",), where, optional)
        if v is not None and len(v) > MAX_NAME:
            self.fail(f"{where}.{key}" if where else key,
                      f"a name of {len(v)} characters; at most {MAX_NAME} (the apps write under 64)")
        return v

    def number(self, v, where, lo, hi):
        if not is_number(v) or not lo <= v <= hi:
            self.fail(where, f"{json.dumps(v)[:40]} is out of range ({lo:g} to {hi:g})")


_BUILD_STR = ("version", "git_revision", "git_diff_sha256", "c_compiler", "offload", "cuda_compiler",
              "hip_compiler", "tag", "build_type")
_ROW_NAME = ("kernel", "model", "label", "variant", "fom_unit")
_ROW_NUM = ("fom", "bytes_per_run", "flops_per_run", "fraction_of_copy_ceiling", "ratio_to_native")


def check_result(doc, name):
    """Refuses (BadInput) a document that is not a result file as the tools read it:
    a top-level object with a "results" list of row objects, and every field the
    tools use of the right type and range where present. Returns doc."""
    c = _Check(name)
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
        raise BadInput(f"{name}: not a ProxyPort result file (no top-level \"results\" list)")
    for k in ("command", "started_utc", "schema"):
        c.typed(doc, k, ("str",), "")
    c.shown(doc, "app", "")
    c.typed(doc, "validated", ("bool",), "")
    ranks = c.typed(doc, "mpi_ranks", ("int",), "")
    if ranks is not None and not 1 <= ranks <= 1 << 24:
        c.fail("mpi_ranks", f"{ranks} is out of range (1 to {1 << 24})")
    build = c.typed(doc, "build", ("dict", "null"), "")
    for k in _BUILD_STR:
        c.typed(build or {}, k, ("str",), "build")
    c.typed(build or {}, "git_dirty", ("bool",), "build")
    for where, key in (("devices", "devices"), ("system", "system")):
        recs = c.typed(doc, key, ("list", "dict", "null") if key == "system" else ("list", "null"), "")
        for i, d in enumerate(recs if isinstance(recs, list) else [recs] if recs else []):
            w = f"{where}[{i}]"
            if not isinstance(d, dict):
                c.fail(w, "not an object")
            for k in ("model", "label", "name", "hostname", "uuid", "reason", "os", "kernel", "cpu_model"):
                c.typed(d, k, ("str", "null"), w)
            for k in ("model", "label"):
                if isinstance(d.get(k), str):
                    c.shown(d, k, w)
            for k in ("ran", "is_gpu"):
                c.typed(d, k, ("bool",), w)
            for k in ("rank", "cpus_online"):
                c.typed(d, k, ("int", "null"), w)
            c.typed(d, "scheduler", ("dict", "null"), w)
            # disclosure: a value, or "not available: <reason>" (str)
            for k in ("modules", "cray_pe", "allocation", "load_average"):
                c.typed(d, k, ("dict", "str"), w)
            for k in ("mpi_library", "cpu_governor", "cpu_freq_driver"):
                c.typed(d, k, ("str",), w)
            for j, sd in enumerate(c.typed(d, "devices", ("list",), w) or []):
                if not isinstance(sd, dict):
                    c.fail(f"{w}.devices[{j}]", "not an object")
                for k in ("model", "name", "uuid", "driver", "driver_api"):
                    c.typed(sd, k, ("str", "null"), f"{w}.devices[{j}]")
                c.typed(sd, "is_gpu", ("bool",), f"{w}.devices[{j}]")
    site = c.typed(doc, "site_file", ("dict", "str"), "")
    if isinstance(site, dict):
        for k in ("path", "sha256", "text"):
            c.typed(site, k, ("str",), "site_file", optional=False)
    problem = c.typed(doc, "problem", ("dict", "null"), "")
    c.typed(problem or {}, "halo", ("str", "null"), "problem")
    for i, r in enumerate(doc["results"]):
        w = f"results[{i}]"
        if not isinstance(r, dict):
            c.fail(w, "not a row object")
        for k in _ROW_NAME:
            c.shown(r, k, w, optional=k not in ("kernel", "model"))
        c.typed(r, "check", ("str",), w)
        size = c.typed(r, "size", ("int",), w)
        if size is not None and not 0 <= size < 1 << 63:
            c.fail(f"{w}.size", f"{size} is out of range (0 to 2^63)")
        for k in ("valid", "fom_higher_is_better"):
            c.typed(r, k, ("bool",), w)
        for k in _ROW_NUM:
            v = c.typed(r, k, ("number", "null"), w)
            if v is not None:
                c.number(v, f"{w}.{k}", -MAX_NUMBER, MAX_NUMBER)
        samples = c.typed(r, "samples", ("list",), w)
        for j, x in enumerate(samples or []):
            c.number(x, f"{w}.samples[{j}]", 0.0, MAX_SECONDS)
        t = c.typed(r, "time_s", ("dict",), w)
        for k in ("min", "median", "mean", "max"):
            v = c.typed(t or {}, k, ("number",), f"{w}.time_s")
            if v is not None:
                c.number(v, f"{w}.time_s.{k}", 0.0, MAX_SECONDS)
        energy = c.typed(r, "energy", ("dict", "str"), w)  # figures, or "not available: <reason>"
        if isinstance(energy, dict):
            for k in ("joules_per_rep", "watts", "idle_watts", "fom_per_joule", "region_s", "counter_error"):
                v = c.typed(energy, k, ("number", "null"), f"{w}.energy")
                if v is not None:
                    c.number(v, f"{w}.energy.{k}", 0.0, MAX_NUMBER)
            c.shown(energy, "fom_per_joule_unit", f"{w}.energy")
            c.typed(energy, "below_counter_resolution", ("bool",), f"{w}.energy")
        metrics = c.typed(r, "metrics", ("dict",), w)
        for k, v in (metrics or {}).items():
            if v is not None:
                c.number(v, f"{w}.metrics.{k}", -MAX_NUMBER, MAX_NUMBER)
    return doc


def load_result(path, what=None):
    """A result file, read bounded and checked (check_result)."""
    name = f"{what} {path}" if what else str(path)
    return check_result(load_json(path, what, RESULT_LIMIT), name)


def require(row, fields, name, where):
    """Refuses a row without one of fields (the caller's own needs, e.g. a table's fom)."""
    for f in fields:
        if row.get(f) is None:
            raise BadInput(f"{name}: {where}: no \"{f}\"")


# ---------------------------------------------------------------- rows

def label(row):
    """A row's model as compared: its label ("omp[clang-19]") when it has one."""
    return row.get("label") or row["model"]


def key(app, row):
    """The row key every tool matches rows by: (app, kernel, label, size, variant)."""
    return (app, row["kernel"], label(row), str(row.get("size", "")), row.get("variant") or "")


def rows(doc, name):
    """{key: row} of a checked result file; a key twice is refused."""
    out = {}
    app = doc.get("app") or "?"
    for i, r in enumerate(doc["results"]):
        k = key(app, r)
        if k in out:
            raise BadInput(f"{name}: results[{i}]: row {k} appears twice")
        out[k] = r
    return out


TUNING = re.compile(r"^[A-Za-z_][\w-]*=[\w.+-]+$")


def is_launch_shape(variant):
    """A tuning variant "name=value" (tpb=256): one point of a launch-shape sweep."""
    return bool(variant) and bool(TUNING.match(variant))


def family(variant):
    """The group a variant belongs to: launch shapes ("tpb=N") are one family,
    whose best member a summary keeps; any other variant is its own."""
    return "" if variant.startswith("tpb=") else variant


def split_label(lab):
    """"omp[clang-19+lto]" -> ("omp", "clang-19+lto"); "cuda" -> ("cuda", None)."""
    m = re.match(r"^([^\[\]]+)\[([^\[\]]+)\]$", lab)
    return (m.group(1), m.group(2)) if m else (lab, None)


def native_models():
    return project.native_models()


def is_native(model):
    """The model is a GPU vendor's own runtime (PP_MODELS' native column)."""
    return model in native_models()


def native_of(models):
    """The native model among models (the first in PP_MODELS' order), or None."""
    return next((n for n in native_models() if n in models), None)


# ---------------------------------------------------------------- schema

def schema_errors(doc, schema_path=SCHEMA):
    """The result file's violations of result.schema.json, one line each
    ("results/0: ..."), or None when jsonschema is not installed."""
    try:
        import jsonschema
    except ImportError:
        return None
    schema = load_json(schema_path, "schema")
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    errs = sorted(cls(schema).iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message}" for e in errs]

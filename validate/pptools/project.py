"""The one app list and the one model list, read where the build reads them.

apps.txt (the repository root; P/share/proxyport/apps.txt when installed) and
PP_MODELS in common/include/pp/model.h (installed to the same path under
P/share/proxyport) are found at <validate>/.. in both trees. Parsed as
cmake/Models.cmake parses the model rows: ENUM, name and built on the row's
first line; native is the fourth column.
"""
import functools
import os
import re

from .bounded import BadInput, read_text

VALIDATE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(VALIDATE)
APPS_TXT = os.path.join(ROOT, "apps.txt")
MODEL_H = os.path.join(ROOT, "common", "include", "pp", "model.h")

# X(ENUM, name, device, native, cc, ... on one line (the row's first)
_ROW = re.compile(r"^\s*X\(\s*([A-Z0-9_]+)\s*,\s*([a-z0-9_]+)\s*,\s*([01])\s*,\s*([01])\s*,\s*([01])\s*,", re.M)


@functools.lru_cache(maxsize=None)
def apps():
    """The apps in suite order (apps.txt: one per line, '#' comments)."""
    text = read_text(APPS_TXT, what="app list", limit=1 << 16)
    names = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    names = [n for n in names if n]
    bad = [n for n in names if not re.fullmatch(r"[a-z][a-z0-9_]*", n)]
    if bad or not names:
        raise BadInput(f"{APPS_TXT}: not an app list ({', '.join(bad) or 'empty'})")
    return tuple(names)


@functools.lru_cache(maxsize=None)
def model_rows():
    """[(name, device, native, cc)] of PP_MODELS, in the list's order."""
    text = read_text(MODEL_H, what="model list", limit=1 << 20)
    rows = [(m.group(2), m.group(3) == "1", m.group(4) == "1", m.group(5) == "1") for m in _ROW.finditer(text)]
    if not rows:
        raise BadInput(f"{MODEL_H}: no X(ENUM, name, device, native, cc, ...) rows of PP_MODELS")
    return tuple(rows)


def models():
    """Every model's --backend name."""
    return tuple(r[0] for r in model_rows())


def native_models():
    """The GPU vendors' own runtimes, the models the others are compared to."""
    return tuple(r[0] for r in model_rows() if r[2])


def device_models():
    """Models that run on an accelerator (or an offload device)."""
    return tuple(r[0] for r in model_rows() if r[1])


def cc_models():
    """Models built by the C (OpenMP) compiler: their labels carry the build tag."""
    return tuple(r[0] for r in model_rows() if r[3])


def reference_model():
    """The model every other validates against and which runs everywhere: neither
    a device model nor a native one."""
    return next(r[0] for r in model_rows() if not r[1] and not r[2])

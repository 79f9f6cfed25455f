#!/usr/bin/env python3
"""validate/pptools/result.py, the one reader of the tools' JSON: what it
refuses (each a BadInput, one line) and what it accepts, on small files made
here. tests/hostile_input.py checks the same through the tools."""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "validate"))
from pptools import outfile, project, result  # noqa: E402

fails, n = [], 0


def check(ok, what):
    global n
    n += 1
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        fails.append(what)


def refused(fn, *args, want=""):
    try:
        fn(*args)
    except result.BadInput as e:
        msg = str(e)
        return "\n" not in msg and want in msg
    return False


def row(**kw):
    r = {"kernel": "k", "model": "host", "size": 8, "variant": "", "samples": [1e-3, 2e-3], "valid": True}
    r.update(kw)
    return r


w = tempfile.mkdtemp(prefix="pp-reader-")


def file(name, text):
    p = os.path.join(w, name)
    with open(p, "w" if isinstance(text, str) else "wb") as f:
        f.write(text)
    return p


good = file("good.json", json.dumps({"app": "a", "results": [row()]}))
check(len(result.load_result(good)["results"]) == 1, "a small result file loads")
check(refused(result.load_json, file("nan.json", '{"x": NaN}'), want="NaN"), "NaN refused")
check(refused(result.load_json, file("inf.json", '{"x": 1e400}'), want="out of range"), "1e400 (inf) refused")
check(refused(result.load_json, file("int.json", '{"x": ' + "9" * 40 + "}"), want="digits"), "a 40-digit integer refused")
check(result.load_json(file("d64.json", "[" * 64 + "]" * 64)) is not None, "64 levels of nesting accepted")
check(refused(result.load_json, file("d65.json", "[" * 65 + "]" * 65), want="nested"), "65 levels refused")
check(refused(result.load_json, file("d1e5.json", "[" * 100000 + "]" * 100000), want="nested"),
      "100000 levels refused (no RecursionError)")
check(refused(result.load_json, file("latin1.json", b'{"x": "\xe9"}'), want="UTF-8"), "non-UTF-8 refused")
check(refused(result.read_bytes, file("big.json", "x" * 2000), None, 1000, want="more than"), "over the size limit refused")
check(refused(result.read_bytes, w, want="not a regular file"), "a folder refused")
check(refused(result.read_bytes, "/dev/zero", want="not a regular file"), "/dev/zero refused")
fifo = os.path.join(w, "f.fifo")
os.mkfifo(fifo)
check(refused(result.read_bytes, fifo, want="not a regular file"), "a FIFO refused without blocking")
check(refused(result.load_result, file("arr.json", "[]"), want="not a ProxyPort result"), "a JSON array is no result file")
for name, bad, want in (("build", {"build": "x"}, "build"), ("rows", {"results": [1]}, "results[0]"),
                        ("kernel", {"results": [row(kernel=1)]}, "results[0].kernel"),
                        ("sample", {"results": [row(samples=[1e308])]}, "samples[0]"),
                        ("negative", {"results": [row(samples=[-1.0])]}, "samples[0]"),
                        ("size", {"results": [row(size="8")]}, "size"),
                        ("valid", {"results": [row(valid="yes")]}, "valid"),
                        ("fom", {"results": [row(fom=1e200)]}, "fom"),
                        ("system", {"results": [], "system": [1]}, "system[0]")):
    doc = {"app": "a", "results": [row()]}
    doc.update(bad)
    check(refused(result.load_result, file(f"bad-{name}.json", json.dumps(doc)), want=want),
          f"a result file with a wrong {name} refused, naming {want}")
check(result.key("a", row(label="omp[clang-19]", model="omp")) == ("a", "k", "omp[clang-19]", "8", ""),
      "the row key takes the label over the model")
check(result.family("tpb=256") == "" and result.family("baseline (-k 0)") == "baseline (-k 0)",
      "launch shapes are one family, other variants their own")
check(result.native_of(project.models()) in project.models() and result.is_native(result.native_of(project.models())),
      "a native model is read from PP_MODELS")
check(project.apps()[0] and len(project.apps()) == len(set(project.apps())), "the apps of apps.txt, each once")
link = os.path.join(w, "link.md")
os.symlink(good, link)
check(refused(outfile.write_text, link, "x", want="symbolic link"), "a write through a symbolic link refused")
check(open(good).read().startswith('{"app"'), "... and its target left as it was")
check(refused(outfile.out_dir, good, want="not a folder"), "an --out that is a file refused")
out = os.path.join(w, "out.txt")
outfile.write_text(out, "one")
ino = os.stat(out).st_ino
outfile.write_text(out, "two")
check(open(out).read() == "two" and os.stat(out).st_ino != ino, "a write replaces its target by a rename")
check(not [f for f in os.listdir(w) if ".tmp-" in f], "no temporary file left")
print(f"test_result_reader: {n - len(fails)} of {n} checks passed")
sys.exit(1 if fails else 0)

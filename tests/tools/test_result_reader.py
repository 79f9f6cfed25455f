"""validate/pptools/result.py, the one reader of the tools' JSON: what it
refuses (each a BadInput, one line) and what it accepts, on small files made
here; and outfile.py, the one writer. test_hostile.py checks the same through
the tools."""
import json
import os

import pytest

from pptools import outfile, project, result


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


@pytest.fixture
def file(tmp_path):
    def make(name, text):
        p = tmp_path / name
        p.write_text(text) if isinstance(text, str) else p.write_bytes(text)
        return str(p)
    return make


@pytest.fixture
def good(file):
    return file("good.json", json.dumps({"app": "a", "results": [row()]}))


def test_small_result_loads(good):
    assert len(result.load_result(good)["results"]) == 1


@pytest.mark.parametrize("name, text, want", [
    ("nan", '{"x": NaN}', "NaN"),
    ("inf", '{"x": 1e400}', "out of range"),
    ("40-digit integer", '{"x": ' + "9" * 40 + "}", "digits"),
    ("65 levels of nesting", "[" * 65 + "]" * 65, "nested"),
    ("100000 levels (no RecursionError)", "[" * 100000 + "]" * 100000, "nested"),
    ("non-UTF-8", b'{"x": "\xe9"}', "UTF-8"),
])
def test_json_refused(file, name, text, want):
    assert refused(result.load_json, file("bad.json", text), want=want), f"{name} refused"


def test_64_levels_accepted(file):
    assert result.load_json(file("d64.json", "[" * 64 + "]" * 64)) is not None


def test_over_size_limit_refused(file):
    assert refused(result.read_bytes, file("big.json", "x" * 2000), None, 1000, want="more than")


def test_not_regular_files_refused(tmp_path):
    assert refused(result.read_bytes, str(tmp_path), want="not a regular file"), "a folder refused"
    assert refused(result.read_bytes, "/dev/zero", want="not a regular file"), "/dev/zero refused"
    fifo = str(tmp_path / "f.fifo")
    os.mkfifo(fifo)
    assert refused(result.read_bytes, fifo, want="not a regular file"), "a FIFO refused without blocking"


def test_json_array_is_no_result(file):
    assert refused(result.load_result, file("arr.json", "[]"), want="not a ProxyPort result")


@pytest.mark.parametrize("name, bad, want", [
    ("build", {"build": "x"}, "build"), ("rows", {"results": [1]}, "results[0]"),
    ("kernel", {"results": [row(kernel=1)]}, "results[0].kernel"),
    ("sample", {"results": [row(samples=[1e308])]}, "samples[0]"),
    ("negative", {"results": [row(samples=[-1.0])]}, "samples[0]"),
    ("size", {"results": [row(size="8")]}, "size"),
    ("valid", {"results": [row(valid="yes")]}, "valid"),
    ("fom", {"results": [row(fom=1e200)]}, "fom"),
    ("system", {"results": [], "system": [1]}, "system[0]")])
def test_wrong_field_refused_by_name(file, name, bad, want):
    doc = {"app": "a", "results": [row()]}
    doc.update(bad)
    assert refused(result.load_result, file(f"bad-{name}.json", json.dumps(doc)), want=want), \
        f"a result file with a wrong {name} refused, naming {want}"


def test_row_key_takes_label():
    assert result.key("a", row(label="omp[clang-19]", model="omp")) == ("a", "k", "omp[clang-19]", "8", "")


def test_launch_shapes_one_family():
    assert result.family("tpb=256") == "" and result.family("baseline (-k 0)") == "baseline (-k 0)"


def test_native_model_from_model_list():
    assert result.native_of(project.models()) in project.models() and result.is_native(result.native_of(project.models()))


def test_apps_each_once():
    assert project.apps()[0] and len(project.apps()) == len(set(project.apps()))


def test_write_through_symlink_refused(tmp_path, good):
    link = str(tmp_path / "link.md")
    os.symlink(good, link)
    assert refused(outfile.write_text, link, "x", want="symbolic link")
    assert open(good).read().startswith('{"app"'), "... and its target left as it was"


def test_out_that_is_a_file_refused(good):
    assert refused(outfile.out_dir, good, want="not a folder")


def test_write_replaces_by_rename(tmp_path):
    out = str(tmp_path / "out.txt")
    outfile.write_text(out, "one")
    ino = os.stat(out).st_ino
    outfile.write_text(out, "two")
    assert open(out).read() == "two" and os.stat(out).st_ino != ino
    assert not [f for f in os.listdir(tmp_path) if ".tmp-" in f], "no temporary file left"

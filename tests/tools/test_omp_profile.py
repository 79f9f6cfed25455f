"""validate/omp-profile on real traces of LLVM 19's offload runtime (tests/fixtures/omp-profile:
LIBOMPTARGET_PROFILE with LIBOMPTARGET_PROFILE_GRANULARITY=1, the host as the device;
microbench-dot-host.json: `microbench --backend omp --kernels dot --size 2^16 --samples 5
--warmup 1` of the cpu preset; line-tables.json: one reduction region of a program built
with -gline-tables-only; microbench-dot-host-llvm22.json: the dot run of omp_profile_live.sh
with clang 22 and LLVM 22's runtime), and on traces that are not its input."""
import json
import os

from pptools import ompprofile

from conftest import TESTS, run_tool

FIX = os.path.join(TESTS, "fixtures", "omp-profile")


def load(name):
    with open(os.path.join(FIX, name), encoding="utf-8") as f:
        return json.load(f)


def test_dot_regions_grouped():
    """The model's start-up region and the 24 dot regions (6 runs of 4 launch shapes), each
    dot region's steps inside it: the reduction variable's 8 bytes there and back."""
    s = ompprofile.summarize(ompprofile.events(load("microbench-dot-host.json"), "t"))
    assert [(r["region"], r["count"]) for r in s["regions"]] == [
        ("args 1, trip 0, teams 1", 1), ("args 6, trip 65536, teams 1", 24)]
    dot = s["regions"][1]
    assert dot["transfers"] == "h2d 8B, d2h 8B"
    assert dot["median_us"] == 135.0 and dot["launch_us"] == 120.5 and dot["h2d_us"] == 1.5
    # the region less its steps: never negative, and here the runtime's few microseconds
    assert 0 <= dot["other_us"] < dot["median_us"] - dot["launch_us"]
    calls = {c["call"]: c["count"] for c in s["outside"]}
    assert calls["omp_target_memcpy"] == 9 and calls["omp_target_alloc"] == 16


def test_llvm22_spelling():
    """LLVM 22 names the wait 'Runtime: synchronize' (19: 'syncronize'): both are the sync step."""
    s = ompprofile.summarize(ompprofile.events(load("microbench-dot-host-llvm22.json"), "t"))
    assert [(r["region"], r["count"]) for r in s["regions"]] == [
        ("args 1, trip 0, teams 1", 1), ("args 6, trip 4096, teams 1", 12)]
    found, _ = ompprofile.regions(ompprofile.events(load("microbench-dot-host-llvm22.json"), "t"))
    assert sum(st["name"] == "Runtime: synchronize" for r in found for st in r["steps"]) == 2


def test_location_named():
    """With line tables the region is named by its source line."""
    s = ompprofile.summarize(ompprofile.events(load("line-tables.json"), "t"))
    assert [r["region"] for r in s["regions"]] == ["t.c:3 main"]


def test_nested_steps_counted_once():
    """A step inside another (a transfer within the wait) is not counted twice in 'other';
    LLVM 19's 'syncronize' is the sync step."""
    ev = [{"ph": "X", "name": "Runtime: target exe", "ts": 0, "dur": 100, "tid": 1, "args": {"detail": ""}},
          {"ph": "X", "name": "Runtime: syncronize", "ts": 10, "dur": 80, "tid": 1},
          {"ph": "X", "name": "DevToHost", "ts": 20, "dur": 10, "tid": 1, "args": {"detail": ";;;;;;Size=8B"}},
          {"ph": "X", "name": "Total HostToDev", "ts": 0, "dur": 999, "tid": 1},
          {"ph": "X", "name": "omp_target_memcpy", "ts": 200, "dur": 5, "tid": 1}]
    s = ompprofile.summarize(ompprofile.events({"traceEvents": ev}, "t"))
    (r,) = s["regions"]
    assert r["other_us"] == 20 and r["sync_us"] == 80 and r["d2h_us"] == 10
    assert s["outside"] == [{"call": "omp_target_memcpy", "count": 1, "median_us": 5, "total_us": 5}]


def test_cli_table_and_json(tmp_path):
    out = tmp_path / "s.json"
    p = run_tool("omp-profile", os.path.join(FIX, "microbench-dot-host.json"), "--json", out)
    assert p.returncode == 0, p.stderr
    assert "25 target regions in 2 groups" in p.stdout
    assert json.loads(out.read_text())["regions"][1]["count"] == 24


def test_not_a_trace(tmp_path):
    f = tmp_path / "r.json"
    f.write_text('{"rows": []}')
    p = run_tool("omp-profile", f)
    assert p.returncode == 2 and "not a Chrome trace" in p.stderr and "LIBOMPTARGET_PROFILE" in p.stderr


def test_no_region_says_why(tmp_path):
    f = tmp_path / "t.json"
    f.write_text('{"traceEvents": [{"ph": "X", "name": "void initRuntime()", "ts": 1, "dur": 2, "tid": 1}]}')
    p = run_tool("omp-profile", f)
    assert p.returncode == 0 and "LIBOMPTARGET_PROFILE_GRANULARITY=1" in p.stdout


def test_bad_event_refused(tmp_path):
    f = tmp_path / "t.json"
    f.write_text('{"traceEvents": [{"ph": "X", "name": "HostToDev", "ts": "soon", "dur": 2}]}')
    p = run_tool("omp-profile", f)
    assert p.returncode == 2 and "without a valid ts/dur" in p.stderr

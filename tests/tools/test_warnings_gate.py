"""validate/warnings-gate (pptools/buildwarnings), the quiet build's CI gate:
  - a log with only allowlisted warnings passes, and the entries seen are counted;
  - a warning no entry lists fails (exit 1), naming its log and line, repeats counted;
  - a warning that a parallel make's progress line cut in two is read whole (a -j2
    CI log: "remark: [ 88%] Building C object ..." then the remark's text), so an
    allowed one passes and a new one is still found;
  - an allowlist entry without its reason is refused (exit 2, one line);
  - the shipped .ci/warnings-allow.toml is read, every entry with a reason, and the
    GCC warnings fixed in the tree (DT_TEXTREL, -Wformat-truncation) are not listed."""
import subprocess
import sys

from conftest import tool_path

ALLOWED = "clang-linker-wrapper: warning: <unknown>:0:0: loop not vectorized: the optimizer was unable to " \
          "perform the requested transformation; the transformation might be disabled\n"
TEXTREL = "/usr/bin/ld: warning: creating DT_TEXTREL in a PIE\n"
TRUNC = "testsnap/main.c:509:58: warning: '%s' directive output may be truncated writing up to 95 bytes " \
        "into a region of size between 75 and 85 [-Wformat-truncation=]\n"


def gate(*args):
    r = subprocess.run([sys.executable, tool_path("warnings-gate"), *map(str, args)], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def test_allowed_only_passes(tmp_path):
    log = tmp_path / "build.log"
    log.write_text("[ 10%] Building C object x.o\n" + ALLOWED * 3 + "[100%] Built target x\n")
    rc, out, err = gate(log)
    assert rc == 0 and "allowed x3: /loop not vectorized" in out, f"allowed, counted ({rc}: {out}{err})"


def test_new_warning_fails(tmp_path):
    log = tmp_path / "build.log"
    log.write_text(ALLOWED + TEXTREL * 2 + TRUNC + "CMake Warning at x.cmake:3 (message):\n")
    rc, out, err = gate(log)
    assert rc == 1, f"new warnings fail ({rc}: {out}{err})"
    assert f"{log}: NEW WARNING (x2): /usr/bin/ld: warning: creating DT_TEXTREL in a PIE" in out, out
    assert "-Wformat-truncation" in out and "NEW WARNING: CMake Warning at x.cmake:3" in out, out
    assert "4 warning line(s) not in" in err and "add an entry with its reason" in err, err


def test_interleaved_progress_line(tmp_path):
    log = tmp_path / "build.log"
    log.write_text("remark: [ 88%] Building C object cgsolve/CMakeFiles/cgsolve.dir/main.c.o\n"
                   "<unknown>:0:0: loop not vectorized: Cannot vectorize uncountable loop\n" + ALLOWED)
    rc, out, err = gate(log)
    assert rc == 0 and "allowed x1: /loop not vectorized: (Cannot" in out, f"made whole, allowed ({rc}: {out}{err})"
    log.write_text("x.c:3:1: warning: [ 50%] Built target spmv\nunused variable 'k' [-Wunused-variable]\n")
    rc, out, err = gate(log)
    assert rc == 1 and "NEW WARNING: x.c:3:1: warning: unused variable 'k' [-Wunused-variable]" in out, \
        f"a new one cut in two is still new, named whole ({rc}: {out}{err})"


def test_entry_without_reason_refused(tmp_path):
    allow = tmp_path / "allow.toml"
    allow.write_text('[[allow]]\nmatch = "DT_TEXTREL"\nreason = " "\n')
    log = tmp_path / "build.log"
    log.write_text(TEXTREL)
    rc, out, err = gate("--allow", allow, log)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "entry 1: needs exactly 'match' and a non-empty 'reason'" \
        in err, f"refused in one line ({rc}: {err})"


def test_shipped_allowlist(tmp_path):
    from pptools import buildwarnings
    entries = buildwarnings.load_allow(buildwarnings.DEFAULT_ALLOW)
    assert entries and all(len(reason) > 40 for _, reason in entries), "every entry says why"
    for fixed in (TEXTREL, TRUNC):
        assert buildwarnings.scan([fixed], entries)[0] == [fixed.rstrip()], f"fixed, so not allowed: {fixed}"

"""What the tools' tests share: the repository, the package (the checkout's,
installed or not), running a tool as a user does, a build's binaries, and the
synthetic inputs the tests are written against.

CTest runs these modules one area at a time (tests/tools/pytest.cmake) and gives them
the build's bin folder (--pp-bin) and a work folder (--pp-work) that outlives a
run, for the tests that a later CTest reads again (the suite's small run).
By hand:  python3 -m pytest tests/tools --pp-bin build/cpu/bin
"""
import os
import subprocess
import sys

import pytest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
VALIDATE = os.path.join(REPO, "validate")
FIXTURES = os.path.join(TESTS, "fixtures")
sys.path[:0] = [VALIDATE, FIXTURES]  # the checkout's pptools; tests/fixtures for the generators (make_compare_runs)


def pytest_addoption(parser):
    parser.addoption("--pp-bin", default=os.environ.get("PP_TEST_BIN"),
                     help="a build's bin folder (ProxyPort's apps), for the tests that run them")
    parser.addoption("--pp-work", default=None,
                     help="a folder for files that outlive the run (default: pytest's temporary folder)")
    parser.addoption("--pp-mpi", default=None,
                     help="the MPI launcher and its options, the rank count flag last (scaling)")
    parser.addoption("--pp-suite-run", default=None,
                     help="the suite's small run made by an earlier test (tools_suite_run's), read again "
                          "instead of running the suite (test_suite_run's figures and no-matplotlib cases)")


def pytest_configure(config):
    if config.getoption("--pp-bin"):  # for the tools the tests run (test_hostile's suite cases)
        os.environ["PP_TEST_BIN"] = os.path.abspath(config.getoption("--pp-bin"))


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def bin_dir(request):
    """The build's bin folder; the test is skipped (never passed) without one."""
    d = request.config.getoption("--pp-bin")
    if not d or not os.path.isdir(d):
        pytest.skip("needs a build's bin folder (--pp-bin DIR or PP_TEST_BIN)")
    return os.path.abspath(d)


@pytest.fixture(scope="session")
def work(request, tmp_path_factory):
    """A folder that outlives the session when CTest names one (--pp-work)."""
    d = request.config.getoption("--pp-work")
    if d:
        os.makedirs(d, exist_ok=True)
        return d
    return str(tmp_path_factory.mktemp("work"))


def tool_path(name):
    return os.path.join(VALIDATE, name)


def run_tool(name, *args, env=None, timeout=600, **kw):
    """validate/NAME ARGS with this Python, as a user runs it: (exit, stdout, stderr)."""
    p = subprocess.run([sys.executable, tool_path(name), *map(str, args)], capture_output=True, text=True,
                       env=env, timeout=timeout, **kw)
    return p


@pytest.fixture(scope="session")
def tool():
    return run_tool


@pytest.fixture(scope="session")
def compare_runs(tmp_path_factory):
    """The synthetic runs of tests/fixtures/make_compare_runs.py (known ratios and variation)."""
    d = str(tmp_path_factory.mktemp("compare"))
    subprocess.run([sys.executable, os.path.join(FIXTURES, "make_compare_runs.py"), d], check=True,
                   capture_output=True)
    return d


def matplotlib_missing():
    """Why figures cannot be drawn here (matplotlib, optional, does not import), or None."""
    try:
        import matplotlib.pyplot  # noqa: F401
    except Exception as e:  # ImportError, or a matplotlib built for another numpy
        return f"matplotlib does not import for {sys.executable} ({type(e).__name__}: {e})"
    return None


def have_matplotlib():
    return matplotlib_missing() is None

"""What compile-facts reads from a configured build folder: its CMake cache and
build tag, its kernel files and their compile commands (compile_commands.json,
hipcc's from the Makefiles), which compiler and model each is, and how to re-run
a command with another output."""
import glob
import os
import re
import shlex
import subprocess

from .. import apps as manifests
from .. import project
from .. import result as resultfile


def openmp_device_models():
    """The device models the C (OpenMP) compiler builds: their kernels are offload regions."""
    return [m for m in project.device_models() if m in project.cc_models()]


def known_apps():
    """The apps of apps.txt and "common", the common layer's kernel files."""
    return project.apps() + ("common",)

def library_apps():
    """Kernel folders of libraries, under the app that runs them as its own (its link
    relinks them), {library: app}: the libraries of the apps' manifests (spmv's: the
    miniFE library's SpMV; cgsolve's cg_spmv runs the same objects)."""
    return {lib: app for app in manifests.apps_with("libraries") for lib in manifests.get(app, "libraries")}


def die(msg):
    """A refused build folder: one line "compile-facts: MSG", exit 2 (pptools.cli.run)."""
    raise resultfile.BadInput(msg)


def read_cache(build):
    cache = {}
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^([A-Za-z_][\w.-]*):[A-Z]+=(.*)$", line.rstrip("\n"))
                if m:
                    cache[m.group(1)] = m.group(2)
    except OSError as e:
        die(f"{build}: not a configured CMake build folder ({e.strerror}: CMakeCache.txt)")
    for f in glob.glob(os.path.join(build, "CMakeFiles", "*", "CMakeCCompiler.cmake")):
        with open(f, encoding="utf-8") as fh:
            for k in ("CMAKE_C_COMPILER_ID", "CMAKE_C_COMPILER_VERSION"):
                m = re.search(r'set\(' + k + r' "([^"]*)"\)', fh.read())
                fh.seek(0)
                if m:
                    cache[k] = m.group(1)
    return cache


def build_tag(cache):
    """The build's tag as cmake/BuildTag.cmake forms it (row labels "omp[TAG]")."""
    if cache.get("PP_BUILD_TAG"):
        return cache["PP_BUILD_TAG"]
    cid = cache.get("CMAKE_C_COMPILER_ID", "").lower()
    cid = "gcc" if cid == "gnu" else cid
    tag = f"{cid}-{cache.get('CMAKE_C_COMPILER_VERSION', '?').split('.')[0]}"
    fs = cache.get("PP_OMP_FLAG_SET") or ("custom" if cache.get("PP_OMP_EXTRA_FLAGS") else "none")
    return tag if fs == "none" else f"{tag}+{fs}"


def model_of(path, argv):
    stem, ext = os.path.splitext(os.path.basename(path))
    if ext == ".cu":
        return "cuda"
    if ext == ".hip":
        return "hip"
    offload = any(a.startswith(("--offload-arch", "-fopenmp-targets", "-foffload=")) for a in argv)
    if ext == ".c" and offload:
        return "ompx" if stem.endswith("ompx") else "omp" if stem.endswith("omp") else None
    return None


def kernel_sources(build, src_root):
    """[(source, model, app, directory, argv)] of every GPU kernel file, once each."""
    path = os.path.join(build, "compile_commands.json")
    try:
        db = resultfile.load_json(path, limit=resultfile.RESULT_LIMIT)
    except resultfile.BadInput as e:
        die(f"{e}; configure with CMAKE_EXPORT_COMPILE_COMMANDS=ON (the top CMakeLists.txt sets it)")
    if not isinstance(db, list) or not all(isinstance(e, dict) and isinstance(e.get("file"), str)
                                           and isinstance(e.get("directory"), str)
                                           and (isinstance(e.get("arguments"), list) or isinstance(e.get("command"), str))
                                           for e in db):
        die(f"{path}: not a compilation database (a list of file, directory, arguments or command)")
    entries = [(e["file"], e["directory"], e.get("arguments") or shlex.split(e["command"])) for e in db]
    # hipcc is a custom command (cmake/ProxyPortApp.cmake): read it from the Makefiles
    # of this build, not of builds nested in it (tests configure and delete their own
    # under tests/ while others run: a file may vanish between listing and reading).
    for top, dirs, files in os.walk(build):
        dirs[:] = [x for x in dirs if not os.path.exists(os.path.join(top, x, "CMakeCache.txt"))]
        if "build.make" not in files:
            continue
        try:
            with open(os.path.join(top, "build.make"), encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
        except OSError:
            continue
        for line in lines:
            m = re.match(r"\s*cd (\S+) && (\S*hipcc\s.*)$", line)
            if m:
                argv = shlex.split(m.group(2))
                src = argv[argv.index("-c") + 1] if "-c" in argv else None
                if src:
                    entries.append((src, m.group(1), argv))
    out, seen = [], set()
    for src, d, argv in entries:
        src = os.path.realpath(os.path.join(d, src))
        rel = os.path.relpath(src, src_root)
        model = model_of(src, argv)
        if model is None or src in seen or rel.startswith(".."):
            continue
        parts = rel.split(os.sep)
        if not ("kernels" in parts or parts[:2] == ["common", "backend"]):
            continue
        seen.add(src)
        out.append((src, model, library_apps().get(parts[0], parts[0]), d, argv))
    return out


def compiler_kind(argv):
    exe = os.path.basename(argv[0])
    if "nvcc" in exe:
        return "nvcc"
    if "hipcc" in exe:
        return "hipcc"
    if any(a.startswith("-foffload=") for a in argv) or re.match(r"(gcc|cc)(-\d+)?$", exe):
        return "gcc"
    return "clang"


def replace_output(argv, obj):
    argv = list(argv)
    if "-o" in argv:
        argv[argv.index("-o") + 1] = obj
    else:
        argv += ["-o", obj]
    return argv


def run(argv, cwd):
    try:
        r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace")
    except OSError as e:
        return 127, str(e)
    return r.returncode, r.stdout + r.stderr


def is_lto(argv):
    """Device code compiled at the link: AMDGPU OpenMP in LLVM 19, or -foffload-lto."""
    lto = any(a.startswith("--offload-arch=gfx") or a.startswith("-fopenmp-targets=amdgcn") for a in argv)
    for a in argv:
        if a == "-foffload-lto" or a.startswith("-foffload-lto="):
            lto = True
        elif a == "-fno-offload-lto":
            lto = False
    return lto

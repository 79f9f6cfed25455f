#!/usr/bin/env python3
"""Checks packaging/spack/spack_repo/proxyport/packages/proxyport/package.py without Spack.

It imports the file with a stub `spack.package` (the directives record their
arguments), then takes every combination of compiler (each row of the OpenMP
offload table, below and at its versions), offload target, model variants,
cuda/rocm, mpi and tests that the package's conflicts and requires allow, and
checks that
  - the table (cmake/OffloadCompilers.cmake, as configured) can build it: every
    combination the table refuses must be a conflict of the package;
  - cmake_args() names only cache variables CMake really has (FACTS, written
    at configure time by tests/setup/packaging.cmake, plus find_program/find_library
    names of the sources and CMake's own CMAKE_* variables);
  - every variant changes cmake_args() somewhere (none is ignored);
  - a few combinations give the expected arguments, two cuda_arch values are
    refused, and check() runs the unit label;
  - the upstream form: the build systems imported from spack_repo.builtin,
    homepage, url and git set, license() the LICENSE file's, develop on main,
    every release a sha256 (its value against the tag: spack_release.py).
Usage: spack_package.py PACKAGE_PY FACTS SOURCE_DIR CMAKE"""
import contextlib
import itertools
import re
import subprocess
import sys
import types
from pathlib import Path

pkg_path, facts_path, src_dir, cmake = sys.argv[1:5]

# ---- facts of the configured build ---------------------------------------------
known_vars, rows = set(), {}
for line in Path(facts_path).read_text().splitlines():
    kind, _, rest = line.partition(" ")
    if kind == "var":
        known_vars.add(rest)
    elif kind == "row":  # row NAME MIN OMPX TARGET...
        name, vmin, ompx, *targets = rest.split()
        rows[name] = (vmin, "" if ompx == "-" else ompx, {t.lower() for t in targets})
# Conditional cache variables (not in a cpu configure): the sources' find_* names.
for f in [Path(src_dir, "CMakeLists.txt"), *Path(src_dir, "cmake").glob("*.cmake")]:
    known_vars |= set(re.findall(r"\bfind_(?:program|library|path|file)\(\s*(\w+)", f.read_text()))
cmake_help = subprocess.run([cmake, "--help-variable-list"], capture_output=True, text=True).stdout.split()
# FindMPI's input variables (MPI_<LANG>_COMPILER, MPIEXEC_EXECUTABLE): in the cache only
# when the configure looked for MPI, which a PP_ENABLE_MPI=OFF build (~mpi) does not.
cmake_help += [v.replace("<lang>", "<LANG>") for v in re.findall(
    r"\b(MPI(?:EXEC)?_[A-Za-z<>_]*[A-Z>])\b",
    subprocess.run([cmake, "--help-module", "FindMPI"], capture_output=True, text=True).stdout)]


def is_cmake_var(name):
    if name in known_vars or name in cmake_help:
        return True
    return any(re.fullmatch(h.replace("<LANG>", "[A-Z]+") .replace("<CONFIG>", "[A-Z]+"), name)
               for h in cmake_help if "<" in h)


# ---- stub spack.package ----------------------------------------------------------
directives = []


def directive(name):
    def record(*args, **kw):
        directives.append((name, args, kw))
    return record


class InstallError(Exception):
    pass


def version_in(v, rng):
    """Spack's @range for dotted versions: @X, @X:, @:Y, @X:Y (prefix match)."""
    t = lambda s: tuple(int(x) for x in s.split("."))
    v = t(v)
    if ":" not in rng:
        return v[:len(t(rng))] == t(rng)
    lo, hi = rng.split(":")
    return (not lo or v >= t(lo)) and (not hi or v[:len(t(hi))] <= t(hi))


class Spec:
    """What the package uses: satisfies(), variants, spec[dep]."""

    def __init__(self, compiler, cuda_version, variants):
        self.compiler = compiler  # (spack name, version)
        self.cuda_version = cuda_version
        self.variants = {k: types.SimpleNamespace(value=v) for k, v in variants.items()}

    def _one(self, c):
        if c[0] in "%^":
            name, _, rng = c[1:].partition("@")
            have = self.compiler if c[0] == "%" else ("cuda", self.cuda_version)
            return have[0] == name and have[1] is not None and (not rng or version_in(have[1], rng))
        if c[0] in "+~":
            v = self.variants.get(c[1:])
            return v is not None and bool(v.value) == (c[0] == "+")
        k, _, val = c.partition("=")
        v = self.variants.get(k)
        return v is not None and (v.value == val or (isinstance(v.value, tuple) and val in v.value))

    def satisfies(self, s):
        return all(self._one(c) for c in s.split())

    def __getitem__(self, dep):
        cc = f"/opt/{self.compiler[0]}/bin/cc"
        return types.SimpleNamespace(prefix=Prefix(f"/opt/{dep}"), package=types.SimpleNamespace(cc=cc),
                                     mpicc=f"/opt/{dep}/bin/mpicc")


class Prefix(str):
    """A path whose .bin.<tool> is a path, as Spack's prefix."""

    @property
    def bin(self):
        root = self
        return type("Bin", (), {"__getattr__": lambda _, tool: f"{root}/bin/{tool}"})()


class CMakePackage:
    run_tests = False

    def define(self, name, value):
        if isinstance(value, bool):
            value = "ON" if value else "OFF"
        return f"-D{name}={value}"

    def define_from_variant(self, name, variant):
        return self.define(name, bool(self.spec.variants[variant].value))


class Executable:
    calls = []

    def __init__(self, path):
        self.path = path

    def __call__(self, *args, **kw):
        Executable.calls.append((str(self.path), args))


stub = types.ModuleType("spack.package")
for d in ("version", "variant", "depends_on", "conflicts", "requires", "maintainers", "license"):
    setattr(stub, d, directive(d))
for name, obj in (("CMakePackage", CMakePackage), ("CudaPackage", type("CudaPackage", (), {})),
                  ("ROCmPackage", type("ROCmPackage", (), {})), ("InstallError", InstallError),
                  ("Executable", Executable), ("working_dir", lambda d: contextlib.nullcontext())):
    setattr(stub, name, obj)
stub.__all__ = [n for n in dir(stub) if not n.startswith("_")]
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = stub
# The build systems as Spack's builtin repository (package API v2) provides them.
imported = {}
for mod, cls in (("cmake", "CMakePackage"), ("cuda", "CudaPackage"), ("rocm", "ROCmPackage")):
    m = types.ModuleType(f"spack_repo.builtin.build_systems.{mod}")
    setattr(m, cls, getattr(stub, cls))
    sys.modules[m.__name__] = m
    imported[cls] = m.__name__
for name in ("spack_repo", "spack_repo.builtin", "spack_repo.builtin.build_systems"):
    sys.modules[name] = types.ModuleType(name)

ns = {"__name__": "proxyport_package", "__file__": str(Path(pkg_path).resolve()), "make_jobs": 2}
exec(compile(Path(pkg_path).read_text(), pkg_path, "exec"), ns)
Pkg = ns["Proxyport"]
errors = []

# ---- the combinations ----------------------------------------------------------
# Spack compiler -> (table row, versions as Spack names them, the LLVM/CMake
# version each reports). llvm-amdgpu is versioned by ROCm: 6.1 is LLVM 17, 6.2 18.
COMPILERS = {
    "llvm": ("clang", {"15": "15", "16": "16", "17": "17", "18": "18", "19": "19", "21": "21"}),
    "gcc": ("gcc", {"11": "11", "12": "12", "13": "13"}),
    "nvhpc": ("nvhpc", {"22.3": "22.3", "22.5": "22.5", "24.5": "24.5"}),
    "cce": ("cce", {"14": "14", "15": "15", "17": "17"}),
    "intel-oneapi-compilers": ("icx", {"2022.2": "2022.2", "2023.0": "2023.0", "2025.0": "2025.0"}),
    "llvm-amdgpu": ("amdclang", {"6.1": "17", "6.2": "18", "6.4": "19"}),
}
for cc, (row, _) in COMPILERS.items():
    if row not in rows:
        errors.append(f"the offload table has no row {row} (for %{cc}): update this check")

declared = {}  # variant -> [(values, when)]
for n, args, kw in directives:
    if n == "variant":
        vals = kw.get("values", (False, True))
        declared.setdefault(args[0], []).append((tuple(vals), kw.get("when")))
# CudaPackage / ROCmPackage's own variants.
declared.update({"cuda": [((False, True), None)], "rocm": [((False, True), None)],
                 "cuda_arch": [((("90",),), "+cuda")], "amdgpu_target": [((("gfx90a",),), "+rocm")]})


def combos():
    for cc, (_row, versions) in COMPILERS.items():
        for ver in versions:
            for offload, cuda, rocm, mpi, tests in itertools.product(
                    declared["offload"][0][0], (False, True), (False, True), (False, True), (False, True)):
                for cuda_version in (("12.4", "13.0") if cuda else (None,)):
                    base = dict(offload=offload, cuda=cuda, rocm=rocm, mpi=mpi, tests=tests)
                    if cuda:
                        base["cuda_arch"] = ("90",)
                    if rocm:
                        base["amdgpu_target"] = ("gfx90a",)
                    spec = Spec((cc, ver), cuda_version, base)
                    # the conditional variants that exist here, each value of them
                    cond = {v: sorted({x for vals, w in decl if w is None or spec.satisfies(w) for x in vals},
                                      key=str)
                            for v, decl in declared.items() if v not in base}
                    cond = {v: vals for v, vals in cond.items() if vals}
                    for vals in itertools.product(*cond.values()):
                        yield Spec((cc, ver), cuda_version, dict(base, **dict(zip(cond, vals))))


def refused(spec):
    """The message of the package's first conflict/requires that refuses spec."""
    for n, args, kw in directives:
        when = kw.get("when")
        if when and not spec.satisfies(when):
            continue
        if n == "conflicts" and spec.satisfies(args[0]):
            return kw.get("msg", args[0])
        if n == "requires" and not any(spec.satisfies(a) for a in args):
            return kw.get("msg", str(args))
    return None


def table_refuses(spec):
    """Why cmake/OffloadCompilers.cmake would stop this configure, or None."""
    cc, ver = spec.compiler
    row, versions = COMPILERS[cc]
    vmin, ompx, targets = rows.get(row, ("0", "", set()))
    t = spec.variants["offload"].value
    lv = tuple(int(x) for x in versions[ver].split("."))
    if t != "none" and lv < tuple(int(x) for x in vmin.split(".")):
        return f"row {row} starts at {vmin}"
    if t != "none" and t not in targets:
        return f"row {row} has no {t} target"
    if spec.satisfies("+ompx") and (not ompx or lv < tuple(int(x) for x in ompx.split("."))):
        return f"row {row} builds ompx {'from ' + ompx if ompx else 'never'}"
    return None


def args_for(spec, run_tests=False):
    p = Pkg()
    p.spec = spec
    p.run_tests = run_tests
    return p.cmake_args()


def show(spec):
    cc, ver = spec.compiler
    vs = " ".join(f"{k}={','.join(v.value) if isinstance(v.value, tuple) else v.value}"
                  for k, v in sorted(spec.variants.items()) if not isinstance(v.value, bool))
    flags = "".join(("+" if v.value else "~") + k for k, v in sorted(spec.variants.items())
                    if isinstance(v.value, bool))
    return f"%{cc}@{ver} {vs} {flags}" + (f" ^cuda@{spec.cuda_version}" if spec.cuda_version else "")


allowed, bad_vars, table_errors = [], {}, {}
for spec in combos():
    if refused(spec):
        continue
    why = table_refuses(spec)
    if why:
        table_errors.setdefault(why, show(spec))
        continue
    args = args_for(spec)
    allowed.append((spec, args))
    for a in args:
        name = re.match(r"-D([A-Za-z0-9_]+)(:[A-Z]+)?=", a).group(1)
        if not is_cmake_var(name):
            bad_vars.setdefault(name, show(spec))
for why, example in table_errors.items():
    errors.append(f"package allows {example}, which the offload table refuses ({why}): add a conflict")
for name, example in bad_vars.items():
    errors.append(f"cmake_args names {name}, not a CMake cache variable of the project (e.g. {example})")
if not allowed:
    errors.append("no variant combination is allowed")

# Every variant must change cmake_args somewhere: among allowed combinations
# that differ only in it (and the variants and dependency that come with it),
# two must give different arguments.
for var, _decl in declared.items():
    if var in ("cuda_arch", "amdgpu_target"):
        continue
    tied = {v for v, d in declared.items() for _, w in d if w and re.search(rf"[+~]{var}\b|\b{var}=", w)}
    groups = {}
    for spec, args in allowed:
        if var not in spec.variants:
            continue
        key = (spec.compiler, None if var == "cuda" else spec.cuda_version,
               tuple((k, v.value) for k, v in sorted(spec.variants.items()) if k != var and k not in tied))
        groups.setdefault(key, set()).add(tuple(args))
    if not any(len(g) > 1 for g in groups.values()):
        errors.append(f"variant {var} changes no cmake_args (not mapped to a CMake variable)")

# ---- a few combinations in full ------------------------------------------------
cases = [
    ((("llvm", "21"), "13.0", dict(offload="nvidia", omp=True, ompx=True, cuda=True, cuda_arch=("90",),
                                   rocm=False, mpi=True, tests=False)),
     {"-DPP_OFFLOAD=nvidia", "-DPP_NVIDIA_ARCH=sm_90", "-DPP_ENABLE_CUDA=ON", "-DPP_ENABLE_HIP=OFF",
      "-DPP_ENABLE_MPI=ON", "-DPP_ENABLE_OMP=ON", "-DPP_ENABLE_OMPX=ON", "-DMPI_C_COMPILER=/opt/mpi/bin/mpicc",
      "-DMPIEXEC_EXECUTABLE=/opt/mpi/bin/mpiexec",
      "-DCMAKE_CUDA_COMPILER=/opt/cuda/bin/nvcc", "-DPP_OMP_CUDA_PATH=/opt/cuda", "-DPP_BUILD_TESTS=OFF",
      "-DPP_LLVM_ROOT=/opt/llvm"}),
    ((("llvm", "19"), None, dict(offload="amd", omp=True, ompx=False, cuda=False, rocm=True,
                                 amdgpu_target=("gfx90a",), mpi=False, tests=True)),
     {"-DPP_OFFLOAD=amd", "-DPP_AMD_ARCH=gfx90a", "-DPP_ENABLE_CUDA=OFF", "-DPP_ENABLE_HIP=ON",
      "-DPP_HIPCC=/opt/hip/bin/hipcc", "-DPP_ENABLE_OMPX=OFF", "-DPP_ENABLE_MPI=OFF", "-DPP_BUILD_TESTS=ON"}),
    ((("gcc", "12"), None, dict(offload="none", cuda=False, rocm=False, mpi=True, tests=False)),
     {"-DPP_OFFLOAD=none", "-DPP_ENABLE_OMP=OFF", "-DPP_ENABLE_OMPX=OFF"}),
]
for (cc, cv, variants), want in cases:
    got = set(args_for(Spec(cc, cv, variants)))
    if not want <= got:
        errors.append(f"{sorted(want - got)} missing from cmake_args {sorted(got)}")
gcc_cpu = Spec(("gcc", "12"), None, dict(offload="cpu", omp=True, cuda=False, rocm=False, mpi=True, tests=False))
if "-DPP_BUILD_TESTS=ON" not in args_for(gcc_cpu, run_tests=True):
    errors.append("spack install --test does not build the tests (PP_BUILD_TESTS)")
if any(a.startswith("-DPP_LLVM_ROOT") for a in args_for(gcc_cpu)):
    errors.append("PP_LLVM_ROOT is set for gcc")
try:
    args_for(Spec(("llvm", "21"), "13.0", dict(offload="nvidia", omp=True, ompx=True, cuda=True,
                                               cuda_arch=("80", "90"), rocm=False, mpi=False, tests=False)))
    errors.append("two cuda_arch values were accepted (one build has one PP_NVIDIA_ARCH)")
except InstallError:
    pass
p = Pkg()
p.spec = Spec(("llvm", "19"), None, {})
p.build_directory = "/build"
p.check()
if not Executable.calls or not re.search(r"'-L', 'unit'", str(Executable.calls[-1][1])):
    errors.append(f"check() does not run `ctest -L unit`: {Executable.calls}")
versions = {args[0]: kw for n, args, kw in directives if n == "version"}
if versions.get("develop", {}).get("branch") != "main":
    errors.append(f"no version develop on branch main: {versions}")
for v, kw in versions.items():
    if v != "develop" and (not re.fullmatch(r"[0-9a-f]{64}", kw.get("sha256", "")) or set(kw) - {"sha256"}):
        errors.append(f"version {v} is not a release tarball's sha256 alone: {kw}")
src_text = Path(pkg_path).read_text()
for cls, mod in imported.items():
    if not re.search(rf"^from {re.escape(mod)} import {cls}$", src_text, re.M):
        errors.append(f"{cls} is not imported from {mod} (Spack's package API v2)")
for attr in ("homepage", "url", "git"):
    if not str(getattr(Pkg, attr, "")).startswith("https://"):
        errors.append(f"{attr} is not an https URL: {getattr(Pkg, attr, None)!r}")
lic = [args[0] for n, args, kw in directives if n == "license"]
licence_file = Path(src_dir, "LICENSE")
if lic != ["Apache-2.0"] or not licence_file.is_file() or \
        "Apache License\n                           Version 2.0" not in licence_file.read_text():
    errors.append(f"license() {lic} is not the LICENSE file's (Apache-2.0)")
if not any(n == "maintainers" for n, args, kw in directives):
    errors.append("no maintainers() directive")
if not any(n == "depends_on" and args[0].startswith("cmake@3.25:") for n, args, kw in directives):
    errors.append("no depends_on('cmake@3.25:')")

print("FAIL: " + "\n      ".join(errors) if errors else
      f"PASS: package.py: {len(allowed)} variant combinations allowed, each buildable by the offload "
      f"table and naming only CMake cache variables; every variant mapped")
sys.exit(1 if errors else 0)

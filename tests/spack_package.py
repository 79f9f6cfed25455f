#!/usr/bin/env python3
"""Checks packaging/spack/proxyport/package.py without Spack: imports it with a
stub `spack.package` module (directives record their arguments) and checks
cmake_args() for a few variant combinations.
Usage: spack_package.py PACKAGE_PY  (CTest also runs it on a copy with the
cuda_arch mapping broken, which must FAIL)."""
import sys
import types

path = sys.argv[1]

directives = []


def directive(name):
    def record(*args, **kw):
        directives.append((name, args, kw))
    return record


class InstallError(Exception):
    pass


class Variant:
    def __init__(self, value):
        self.value = value


class Spec:
    """Just what cmake_args uses: satisfies("+v"/"~v"/"k=v"/"%cc"), variants, spec[dep]."""

    def __init__(self, compiler, **variants):
        self.compiler = compiler
        self.variants = {k: Variant(v) for k, v in variants.items()}

    def satisfies(self, s):
        if s.startswith("%"):
            return self.compiler.startswith(s[1:])
        if s[0] in "+~":
            v = self.variants.get(s[1:])
            return bool(v and v.value) == (s[0] == "+")
        k, _, val = s.partition("=")
        return k in self.variants and self.variants[k].value == val

    def __getitem__(self, dep):
        prefix = types.SimpleNamespace(bin=types.SimpleNamespace(nvcc=f"/opt/{dep}/bin/nvcc"))
        return types.SimpleNamespace(prefix=prefix)


class CMakePackage:
    def define(self, name, value):
        if isinstance(value, bool):
            value = "ON" if value else "OFF"
        return f"-D{name}={value}"

    def define_from_variant(self, name, variant):
        return self.define(name, bool(self.spec.variants[variant].value))


class CudaPackage:
    pass


class ROCmPackage:
    pass


stub = types.ModuleType("spack.package")
for d in ("version", "variant", "depends_on", "conflicts", "requires", "maintainers", "license"):
    setattr(stub, d, directive(d))
for name, obj in (("CMakePackage", CMakePackage), ("CudaPackage", CudaPackage),
                  ("ROCmPackage", ROCmPackage), ("InstallError", InstallError)):
    setattr(stub, name, obj)
stub.__all__ = [n for n in dir(stub) if not n.startswith("_")]
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = stub

ns = {"__name__": "proxyport_package"}
exec(compile(open(path).read(), path, "exec"), ns)
Pkg = ns["Proxyport"]

variants = {args[0] for n, args, kw in directives if n == "variant"}
errors = []
for v in ("offload", "ompx", "mpi", "tests"):
    if v not in variants:
        errors.append(f"variant {v} missing")
if not any(n == "depends_on" and args[0].startswith("cmake@3.25:") for n, args, kw in directives):
    errors.append("no depends_on('cmake@3.25:')")


def args_for(compiler, **variants):
    p = Pkg()
    p.spec = Spec(compiler, **variants)
    return set(p.cmake_args())


cases = [
    (dict(compiler="clang@19", offload="nvidia", cuda=True, cuda_arch=("90",), rocm=False, mpi=True,
          ompx=True, tests=False),
     {"-DPP_OFFLOAD=nvidia", "-DPP_NVIDIA_ARCH=sm_90", "-DPP_ENABLE_CUDA=ON", "-DPP_ENABLE_HIP=OFF",
      "-DPP_ENABLE_MPI=ON", "-DPP_ENABLE_OMPX=AUTO", "-DCMAKE_CUDA_COMPILER=/opt/cuda/bin/nvcc",
      "-DPP_BUILD_TESTS=OFF"}),
    (dict(compiler="clang@19", offload="amd", cuda=False, rocm=True, amdgpu_target=("gfx90a",), mpi=False,
          ompx=True, tests=True),
     {"-DPP_OFFLOAD=amd", "-DPP_AMD_ARCH=gfx90a", "-DPP_ENABLE_CUDA=OFF", "-DPP_ENABLE_HIP=ON",
      "-DPP_ENABLE_MPI=OFF", "-DPP_BUILD_TESTS=ON"}),
    (dict(compiler="gcc@12", offload="none", cuda=False, rocm=False, mpi=True, ompx=True, tests=False),
     {"-DPP_OFFLOAD=none", "-DPP_ENABLE_OMP=OFF", "-DPP_ENABLE_OMPX=OFF"}),
]
for spec, want in cases:
    got = args_for(spec.pop("compiler"), **spec) if "compiler" in spec else set()
    if not want <= got:
        errors.append(f"{sorted(want - got)} missing from cmake_args {sorted(got)}")
try:
    args_for("clang@19", offload="nvidia", cuda=True, cuda_arch=("80", "90"), rocm=False, mpi=False,
             ompx=True, tests=False)
    errors.append("two cuda_arch values were accepted (one build has one PP_NVIDIA_ARCH)")
except InstallError:
    pass
print("FAIL: " + "\n      ".join(errors) if errors else "PASS: package.py directives and cmake_args")
sys.exit(1 if errors else 0)

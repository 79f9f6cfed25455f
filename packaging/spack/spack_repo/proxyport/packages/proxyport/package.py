# Copyright Spack Project Developers. See COPYRIGHT file for details.
#
# SPDX-License-Identifier: (Apache-2.0 OR MIT)

import os

from spack_repo.builtin.build_systems.cmake import CMakePackage
from spack_repo.builtin.build_systems.cuda import CudaPackage
from spack_repo.builtin.build_systems.rocm import ROCmPackage

from spack.package import *

_GPU_TARGETS = ("nvidia", "amd")


class Proxyport(CMakePackage, CudaPackage, ROCmPackage):
    """GPU proxy applications that run every programming model (host OpenMP,
    OpenMP target offload, LLVM OpenMP kernel mode, CUDA, HIP) on the same
    data in one process, validate each result and report its figure of merit
    beside the native model's."""

    # The project has no public web host yet: both URLs are placeholders under
    # the reserved .invalid domain, which never resolves. Releases come from a
    # site's Spack mirror (the tarball, placed by name), and develop from a
    # clone named in packages.yaml (package_attributes: git); see
    # packaging/spack/README.md.
    homepage = "https://proxyport.invalid/"
    url = "https://proxyport.invalid/releases/proxyport-0.3.1.tar.gz"
    git = "https://proxyport.invalid/proxyport.git"

    tags = ["proxy-app", "benchmark"]

    maintainers()  # the GitHub accounts that answer for it go here before upstreaming

    license("Apache-2.0")

    version("develop", branch="main")
    version("0.3.1", sha256="23e7f4f97bce8288b2e6b1b065db53fd1480a7e7db81de1f5e344d3e204a5cf5")
    version("0.3.0", sha256="4fd487d572827219bde981bf34ebe1fe930100c63d904bf75d639631d1c1825f")

    # Models: host is always built; omp and ompx need an offload target, cuda
    # and rocm (the hip model) come from CudaPackage/ROCmPackage.
    variant(
        "offload",
        default="none",
        values=("none", "nvidia", "amd", "intel", "cpu"),
        multi=False,
        description="OpenMP offload target of the omp/ompx models (cpu: the host as a device)",
    )
    for _t in ("nvidia", "amd", "intel", "cpu"):
        variant(
            "omp", default=True, when=f"offload={_t}", description="OpenMP target offload model"
        )
    for _t in _GPU_TARGETS:
        variant(
            "ompx",
            default=True,
            when=f"offload={_t}",
            description="LLVM OpenMP kernel mode model (ompx_bare; LLVM-based compilers >= 18)",
        )
    variant(
        "mpi",
        default=True,
        description="MPI (cgsolve slabs, xsbench_like lookups split over ranks)",
    )
    variant("tests", default=False, description="Build the CTest suite (always on with --test)")

    depends_on("c", type="build")
    depends_on("cmake@3.25:", type="build")
    depends_on("mpi", when="+mpi")

    # A GPU offload target needs its vendor's toolchain: ptxas (GCC's nvptx-as
    # calls it, clang links with it) and the arch variants.
    requires("+cuda", when="offload=nvidia", msg="offload=nvidia needs +cuda (ptxas, cuda_arch)")
    requires(
        "+rocm",
        when="offload=amd",
        msg="offload=amd needs +rocm (device libraries, amdgpu_target)",
    )

    # The known-bad combinations (docs/toolchain.md and the rows of
    # cmake/OffloadCompilers.cmake, which would stop the configure).
    # Each row's lowest version (llvm-amdgpu is versioned by ROCm: the row is
    # documented from ROCm 6.0, LLVM 17).
    for _t in ("nvidia", "amd", "intel", "cpu"):
        for _cc in (
            "gcc@:11",
            "llvm@:15",
            "nvhpc@:22.3",
            "cce@:14",
            "intel-oneapi-compilers@:2022",
            "llvm-amdgpu@:5",
        ):
            conflicts(
                f"offload={_t}",
                when=f"%{_cc}",
                msg="below the lowest version of its row in cmake/OffloadCompilers.cmake",
            )
    conflicts(
        "offload=amd",
        when="%gcc@:12",
        msg="gcc 12's GCN offload cannot target gfx90a (GCC >= 13; Debian's links fiji only)",
    )
    conflicts("offload=amd", when="%nvhpc", msg="nvc has no AMD OpenMP offload")
    conflicts("offload=amd", when="%intel-oneapi-compilers", msg="icx offloads to Intel GPUs only")
    conflicts(
        "offload=nvidia", when="%intel-oneapi-compilers", msg="icx offloads to Intel GPUs only"
    )
    conflicts("offload=nvidia", when="%llvm-amdgpu", msg="ROCm's LLVM builds no NVPTX code")
    for _cc in ("gcc", "llvm", "nvhpc", "cce", "llvm-amdgpu"):
        conflicts("offload=intel", when=f"%{_cc}", msg="offload=intel (spir64) is icx's only")
    # ompx is LLVM's kernel-mode extension: upstream clang >= 18, ROCm's LLVM >= 18.
    for _cc in ("gcc", "nvhpc", "cce"):
        conflicts(
            "+ompx",
            when=f"%{_cc}",
            msg="ompx (LLVM OpenMP kernel mode) needs an LLVM-based compiler",
        )
    conflicts("+ompx", when="%llvm@:17", msg="LLVM OpenMP kernel mode needs clang >= 18")
    conflicts(
        "+ompx",
        when="%llvm-amdgpu@:6.1",
        msg="LLVM OpenMP kernel mode needs ROCm >= 6.2 (LLVM 18)",
    )
    # CUDA 13 cubins cannot be loaded by libomptarget before LLVM 21 (llvm-project 159088).
    conflicts(
        "^cuda@13:",
        when="offload=nvidia %llvm@:20",
        msg="clang < 21 OpenMP NVPTX needs ptxas/nvlink from CUDA <= 12",
    )

    def _onoff(self, cond):
        return "ON" if cond else "OFF"

    def _one(self, variant, what):
        """The single value of a multi-valued arch variant: one build, one arch."""
        archs = [a for a in self.spec.variants[variant].value if a != "none"]
        if len(archs) != 1:
            raise InstallError(f"proxyport builds for one {variant} (e.g. {variant}={what})")
        return archs[0]

    def cmake_args(self):
        spec = self.spec
        offload = spec.variants["offload"].value
        args = [
            self.define("PP_OFFLOAD", offload),
            self.define("PP_ENABLE_OMP", self._onoff(spec.satisfies("+omp"))),
            self.define("PP_ENABLE_OMPX", self._onoff(spec.satisfies("+ompx"))),
            self.define("PP_ENABLE_CUDA", self._onoff(spec.satisfies("+cuda"))),
            self.define("PP_ENABLE_HIP", self._onoff(spec.satisfies("+rocm"))),
            self.define("PP_ENABLE_MPI", self._onoff(spec.satisfies("+mpi"))),
            self.define("PP_BUILD_TESTS", self._onoff(spec.satisfies("+tests") or self.run_tests)),
        ]
        # Spack compiles through its wrapper: name the real LLVM (libomptarget,
        # device bitcode, ld.lld) that CMake would find from the compiler's path.
        if spec.satisfies("%llvm") or spec.satisfies("%llvm-amdgpu"):
            cc = os.path.realpath(spec["c"].package.cc)
            args.append(self.define("PP_LLVM_ROOT", os.path.dirname(os.path.dirname(cc))))
        # The spec's MPI, not the first mpicc/mpiexec on PATH (a /bin before
        # /usr/bin gives Open MPI a prefix of "/", which its mpiexec refuses).
        if spec.satisfies("+mpi"):
            args.append(self.define("MPI_C_COMPILER", spec["mpi"].mpicc))
            args.append(self.define("MPIEXEC_EXECUTABLE", spec["mpi"].prefix.bin.mpiexec))
        if spec.satisfies("+cuda"):
            args.append(self.define("PP_NVIDIA_ARCH", "sm_" + self._one("cuda_arch", "90")))
            args.append(self.define("CMAKE_CUDA_COMPILER", spec["cuda"].prefix.bin.nvcc))
            if offload == "nvidia" and spec.satisfies("%llvm"):
                args.append(self.define("PP_OMP_CUDA_PATH", spec["cuda"].prefix))
        if spec.satisfies("+rocm"):
            args.append(self.define("PP_AMD_ARCH", self._one("amdgpu_target", "gfx90a")))
            args.append(self.define("PP_HIPCC", spec["hip"].prefix.bin.hipcc))
        return args

    # `spack install --test=root`: the CTest suite's fast label (unit).
    def check(self):
        ctest = Executable(self.spec["cmake"].prefix.bin.ctest)
        with working_dir(self.build_directory):
            ctest("-L", "unit", "--output-on-failure", "-j", str(make_jobs))

    def _apps(self):
        """The apps of the install's list (share/proxyport/apps.txt: one a line, # comments)."""
        with open(join_path(self.prefix.share.proxyport, "apps.txt")) as f:
            return [w for w in (line.split("#")[0].strip() for line in f) if w]

    # `spack test run proxyport`: every app of the list runs from the install.
    def test_apps(self):
        """every app of share/proxyport/apps.txt prints its build record (--version)"""
        for app in self._apps():
            with test_part(self, f"test_apps_{app}", purpose=f"{app} --version"):
                exe = Executable(join_path(self.prefix.bin, app))
                out = exe("--version", output=str.split, error=str.split)
                assert out.startswith(app + " (ProxyPort"), f"{app} --version: {out[:80]!r}"

# Spack package for ProxyPort: GPU proxy apps (microbench, spmv, cgsolve,
# xsbench_like, testsnap) with one kernel file per programming model.
# Use from a checkout:  spack repo add packaging/spack  (repo.yaml there), then
#   spack develop --path $PWD proxyport@develop && spack install proxyport@develop ...
# Examples:
#   proxyport +cuda cuda_arch=90 offload=nvidia %clang@19   (H100/H200: host, omp, ompx, cuda)
#   proxyport +rocm amdgpu_target=gfx90a offload=amd %clang@19   (MI250X: host, omp, ompx, hip)
#   proxyport offload=nvidia +cuda cuda_arch=80 ~ompx %gcc@12  (GCC's NVPTX offload: omp only)
from spack.package import *


class Proxyport(CMakePackage, CudaPackage, ROCmPackage):
    """GPU proxy applications that run every programming model (host OpenMP,
    OpenMP target offload, LLVM OpenMP kernel mode, CUDA, HIP) on the same
    data in one process, validate each result and report its figure of merit
    beside the native model's."""

    # No public repository is recorded here: build from a checkout (spack develop).
    version("develop")

    variant(
        "offload",
        default="none",
        values=("none", "nvidia", "amd", "cpu"),
        multi=False,
        description="OpenMP offload target of the omp/ompx models (cpu: the host as a device)",
    )
    variant("ompx", default=True, description="LLVM OpenMP kernel mode model (clang >= 18, GPU offload)")
    variant("mpi", default=True, description="MPI (cgsolve slabs, xsbench_like lookups split over ranks)")
    variant("tests", default=False, description="Build the CTest suite")

    depends_on("c", type="build")
    depends_on("cmake@3.25:", type="build")
    depends_on("mpi", when="+mpi")
    # clang's OpenMP offload needs its own device runtime (libomptarget).
    depends_on("llvm@16: +clang", type="build", when="offload=nvidia %clang")
    depends_on("llvm@16: +clang", type="build", when="offload=amd %clang")

    # The OpenMP offload models need a GPU toolchain of the target's vendor.
    requires("+cuda", when="offload=nvidia", msg="offload=nvidia needs +cuda (ptxas, cuda_arch)")
    requires("+rocm", when="offload=amd", msg="offload=amd needs +rocm (device libraries, amdgpu_target)")
    conflicts("offload=nvidia", when="%gcc@:11", msg="GCC's OpenMP NVPTX offload needs gcc >= 12")
    conflicts("+ompx", when="%gcc offload=nvidia", msg="ompx (kernel mode) is an LLVM extension")
    conflicts("+ompx", when="%gcc offload=amd", msg="ompx (kernel mode) is an LLVM extension")
    conflicts("+ompx", when="offload=nvidia %clang@:17", msg="kernel mode needs clang >= 18")
    # CUDA 13 cubins cannot be loaded by libomptarget before LLVM 21 (llvm-project 159088).
    conflicts("^cuda@13:", when="offload=nvidia %clang@:20",
              msg="clang < 21 OpenMP NVPTX needs ptxas/nvlink from CUDA <= 12")

    def cmake_args(self):
        spec = self.spec
        onoff = lambda cond: "ON" if cond else "OFF"
        offload = spec.variants["offload"].value
        args = [
            self.define("PP_OFFLOAD", offload),
            self.define("PP_ENABLE_OMP", "OFF" if offload == "none" else "ON"),
            self.define("PP_ENABLE_OMPX", "AUTO" if spec.satisfies("+ompx") and offload != "none" else "OFF"),
            self.define("PP_ENABLE_CUDA", onoff(spec.satisfies("+cuda"))),
            self.define("PP_ENABLE_HIP", onoff(spec.satisfies("+rocm"))),
            self.define("PP_ENABLE_MPI", onoff(spec.satisfies("+mpi"))),
            self.define_from_variant("PP_BUILD_TESTS", "tests"),
        ]
        if spec.satisfies("+cuda"):
            archs = [a for a in spec.variants["cuda_arch"].value if a != "none"]
            if len(archs) != 1:
                raise InstallError("proxyport builds for one cuda_arch (e.g. cuda_arch=90)")
            args.append(self.define("PP_NVIDIA_ARCH", "sm_" + archs[0]))
            args.append(self.define("CMAKE_CUDA_COMPILER", spec["cuda"].prefix.bin.nvcc))
        if spec.satisfies("+rocm"):
            archs = [a for a in spec.variants["amdgpu_target"].value if a != "none"]
            if len(archs) != 1:
                raise InstallError("proxyport builds for one amdgpu_target (e.g. amdgpu_target=gfx90a)")
            args.append(self.define("PP_AMD_ARCH", archs[0]))
        return args

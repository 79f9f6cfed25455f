# The OpenMP offload compilers ProxyPort knows: one row each, read by
# cmake/Backends.cmake (and by tests/setup/compiler_table.cmake through real
# configures with each compiler id faked). docs/compilers.md says which rows
# were run and which are documented only.
#
# pp_offload_row(NAME
#   MATCH  <id>[:<banner regex>]...  CMake compiler id, optionally with a regex
#          its `--version` text must match (amdclang and Cray's clang before
#          CMake 3.28 are both "Clang"); rows are tried in order
#   TAG    build-tag stem: tag = <TAG>-<major version> (clang-19, gcc-12, ...)
#   MIN    lowest version of the row (VERSION_GREATER_EQUAL)
#   NVIDIA / AMD / INTEL / CPU  OpenMP offload flags (compile and link) per
#          PP_OFFLOAD target; empty: the compiler cannot target it. Placeholders:
#          @NV_ARCH@ sm_80, @NV_SM@ 80, @AMD_ARCH@ gfx90a, @HOST_ARCH@ x86_64,
#          @GCC_NV_ISA@ (GccOffload.cmake), @LLVM_LIB@ (the compiler's LLVM lib
#          or PP_OMP_RUNTIME_DIR), @PP_OMP_CUDA_PATH@. A flag whose placeholder
#          is empty is dropped; a flag written ?-flag=PATH only when PATH exists.
#   ARCH_NVIDIA  the architecture name in the record (default @NV_ARCH@)
#   NO_OFFLOAD   flags for every C file of a build without a GPU target
#   TUNED_NVIDIA flags the default build adds for NVIDIA (PP_OMP_TUNED=ON): the
#          standard-OpenMP speed-ups the compiler matrix measured and validated,
#          from version TUNED_MIN on (the flag sweep builds without them)
#   FIXES_NVIDIA / FIXES_AMD  flags every build for that target needs from version
#          FIXES_MIN on, tuned or not (what does not compile without them)
#   OMPX   lowest version that builds ompx (LLVM's kernel mode); empty: never
#   RUNTIME  llvm (libomp + libomptarget of the compiler's LLVM: rpath to it,
#          its ld.lld when present), libgomp, nvhpc, cce, intel
#   BANNER regex of the `--version` line that names the compiler (default:
#          the first non-empty line); BANNER_ENV: variables whose values are
#          appended to it (what picks the device where a module does)
#   CHECK  a function called as CHECK(<target>) before the flags are used
#   STATUS "run here" (built and run on this project's machines) or "documented"
#   DOC    where the flags come from)
macro(pp_offload_row name)
  cmake_parse_arguments(_r "" "TAG;MIN;NVIDIA;AMD;INTEL;CPU;ARCH_NVIDIA;NO_OFFLOAD;TUNED_NVIDIA;TUNED_MIN;FIXES_NVIDIA;FIXES_AMD;FIXES_MIN;OMPX;RUNTIME;BANNER;CHECK;STATUS;DOC"
                        "MATCH;BANNER_ENV" ${ARGN})
  list(APPEND PP_OFFLOAD_ROWS ${name})
  foreach(_f MATCH TAG MIN NVIDIA AMD INTEL CPU ARCH_NVIDIA NO_OFFLOAD TUNED_NVIDIA TUNED_MIN FIXES_NVIDIA FIXES_AMD FIXES_MIN OMPX RUNTIME BANNER BANNER_ENV CHECK STATUS DOC)
    set(PP_ROW_${name}_${_f} "${_r_${_f}}")
  endforeach()
endmacro()

set(PP_OFFLOAD_ROWS "")

# ROCm's LLVM (amdclang, PrgEnv-amd's cc). "ROCm compiler reference" and "ROCm
# OpenMP support" (rocm.docs.amd.com): amdclang takes clang's options,
# -fopenmp --offload-arch=gfx90a, and finds ROCm's own device libraries and
# libomptarget under /opt/rocm-<v>/llvm (no Debian --rocm-device-lib-path);
# "the ROCm compilers only build the x86 and AMDGPU targets": no NVPTX. Its
# version is its LLVM base (AMD clang 17.0.0 in ROCm 6.0/6.1, 18 in ROCm
# 6.2/6.3, 19 in 6.4): ompx (upstream kernel mode, clang >= 18) is assumed
# from that version, never run.
pp_offload_row(amdclang MATCH "Clang:AMD clang" TAG amdclang MIN 17
  AMD "-fopenmp --offload-arch=@AMD_ARCH@"
  CPU "-fopenmp -fopenmp-targets=@HOST_ARCH@-pc-linux-gnu -DPP_OFFLOAD_CPU=1"
  OMPX 18 RUNTIME llvm BANNER_ENV ROCM_PATH STATUS documented
  DOC "ROCm compiler reference; ROCm OpenMP support (rocm.docs.amd.com)")

# HPE Cray CCE's C compiler (PrgEnv-cray's cc): CMake >= 3.28 names it
# CrayClang, older CMake Clang with a "Cray clang" banner. "intro_openmp(7)"
# (cpe.ext.hpe.com): OpenMP is enabled with -fopenmp; the offload target is the
# loaded craype-accel-* module (craype-accel-nvidia80, craype-accel-amd-gfx90a,
# craype-accel-host), which the cc wrapper turns into its target flags and
# exports as CRAY_ACCEL_TARGET: checked, and recorded with the banner.
# "compiler_interop(7)": CCE's major version is its LLVM base's. CCE links its
# own OpenMP runtime; LLVM's kernel-mode extensions are not documented for it.
pp_offload_row(cce MATCH CrayClang "Clang:Cray clang" TAG cce MIN 15
  NVIDIA "-fopenmp" AMD "-fopenmp" CPU "-fopenmp -DPP_OFFLOAD_CPU=1"
  RUNTIME cce BANNER_ENV CRAY_ACCEL_TARGET CHECK pp_check_cray_accel STATUS documented
  DOC "HPE CCE man pages intro_openmp(7), compiler_interop(7); OLCF Frontier and NERSC Perlmutter user guides")

# Upstream LLVM: Debian's clang-16/19/22 here, the LLVM modules of the centres
# (clang 17-21). openmp.llvm.org "Offloading Support" / "OpenMP Command-Line
# Argument Reference": -fopenmp --offload-arch=<sm_XX|gfxXXX>,
# -fopenmp-targets=<host triple> for the host as a device. Debian's packages
# need the device runtime named (its bc file in LLVM 19's lib, added when it
# exists), and its ROCm 5.2 device libraries; a CUDA 13 ptxas needs clang >= 21
# or a legacy CUDA root (pp_check_clang_cuda, docs/toolchain.md). LLVM >= 20
# keeps one device runtime per triple (lib/<triple>/libomptarget-<gpu>.bc and
# libompdevice.a): Debian's clang-22 has none, scripts/llvm-offload builds it
# (PP_OMP_RUNTIME_DIR), and it is named when it exists (Backends.cmake gives
# the device link its libompdevice.a).
# -foffload-lto (tuned): device LTO optimizes the device runtime's worksharing
# loop with the kernel; clang-19 omp streaming kernels 1.2-1.6x faster, ompx
# unchanged, every cell validated (docs/performance.md#compilers).
# Fixes from clang 22 on: -fgnu-keywords, since its <ompx.h> includes <gpuintrin.h>,
# whose NVPTX part writes `asm`, a keyword C11 without GNU extensions does not have
# ("expected ')'"); -mcode-object-version=5, since its default ABI 6 needs ROCm >= 6.3's
# device libraries and Debian's ROCm 5.2 has ABI 4 and 5 only.
pp_offload_row(clang MATCH Clang TAG clang MIN 16 TUNED_NVIDIA "-foffload-lto" TUNED_MIN 19
  FIXES_NVIDIA "-fgnu-keywords" FIXES_AMD "-mcode-object-version=5" FIXES_MIN 22
  NVIDIA "-fopenmp --offload-arch=@NV_ARCH@ ?--libomptarget-nvptx-bc-path=@LLVM_LIB@/libomptarget-nvptx-@NV_ARCH@.bc ?--libomptarget-nvptx-bc-path=@LLVM_LIB@/nvptx64-nvidia-cuda/libomptarget-nvptx.bc --cuda-path=@PP_OMP_CUDA_PATH@"
  AMD "-fopenmp --offload-arch=@AMD_ARCH@ ?--rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode ?--libomptarget-amdgpu-bc-path=@LLVM_LIB@/amdgcn-amd-amdhsa/libomptarget-amdgpu.bc"
  CPU "-fopenmp -fopenmp-targets=@HOST_ARCH@-pc-linux-gnu -DPP_OFFLOAD_CPU=1"
  OMPX 18 RUNTIME llvm CHECK pp_check_clang_cuda STATUS "run here"
  DOC "openmp.llvm.org Offloading Support, OpenMP Command-Line Argument Reference")

# GCC with its offload compilers (gcc-N-offload-nvptx / -amdgcn). GCC's
# "Offloading" wiki and libgomp manual ("nvptx", "AMD Radeon (GCN)"):
# -foffload=nvptx-none|amdgcn-amdhsa, per-target options via -foffload-options;
# -foffload=disable builds no device code. The NVPTX ISA cap and the GCN
# arch check are GccOffload.cmake's. No kernel mode (an LLVM extension).
pp_offload_row(gcc MATCH GNU TAG gcc MIN 12
  NVIDIA "-fopenmp -foffload=nvptx-none -foffload-options=nvptx-none=-misa=@GCC_NV_ISA@ -foffload-options=-lm"
  ARCH_NVIDIA "@GCC_NV_ISA@ PTX, gcc"
  AMD "-fopenmp -foffload=amdgcn-amdhsa -foffload-options=amdgcn-amdhsa=-march=@AMD_ARCH@ -foffload-options=-lm"
  CPU "-fopenmp -foffload=disable -DPP_OFFLOAD_CPU=1 -DPP_OFFLOAD_HOST_FALLBACK=gcc"
  NO_OFFLOAD "-foffload=disable" RUNTIME libgomp CHECK pp_check_gcc_offload STATUS "run here"
  DOC "GCC libgomp manual (Offload-Target Specifics), gcc.gnu.org/wiki/Offloading")

# NVIDIA HPC SDK nvc (PrgEnv-nvidia's cc). "NVIDIA HPC Compilers User's Guide",
# "Using OpenMP" (docs.nvidia.com/hpc-sdk): -mp=gpu offloads target regions,
# -gpu=ccXY picks the compute capability, -mp=multicore runs them on the host
# (no host offload device: the initial device, as with GCC); -Minfo=mp reports
# what was offloaded. `nvc --version` starts with an empty line.
pp_offload_row(nvhpc MATCH NVHPC TAG nvhpc MIN 22.5
  NVIDIA "-mp=gpu -gpu=cc@NV_SM@"
  CPU "-mp=multicore -DPP_OFFLOAD_CPU=1 -DPP_OFFLOAD_HOST_FALLBACK=nvc"
  RUNTIME nvhpc BANNER "^nvc " STATUS documented
  DOC "NVIDIA HPC Compilers User's Guide, Using OpenMP")

# Intel oneAPI icx. "Intel oneAPI DPC++/C++ Compiler Developer Guide and
# Reference" (fiopenmp, fopenmp-targets): -fiopenmp -fopenmp-targets=spir64 for
# Intel GPUs, spir64_x86_64 for Intel CPUs as the device. No NVIDIA/AMD OpenMP
# offload is documented for icx.
pp_offload_row(icx MATCH IntelLLVM TAG icx MIN 2023.0
  INTEL "-fiopenmp -fopenmp-targets=spir64"
  CPU "-fiopenmp -fopenmp-targets=spir64_x86_64 -DPP_OFFLOAD_CPU=1"
  RUNTIME intel STATUS documented
  DOC "Intel oneAPI DPC++/C++ Compiler Developer Guide and Reference 2025.0: fiopenmp, fopenmp-targets")

# pp_offload_find_row(<out> <id> <version> <banner text>): the first row whose
# MATCH and MIN fit, or "" (not in the table). <out>_BELOW: the row whose id
# matched but whose MIN is above <version> (for the error message).
function(pp_offload_find_row out id version banner)
  set(below "")
  foreach(row ${PP_OFFLOAD_ROWS})
    foreach(m ${PP_ROW_${row}_MATCH})
      string(REGEX REPLACE ":.*" "" mid "${m}")
      set(re "")
      if(m MATCHES ":(.*)$")
        set(re "${CMAKE_MATCH_1}")
      endif()
      if(NOT mid STREQUAL id OR (re AND NOT banner MATCHES "${re}"))
        continue()
      endif()
      if(version VERSION_GREATER_EQUAL PP_ROW_${row}_MIN)
        set(${out} ${row} PARENT_SCOPE)
        set(${out}_BELOW "" PARENT_SCOPE)
        return()
      elseif(NOT below)
        set(below ${row})
      endif()
    endforeach()
  endforeach()
  set(${out} "" PARENT_SCOPE)
  set(${out}_BELOW "${below}" PARENT_SCOPE)
endfunction()

# pp_offload_expand(<out> <template>): the template's flags as a list, its
# placeholders replaced from the caller's NV_ARCH, NV_SM, AMD_ARCH, HOST_ARCH,
# GCC_NV_ISA, LLVM_LIB, PP_OMP_CUDA_PATH; empty placeholders drop their flag,
# ?-flags need their path.
function(pp_offload_expand out template)
  separate_arguments(tokens UNIX_COMMAND "${template}")
  set(flags "")
  foreach(t ${tokens})
    string(REGEX MATCHALL "@[A-Z_]+@" vars "${t}")
    set(keep ON)
    foreach(v ${vars})
      string(REPLACE "@" "" v "${v}")
      if("${${v}}" STREQUAL "")
        set(keep OFF)
      endif()
    endforeach()
    string(CONFIGURE "${t}" t @ONLY)
    if(t MATCHES "^\\?(.*=)?(.*)$")
      string(SUBSTRING "${t}" 1 -1 t)
      if(NOT EXISTS "${CMAKE_MATCH_2}")
        set(keep OFF)
      endif()
    endif()
    if(keep)
      list(APPEND flags "${t}")
    endif()
  endforeach()
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

# pp_offload_banner(<out> <row> <--version text>): the line that names the
# compiler, and the BANNER_ENV variables that are set.
function(pp_offload_banner out row text)
  string(REPLACE "\r" "" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(b "")
  set(re "${PP_ROW_${row}_BANNER}")
  foreach(l ${lines})
    string(STRIP "${l}" l)
    if(l AND (NOT re OR l MATCHES "${re}"))
      set(b "${l}")
      break()
    endif()
  endforeach()
  foreach(v ${PP_ROW_${row}_BANNER_ENV})
    if(DEFINED ENV{${v}})
      string(APPEND b "; ${v}=$ENV{${v}}")
    endif()
  endforeach()
  string(REPLACE "\"" "'" b "${b}")
  set(${out} "${b}" PARENT_SCOPE)
endfunction()

# ---- the rows' checks -------------------------------------------------------
# Cray: the craype-accel module must name the requested target; its cc
# wrapper, not a flag of ours, selects the device.
function(pp_check_cray_accel target)
  if(target STREQUAL "nvidia")
    set(want "nvidia${NV_SM}")
  elseif(target STREQUAL "amd")
    set(want "amd-${AMD_ARCH}")
  else()
    set(want "host")
  endif()
  if(NOT "$ENV{CRAY_ACCEL_TARGET}" STREQUAL want)
    message(FATAL_ERROR "PP_OFFLOAD=${target} with Cray CCE needs `module load craype-accel-${want}` "
      "(CRAY_ACCEL_TARGET is '$ENV{CRAY_ACCEL_TARGET}', expected '${want}'): the cc wrapper picks "
      "the OpenMP device from that module")
  endif()
endfunction()

# Upstream clang < 21 cannot load cubins from CUDA >= 13's ptxas (llvm-project
# issue 159088): it needs a legacy CUDA root (PP_OMP_CUDA_PATH).
# pp_clang_cuda_blocked(<out>): why clang cannot offload to NVIDIA here, or "".
function(pp_clang_cuda_blocked out)
  set(${out} "" PARENT_SCOPE)
  if(PP_OMP_CUDA_PATH OR NOT CMAKE_C_COMPILER_VERSION VERSION_LESS 21 OR NOT EXISTS /usr/local/cuda/bin/nvcc)
    return()
  endif()
  execute_process(COMMAND /usr/local/cuda/bin/nvcc --version OUTPUT_VARIABLE nvv)
  if(nvv MATCHES "release ([0-9]+)\\." AND CMAKE_MATCH_1 GREATER_EQUAL 13)
    string(CONCAT why "OpenMP NVPTX offload with clang ${CMAKE_C_COMPILER_VERSION} and CUDA ${CMAKE_MATCH_1} "
      "needs ptxas/nvlink from CUDA <= 12: set PP_OMP_CUDA_PATH (scripts/cuda-legacy-root builds one "
      "in .toolchain/cuda-legacy)")
    set(${out} "${why}" PARENT_SCOPE)
  endif()
endfunction()
function(pp_check_clang_cuda target)
  if(target STREQUAL "nvidia")
    pp_clang_cuda_blocked(why)
    if(why)
      message(FATAL_ERROR "${why}")
    endif()
  endif()
endfunction()

# The generic path: the user's flags must build (and link) an OpenMP program;
# for the cpu target it runs, and without an offload device the omp model uses
# the initial device, as with GCC (PP_OFFLOAD_HOST_FALLBACK, named in the report).
function(pp_offload_probe_generic target flags out)
  set(src ${CMAKE_BINARY_DIR}/CMakeFiles/pp_omp_probe.c)
  file(WRITE ${src} "#include <omp.h>\n#include <stdio.h>\n"
    "static void region(int *x) {\n#pragma omp target teams distribute parallel for map(tofrom: x[0:1])\n"
    "  for (int i = 0; i < 1; i++) x[0] = 1;\n}\n"
    "int main(int argc, char **argv) {\n  int x = 0;\n  (void)argv;\n  if (argc > 9) region(&x); /* built, not run */\n"
    "  printf(\"devices=%d\\n\", omp_get_num_devices());\n  return x;\n}\n")
  if(target STREQUAL "cpu")
    try_run(run_rc build_ok ${CMAKE_BINARY_DIR}/CMakeFiles/pp_omp_probe ${src}
      COMPILE_DEFINITIONS ${flags} LINK_OPTIONS ${flags}
      COMPILE_OUTPUT_VARIABLE log RUN_OUTPUT_VARIABLE run_out)
  else()
    try_compile(build_ok ${CMAKE_BINARY_DIR}/CMakeFiles/pp_omp_probe ${src}
      COMPILE_DEFINITIONS ${flags} LINK_OPTIONS ${flags} OUTPUT_VARIABLE log)
    set(run_rc 0)
  endif()
  if(NOT build_ok)
    message(FATAL_ERROR "PP_OMP_OFFLOAD_FLAGS '${PP_OMP_OFFLOAD_FLAGS}' do not build an OpenMP target "
      "program with ${CMAKE_C_COMPILER}:\n${log}")
  endif()
  if(NOT run_rc EQUAL 0)
    message(FATAL_ERROR "PP_OMP_OFFLOAD_FLAGS '${PP_OMP_OFFLOAD_FLAGS}': an OpenMP program built with "
      "them failed (exit ${run_rc}): ${run_out}")
  endif()
  if(target STREQUAL "cpu" AND run_out MATCHES "devices=0")
    list(APPEND flags -DPP_OFFLOAD_HOST_FALLBACK=PP_OMP_OFFLOAD_FLAGS)
  endif()
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/GccOffload.cmake)

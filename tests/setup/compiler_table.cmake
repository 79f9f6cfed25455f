# The OpenMP offload compiler table (cmake/OffloadCompilers.cmake), exercised
# the way Backends.cmake uses it: a real configure of the project per case with
# the compiler id faked (tests/setup/compiler_table.sh, tests/setup/toolchains/fake_id.cmake:
# a script printing the vendor's --version banner). Each case checks the
# configure summary against the flags the vendor documents, written out here,
# not read from the table: a wrong row fails. Label: compilers (and unit).
set(CT_SH ${CMAKE_CURRENT_LIST_DIR}/compiler_table.sh)
set(CT_WORK ${CMAKE_CURRENT_BINARY_DIR}/ctable)
set(CT_HOST ${CMAKE_HOST_SYSTEM_PROCESSOR})

# regex of a literal string
function(ct_literal out s)
  string(REGEX REPLACE "([][+.*()^$?{}|\\\\])" "\\\\\\1" s "${s}")
  set(${out} "${s}" PARENT_SCOPE)
endfunction()

# ct_case(NAME ID VERSION BANNER TAG ROW FLAGS [LINK link-adds] [OMPX yes|no-reason]
#         [OPTS --debian-llvm|--preset P ...] [ARGS cmake args...] [ENV VAR=v...]
#         [NEEDS PATH PACKAGE])
# passes when the summary names TAG and ROW and prints exactly FLAGS; with NEEDS,
# FLAGS hold what the table adds where PATH exists, and the case is skipped (77,
# with the reason) where it does not, when the test runs: an optional package
# missing is not a failure.
function(ct_case name id version banner tag row flags)
  cmake_parse_arguments(C "" "LINK;OMPX" "OPTS;ARGS;ENV;NEEDS" ${ARGN})
  ct_literal(f "${flags}")
  ct_literal(t "${tag}")
  set(re "omp compiler +${t}: table row ${row} \\(\nomp flags +${f}$")
  if(DEFINED C_LINK)
    ct_literal(l "${C_LINK}")
    string(APPEND re "\nomp link adds +${l}$")
  endif()
  if(C_OMPX)
    ct_literal(o "${C_OMPX}")
    string(APPEND re "\nompx[[:space:]]+${o}")
  endif()
  set(needs)
  if(C_NEEDS)
    set(needs ${PP_HARNESS}/needs.sh ${C_NEEDS})
  endif()
  pp_test(ctable_${name} LABELS unit compilers EXPECT 0 "${re}" ENV ${C_ENV}
    COMMAND ${needs} ${CT_SH} ${PROJECT_SOURCE_DIR} ${CT_WORK}/${name} "${id}" "${version}" "${banner}" ${C_OPTS} -- ${C_ARGS})
  if(C_NEEDS)
    set_tests_properties(ctable_${name} PROPERTIES SKIP_RETURN_CODE 77)
  endif()
endfunction()

# ct_refused(NAME ID VERSION BANNER REGEX [ARGS ...] [ENV ...]): configure must fail with REGEX.
function(ct_refused name id version banner re)
  cmake_parse_arguments(C "" "" "ARGS;ENV" ${ARGN})
  pp_test(ctable_${name} LABELS unit compilers EXPECT 1 "${re}" ENV ${C_ENV}
    COMMAND ${CT_SH} ${PROJECT_SOURCE_DIR} ${CT_WORK}/${name} "${id}" "${version}" "${banner}" -- ${C_ARGS})
endfunction()

set(B_DEBIAN19 "Debian clang version 19.1.7 (3~deb12u1)\\nTarget: x86_64-pc-linux-gnu")
set(B_DEBIAN22 "Debian clang version 22.1.8 (1~deb12u1)\\nTarget: x86_64-pc-linux-gnu")
set(B_LLVM21 "clang version 21.1.0\\nTarget: x86_64-unknown-linux-gnu")
set(B_LLVM17 "clang version 17.0.6\\nTarget: x86_64-unknown-linux-gnu")
set(B_AMD17 "AMD clang version 17.0.0 (roc-6.0.0)\\nTarget: x86_64-unknown-linux-gnu")
set(B_AMD18 "AMD clang version 18.0.0 (roc-6.2.0)\\nTarget: x86_64-unknown-linux-gnu")
set(B_CCE "Cray clang version 17.0.1\\nTarget: x86_64-unknown-linux-gnu")
set(B_NVC "\\nnvc 24.5-0 64-bit target on x86-64 Linux -tp zen3\\nNVIDIA Compilers and Tools")
set(B_ICX "Intel(R) oneAPI DPC++/C++ Compiler 2024.1.0 (2024.1.0.20240308)")
set(B_GCC "gcc (GCC) 12.3.0 20230607 (HPE)")
set(NV80 -DPP_OFFLOAD=nvidia -DPP_NVIDIA_ARCH=sm_80)

# ---- upstream clang (run here: Debian's 16 and 19; LLVM module builds documented)
# Debian's layout: the device runtime named, the legacy CUDA root, its ld.lld.
# The tuned flag (PP_OMP_TUNED, default ON): -foffload-lto for NVIDIA from clang 19
# on (measured faster and validated on the H100); not below 19, not with OFF.
set(R ${CT_WORK}/clang_nvidia_debian/root)
ct_case(clang_nvidia_debian Clang 19.1.7 ${B_DEBIAN19} clang-19 clang
  "-fopenmp --offload-arch=sm_80 --libomptarget-nvptx-bc-path=${R}/lib/libomptarget-nvptx-sm_80.bc --cuda-path=/opt/cuda-legacy -foffload-lto"
  LINK "-fuse-ld=lld -Wl,-rpath,${R}/lib" OMPX "yes (offload to nvidia, sm_80, flat blocks)"
  OPTS --debian-llvm ARGS ${NV80} -DPP_OMP_CUDA_PATH=/opt/cuda-legacy)
set(R ${CT_WORK}/clang_nvidia_untuned/root)
ct_case(clang_nvidia_untuned Clang 19.1.7 ${B_DEBIAN19} clang-19 clang
  "-fopenmp --offload-arch=sm_80 --libomptarget-nvptx-bc-path=${R}/lib/libomptarget-nvptx-sm_80.bc --cuda-path=/opt/cuda-legacy"
  OPTS --debian-llvm ARGS ${NV80} -DPP_OMP_CUDA_PATH=/opt/cuda-legacy -DPP_OMP_TUNED=OFF)
ct_case(clang17_nvidia_untuned Clang 17.0.6 ${B_LLVM17} clang-17 clang
  "-fopenmp --offload-arch=sm_80 --cuda-path=/opt/cuda-legacy" ARGS ${NV80} -DPP_OMP_CUDA_PATH=/opt/cuda-legacy)
# An LLVM module (perlmutter-llvm): finds its own device runtime.
ct_case(clang_nvidia_module Clang 21.1.0 ${B_LLVM21} clang-21 clang "-fopenmp --offload-arch=sm_80 -foffload-lto"
  LINK "-Wl,-rpath,${CT_WORK}/clang_nvidia_module/root/lib" OPTS --preset perlmutter-llvm)
# Debian's ROCm device libraries (rocm-device-libs), looked for when the test runs: its
# expectation was fixed at configure, so a build configured with them and tested
# without them failed instead of saying what is missing. clang-22's AMD case takes the
# same --rocm-device-lib-path from the table, so it needs them too.
set(_amd_libs /usr/lib/x86_64-linux-gnu/amdgcn/bitcode)
set(_amd "-fopenmp --offload-arch=gfx90a --rocm-device-lib-path=${_amd_libs}")
ct_case(clang_amd Clang 19.1.7 ${B_DEBIAN19} clang-19 clang "${_amd}"
  ARGS -DPP_OFFLOAD=amd NEEDS ${_amd_libs} rocm-device-libs)
# Debian's clang-22 with the runtime of scripts/llvm-offload (PP_OMP_RUNTIME_DIR): the device
# runtime named for the compile and its archive for the device link, CUDA 13's ptxas (no legacy
# root), -fgnu-keywords for its <ompx.h>; ompx blocks of two dimensions unless PP_OMPX_GRID=flat,
# which tags the build +ompx1d.
set(RT ${CT_WORK}/clang22_nvidia_runtime/rt)
ct_case(clang22_nvidia_runtime Clang 22.1.8 ${B_DEBIAN22} clang-22 clang
  "-fopenmp --offload-arch=sm_80 --libomptarget-nvptx-bc-path=${RT}/lib/nvptx64-nvidia-cuda/libomptarget-nvptx.bc -fgnu-keywords -foffload-lto"
  LINK "-Xoffload-linker -L${RT}/lib/nvptx64-nvidia-cuda -Wl,-rpath,${RT}/lib" OMPX "yes (offload to nvidia, sm_80, multi blocks)"
  OPTS --llvm-runtime ARGS ${NV80} -DPP_OMP_RUNTIME_DIR=${RT}/lib)
set(RT ${CT_WORK}/clang22_amd_runtime/rt)
ct_case(clang22_amd_runtime Clang 22.1.8 ${B_DEBIAN22} clang-22 clang
  "${_amd} --libomptarget-amdgpu-bc-path=${RT}/lib/amdgcn-amd-amdhsa/libomptarget-amdgpu.bc -mcode-object-version=5"
  LINK "-Xoffload-linker -L${RT}/lib/amdgcn-amd-amdhsa -Wl,-rpath,${RT}/lib" OMPX "yes (offload to amd, gfx90a, multi blocks)"
  OPTS --llvm-runtime ARGS -DPP_OFFLOAD=amd -DPP_OMP_RUNTIME_DIR=${RT}/lib NEEDS ${_amd_libs} rocm-device-libs)
pp_test(ctable_clang22_flat LABELS unit compilers
  EXPECT 0 "omp banner +Debian clang version 22\\.1\\.8 \\(1~deb12u1\\); OpenMP runtime [^ ]*/clang22_flat/rt/lib$\nbuild tag +clang-22\\+ompx1d$\nompx[[:space:]]+yes \\(offload to nvidia, sm_80, flat blocks\\)"
  COMMAND ${CT_SH} ${PROJECT_SOURCE_DIR} ${CT_WORK}/clang22_flat Clang 22.1.8 ${B_DEBIAN22} --llvm-runtime --
    ${NV80} -DPP_OMP_RUNTIME_DIR=${CT_WORK}/clang22_flat/rt/lib -DPP_OMPX_GRID=flat)
ct_case(clang_cpu Clang 17.0.6 ${B_LLVM17} clang-17 clang
  "-fopenmp -fopenmp-targets=${CT_HOST}-pc-linux-gnu -DPP_OFFLOAD_CPU=1"
  OMPX "no (not available with clang-17 (LLVM kernel mode needs clang >= 18))" ARGS -DPP_OFFLOAD=cpu)
ct_refused(clang15_below Clang 15.0.7 "clang version 15.0.7" "the C compiler \\(Clang 15\\.0\\.7, 'clang version 15\\.0\\.7'\\)" ARGS -DPP_OFFLOAD=cpu)
if(EXISTS /usr/local/cuda/bin/nvcc)
  execute_process(COMMAND /usr/local/cuda/bin/nvcc --version OUTPUT_VARIABLE _nvv)
  if(_nvv MATCHES "release ([0-9]+)\\." AND CMAKE_MATCH_1 GREATER_EQUAL 13)
    ct_refused(clang19_cuda13_no_legacy Clang 19.1.7 ${B_DEBIAN19} "OpenMP NVPTX offload with clang 19\\.1\\.7 and CUDA 1[3-9]" ARGS ${NV80})
  endif()
endif()

# ---- ROCm's amdclang (a Clang id; its banner says AMD): documented only
ct_case(amdclang_amd Clang 17.0.0 ${B_AMD17} amdclang-17 amdclang "-fopenmp --offload-arch=gfx90a"
  LINK "-Wl,-rpath,${CT_WORK}/amdclang_amd/root/lib"
  OMPX "no (not available with amdclang-17 (LLVM kernel mode needs amdclang >= 18))" OPTS --preset frontier-amd)
ct_case(amdclang18_ompx Clang 18.0.0 ${B_AMD18} amdclang-18 amdclang "-fopenmp --offload-arch=gfx90a"
  OMPX "yes (offload to amd, gfx90a, flat blocks)" ARGS -DPP_OFFLOAD=amd)
ct_refused(amdclang_nvidia Clang 17.0.0 ${B_AMD17} "amdclang-17 has no OpenMP offload to nvidia" ARGS ${NV80})

# ---- HPE Cray CCE: the craype-accel module picks the device (documented only)
ct_case(cce_amd CrayClang 17.0.1 ${B_CCE} cce-17 cce "-fopenmp" OPTS --preset frontier-cray
  ENV CRAY_ACCEL_TARGET=amd-gfx90a)
ct_case(cce_as_clang_nvidia Clang 17.0.1 ${B_CCE} cce-17 cce "-fopenmp" ARGS ${NV80} ENV CRAY_ACCEL_TARGET=nvidia80)
ct_refused(cce_wrong_accel CrayClang 17.0.1 ${B_CCE} "PP_OFFLOAD=nvidia with Cray CCE needs `module load craype-accel-nvidia80`\n'amd-gfx90a', expected 'nvidia80'"
  ARGS ${NV80} ENV CRAY_ACCEL_TARGET=amd-gfx90a)
# the banner records the module's target
pp_test(ctable_cce_banner LABELS unit compilers ENV CRAY_ACCEL_TARGET=amd-gfx90a
  EXPECT 0 "omp banner +Cray clang version 17\\.0\\.1; CRAY_ACCEL_TARGET=amd-gfx90a$"
  COMMAND ${CT_SH} ${PROJECT_SOURCE_DIR} ${CT_WORK}/cce_banner CrayClang 17.0.1 ${B_CCE} -- -DPP_OFFLOAD=amd)

# ---- NVIDIA HPC SDK nvc (documented only); its banner's first line is empty
ct_case(nvhpc_nvidia NVHPC 24.5 ${B_NVC} nvhpc-24 nvhpc "-mp=gpu -gpu=cc80"
  OMPX "no (not available with nvhpc-24 (LLVM kernel mode extension))" OPTS --preset perlmutter-nvhpc)
ct_case(nvhpc_cpu NVHPC 24.5 ${B_NVC} nvhpc-24 nvhpc "-mp=multicore -DPP_OFFLOAD_CPU=1 -DPP_OFFLOAD_HOST_FALLBACK=nvc"
  ARGS -DPP_OFFLOAD=cpu)
pp_test(ctable_nvhpc_banner LABELS unit compilers EXPECT 0 "omp banner +nvc 24\\.5-0 64-bit target on x86-64 Linux -tp zen3$"
  COMMAND ${CT_SH} ${PROJECT_SOURCE_DIR} ${CT_WORK}/nvhpc_banner NVHPC 24.5 ${B_NVC} -- ${NV80})
ct_refused(nvhpc_amd NVHPC 24.5 ${B_NVC} "nvhpc-24 has no OpenMP offload to amd" ARGS -DPP_OFFLOAD=amd)
# The check can fail: the documented flags for sm_80 are not those for sm_90.
ct_case(nvhpc_wrong_expectation NVHPC 24.5 ${B_NVC} nvhpc-24 nvhpc "-mp=gpu -gpu=cc90" ARGS ${NV80})
set_tests_properties(ctable_nvhpc_wrong_expectation PROPERTIES WILL_FAIL TRUE)

# ---- Intel icx (documented only)
ct_case(icx_intel IntelLLVM 2024.1.0 ${B_ICX} icx-2024 icx "-fiopenmp -fopenmp-targets=spir64" ARGS -DPP_OFFLOAD=intel)
ct_case(icx_cpu IntelLLVM 2024.1.0 ${B_ICX} icx-2024 icx "-fiopenmp -fopenmp-targets=spir64_x86_64 -DPP_OFFLOAD_CPU=1"
  ARGS -DPP_OFFLOAD=cpu)
ct_refused(icx_nvidia IntelLLVM 2024.1.0 ${B_ICX} "icx-2024 has no OpenMP offload to nvidia" ARGS ${NV80})

# ---- GCC (run here: gcc-12); the PTX ISA is capped at sm_80
ct_case(gcc_nvidia GNU 12.3.0 ${B_GCC} gcc-12 gcc
  "-fopenmp -foffload=nvptx-none -foffload-options=nvptx-none=-misa=sm_80 -foffload-options=-lm"
  OMPX "no (not available with gcc-12 (LLVM kernel mode extension))" OPTS --preset perlmutter-gnu)
ct_case(gcc_nvidia_sm90 GNU 12.3.0 ${B_GCC} gcc-12 gcc
  "-fopenmp -foffload=nvptx-none -foffload-options=nvptx-none=-misa=sm_80 -foffload-options=-lm" ARGS -DPP_OFFLOAD=nvidia)
ct_case(gcc_cpu GNU 12.3.0 ${B_GCC} gcc-12 gcc "-fopenmp -foffload=disable -DPP_OFFLOAD_CPU=1 -DPP_OFFLOAD_HOST_FALLBACK=gcc"
  ARGS -DPP_OFFLOAD=cpu)
ct_case(gcc_amd_fiji GNU 12.3.0 ${B_GCC} gcc-12 gcc
  "-fopenmp -foffload=amdgcn-amdhsa -foffload-options=amdgcn-amdhsa=-march=fiji -foffload-options=-lm"
  ARGS -DPP_OFFLOAD=amd -DPP_AMD_ARCH=fiji)
ct_refused(gcc12_gfx90a GNU 12.3.0 ${B_GCC} "gcc-12's GCN offload cannot target gfx90a" ARGS -DPP_OFFLOAD=amd)

# ---- a compiler outside the table: refused without PP_OMP_OFFLOAD_FLAGS
ct_refused(unknown_no_flags - 1.0 "mycc 1.0"
  "PP_OFFLOAD=cpu: the C compiler \\(unknown 1\\.0, 'mycc 1\\.0'\\)\nGive its flags: -DPP_OMP_OFFLOAD_FLAGS='\\.\\.\\.' \\(the generic path\\)"
  ARGS -DPP_OFFLOAD=cpu)
ct_refused(generic_no_target - 1.0 "mycc 1.0" "PP_OMP_OFFLOAD_FLAGS is set: name the target they build for"
  ARGS -DPP_OMP_OFFLOAD_FLAGS=-fopenmp)

# The presets of the centres stay listable (their machines are not here).
pp_test(ctable_presets_listed LABELS unit compilers
  EXPECT 0 "\"perlmutter-gnu\"\n\"perlmutter-nvhpc\"\n\"perlmutter-llvm\"\n\"frontier-cray\"\n\"frontier-amd\""
  COMMAND sh -c "cd '${PROJECT_SOURCE_DIR}' && cmake --list-presets")

# ---- the generic path, built and run: gcc-12 with no CMake id (so no table
# row), its flags from PP_OMP_OFFLOAD_FLAGS, on the cpu target
# (tests/setup/compiler_table_generic.sh). Bad flags are refused at configure (a fresh one:
# a folder kept from an earlier run may name a toolchain file that has moved).
find_program(CT_GCC12 gcc-12)
if(CT_GCC12)
  add_test(NAME ctable_generic_gcc12 COMMAND ${CMAKE_CURRENT_LIST_DIR}/compiler_table_generic.sh
    ${PROJECT_SOURCE_DIR} ${CT_WORK}/generic_gcc12 ${CT_GCC12})
  set_tests_properties(ctable_generic_gcc12 PROPERTIES LABELS "validate;compilers" ENVIRONMENT "${PP_TEST_ENV}" TIMEOUT 900)
  pp_test(ctable_generic_bad_flags LABELS unit compilers
    EXPECT 1 "PP_OMP_OFFLOAD_FLAGS '-fopenmp -fno-such-flag' do not build\nunrecognized command-line option"
    COMMAND cmake --fresh -S ${PROJECT_SOURCE_DIR} -B ${CT_WORK}/generic_bad --toolchain ${CMAKE_CURRENT_LIST_DIR}/toolchains/unknown_id.cmake
      -DCMAKE_C_COMPILER=${CT_GCC12} -DPP_OFFLOAD=cpu "-DPP_OMP_OFFLOAD_FLAGS=-fopenmp -fno-such-flag"
      -DPP_BUILD_TESTS=OFF -DPP_ENABLE_CUDA=OFF -DPP_ENABLE_HIP=OFF -DPP_ENABLE_MPI=OFF)
endif()

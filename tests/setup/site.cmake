# The site files (site/*.toml, schema site/schema.json) and their reader
# (validate/pptools/site): tests/tools/test_site.py says what each checks. The
# configure summary's reason for each model that is off. The centre route as a
# user without root, compilers from modules only (tests/setup/noroot_modules.sh; skipped
# without root or Lmod).
pp_pytest(tools_site MODULE test_site.py LABELS unit TIMEOUT 60)

# Configure says why a model is off, for every compiler (real compilers, configure only).
set(SITE_CFG ${CMAKE_CURRENT_LIST_DIR}/site_configure.sh)
set(SITE_CFG_WORK ${CMAKE_CURRENT_BINARY_DIR}/site-configure)
set(_off -DPP_ENABLE_MPI=OFF -DPP_ENABLE_HIP=OFF)
find_program(PP_TEST_GCC NAMES gcc-12 gcc)
if(PP_TEST_GCC)
  # GCC under PP_OFFLOAD=auto: omp is off, and the summary says why and what to set
  pp_test(configure_why_gcc_omp LABELS unit
    EXPECT 0 "omp\t+ no \\(PP_OFFLOAD=auto picks a target for upstream clang only; with gcc-[0-9]+ name one: -DPP_OFFLOAD=cpu\\|nvidia\\|amd\ncuda\t+ no \\(PP_ENABLE_CUDA=OFF( in this build's configure \\(its preset or -D\\), though nvcc is at [^;]+; an NVIDIA preset builds cuda)?\\)\nmpi\t+ no \\(PP_ENABLE_MPI=OFF\\)"
    COMMAND ${SITE_CFG} ${PROJECT_SOURCE_DIR} ${SITE_CFG_WORK}/gcc -DCMAKE_C_COMPILER=${PP_TEST_GCC} -DPP_ENABLE_CUDA=OFF ${_off})
  set_tests_properties(configure_why_gcc_omp PROPERTIES TIMEOUT 120)
endif()
find_program(PP_TEST_CLANG19 clang-19)
if(PP_TEST_CLANG19 AND EXISTS /usr/local/cuda/bin/nvcc)
  execute_process(COMMAND /usr/local/cuda/bin/nvcc --version OUTPUT_VARIABLE _nvv)
  if(_nvv MATCHES "release ([0-9]+)\\." AND CMAKE_MATCH_1 GREATER_EQUAL 13)
    # a plain configure with clang-19 while CUDA 13 is installed: offload to the
    # CPU with the reason, not a failure (it failed before)
    pp_test(configure_auto_clang19_cuda13 LABELS unit slow
      EXPECT 0 "omp target +PP_OFFLOAD=auto chose cpu, not nvidia: OpenMP NVPTX offload with clang 19[.0-9]* and CUDA 1[3-9]\nomp\t+ yes \\(offload to cpu"
      COMMAND ${SITE_CFG} ${PROJECT_SOURCE_DIR} ${SITE_CFG_WORK}/clang19 -DCMAKE_C_COMPILER=${PP_TEST_CLANG19} ${_off})
    set_tests_properties(configure_auto_clang19_cuda13 PROPERTIES TIMEOUT 120)
  endif()
endif()

# Non-root, module-only: configure, build and a small suite from a site file as
# uid 65534 with compilers only from Lmod modules; about 40 s on 2 cores.
pp_test(noroot_modules COMMAND ${CMAKE_CURRENT_LIST_DIR}/noroot_modules.sh LABELS noroot)
set_tests_properties(noroot_modules PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# scripts/setup downloads the legacy CUDA root (84 MB) only for a build that needs it:
# never for cpu; for an NVIDIA preset with clang-19 and CUDA >= 13 it must try (apt-get
# trapped, empty PP_TOOLCHAIN: the attempt is seen, nothing is fetched).
pp_test(noroot_setup_cpu_no_download COMMAND ${CMAKE_CURRENT_LIST_DIR}/noroot_setup_download.sh cpu none
        LABELS unit)
set_tests_properties(noroot_setup_cpu_no_download PROPERTIES TIMEOUT 60)
# scripts/llvm-offload (LLVM 22's offload runtime) refuses bad usage and a tarball of another
# sha256, and stops in one line without root (nothing downloaded, nothing built).
pp_test(llvm_offload_refusals COMMAND ${CMAKE_CURRENT_LIST_DIR}/llvm_offload.sh LABELS unit)
set_tests_properties(llvm_offload_refusals PROPERTIES TIMEOUT 120)
if(PP_TEST_CLANG19 AND _nvv MATCHES "release (1[3-9]|[2-9][0-9])\\.")
  pp_test(noroot_setup_sm90_tries_download COMMAND ${CMAKE_CURRENT_LIST_DIR}/noroot_setup_download.sh nvidia-sm90 download
          LABELS unit)
  set_tests_properties(noroot_setup_sm90_tries_download PROPERTIES TIMEOUT 60)
endif()

# scripts/setup and scripts/run read their paths as every tool does: relative to the
# current folder (a site file there was "no such file": setup resolved it in the
# repository); /dev/zero and a FIFO are "not a regular file" (were "no such file");
# an empty --preset is refused (it built the cpu preset) and --install-deps with
# --no-install contradict each other (the last one won). --deps-only: no build.
set(_setup ${PROJECT_SOURCE_DIR}/scripts/setup)
set(_sdir ${CMAKE_CURRENT_BINARY_DIR}/setup-cwd)
file(WRITE ${_sdir}/s.toml "format = \"proxyport-site/1\"\n[site]\nname = \"cwd\"\n[[build]]\nname = \"a\"\npreset = \"cpu\"\n")
file(REMOVE ${_sdir}/site.fifo)
execute_process(COMMAND mkfifo ${_sdir}/site.fifo)
pp_test(setup_site_relative COMMAND ${_setup} --site s.toml --deps-only
  EXPECT 0 "setup: site cwd, build a: preset cpu \\(PP_SITE_FILE=.*/setup-cwd/s\\.toml\\)" LABELS unit input)
set_tests_properties(setup_site_relative PROPERTIES WORKING_DIRECTORY ${_sdir})
foreach(row "setup_site_dev_zero|${_setup}|--site|/dev/zero|setup: --site '/dev/zero': not a regular file"
            "setup_site_fifo|${_setup}|--site|${_sdir}/site.fifo|setup: --site '.*/site.fifo': not a regular file"
            "setup_site_missing|${_setup}|--site|${_sdir}/none.toml|site: site file .*/none.toml: no such file \\(a path is relative to the current folder"
            "setup_preset_empty|${_setup}|--preset=|--deps-only|--no-install|setup: --preset '': empty preset"
            "setup_install_contradiction|${_setup}|--install-deps|--no-install|--deps-only|setup: --install-deps and --no-install contradict each other"
            "run_site_dev_zero|${PROJECT_SOURCE_DIR}/scripts/run|--site|/dev/zero|run: --site '/dev/zero': not a regular file")
  pp_case_split("${row}" name args re)
  pp_test(${name} COMMAND ${args} EXPECT 2 "^${re}" LABELS unit input)
  set_tests_properties(${name} PROPERTIES TIMEOUT 60)
endforeach()

# The centre route through its own module names: an Lmod tree of stand-ins for
# PrgEnv-gnu, cudatoolkit, craype-accel-nvidia80 (Perlmutter) and PrgEnv-amd, rocm,
# craype-accel-amd-gfx90a (Frontier); scripts/setup --site site/<centre>.toml builds
# microbench with the module's cc for the centre's GPU and a host run records the
# modules (tests/setup/centre_modules.sh; skipped without Lmod or the compilers; ~40 s each).
foreach(centre perlmutter frontier)
  pp_test(centre_${centre}_modules COMMAND ${CMAKE_CURRENT_LIST_DIR}/centre_modules.sh ${centre} LABELS centre)
  set_tests_properties(centre_${centre}_modules PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()

# The GNU route on a GPU node (validate/gnu-route.sh): its commands, and a one-line
# refusal where no NVIDIA GPU answers (a stub nvidia-smi that fails, as on this CI box).
pp_test(gnu_route_dry_run COMMAND ${PROJECT_SOURCE_DIR}/validate/gnu-route.sh --dry-run LABELS unit
  EXPECT 0 "^cmake --preset perlmutter-gnu -B build/gnu-route -DCMAKE_C_COMPILER=gcc-12 -DPP_NVIDIA_ARCH=sm_90 -DPP_ENABLE_MPI=OFF -DPP_BUILD_TESTS=OFF
^cmake --build build/gnu-route -j [0-9]+
^validate/warnings-gate build/gnu-route/gnu-route.log
^validate/gpu-check.sh build/gnu-route/bin$")
set(_nosmi ${CMAKE_CURRENT_BINARY_DIR}/gnu-route-stubs)
file(WRITE ${_nosmi}/nvidia-smi "#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n")
file(CHMOD ${_nosmi}/nvidia-smi PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
     WORLD_READ WORLD_EXECUTE)
pp_test(gnu_route_no_gpu LABELS unit
  EXPECT 2 "^gnu-route: no NVIDIA GPU answers nvidia-smi here: run it on a GPU node"
  COMMAND sh -c "PATH=\"$0:$PATH\" exec \"$@\"" ${_nosmi} ${PROJECT_SOURCE_DIR}/validate/gnu-route.sh)

# A quiet build (issue 46): the CI gate over build logs (validate/warnings-gate and
# its allowlist .ci/warnings-allow.toml), and the warnings fixed in the tree kept away.
pp_pytest(tools_warnings_gate MODULE test_warnings_gate.py LABELS unit TIMEOUT 60)

# GCC's -Wformat-truncation in testsnap/main.c (the texts of the variant and check
# columns), which GCC 12 finds at -O1 and -Os: none.
find_program(PP_TEST_GCC NAMES gcc-12 gcc)
if(PP_TEST_GCC)
  add_test(NAME quiet_gcc_testsnap_main COMMAND ${PP_EXPECT} --absent "warning:" 0 "^compiled$" --
    sh -c "for o in -O1 -Os -O3; do \"$0\" $o -Wall -Wextra -fopenmp -foffload=disable -std=c11 -DPP_HAVE_OMP=1 -I\"$1/testsnap\" -I\"$1/common/include\" -c \"$1/testsnap/main.c\" -o /dev/null 2>&1 || exit 1; done && echo compiled"
    ${PP_TEST_GCC} ${PROJECT_SOURCE_DIR})
  set_tests_properties(quiet_gcc_testsnap_main PROPERTIES LABELS unit TIMEOUT 120)
endif()

# libomp on the host as the offload device, OMP_NUM_THREADS above the processors:
# no "Cannot form a team with N threads" (thread_limit(PP_OMP_TL(...)), pp/omp_device.h),
# in the generic loops (microbench) and the sorted variants' radix sort (xsbench_like).
if(PP_OFFLOAD STREQUAL "cpu" AND PP_HAVE_OMP)
  cmake_host_system_information(RESULT _procs QUERY NUMBER_OF_LOGICAL_CORES)
  math(EXPR _over "${_procs} + 11")
  set(_fast --warmup 0 --samples 2 --bootstrap 0 --ceiling-mib 8)
  add_test(NAME quiet_omp_oversubscribed_microbench COMMAND ${PP_EXPECT} --absent "Cannot form a team|OMP: Warning"
    0 "triad +omp .* PASS" -- $<TARGET_FILE:microbench> --backend omp --size 4096 --kernels triad ${_fast})
  add_test(NAME quiet_omp_oversubscribed_xsbench_sorted COMMAND ${PP_EXPECT} --absent "Cannot form a team|OMP: Warning"
    0 "omp sorted-energy: PASS" -- $<TARGET_FILE:xsbench_like> -s small -l 10000
    --variant sorted-material,sorted-energy --backend omp ${_fast})
  set_tests_properties(quiet_omp_oversubscribed_microbench quiet_omp_oversubscribed_xsbench_sorted PROPERTIES
    LABELS unit TIMEOUT 300 ENVIRONMENT "OMP_TARGET_OFFLOAD=MANDATORY;OMP_NUM_THREADS=${_over}")
endif()

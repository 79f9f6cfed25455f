# validate/compile-facts: its parsers on captured compiler output (tests/fixtures/facts),
# a real sm_90 compile of one kernel file (clang-19 + the legacy ptxas; skipped
# when either is missing), and, in an NVIDIA build, the facts of the build itself.
set(CF ${PROJECT_SOURCE_DIR}/validate/compile-facts)
pp_pytest(tools_facts MODULE test_facts.py SELECT "not real" LABELS unit TIMEOUT 60)
pp_pytest(tools_facts_real_nvptx MODULE test_facts.py SELECT real LABELS unit TIMEOUT 300)
# Bad input: one line, exit 2.
pp_test(facts_not_build COMMAND python3 ${CF} ${CMAKE_CURRENT_SOURCE_DIR}
  EXPECT 2 "compile-facts: .*not a configured CMake build folder" LABELS unit input)
pp_test(facts_bad_app COMMAND python3 ${CF} ${CMAKE_BINARY_DIR} --apps nosuch
  EXPECT 2 "--apps nosuch: unknown app" LABELS unit input)
if(PP_OFFLOAD STREQUAL "nvidia" AND PP_HAVE_OMPX)
  # Every ompx kernel file compiled without LTO: no variable globalized
  # through the device runtime, which bare kernels never set up.
  pp_test(ompx_no_globalization COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/ompx_globalization.py ${CMAKE_BINARY_DIR}
    EXPECT 0 "ompx globalization: [0-9]+ files, 0 globalized variables" LABELS unit)
endif()
if(PP_OFFLOAD STREQUAL "nvidia")
  pp_test(facts_build COMMAND python3 ${CF} ${CMAKE_BINARY_DIR} --apps microbench --out ${CMAKE_CURRENT_BINARY_DIR}/facts.json
    EXPECT 0 "microbench +cuda +triad +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+/[0-9]+" LABELS unit)
elseif(PP_OFFLOAD STREQUAL "cpu")
  pp_test(facts_cpu_build COMMAND python3 ${CF} ${CMAKE_BINARY_DIR} --apps microbench
    EXPECT 0 "not available: OpenMP offload to the host CPU" LABELS unit)
  # The miniFE library's kernel files are spmv's (the app whose link holds them).
  pp_test(facts_minife_is_spmv COMMAND python3 ${CF} ${CMAKE_BINARY_DIR} --apps spmv
    EXPECT 0 "^minife/kernels/omp.c \\(omp\\): not available" LABELS unit)
endif()

# The ReFrame checks (validate/reframe): their JSON reading without ReFrame,
# then, where ReFrame is installed (validate/reframe/install.sh; else skipped),
# that the five checks load, and that spmv's check passes on this build and
# fails on a planted fault (a row that does not validate).
set(RF ${CMAKE_CURRENT_SOURCE_DIR}/reframe_check.sh)
set(RF_OUT ${CMAKE_CURRENT_BINARY_DIR}/reframe)
pp_test(reframe_rows COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_reframe_rows.py LABELS unit)
pp_test(reframe_list COMMAND ${RF} ${RF_OUT}/list -l LABELS unit
        EXPECT 0 "microbench_check %model=host %case=small\nspmv_check %model=omp %case=reference\ncgsolve_check\nxsbench_like_check\ntestsnap_check")
# the build fixture and spmv on host and omp; a build without omp (host-gcc) skips that one
if(PP_TEST_MODELS MATCHES "omp")
  set(rf_ran "PASSED .*Ran 3/3 test case")
else()
  set(rf_ran "PASSED .*Ran 2/3 test case.*[(]0 failure.*, 1 skipped")
endif()
pp_test(reframe_spmv_small COMMAND ${RF} ${RF_OUT}/pass -r -t small -n spmv_check
        LABELS validate EXPECT 0 "${rf_ran}" ENV PP_BUILD_DIR=${PROJECT_BINARY_DIR})
pp_test(reframe_spmv_fault COMMAND ${RF} ${RF_OUT}/fault -r -t small -n spmv_check -S inject_fault=spmv-y
        LABELS validate fault ENV PP_BUILD_DIR=${PROJECT_BINARY_DIR}
        EXPECT 1 "spmv host: exit code 1 .*1 of 1 host row\\(s\\) not validated: spmv@10")
set_tests_properties(reframe_list reframe_spmv_small reframe_spmv_fault PROPERTIES SKIP_RETURN_CODE 77)
# The documented site configs load and offer each site's models (Lmod replaced
# by no module system here).
pp_test(reframe_perlmutter_config COMMAND ${RF} ${RF_OUT}/perlmutter --system perlmutter -l -t reference
        LABELS unit ENV PP_RFM_SITE=perlmutter PP_RFM_MODULES=nomod
        EXPECT 0 "microbench_check %model=ompx %case=reference\ntestsnap_check %model=cuda %case=reference\nFound 20 check")
pp_test(reframe_frontier_config COMMAND ${RF} ${RF_OUT}/frontier --system frontier -l -t reference
        LABELS unit ENV PP_RFM_SITE=frontier PP_RFM_MODULES=nomod
        EXPECT 0 "microbench_check %model=ompx %case=reference\ntestsnap_check %model=hip %case=reference\nFound 20 check")
set_tests_properties(reframe_perlmutter_config reframe_frontier_config PROPERTIES SKIP_RETURN_CODE 77)

# The batch jobs of validate/batch: they parse and pass shellcheck (where
# installed); a task refuses a build with MPI (the suite runs each app alone).
pp_test(batch_scripts_lint COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/batch_lint.sh LABELS unit)
if(PP_HAVE_MPI)
  pp_test(batch_task_refuses_mpi_build COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/../validate/batch/suite-task
          LABELS unit ENV PP_BIN=${PROJECT_BINARY_DIR}/bin PP_RESULTS=${CMAKE_CURRENT_BINARY_DIR}/batch
          EXPECT 2 "built with MPI .*-DPP_ENABLE_MPI=OFF")
endif()

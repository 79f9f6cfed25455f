# validate/omp-profile: LLVM's offload profile (LIBOMPTARGET_PROFILE) summarized per target
# region, on captured traces (tests/fixtures/omp-profile) and bad input; and live where
# LLVM's runtime runs the omp model on the host: microbench's dot regions (one
# PP_OMP_GRID_REDUCE region each: no worksharing loop at its top, so no trip count) must come
# out as one group with the result's transfer back (the runtime's trace format and this
# reader agree).
pp_pytest(tools_omp_profile MODULE test_omp_profile.py LABELS unit TIMEOUT 60)
if(PP_HAVE_OMP AND PP_OFFLOAD STREQUAL "cpu")
  pp_test(omp_profile_live COMMAND ${CMAKE_CURRENT_LIST_DIR}/omp_profile_live.sh
    ${PROJECT_SOURCE_DIR}/validate/omp-profile $<TARGET_FILE:microbench>
    EXPECT 0 "\n +12 +[0-9.]+ .* args 7, trip 0, teams [0-9]+ \\(.*d2h 8B" LABELS unit)
  set_tests_properties(omp_profile_live PROPERTIES TIMEOUT 120)
endif()

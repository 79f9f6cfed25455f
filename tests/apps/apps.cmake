# Every app's generic tests, from its manifest (<app>/app.toml [tests]: its small
# run, the row of its planted ROW-missed fault), so that a new app has them without
# a tests/apps/<app>.cmake. An app's own file may define one of these names first: its
# own form of the test, which this one then leaves out. The others generated per
# app: schema_<app> (schema.cmake), energy_unit_<app> (energy.cmake),
# outputs_closed_stdout_<app> (session.cmake), version_<app> (packaging.cmake).
foreach(app ${PP_APPS})
  if(NOT TARGET ${app})
    continue()
  endif()
  pp_app_get(row ${app} tests.missed)
  if(NOT row)
    message(FATAL_ERROR "${app}/app.toml: no [tests] missed (the row whose planted ROW-missed must fail)")
  endif()
  set(exe $<TARGET_FILE:${app}>)
  pp_app_args(small ${app} tests.small)
  pp_app_fast(fast ${app})
  # the smoke run: its small run on every model that runs here, validated
  if(NOT TEST ${app}_validate)
    pp_test(${app}_validate COMMAND ${exe} ${small} --backend ${PP_TEST_MODELS} ${fast} LABELS validate)
  endif()
  # the planted ROW-missed (pp/measure.h): no run of the row, whose poisoned result must fail
  pp_app_get(fail ${app} tests.missed_fail)
  if(fail)
    set(fail " ${fail}")
  endif()
  if(NOT TEST ${app}_fault_missed)
    pp_test(${app}_fault_missed COMMAND ${exe} ${small} --backend host ${fast} --inject-fault ${row}-missed
      EXPECT 1 "${row} +host .*FAIL${fail}" LABELS validate)
  endif()
  # a fault it cannot plant is refused at start-up
  if(NOT TEST ${app}_fault_unknown)
    pp_test(${app}_fault_unknown COMMAND ${exe} ${small} --backend host ${fast} --inject-fault no-such-fault
      EXPECT 2 "^${app}: --inject-fault: 'no-such-fault' is not a fault ${app} can plant" LABELS unit)
    set_tests_properties(${app}_fault_unknown PROPERTIES TIMEOUT 30)
  endif()
  if(NOT TEST ${app}_help)
    pp_test(${app}_help COMMAND ${exe} --help EXPECT 0 "--backend LIST.*" LABELS unit)
  endif()
  if(NOT TEST ${app}_bad_option)
    pp_test(${app}_bad_option COMMAND ${exe} --frobnicate EXPECT 2 "unknown option '--frobnicate'" LABELS unit input)
  endif()
endforeach()

# The manifests themselves: each in the TOML subset both readers share, with the keys the
# tools know, read alike by tomllib, by pptools/apps.py and by CMake (its reading, dumped
# here at configure time); planted bad ones refused by both readers.
set(_dump ${CMAKE_CURRENT_BINARY_DIR}/app_manifests_cmake.txt)
pp_manifest_dump(${_dump})
pp_test(app_manifests COMMAND python3 -m pptools.apps check --cmake ${_dump}
  EXPECT 0 "app manifests: [0-9]+ read, [0-9]+ keys, .*the same as CMake" LABELS unit
  ENV PYTHONPATH=${PROJECT_SOURCE_DIR}/validate)
pp_test(app_manifest_planted COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/app_manifest_planted.sh ${PROJECT_SOURCE_DIR}
  ${CMAKE_CURRENT_BINARY_DIR}/app_manifest_planted
  EXPECT 0 "every planted manifest refused by both readers" LABELS unit)
set_tests_properties(app_manifests app_manifest_planted PROPERTIES TIMEOUT 60)

# The proof that a new app is its folder and a line of apps.txt: in a copy of the source
# tree, microbench copied to newbench and one line added to apps.txt, nothing else; the
# copy configures and builds, newbench has its generated tests, and the suite, gpu-check
# and scaling-run plan it (tests/apps/new_app.sh says what each checks).
pp_test(new_app_from_copy COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/new_app.sh ${PROJECT_SOURCE_DIR}
  ${PROJECT_BINARY_DIR}/bin ${CMAKE_CURRENT_BINARY_DIR}/new_app ${CMAKE_C_COMPILER}
  ENV CMAKE=${CMAKE_COMMAND} CTEST=${CMAKE_CTEST_COMMAND} LABELS unit)
# 77: a source tarball (no git file list to copy the tree from)
set_tests_properties(new_app_from_copy PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77)
set_property(TEST new_app_from_copy APPEND PROPERTY LABELS slow) # a configure and build of its own

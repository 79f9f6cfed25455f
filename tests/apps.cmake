# The manifests themselves: each in the TOML subset both readers share, with the keys the
# tools know, read alike by tomllib, by pptools/apps.py and by CMake (its reading, dumped
# here at configure time); planted bad ones refused by both readers.
set(_dump ${CMAKE_CURRENT_BINARY_DIR}/app_manifests_cmake.txt)
pp_manifest_dump(${_dump})
pp_test(app_manifests COMMAND python3 -m pptools.apps check --cmake ${_dump}
  EXPECT 0 "app manifests: [0-9]+ read, [0-9]+ keys, .*the same as CMake" LABELS unit
  ENV PYTHONPATH=${PROJECT_SOURCE_DIR}/validate)
pp_test(app_manifest_planted COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/app_manifest_planted.sh ${PROJECT_SOURCE_DIR}
  ${CMAKE_CURRENT_BINARY_DIR}/app_manifest_planted
  EXPECT 0 "every planted manifest refused by both readers" LABELS unit)
set_tests_properties(app_manifests app_manifest_planted PROPERTIES TIMEOUT 60)

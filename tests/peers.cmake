# The peers step (validate/peers, suite --peers): the public codes beside ProxyPort
# by the same method. On planted programs (tests/peers_fake.py), no GPU:
# tests/peers_check.py says what each checks.
set(PP_PEERS_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/peers_check.py)
foreach(t method clean faults usage devtime optional)
  pp_test(peers_${t} COMMAND python3 ${PP_PEERS_CHECK} ${t} LABELS unit)
  # clean/faults: 74 planted processes each (51 timed, 23 profiled), 15 s on a 2-core machine at load 2
  set_tests_properties(peers_${t} PROPERTIES TIMEOUT 120)
endforeach()
# the CUPTI kernel-time library compiled and loaded where cupti.h is; skipped (77) elsewhere
pp_test(peers_ktlib COMMAND python3 ${PP_PEERS_CHECK} ktlib LABELS unit)
set_tests_properties(peers_ktlib PROPERTIES TIMEOUT 60 SKIP_RETURN_CODE 77)
# suite --peers: the step inside a suite run (a --fast microbench run of this build)
pp_test(peers_suite COMMAND python3 ${PP_PEERS_CHECK} suite ${PROJECT_BINARY_DIR}/bin LABELS unit)
set_tests_properties(peers_suite PROPERTIES TIMEOUT 180)

# The peers step (validate/peers, suite --peers): the public codes beside ProxyPort
# by the same method. On planted programs (tests/peers_fake.py), no GPU:
# tests/peers_check.py says what each checks.
set(PP_PEERS_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/peers_check.py)
foreach(t method clean faults usage)
  pp_test(peers_${t} COMMAND python3 ${PP_PEERS_CHECK} ${t} LABELS unit)
  # clean/faults: 36 planted processes each, 26-30 s on a 2-core machine at load 16
  set_tests_properties(peers_${t} PROPERTIES TIMEOUT 120)
endforeach()
# suite --peers: the step inside a suite run (a --fast microbench run of this build)
pp_test(peers_suite COMMAND python3 ${PP_PEERS_CHECK} suite ${PROJECT_BINARY_DIR}/bin LABELS unit)
set_tests_properties(peers_suite PROPERTIES TIMEOUT 180)

# The peers step (validate/peers, suite --peers): the public codes beside ProxyPort
# by the same method. On planted programs (tests/fakes/peers_fake.py), no GPU:
# tests/tools/test_peers.py says what each checks.
# the arithmetic, the readers, the whole step clean and with faults planted, usage, the
# kernel-time file, optional builds: 2 x 74 planted processes (51 timed, 23 profiled),
# about 60 s on a 2-core machine at load 2
pp_pytest(tools_peers MODULE test_peers.py SELECT "not kernel_time_library and not suite_peers" LABELS unit slow TIMEOUT 300)
# the CUPTI kernel-time library compiled and loaded where cupti.h is; skipped elsewhere
pp_pytest(tools_peers_ktlib MODULE test_peers.py SELECT kernel_time_library LABELS unit TIMEOUT 60)
# suite --peers: the step inside a suite run (a --fast microbench run of this build)
pp_pytest(tools_peers_suite MODULE test_peers.py SELECT suite_peers LABELS unit slow TIMEOUT 180)

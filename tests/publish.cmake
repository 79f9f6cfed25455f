# validate/publish.sh (the published reference run): every step on stand-in
# binaries, a failing step reported and the others still run; bad usage.
pp_test(publish_standins COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/publish_test.sh ${PROJECT_SOURCE_DIR}
        ${CMAKE_CURRENT_BINARY_DIR}/publish_test
        EXPECT 0 "publish_test: every step ran, the failure was reported" LABELS unit)
# the published cases, in the order publish.sh runs them (apps.txt's)
set(_steps "refs/run.sh .*"
  "microbench .*--size 2\\^24,2\\^26"
  ".*spmv .*n150.deck"
  ".*cgsolve .*n255.deck"
  ".*xsbench_like .*--variant all"
  ".*testsnap .*W_2J14_2000_disp"
  ".*gpu-check.sh")
list(JOIN _steps "\n" _steps)
pp_test(publish_dry_run COMMAND ${PROJECT_SOURCE_DIR}/validate/publish.sh --dry-run out
        EXPECT 0 "${_steps}" LABELS unit)
pp_test(publish_bad_option COMMAND ${PROJECT_SOURCE_DIR}/validate/publish.sh --fast out
        EXPECT 2 "publish.sh: unknown option --fast" LABELS unit input)
# validate/gpu-check.sh --dry-run: every app's checks (its manifest's [gpu_check] lines), nothing run.
pp_test(gpu_check_dry_run COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/gpu_check_plan.sh ${PROJECT_SOURCE_DIR}
        EXPECT 0 "gpu_check_plan: every app planned, nothing run" LABELS unit)

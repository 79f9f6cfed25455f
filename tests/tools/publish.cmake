# validate/publish.sh (the published reference run): every step on stand-in
# binaries, a failing step reported and the others still run; bad usage.
pp_test(publish_standins COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/publish_test.sh ${PROJECT_SOURCE_DIR}
        ${CMAKE_CURRENT_BINARY_DIR}/publish_test
        EXPECT 0 "publish_test: every step ran, the failure was reported" LABELS unit slow)
# the published steps, in the order publish.sh runs them
set(_steps "python3 validate/suite --bin build/nvidia-sm90/bin --scale reference --out out$"
  "sh -c python3 validate/suite --bin 'build/nvidia-sm90/bin' --scale reference --no-energy --out 'out/no-energy'"
  "python3 validate/peers --refs .refs --bin build/nvidia-sm90/bin --out out/peers"
  "sh -c validate/gpu-check.sh .*"
  "sh -c python3 validate/energy-check .*--kernels triad --size 2\\^28 --tpb 256 .*--energy-min-s 20 ")
list(JOIN _steps "\n" _steps)
pp_test(publish_dry_run COMMAND ${PROJECT_SOURCE_DIR}/validate/publish.sh --dry-run out
        EXPECT 0 "${_steps}" LABELS unit)
pp_test(publish_bad_option COMMAND ${PROJECT_SOURCE_DIR}/validate/publish.sh --fast out
        EXPECT 2 "publish.sh: unknown option --fast" LABELS unit input)
# validate/gpu-check.sh --dry-run: every app's checks (its manifest's [gpu_check] lines), nothing run.
pp_test(gpu_check_dry_run COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpu_check_plan.sh ${PROJECT_SOURCE_DIR}
        EXPECT 0 "gpu_check_plan: every app planned, nothing run" LABELS unit)
# The GPU node's scripts answer --help and refuse an unknown option (--help was taken for the
# binaries' folder and ran the sweep on it)
foreach(s gpu-check gpu-run)
  pp_test(${s}_help COMMAND sh ${PROJECT_SOURCE_DIR}/validate/${s}.sh --help EXPECT 0 "Usage: validate/${s}.sh" LABELS unit)
  pp_test(${s}_unknown COMMAND sh ${PROJECT_SOURCE_DIR}/validate/${s}.sh --bogus a b
    EXPECT 2 "^${s}: unknown option '--bogus' \\(see --help\\)" LABELS unit)
endforeach()

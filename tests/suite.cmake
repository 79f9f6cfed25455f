# The suite run (validate/suite, what scripts/run runs) and its run rules
# (RUNRULES.md): tests/suite_test.py says what each checks.
set(PP_SUITE_TEST ${CMAKE_CURRENT_SOURCE_DIR}/suite_test.py)
set(PP_SUITE_OUT ${CMAKE_CURRENT_BINARY_DIR}/suite-small)
pp_test(suite_refusals COMMAND python3 ${PP_SUITE_TEST} refusals ${PROJECT_BINARY_DIR}/bin LABELS unit)
# 77: built from a source tarball, no git history to clone trees from
set_tests_properties(suite_refusals PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
pp_test(suite_small_run COMMAND python3 ${PP_SUITE_TEST} run ${PROJECT_BINARY_DIR}/bin ${PP_SUITE_OUT}
        LABELS validate)
pp_test(suite_reportable_after COMMAND python3 ${PP_SUITE_TEST} after ${PP_SUITE_OUT} LABELS validate)
# the summary's work per joule, on a copy of that run with planted energy
pp_test(suite_energy_summary COMMAND python3 ${PP_SUITE_TEST} energy ${PP_SUITE_OUT} LABELS validate)
# that run's figures: matplotlib is optional, so without it this is skipped (77) with
# the reason, and suite_small_run checks that each app says why it has none
pp_test(suite_small_figures COMMAND python3 ${PP_SUITE_TEST} figures ${PP_SUITE_OUT} LABELS validate)
# ... and a copy summarized where matplotlib does not import: checked, figures skipped
# (suite_small_run's figure checks failed there before: a missing option is no failure)
pp_test(suite_small_no_matplotlib COMMAND python3 ${PP_SUITE_TEST} no-matplotlib ${PP_SUITE_OUT} LABELS validate)
# suite_small_run: 93 s on a busy 2-core machine (load average 8-9);
# 300 s leaves room for a busier one and fails a run that blocks.
set_tests_properties(suite_small_run PROPERTIES FIXTURES_SETUP suite_small TIMEOUT 300)
set_tests_properties(suite_reportable_after suite_energy_summary suite_small_figures suite_small_no_matplotlib
  PROPERTIES FIXTURES_REQUIRED suite_small)
set_tests_properties(suite_small_no_matplotlib PROPERTIES TIMEOUT 120)
set_tests_properties(suite_small_figures PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)
set_tests_properties(suite_energy_summary PROPERTIES TIMEOUT 120)
# The summary's ratio to a published row of another size than the headline's (synthetic rows).
pp_test(suite_summary_published COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_suite_summary.py LABELS unit)
# Batch jobs' own logs (Slurm/Flux --output, PBS NAME.oID) are ignored by git: a
# job never dirties the tree a later reportable run checks; the twin must fail.
pp_test(batch_outputs_ignored COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/batch_outputs.sh LABELS unit)
pp_test(batch_outputs_planted COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/batch_outputs.sh
  ${CMAKE_CURRENT_SOURCE_DIR}/batch-outputs/unignored.sbatch LABELS unit)
set_tests_properties(batch_outputs_planted PROPERTIES WILL_FAIL TRUE)
set_tests_properties(batch_outputs_ignored batch_outputs_planted PROPERTIES TIMEOUT 30 SKIP_RETURN_CODE 77)
# The summary's figures (log axis past a 10x span, no text outside the figure) and the
# smoke-test word of a CPU-scale run (a --fast spmv run of the suite).
pp_test(suite_summary_figures COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/test_suite_figures.py
        ${PROJECT_BINARY_DIR}/bin ${CMAKE_CURRENT_BINARY_DIR}/suite-figures LABELS unit)
set_tests_properties(suite_summary_figures PROPERTIES TIMEOUT 60 SKIP_RETURN_CODE 77)

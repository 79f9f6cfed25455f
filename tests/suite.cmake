# The suite run (validate/suite, what scripts/run runs) and its run rules
# (RUNRULES.md): tests/tools/test_suite_*.py say what each checks.
include(pytest.cmake)
# --reportable's refusals before a run; skipped in a source tarball (no git history to clone trees from)
pp_pytest(tools_suite_refusals MODULE test_suite_refusals.py LABELS unit TIMEOUT 120)
# a --fast small run of every app, then the reportable checks and the work per joule on
# copies of it: the run 93 s on a busy 2-core machine (load average 8-9); 400 s leaves
# room for a busier one and fails a run that blocks
pp_pytest(tools_suite_run MODULE test_suite_run.py LABELS validate TIMEOUT 400)
# The summary's ratio to a published row of another size than the headline's (synthetic rows).
pp_pytest(tools_suite_summary MODULE test_suite_summary.py SELECT "not figure and not small_run" LABELS unit TIMEOUT 60)
# The summary's figures (log axis past a 10x span, no text outside the figure) and the
# smoke-test word of a CPU-scale run (a --fast spmv run of the suite); skipped without matplotlib.
pp_pytest(tools_suite_figures MODULE test_suite_summary.py SELECT "figure or small_run" LABELS unit TIMEOUT 120)
# Batch jobs' own logs (Slurm/Flux --output, PBS NAME.oID) are ignored by git: a
# job never dirties the tree a later reportable run checks; the twin must fail.
pp_test(batch_outputs_ignored COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/batch_outputs.sh LABELS unit)
pp_test(batch_outputs_planted COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/batch_outputs.sh
  ${CMAKE_CURRENT_SOURCE_DIR}/batch-outputs/unignored.sbatch LABELS unit)
set_tests_properties(batch_outputs_planted PROPERTIES WILL_FAIL TRUE)
set_tests_properties(batch_outputs_ignored batch_outputs_planted PROPERTIES TIMEOUT 30 SKIP_RETURN_CODE 77)
# The one layer that combines repeats (pptools/runset.py: the summary's, portability's and the peers' medians).
pp_pytest(tools_runset MODULE test_runset.py LABELS unit TIMEOUT 60)

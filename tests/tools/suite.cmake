# The suite run (validate/suite, what scripts/run runs) and its run rules
# (RUNRULES.md): tests/tools/test_suite_*.py say what each checks.
# --reportable's refusals before a run; skipped in a source tarball (no git history to clone trees from)
pp_pytest(tools_suite_refusals MODULE test_suite_refusals.py LABELS unit slow TIMEOUT 120)
# a --fast small run of every app, then the reportable checks and the work per joule on
# copies of it: the run 93 s on a busy 2-core machine (load average 8-9); 400 s leaves
# room for a busier one and fails a run that blocks. Without matplotlib (optional) each
# app's summary says why it has no figure, and the figure checks are skipped.
set(_suite_small ${CMAKE_CURRENT_BINARY_DIR}/tools/tools_suite_run/suite-small)
pp_pytest(tools_suite_run MODULE test_suite_run.py SELECT "not small_figures and not no_matplotlib"
  LABELS validate TIMEOUT 400)
# that run's figures: matplotlib is optional, so without it every case is skipped with
# the reason and the test reports skipped
pp_pytest(tools_suite_small_figures MODULE test_suite_run.py SELECT small_figures ARGS --pp-suite-run ${_suite_small}
  LABELS validate TIMEOUT 60)
# ... and a copy summarized where matplotlib does not import: checked, figures skipped
# (the small run's figure checks failed there before: a missing option is no failure)
pp_pytest(tools_suite_small_no_matplotlib MODULE test_suite_run.py SELECT no_matplotlib
  ARGS --pp-suite-run ${_suite_small} LABELS validate TIMEOUT 120)
set_tests_properties(tools_suite_run PROPERTIES FIXTURES_SETUP suite_small)
set_tests_properties(tools_suite_small_figures tools_suite_small_no_matplotlib PROPERTIES FIXTURES_REQUIRED suite_small)
# The summary's ratio to a published row of another size than the headline's (synthetic rows).
pp_pytest(tools_suite_summary MODULE test_suite_summary.py SELECT "not figure and not small_run" LABELS unit TIMEOUT 60)
# The summary's figures (log axis past a 10x span, no text outside the figure) and the
# smoke-test word of a CPU-scale run (a --fast spmv run of the suite); skipped without matplotlib.
pp_pytest(tools_suite_figures MODULE test_suite_summary.py SELECT "figure or small_run" LABELS unit slow TIMEOUT 120)
# Batch jobs' own logs (Slurm/Flux --output, PBS NAME.oID) are ignored by git: a
# job never dirties the tree a later reportable run checks; the twin must fail.
pp_test(batch_outputs_ignored COMMAND ${CMAKE_CURRENT_LIST_DIR}/batch_outputs.sh LABELS unit)
pp_test(batch_outputs_planted COMMAND ${CMAKE_CURRENT_LIST_DIR}/batch_outputs.sh
  ${PP_FIXTURES}/batch-outputs/unignored.sbatch LABELS unit)
set_tests_properties(batch_outputs_planted PROPERTIES WILL_FAIL TRUE)
set_tests_properties(batch_outputs_ignored batch_outputs_planted PROPERTIES TIMEOUT 30 SKIP_RETURN_CODE 77)
# The one layer that combines repeats (pptools/runset.py: the summary's, portability's and the peers' medians).
pp_pytest(tools_runset MODULE test_runset.py LABELS unit TIMEOUT 60)

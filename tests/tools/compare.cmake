# validate/compare, the A/B comparison of result files: synthetic runs with
# known time ratios and run-to-run variation (tests/fixtures/make_compare_runs.py) must
# be called exactly as planted, one run a side never; bad input exits 2; two
# committed real runs compare without a crash.
set(CMP ${PROJECT_SOURCE_DIR}/validate/compare)
set(CMPD ${CMAKE_CURRENT_BINARY_DIR}/compare)
# a fixture of the tests below, not a test
pp_fixture(compare_make_runs compare_runs COMMAND python3 ${PP_FIXTURES}/make_compare_runs.py ${CMPD})

# Sets of runs with run-to-run variation (runs/NAME-1..5.json, 5 processes each).
set(_base ${CMPD}/runs/base-1.json ${CMPD}/runs/base-2.json ${CMPD}/runs/base-3.json ${CMPD}/runs/base-4.json
  ${CMPD}/runs/base-5.json)
string(REPLACE "/base-" "/same-" _same "${_base}")
string(REPLACE "/base-" "/slow10-" _slow "${_base}")
# A planted 10% slowdown, 5 runs a side: every row a regression, exit 1.
pp_test(compare_regression COMMAND python3 ${CMP} --base ${_base} --new ${_slow}
  EXPECT 1 "compare: 6 rows compared in 1 comparison\\(s\\): 6 regression\\(s\\), 0 improvement\\(s\\), 0 not enough" LABELS unit)
# Two draws of the same distribution: run-to-run variation alone, nothing called, exit 0.
pp_test(compare_noise COMMAND python3 ${CMP} --base ${_base} --new ${_same}
  EXPECT 0 "compare: 6 rows compared in 1 comparison\\(s\\): 0 regression\\(s\\), 0 improvement" LABELS unit)
# A 10% improvement is reported but is no failure.
pp_test(compare_improvement COMMAND python3 ${CMP} --base ${_slow} --new ${_base}
  EXPECT 0 ": 0 regression\\(s\\), 6 improvement\\(s\\)" LABELS unit)
# One run a side: the ratio (1.1), no verdict, exit 0, however large the change.
pp_test(compare_one_run COMMAND python3 ${CMP} ${CMPD}/base.json ${CMPD}/slow10.json
  EXPECT 0 "synthetic +c +omp +1024 +1:1 +[0-9.]+ ms +[0-9.]+ ms +1\\.1[0-9]+ +- +not enough runs to call\n.*: 0 regression\\(s\\), 0 improvement\\(s\\), 6 not enough runs to call"
  LABELS unit)
# One run against five: still no verdict (no variance of the lone side).
pp_test(compare_one_run_vs_five COMMAND python3 ${CMP} --base ${CMPD}/runs/base-1.json --new ${_slow}
  EXPECT 0 ": 0 regression\\(s\\), 0 improvement\\(s\\), 6 not enough runs to call" LABELS unit)
# --baseline picks the reference among positional files: base against slow10 is 0.9x.
pp_test(compare_baseline COMMAND python3 ${CMP} --baseline ${CMPD}/slow10.json ${CMPD}/base.json ${CMPD}/slow10.json
  EXPECT 0 "synthetic +a +host +1024 +1:1 +[0-9.]+ [mu]?s +[0-9.]+ [mu]?s +0\\.9[0-9]+ +- +not enough runs to call" LABELS unit)
# A row that failed validation in any run fails the comparison, named.
pp_test(compare_invalid COMMAND python3 ${CMP} ${CMPD}/base.json ${CMPD}/invalid.json
  EXPECT 1 "INVALID invalid.json: synthetic b omp 1024" LABELS unit)
# Two models inside the same 5 files (omp planted at 2x host): each file a run of each model.
pp_test(compare_models COMMAND python3 ${CMP} --models host,omp ${_base}
  EXPECT 1 "a +omp/host +1024 +5:5 +[0-9.]+ [mu]?s +[0-9.]+ [mu]?s +2\\.0[0-9]+ +\\[[0-9.]+, [0-9.]+\\] +regression" LABELS unit)
# ... and in one file: a ratio, not a verdict.
pp_test(compare_models_one_run COMMAND python3 ${CMP} --models host,omp ${CMPD}/base.json
  EXPECT 0 "a +omp/host +1024 +1:1 +[0-9.]+ ms +[0-9.]+ ms +2\\.0[0-9]+ +- +not enough runs to call" LABELS unit)
# The Markdown report holds the rows and their verdicts (cat runs when compare exits non-zero).
# (the report path travels as $0 and the command as "$@": a ";" would split the CMake argument)
pp_test(compare_markdown COMMAND sh -c "\"$@\" --quiet --markdown \"$0\" >/dev/null || cat \"$0\""
  ${CMPD}/report.md python3 ${CMP} --base ${_base} --new ${_slow}
  EXPECT 0 "^\\| synthetic \\| c \\| omp \\| 1024 \\|  \\| 5:5 \\| [0-9.]+ ms \\| [0-9.]+ ms \\| 1\\.[0-9]+ \\| \\[1\\.[0-9]+, 1\\.[0-9]+\\] \\| \\*\\*regression\\*\\* \\|$"
  LABELS unit)
# --png writes figures, or says why not (matplotlib is optional).
pp_test(compare_png COMMAND python3 ${CMP} --quiet --png ${CMPD}/fig --base ${_slow} --new ${_base}
  EXPECT 0 "(--png skipped: matplotlib is not installed|wrote .*fig-1\\.png)" LABELS unit)
set_tests_properties(compare_regression compare_noise compare_improvement compare_one_run compare_one_run_vs_five
  compare_baseline compare_invalid compare_models compare_models_one_run compare_markdown compare_png
  PROPERTIES FIXTURES_REQUIRED compare_runs)

# The statistics on 100 seeded trials per case (known truth; tests/tools/test_compare_stats.py).
pp_pytest(tools_compare_stats MODULE test_compare_stats.py LABELS unit slow TIMEOUT 120)
# The criteria can fail: the old interval of one process's samples calls two draws of one distribution.
pp_pytest(tools_compare_stats_naive MODULE test_compare_stats.py SELECT same_distribution ENV PP_COMPARE_METHOD=naive
  EXPECT 1 "same distribution, 6 rows, 5 runs a side: no call in [0-9] of 100" LABELS unit slow)

# Bad input: one line, exit 2.
pp_test(compare_missing_file COMMAND python3 ${CMP} ${CMPD}/base.json ${CMPD}/no-such-run.json
  EXPECT 2 "no-such-run.json: cannot read a JSON result file" LABELS unit input)
pp_test(compare_no_common COMMAND python3 ${CMP} ${CMPD}/base.json ${CMPD}/other.json
  EXPECT 2 "other.json and base.json have no row in common" LABELS unit input)
pp_test(compare_not_result COMMAND python3 ${CMP} ${PP_EXPECT} ${CMPD}/base.json
  EXPECT 2 "expect.sh: cannot read a JSON result file" LABELS unit input)
pp_test(compare_one_file COMMAND python3 ${CMP} ${CMPD}/base.json
  EXPECT 2 "need at least two result files" LABELS unit input)
pp_test(compare_base_alone COMMAND python3 ${CMP} --base ${CMPD}/base.json
  EXPECT 2 "--base and --new go together" LABELS unit input)
pp_test(compare_sets_and_files COMMAND python3 ${CMP} --base ${CMPD}/base.json --new ${CMPD}/slow10.json --models host,omp
  EXPECT 2 "--base/--new and --models exclude each other" LABELS unit input)
# One run given twice would fake a zero spread: refused.
pp_test(compare_run_twice COMMAND python3 ${CMP} --base ${CMPD}/base.json ${CMPD}/base.json --new ${CMPD}/slow10.json
  EXPECT 2 "--base: .*base.json holds the same results as .*base.json: one run counted twice" LABELS unit input)
set_tests_properties(compare_missing_file compare_no_common compare_not_result compare_one_file compare_base_alone
  compare_sets_and_files compare_run_twice PROPERTIES FIXTURES_REQUIRED compare_runs)

# Two committed GPU runs (the H100's and the H200's microbench): exit 0 or 1, never a crash.
set(_cmp_real ${PROJECT_SOURCE_DIR}/results)
add_test(NAME compare_real_runs COMMAND ${PP_EXPECT} --absent Traceback 0 "compare: [0-9]+ rows compared in 1 comparison" --
  sh -c "\"$0\" \"$1\" --quiet \"$2\" \"$3\"; rc=$?; echo \"compare exit $rc\"; [ $rc -le 1 ]"
  python3 ${CMP} ${_cmp_real}/nvidia-h100/microbench.json ${_cmp_real}/nvidia-h200/microbench/run1.json)
set_tests_properties(compare_real_runs PROPERTIES LABELS unit TIMEOUT 600)

# Labels and the compiler report (synthetic files: tests/fixtures/make_compare_runs.py).
# Two compilers' builds: omp[gcc-12] (planted 10x cuda's time) against omp[clang-19] across files
# (one run of each build: its ratio, no verdict).
pp_test(compare_labels COMMAND python3 ${CMP} --models omp[clang-19],omp[gcc-12] ${CMPD}/cc-clang.json ${CMPD}/cc-gcc.json
  EXPECT 0 "synthetic +a +omp\\[gcc-12\\]/omp\\[clang-19\\] +4096 +tpb=256 +1:1 .* 8\\.[0-9]+ +- +not enough runs to call" LABELS unit)
# --facts: the clang-19 build's registers and spills beside its rows; gcc-12 has none.
pp_test(compare_facts COMMAND python3 ${CMP} --models omp[clang-19],omp[gcc-12] --facts ${CMPD}/facts-clang.json
  ${CMPD}/cc-clang.json ${CMPD}/cc-gcc.json
  EXPECT 0 " a +omp.* not enough runs to call +regs 40 smem 0 stack 8 spill 8:8 +-$" LABELS unit)
# The report: 5 labels x 6 kernels in the heat map, the planted flag effect (0.9x) flagged, 1.0x not;
# `compare ... | head -1`: the reader gone, compare ends by SIGPIPE, no traceback
# (tests/tools/test_compare_report.py, on runs of its own).
pp_pytest(tools_compare_report MODULE test_compare_report.py SELECT "not report_figures" LABELS unit slow TIMEOUT 60)
# its figures; skipped without matplotlib
pp_pytest(tools_compare_report_png MODULE test_compare_report.py SELECT report_figures LABELS unit slow TIMEOUT 60)
# A wrong result in any build fails the report, named with its check.
pp_test(compare_report_fail COMMAND python3 ${CMP} --report ${CMPD}/report-bad ${CMPD}/cc-clang.json ${CMPD}/cc-gcc-bad.json
  EXPECT 1 "FAIL omp\\[gcc-12\\]: synthetic b 4096 tpb=256: max abs error 0\\.5" LABELS unit)
set_tests_properties(compare_labels compare_facts compare_report_fail PROPERTIES FIXTURES_REQUIRED compare_runs)

# The compiler matrix's cells without a result (issue 16): validate/compilers-run.sh on a fake
# matrix of stub binaries records PASS, FAIL, BUILD-FAIL, TIMEOUT and CRASH(SEGV), and
# `compare --report --status` draws each as its word; without --status the check fails.
pp_test(compilers_run_cells COMMAND ${CMAKE_CURRENT_LIST_DIR}/compilers_run_cells.sh ${CMAKE_CURRENT_BINARY_DIR}/cells
  EXPECT 0 "PASS: every cell outcome recorded and drawn" LABELS unit slow)
pp_test(compilers_run_cells_no_status COMMAND ${CMAKE_CURRENT_LIST_DIR}/compilers_run_cells.sh ${CMAKE_CURRENT_BINARY_DIR}/cells-fault
  ENV CELLS_FAULT=no-status
  EXPECT 1 "FAIL: heat map omp\\[nobuild\\] xsbench_like:event: None != 'BUILD-FAIL'" LABELS unit slow)

# The tools' one reader of JSON and their writer (validate/pptools/result.py, outfile.py)
# on small files: what each refuses and accepts.
pp_pytest(tools_result_reader MODULE test_result_reader.py LABELS unit input TIMEOUT 60)

# The tools' bad-input contract (validate/pptools): each hostile input of
# tests/tools/test_hostile.py is refused with exit 2 and one line on stderr, never a
# traceback, a hang or reading without end (the tool runs under a time and memory
# limit, so a FIFO that blocks it fails the test instead of hanging it); the *_atomic
# cases check that a written file replaces its target by a rename. Each failed before
# validate/pptools.
pp_pytest(tools_hostile MODULE test_hostile.py LABELS unit input slow TIMEOUT 300)

# Names from files and command lines (paths, kernels, models, variants, site-file
# strings) reach the terminal, Markdown and figures escaped (\xNN, validate/pptools/
# text.py), as the C apps print them: no raw control character in any output, the
# name shown escaped (tests/tools/test_escape.py, a case per tool). Before, each case
# printed ESC ] 0 ; ... BEL as given (and matplotlib warned of the glyphs, raw, on stderr).
pp_pytest(tools_escape MODULE test_escape.py LABELS unit input slow TIMEOUT 300)

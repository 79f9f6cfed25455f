# validate/portability (issue 28): the performance-portability metric on the
# hand-computed example of tests/fixtures/portability/ (tests/tools/test_portability.py: three machines, one model failing
# validation on one, one not built on another: both PP 0), rows of different
# sizes kept apart, bad input refused with one line, and the generated section of
# docs/results.md matching the committed results (a stale copy is caught).
pp_pytest(tools_portability MODULE test_portability.py LABELS unit TIMEOUT 60)
set(PTOOL ${PROJECT_SOURCE_DIR}/validate/portability)
pp_test(portability_doc COMMAND python3 ${PTOOL} --check
  EXPECT 0 "results.md portability section matches the results" LABELS unit)
# a copy of the document with one efficiency changed is stale
file(READ ${PROJECT_SOURCE_DIR}/docs/results.md _pdoc)
string(REGEX REPLACE "\\| 1\\.000 / ([0-9])" "| 0.999 / \\1" _pdoc "${_pdoc}")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/portability-stale.md "${_pdoc}")
pp_test(portability_doc_stale COMMAND python3 ${PTOOL} --check --doc ${CMAKE_CURRENT_BINARY_DIR}/portability-stale.md
  EXPECT 1 "portability-stale.md's portability section differs from the results" LABELS unit)
set_tests_properties(portability_doc portability_doc_stale
  PROPERTIES TIMEOUT 60)

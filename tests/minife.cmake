# The miniFE library: the generated matrix (structure and values against an
# independent assembly, and that those checks can fail).
set(MINIFE_CHECK $<TARGET_FILE:minife_matrix_check>)

# N=10 with corruptions that must be caught; N=2 (one interior node) and N=3
# (no row has only interior neighbours) as edge cases.
pp_test(minife_matrix_tiny COMMAND ${MINIFE_CHECK} 10 --selftest
  EXPECT 0 "selftest: Dirichlet column not zeroed +caught" LABELS unit validate)
pp_test(minife_matrix_n2 COMMAND ${MINIFE_CHECK} 2 EXPECT 0 "N=2: 27 rows, 343 entries: PASS" LABELS unit validate)
pp_test(minife_matrix_n3 COMMAND ${MINIFE_CHECK} 3 LABELS unit validate)
pp_test(minife_matrix_values COMMAND ${MINIFE_CHECK} 4
  EXPECT 0 "self 0.333333333333333, face-adjacent .*, face-diagonal -0.0833333333333333, body-diagonal -0.0833333333333333"
  LABELS unit)

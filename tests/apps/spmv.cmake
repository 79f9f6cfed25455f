# spmv: the matrix (structure and values against an independent assembly,
# and that those checks can fail), validation on the models that run here,
# every kernel variant, result files, and bad input refused with exit 2.
set(SPMV $<TARGET_FILE:spmv>)
set(SPMV_CHECK $<TARGET_FILE:spmv_matrix_check>)
set(SPMV_DIR ${PROJECT_SOURCE_DIR}/spmv)
set(TINY ${PROJECT_SOURCE_DIR}/inputs/minife/tiny.deck)
set(DECKS ${SPMV_DIR}/tests/decks)

# Matrix: N=10 with corruptions that must be caught; N=2 (one interior node)
# and N=3 (no row has only interior neighbours) as edge cases.
pp_test(spmv_matrix_tiny COMMAND ${SPMV_CHECK} 10 --selftest
  EXPECT 0 "selftest: Dirichlet column not zeroed +caught" LABELS unit validate)
pp_test(spmv_matrix_n2 COMMAND ${SPMV_CHECK} 2 EXPECT 0 "N=2: 27 rows, 343 entries: PASS" LABELS unit validate)
pp_test(spmv_matrix_n3 COMMAND ${SPMV_CHECK} 3 LABELS unit validate)
pp_test(spmv_matrix_values COMMAND ${SPMV_CHECK} 4
  EXPECT 0 "self 0.333333333333333, face-adjacent .*, face-diagonal -0.0833333333333333, body-diagonal -0.0833333333333333"
  LABELS unit)

# Validation on sizes down to N=1 (all nodes Dirichlet; the tiny deck: spmv_validate, tests/apps/apps.cmake).
pp_test(spmv_validate_sizes COMMAND ${SPMV} --size 1,2,5,17 --backend ${PP_TEST_MODELS} ${PP_TEST_FAST} LABELS validate)
if(PP_HAVE_OMP AND PP_OFFLOAD STREQUAL "cpu")
  # Every omp form with the grid loop (few teams, uneven last group) and one team per group.
  foreach(form rows lanes teams)
    pp_test(spmv_omp_${form} COMMAND ${SPMV} --backend omp --omp-form ${form} --size 6,9
      --rows-per-team 3 --vector-len 4 --grid loop --teams 5 ${PP_TEST_FAST} LABELS validate)
    pp_test(spmv_omp_${form}_blocks COMMAND ${SPMV} --backend omp --omp-form ${form} --size 6
      --rows-per-team 7 --vector-len 16 --grid blocks ${PP_TEST_FAST} LABELS validate)
  endforeach()
endif()
# Planted fault: one element of y wrong by 1e-6 (relative L2 error ~1e-9 > 1e-12).
pp_test(spmv_fault_y COMMAND ${SPMV} --deck ${TINY} --backend ${PP_TEST_MODELS} ${PP_TEST_FAST} --inject-fault spmv-y
  EXPECT 1 "spmv +host .*FAIL rel L2 err [0-9.e-]+ <= 1e-12" LABELS validate)
# No run at all (spmv-missed): spmv_fault_missed (tests/apps/apps.cmake).
pp_test(spmv_crlf_deck COMMAND ${SPMV} --deck ${DECKS}/crlf_ok.deck --backend host ${PP_TEST_FAST}
  EXPECT 0 "PASS rel L2 err" LABELS input)

# Result files: the generic shape (JSON and CSV) and the spmv byte counts.
pp_test(spmv_json
  COMMAND ${PP_HARNESS}/json_roundtrip.sh spmv_rt --models host --kernels spmv --
          ${SPMV} --deck ${TINY} --backend ${PP_TEST_MODELS} ${PP_TEST_FAST}
  LABELS unit validate)
pp_test(spmv_json_fields
  COMMAND python3 ${SPMV_DIR}/tests/check_json.py spmv_fields.json 10 --
          ${SPMV} --deck ${TINY} --backend ${PP_TEST_MODELS} ${PP_TEST_FAST}
  LABELS unit validate)

# --deck NAME: the inputs folder's minife/NAME.deck (beside the executable, as
# an install has it), as testsnap's --case; an unknown name lists the decks there.
pp_test(spmv_deck_by_name COMMAND ${SPMV} --deck tiny --backend host ${PP_TEST_FAST}
  EXPECT 0 "deck +.*/minife/tiny.deck \\(N = 10\\)" LABELS input)
pp_test(spmv_deck_unknown_name COMMAND ${SPMV} --deck nope
  EXPECT 2 "--deck nope: no such file, nor .*/minife/nope.deck \\(the decks there: .*tiny" LABELS input)
set_tests_properties(spmv_deck_by_name spmv_deck_unknown_name PROPERTIES TIMEOUT 30)

# Bad input: exit 2 with a message naming the problem.
pp_test(spmv_deck_absent COMMAND ${SPMV} --deck /nonexistent/no-such.deck
  EXPECT 2 "cannot open input deck '/nonexistent/no-such.deck'" LABELS input)
# a path that is not there whose file name is a shipped deck's: the name that finds it
pp_test(spmv_deck_absent_names_shipped COMMAND ${SPMV} --deck /nonexistent/n150.deck
  EXPECT 2 "^spmv: --deck /nonexistent/n150.deck: no such file; the shipped deck of that name is --deck n150" LABELS input)
pp_test(spmv_deck_bad_value COMMAND ${SPMV} --deck ${DECKS}/bad_value.deck
  EXPECT 2 "bad_value.deck:3: N = 'ten' is not an integer" LABELS input)
pp_test(spmv_deck_no_equals COMMAND ${SPMV} --deck ${DECKS}/no_equals.deck
  EXPECT 2 "no_equals.deck:2: expected 'key = value', found 'N 10'" LABELS input)
pp_test(spmv_deck_missing_n COMMAND ${SPMV} --deck ${DECKS}/missing_n.deck
  EXPECT 2 "missing_n.deck:2: unknown key 'n'" LABELS input)
pp_test(spmv_deck_duplicate COMMAND ${SPMV} --deck ${DECKS}/duplicate.deck
  EXPECT 2 "duplicate.deck:2: 'N' is set again \\(first on line 1\\)" LABELS input)
pp_test(spmv_deck_range COMMAND ${SPMV} --deck ${DECKS}/out_of_range.deck
  EXPECT 2 "out_of_range.deck:1: N = 0 is outside \\[1, 1289\\]" LABELS input)
pp_test(spmv_deck_and_size COMMAND ${SPMV} --deck ${TINY} --size 10 --backend host --quiet
  EXPECT 2 "give --deck or --size, not both" LABELS input)
pp_test(spmv_too_big COMMAND ${SPMV} --backend host --size 1289 --quiet
  EXPECT 2 "N=1289 matrix with x and y needs [0-9.]+ GiB of host memory; this node has" LABELS input
  ENV ${PP_TEST_MEMORY})
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/spmv_typo.deck "# a typo\nN = 10\nNN = 20\n")
pp_test(spmv_deck_unknown_key COMMAND ${SPMV} --deck ${CMAKE_CURRENT_BINARY_DIR}/spmv_typo.deck
  EXPECT 2 "spmv_typo.deck:3: unknown key 'NN'" LABELS input)
# The OpenMP-on-host model's copy counts in host memory: N = 400 needs ~42 GiB
# with it (21 GiB without), on a node assumed to have 32 GiB (the device
# check, 21 GiB, passes there: the host message is the one seen).
if(PP_TEST_MODELS MATCHES "omp")
  pp_test(spmv_too_big_omp_copy COMMAND ${SPMV} --backend host,omp --size 400 --quiet
    EXPECT 2 "N=400 matrix with x and y needs 4[0-9]\\.[0-9]+ GiB of host memory" LABELS input
    ENV PP_TEST_MEMORY_GIB=32,32)
  # ... and the device's own check: 21 GiB on a device assumed to have 16 free.
  pp_test(spmv_too_big_omp_device COMMAND ${SPMV} --backend omp --size 400 --quiet
    EXPECT 2 "N=400 matrix with x and y needs 2[0-9]\\.[0-9]+ GiB of device memory; omp device 0 has 16\\.00 GiB free"
    LABELS input ENV PP_TEST_MEMORY_GIB=64,16)
endif()
pp_test(spmv_size_limit COMMAND ${SPMV} --size 1290 EXPECT 2 "--size: 1290 is outside \\[1, 1289\\]" LABELS input)
pp_test(spmv_bad_vector_len COMMAND ${SPMV} --vector-len 6 EXPECT 2 "power of two" LABELS input)
pp_test(spmv_bad_team COMMAND ${SPMV} --backend host --rows-per-team 512 --vector-len 4 --quiet
  EXPECT 2 "2048 threads per team; at most 1024" LABELS input)
pp_test(spmv_bad_reduce COMMAND ${SPMV} --reduce tree EXPECT 2 "--reduce: expected 'shuffle' or 'shared'" LABELS input)
pp_test(spmv_bad_grid COMMAND ${SPMV} --grid 3 EXPECT 2 "--grid: expected 'loop' or 'blocks'" LABELS input)
pp_test(spmv_bad_form COMMAND ${SPMV} --omp-form simd EXPECT 2 "--omp-form: expected 'rows', 'lanes' or 'teams'" LABELS input)

if(PP_HAVE_MPI)
  pp_mpi_command(MPI2 2)
  pp_test(spmv_mpi2 COMMAND ${MPI2} ${SPMV} --backend host --deck ${TINY} ${PP_TEST_FAST}
    EXPECT 0 "2 ranks" LABELS mpi)
endif()

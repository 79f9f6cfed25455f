# cgsolve: CG on the tiny deck on the models that run here, the residual's
# fall, MPI equivalence of the residual history, bad input.
set(CG $<TARGET_FILE:cgsolve>)
set(CG_TINY --deck ${PROJECT_SOURCE_DIR}/inputs/minife/tiny.deck)
set(CG_HIST ${PROJECT_SOURCE_DIR}/cgsolve/check_history.py)

# Converges to 1e-10 within the 200 iterations on every model; the host also
# checks the true residual and the recursive one agree (part of every run).
pp_test(cgsolve_tiny COMMAND ${CG} --backend ${PP_TEST_MODELS} ${CG_TINY} --tol 1e-10 ${PP_TEST_FAST}
  EXPECT 0 "cg_solve +host .*PASS relres .*reached tol .*gap" LABELS validate)
# The default check (200 iterations): the true residual recomputed matrix-free
# under CG's bound (rounding floor 1e-12 on the tiny deck), and the deck's
# recorded SciPy reference (converged there).
pp_test(cgsolve_default COMMAND ${CG} --backend ${PP_TEST_MODELS} ${CG_TINY} ${PP_TEST_FAST}
  EXPECT 0 "cg_solve +host .*PASS relres [0-9.e-]+<=1e-12. gap .*x err .*ref: converged" LABELS validate)
# The reference above rounding: 20 iterations (relres 3.7e-8), within 1e-6 of SciPy's.
set(CG_20IT --deck ${PROJECT_SOURCE_DIR}/cgsolve/tests/tiny_20it.deck --max-iters 20)
pp_test(cgsolve_reference COMMAND ${CG} --backend ${PP_TEST_MODELS} ${CG_20IT} ${PP_TEST_FAST}
  EXPECT 0 "cg_solve +host .*PASS .*vs ref [0-9e.-]+<=1e-06" LABELS validate)

# Planted faults: each check seen failing (exit 1, FAIL). spmv-zero is the
# SpMV writing zeros (CG breaks down at once: the default check used to pass it).
pp_test(cgsolve_fault_spmv_zero COMMAND ${CG} --backend ${PP_TEST_MODELS} ${CG_TINY} ${PP_TEST_FAST} --inject-fault spmv-zero
  EXPECT 1 "cg_solve +host .*FAIL breakdown at it 1. relres 1.0e.00" LABELS validate)
# p.Ap 1.5 times too large: the residual stays above CG's bound, and after 20
# iterations it leaves the reference.
pp_test(cgsolve_fault_dot COMMAND ${CG} --backend host ${CG_TINY} ${PP_TEST_FAST} --inject-fault cg-dot
  EXPECT 1 "cg_solve +host .*FAIL relres [0-9.e-]+<=1e-12" LABELS validate)
pp_test(cgsolve_fault_dot_ref COMMAND ${CG} --backend host ${CG_20IT} ${PP_TEST_FAST} --inject-fault cg-dot
  EXPECT 1 "cg_solve +host .*FAIL .*vs ref [0-9e.+-]+<=1e-06" LABELS validate)
# After few iterations the wrong p.Ap stays inside CG's bound (relres 9.8e-2 after
# 5): the run-time reference, a plain host CG of as many iterations, catches it.
pp_test(cgsolve_fault_dot_few_iters COMMAND ${CG} --backend host ${CG_TINY} --max-iters 5 ${PP_TEST_FAST}
  --inject-fault cg-dot EXPECT 1 "cg_solve +host .*FAIL vs run [0-9e.+-]+<=1e-06. relres" LABELS validate fault)
pp_test(cgsolve_run_reference COMMAND ${CG} --backend ${PP_TEST_MODELS} ${CG_TINY} --max-iters 5 ${PP_TEST_FAST}
  EXPECT 0 "cg_solve +host .*PASS .*vs run [0-9e.-]+<=1e-06" LABELS validate)
# A fault whose code does not run with the options asked for changes no
# result: the run says so and exits 2, never 0 (the omp model's dot, on host).
pp_test(cgsolve_fault_not_fired COMMAND ${CG} --backend host ${CG_TINY} ${PP_TEST_FAST} --inject-fault cg-dot-omp
  EXPECT 2 "--inject-fault 'cg-dot-omp' changed no result in this run" LABELS validate fault)
# The fused update's r.r halved (--update fused, the default): beta is wrong and
# the solve leaves the reference; the split form does not call update, so the
# fault changes nothing there, and the run says so (exit 2).
pp_test(cgsolve_fault_update COMMAND ${CG} --backend ${PP_TEST_MODELS} ${CG_20IT} ${PP_TEST_FAST} --inject-fault cg-update
  EXPECT 1 "cg_solve +host .*FAIL .*vs ref [0-9e.+-]+<=1e-06" LABELS validate)
# Chronopoulos-Gear against the recorded reference, and its planted faults (p.Ap
# is its w.r - beta r.r / alpha recurrence: the faults act on the same quantities).
set(CG1 --cg-variant chronopoulos-gear)
pp_test(cgsolve_cg1_reference COMMAND ${CG} --backend ${PP_TEST_MODELS} ${CG_20IT} ${PP_TEST_FAST} ${CG1}
  EXPECT 0 "cg_solve +host +10 chronopoulos-gear .*PASS .*vs ref" LABELS validate)
foreach(row "dot|cg-dot|FAIL relres" "update|cg-update|FAIL breakdown at it 5" "breakdown|cg-breakdown|FAIL breakdown at it 3"
            "update_split|cg-update;--update;split|FAIL")
  pp_case_split("${row}" name args re)
  pp_test(cgsolve_cg1_fault_${name} COMMAND ${CG} --backend host ${CG_TINY} ${PP_TEST_FAST} ${CG1} --inject-fault ${args}
    EXPECT 1 "cg_solve +host .*${re}" LABELS validate)
endforeach()
pp_test(cgsolve_fault_update_split COMMAND ${CG} --backend host ${CG_20IT} ${PP_TEST_FAST} --inject-fault cg-update --update split
  EXPECT 2 "--inject-fault 'cg-update' changed no result" LABELS validate fault)
# The split form (two axpby and a dot) validates on every model, with its rows.
pp_test(cgsolve_update_split COMMAND ${CG} --backend ${PP_TEST_MODELS} ${CG_20IT} --update split ${PP_TEST_FAST}
  EXPECT 0 "update split.*\ncg_solve +host .*PASS .*vs ref [0-9e.-]+<=1e-06\ncg_axpby +host" LABELS validate)
pp_test(cgsolve_update_bad COMMAND ${CG} --update fuse
  EXPECT 2 "--update: expected 'fused' or 'split'" LABELS input)
pp_test(cgsolve_fault_breakdown COMMAND ${CG} --backend host ${CG_TINY} ${PP_TEST_FAST} --inject-fault cg-breakdown
  EXPECT 1 "cg_solve +host .*FAIL breakdown at it 3" LABELS validate)
pp_test(cgsolve_fault_residual COMMAND ${CG} --backend host ${CG_TINY} ${PP_TEST_FAST} --inject-fault cg-residual
  EXPECT 1 "cg_solve +host .*FAIL gap [0-9e.-]+<=1e-10. relres" LABELS validate)
pp_test(cgsolve_fault_x COMMAND ${CG} --backend host ${CG_TINY} ${PP_TEST_FAST} --inject-fault cg-x
  EXPECT 1 "cg_solve +host .*FAIL relres .*. gap" LABELS validate)
pp_test(cgsolve_fault_xerr COMMAND ${CG} --backend host ${CG_TINY} ${PP_TEST_FAST} --inject-fault cg-xerr
  EXPECT 1 "cg_solve +host .*FAIL x err [0-9.e-]+<=[0-9e-]+. relres" LABELS validate)
# No solve at all (the measurement skips them): x never computed must fail (cgsolve's
# own form of the generic test, tests/apps/apps.cmake).
pp_test(cgsolve_fault_missed COMMAND ${CG} --backend host ${CG_TINY} ${PP_TEST_FAST} --inject-fault cg_solve-missed
  EXPECT 1 "cg_solve +host .*FAIL" LABELS validate)
# Agreement between models: the wrong dot in the omp model only.
if(PP_TEST_MODELS MATCHES "omp")
  pp_test(cgsolve_fault_dot_omp COMMAND ${CG} --backend host,omp ${CG_20IT} ${PP_TEST_FAST} --inject-fault cg-dot-omp
    EXPECT 1 "cg_solve +omp .*FAIL .*vs host [0-9e.+-]+<=1e-06" LABELS validate)
  # ... and a wrong first model must not fail the right one after it: the
  # agreement anchor is the first model that passed its own checks.
  pp_test(cgsolve_fault_dot_host_first COMMAND ${CG} --backend host,omp ${CG_20IT} ${PP_TEST_FAST} --inject-fault cg-dot-host
    EXPECT 1 "cg_solve +host .*FAIL\ncg_solve +omp .*PASS" LABELS validate)
endif()
# The expected fall: on the tiny deck the relative residual drops below 1e-6
# within 20 iterations (measured 3.7e-8; N = 10) ...
pp_test(cgsolve_fall COMMAND ${CG} --backend ${PP_TEST_MODELS} ${CG_TINY} --max-iters 20 --expect-relres 1e-6
  ${PP_TEST_FAST} EXPECT 0 "relres [0-9.e-]+<=1e-06" LABELS validate)
# ... and a solve cut short (3 iterations) cannot reach it: validation fails, exit 1.
pp_test(cgsolve_fall_short COMMAND ${CG} --backend host ${CG_TINY} --max-iters 3 --expect-relres 1e-6
  ${PP_TEST_FAST} EXPECT 1 "FAIL relres [0-9.e-]+<=1e-06" LABELS validate)
pp_test(cgsolve_tol_missed COMMAND ${CG} --backend host ${CG_TINY} --max-iters 5 --tol 1e-10
  ${PP_TEST_FAST} EXPECT 1 "MISSED tol 1e-10 in 5 it" LABELS validate)
pp_test(cgsolve_print_every COMMAND ${CG} --backend host ${CG_TINY} --max-iters 10 --print-every 5
  ${PP_TEST_FAST} EXPECT 0 "iteration 10: relative residual" LABELS validate)
pp_test(cgsolve_json
  COMMAND ${PP_HARNESS}/json_roundtrip.sh cgsolve --min-rows 4 --models host --kernels cg_solve,cg_spmv,cg_dot,cg_axpby,cg_update --
          ${CG} --backend ${PP_TEST_MODELS} --size 8 ${PP_TEST_FAST}
  LABELS unit validate)

# Bad input: exit 2 with a message naming the problem.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cg_bad_value.deck "# corrupt: N is not a number\nN = ten\n")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cg_bad_line.deck "N = 8\nthis line has no equals sign\n")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cg_no_n.deck "# no N at all\n")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cg_huge.deck "N = 5000\n")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cg_typo.deck "n = 10\n")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cg_half_ref.deck "N = 10\ncg_iters = 200\n")
pp_test(cgsolve_deck_unknown_key COMMAND ${CG} --deck ${CMAKE_CURRENT_BINARY_DIR}/cg_typo.deck
  EXPECT 2 "cg_typo.deck:1: unknown key 'n'" LABELS input)
pp_test(cgsolve_deck_half_reference COMMAND ${CG} --deck ${CMAKE_CURRENT_BINARY_DIR}/cg_half_ref.deck
  EXPECT 2 "no 'cg_seed = ...' line" LABELS input)
pp_test(cgsolve_deck_absent COMMAND ${CG} --deck /nonexistent/no-such.deck
  EXPECT 2 "cannot open input deck '/nonexistent/no-such.deck'" LABELS input)
# A shipped deck's path given from another folder (the tests' own): the name that finds it.
pp_test(cgsolve_deck_path_elsewhere COMMAND ${CG} --deck inputs/minife/n150.deck
  EXPECT 2 "--deck inputs/minife/n150.deck: no such file here \\(a path is relative to the current folder, /[^)]*\\); the shipped deck of that name is --deck n150" LABELS input)
pp_test(cgsolve_deck_bad_value COMMAND ${CG} --deck ${CMAKE_CURRENT_BINARY_DIR}/cg_bad_value.deck
  EXPECT 2 "cg_bad_value.deck:2: N = 'ten' is not an integer" LABELS input)
pp_test(cgsolve_deck_bad_line COMMAND ${CG} --deck ${CMAKE_CURRENT_BINARY_DIR}/cg_bad_line.deck
  EXPECT 2 "cg_bad_line.deck:2: expected 'key = value'" LABELS input)
pp_test(cgsolve_deck_no_n COMMAND ${CG} --deck ${CMAKE_CURRENT_BINARY_DIR}/cg_no_n.deck
  EXPECT 2 "no 'N = ...' line" LABELS input)
pp_test(cgsolve_deck_huge COMMAND ${CG} --deck ${CMAKE_CURRENT_BINARY_DIR}/cg_huge.deck
  EXPECT 2 "N = 5000 is outside \\[1, 1289\\]" LABELS input)
pp_test(cgsolve_deck_and_size COMMAND ${CG} ${CG_TINY} --size 8 --backend host --quiet
  EXPECT 2 "give --deck or --size, not both" LABELS input)
pp_test(cgsolve_size_huge COMMAND ${CG} --size 5000 EXPECT 2 "--size: 5000 is outside" LABELS input)
# N = 1200: 1.7e9 rows fit the index type but not this machine's memory.
pp_test(cgsolve_too_big COMMAND ${CG} --backend host --size 1200 --quiet
  EXPECT 2 "N = 1200 .* needs [0-9.]+ GiB of host memory" LABELS input ENV ${PP_TEST_MEMORY})
# Every size is checked before the first runs: N = 30 is never generated.
add_test(NAME cgsolve_sizes_checked_first COMMAND sh -c
  "out=$(\"$@\" 2>&1); rc=$?; printf '%s\\n' \"$out\"; [ $rc -eq 2 ] && printf '%s' \"$out\" | grep -q 'N = 1200 .* needs' && ! printf '%s' \"$out\" | grep -q 'generating'"
  sh ${CG} --backend host --size 30,1200)
set_tests_properties(cgsolve_sizes_checked_first PROPERTIES LABELS input
  ENVIRONMENT "${PP_TEST_ENV};${PP_TEST_MEMORY}")
pp_test(cgsolve_bad_tol COMMAND ${CG} --tol -1 EXPECT 2 "--tol: '-1' is not a number" LABELS input)
pp_test(cgsolve_bad_scaling COMMAND ${CG} --scaling sideways EXPECT 2 "--scaling: expected 'strong' or 'weak'" LABELS input)
pp_test(cgsolve_bad_history COMMAND ${CG} --backend host --size 4 --history /nonexistent/h.csv --quiet
  EXPECT 2 "--history: cannot write" LABELS input)
# --history is written once at the end (pp/outfile.h): a symlink at the path
# is replaced, not written through; an existing file is replaced whole, not
# rewritten in place; a missing directory is refused before any solve; a
# full device fails with exit 3.
foreach(case symlink replace missing devfull)
  add_test(NAME cgsolve_history_${case} COMMAND ${PROJECT_SOURCE_DIR}/cgsolve/tests/history.sh ${case}
    ${CG} --backend host --size 4 --max-iters 5 ${PP_TEST_FAST})
  set_tests_properties(cgsolve_history_${case} PROPERTIES LABELS input ENVIRONMENT "${PP_TEST_ENV}"
    TIMEOUT 120 SKIP_RETURN_CODE 77)
endforeach()

# MPI: z-plane slabs with halo exchange; the residual history on 2 and 3
# ranks must equal the 1-rank history to rounding (only the dots' summation
# order differs; measured ~1e-14). The host model, to --tol 1e-12 so the
# history ends before the recursive residual sinks into rounding noise.
if(PP_HAVE_MPI)
  set(_hist ${CMAKE_CURRENT_BINARY_DIR}/cgsolve_hist)
  set(_run --backend host --tol 1e-12 ${PP_TEST_FAST})
  foreach(np 1 2 3)
    pp_mpi_command(_mpi ${np})
    pp_test(cgsolve_mpi${np}_tiny COMMAND ${_mpi} ${CG} ${CG_TINY} ${_run} --history ${_hist}_tiny_${np}.csv
      EXPECT 0 "${np} ranks?\\)" LABELS mpi)
    pp_test(cgsolve_mpi${np}_n16 COMMAND ${_mpi} ${CG} --size 16 ${_run} --history ${_hist}_n16_${np}.csv
      EXPECT 0 "${np} ranks?\\)" LABELS mpi)
    set_tests_properties(cgsolve_mpi${np}_tiny cgsolve_mpi${np}_n16 PROPERTIES FIXTURES_SETUP cgsolve_hist)
  endforeach()
  foreach(case tiny n16)
    add_test(NAME cgsolve_mpi_equivalence_${case}
      COMMAND python3 ${CG_HIST} 1e-10 ${_hist}_${case}_1.csv ${_hist}_${case}_2.csv ${_hist}_${case}_3.csv)
    set_tests_properties(cgsolve_mpi_equivalence_${case} PROPERTIES LABELS mpi FIXTURES_REQUIRED cgsolve_hist)
  endforeach()
  # --cg-variant chronopoulos-gear (one sum over ranks per iteration): the same
  # iterations and residual history as classic CG on 1 and 3 ranks, to 1e-8
  # relative (measured here: 1e-10 at N=16, --tol 1e-12).
  foreach(np 1 3)
    pp_mpi_command(_mpi ${np})
    pp_test(cgsolve_cg1_mpi${np}_n16 COMMAND ${_mpi} ${CG} --size 16 ${_run} --cg-variant chronopoulos-gear
      --history ${_hist}_cg1_n16_${np}.csv EXPECT 0 "cg_solve +host +16 chronopoulos-gear .*PASS" LABELS mpi)
    set_tests_properties(cgsolve_cg1_mpi${np}_n16 PROPERTIES FIXTURES_SETUP cgsolve_hist)
  endforeach()
  # The halo paths (staged; MPI on the model's memory) and --overlap (the exchange
  # on a helper thread during the inner planes' rows): the 1-rank history on 3 ranks.
  pp_mpi_command(_mpi3h 3)
  foreach(row "staged_overlap|host;--overlap;on|-" "device|mpi-device|-" "device_overlap|mpi-device;--overlap;on|-")
    pp_case_split("${row}" name args re)
    pp_test(cgsolve_mpi3_halo_${name} COMMAND ${_mpi3h} ${CG} --size 16 ${_run} --halo ${args}
      --history ${_hist}_halo_${name}.csv --json ${_hist}_halo_${name}.json
      EXPECT 0 "cg_solve +host +16 .*PASS" LABELS mpi)
    set_tests_properties(cgsolve_mpi3_halo_${name} PROPERTIES FIXTURES_SETUP cgsolve_hist)
  endforeach()
  add_test(NAME cgsolve_halo_equivalence COMMAND python3 ${CG_HIST} 1e-10 ${_hist}_n16_1.csv
    ${_hist}_halo_staged_overlap.csv ${_hist}_halo_device.csv ${_hist}_halo_device_overlap.csv)
  set_tests_properties(cgsolve_halo_equivalence PROPERTIES LABELS mpi FIXTURES_REQUIRED cgsolve_hist)
  # the path that ran is in the result
  pp_test(cgsolve_mpi2_halo_recorded COMMAND ${_mpi3h} ${CG} --size 8 ${_run} --halo mpi-device --overlap on
    EXPECT 0 "halo host +MPI point to point on the model's own memory, no staging \\(host memory\\). overlapped" LABELS mpi)
  # --overlap auto (the default): on where the halo is staged (much to hide), off on the
  # device paths; off: never. What the report says is what solve.c does (cg_overlaps).
  pp_test(cgsolve_mpi3_overlap_auto_staged COMMAND ${_mpi3h} ${CG} --size 8 ${_run} --halo host
    EXPECT 0 "halo host +boundary planes staged through host memory [(]--halo host[)], MPI point to point. overlapped with the interior rows" LABELS mpi)
  foreach(row "auto_device|--halo;mpi-device|halo host +MPI point to point on the model's own memory"
              "off_staged|--halo;host;--overlap;off|halo host +boundary planes staged through host memory")
    pp_case_split("${row}" name args re)
    add_test(NAME cgsolve_mpi3_overlap_${name} COMMAND ${PP_EXPECT} --absent overlapped 0 "${re}" --
      ${_mpi3h} ${CG} --size 8 ${_run} ${args})
    set_tests_properties(cgsolve_mpi3_overlap_${name} PROPERTIES LABELS mpi ENVIRONMENT "${PP_TEST_ENV}" TIMEOUT 120)
  endforeach()
  # CUDA IPC maps GPU memory: asked for host memory, refused once with the reason
  pp_test(cgsolve_mpi3_halo_ipc_refused COMMAND ${_mpi3h} ${CG} --size 8 --backend host ${PP_TEST_FAST} --halo cuda-ipc
    EXPECT 2 "--halo cuda-ipc: not possible for the host model: the model's memory is host memory" LABELS mpi input)
  add_test(NAME cgsolve_cg1_equivalence COMMAND python3 ${CG_HIST} 1e-8 ${_hist}_n16_1.csv
    ${_hist}_cg1_n16_1.csv ${_hist}_cg1_n16_3.csv)
  set_tests_properties(cgsolve_cg1_equivalence PROPERTIES LABELS mpi FIXTURES_REQUIRED cgsolve_hist)
  pp_mpi_command(_mpi2 2)
  # Weak scaling: N = 8 per rank on 2 ranks is the global N = 10 cube.
  pp_test(cgsolve_mpi2_weak COMMAND ${_mpi2} ${CG} --size 8 --scaling weak ${_run}
    EXPECT 0 "cg_solve +host +10 .*PASS" LABELS mpi)
  pp_mpi_command(_mpi3 3)
  # The checks under MPI (the matrix-free residual with the neighbours' planes).
  pp_test(cgsolve_mpi2_reference COMMAND ${_mpi2} ${CG} --backend host ${CG_20IT} ${PP_TEST_FAST}
    EXPECT 0 "cg_solve +host .*PASS .*vs ref" LABELS mpi validate)
  pp_test(cgsolve_mpi3_fault_spmv_zero COMMAND ${_mpi3} ${CG} --backend host ${CG_TINY} ${PP_TEST_FAST} --inject-fault spmv-zero
    EXPECT 1 "FAIL breakdown at it 1" LABELS mpi validate)
  pp_test(cgsolve_mpi2_fault_x COMMAND ${_mpi2} ${CG} --backend host ${CG_TINY} ${PP_TEST_FAST} --inject-fault cg-x
    EXPECT 1 "FAIL relres .*. gap" LABELS mpi validate)
  # A usage error every rank sees: printed once, exit 2 (no MPI_Abort).
  pp_test(cgsolve_mpi2_too_big COMMAND ${_mpi2} ${CG} --backend host --size 1200 --quiet
    EXPECT 2 "^cgsolve: (rank 0 of 2: )?N = 1200 \\([0-9]+ rows, [0-9]+ entries on rank 0\\) needs" LABELS mpi input
    ENV ${PP_TEST_MEMORY})
  pp_test(cgsolve_mpi3_too_few_planes COMMAND ${_mpi3} ${CG} --backend host --size 1 --quiet
    EXPECT 2 "N = 1 has 2 z-planes of nodes, fewer than the 3 ranks" LABELS mpi input)
endif()

# the halo path choice: unit and end to end with the GPU facts faked
include(${CMAKE_CURRENT_LIST_DIR}/halo.cmake)

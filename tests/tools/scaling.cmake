# validate/scaling (multi-GPU scaling tables, issue 14) on real 1- and 2-rank
# host runs of the MPI apps (a subset of apps.txt), and planted faults in copies
# of their result files (checksum, energy, shared GPU, invalid row, no 1-rank run).
if(PP_HAVE_MPI)
  # the launcher and its options, the rank count flag last (the test appends the count)
  pp_mpi_command(pp_scaling_mpi 1)
  list(REMOVE_AT pp_scaling_mpi 1 2)
  list(APPEND pp_scaling_mpi ${MPIEXEC_NUMPROC_FLAG})
  string(JOIN " " pp_scaling_mpi ${pp_scaling_mpi})
  pp_pytest(tools_scaling MODULE test_scaling.py ARGS --pp-mpi "${pp_scaling_mpi}" LABELS mpi validate TIMEOUT 600)
endif()
# validate/scaling-run.sh --dry-run: the series of every app whose manifest names them.
pp_test(scaling_run_dry_run COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/scaling_plan.sh ${PROJECT_SOURCE_DIR}
        ${CMAKE_CURRENT_BINARY_DIR}/scaling-plan EXPECT 0 "scaling_plan: every app with series planned, nothing run"
        LABELS unit)
# --help answers (it was taken for OUT and reached mkdir); an unknown option and no OUT are usage
# errors, before anything is made
set(_srun ${PROJECT_SOURCE_DIR}/validate/scaling-run.sh)
pp_test(scaling_run_help COMMAND sh ${_srun} --help EXPECT 0 "^Multi-GPU scaling runs on one node" LABELS unit)
pp_test(scaling_run_unknown COMMAND sh ${_srun} --bogus EXPECT 2 "^scaling-run: unknown option '--bogus' \\(see --help\\)" LABELS unit)
pp_test(scaling_run_no_out COMMAND sh ${_srun} EXPECT 2 "Usage: validate/scaling-run.sh" LABELS unit)

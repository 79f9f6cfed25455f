# The MPI contract (docs/running.md#mpi): usage errors every rank sees are
# printed once and end with exit 2 on every rank (no MPI_Abort), and ranks
# given other options or other input bytes than rank 0 stop at start-up with
# exit 2 and one line naming the difference, instead of hanging or failing
# inside MPI. MPMD command lines (`A : B`) give ranks their own arguments;
# -wdir gives them their own file behind one relative name.
if(NOT PP_HAVE_MPI)
  return()
endif()
pp_mpi_command(_ag1 1)
pp_mpi_command(_ag2 2)
pp_mpi_command(_ag3 3)
set(_agF --ceiling-mib 1 --warmup 0 --samples 1 --bootstrap 0 --quiet)
set(_agCG $<TARGET_FILE:cgsolve> --backend host --size 4 ${_agF})
set(_agMB $<TARGET_FILE:microbench> --backend host --kernels copy ${_agF})
set(_agSP $<TARGET_FILE:spmv> --backend host ${_agF})
set(_agTS0 $<TARGET_FILE:testsnap> --backend host --warmup 0 --ceiling-mib 1 --quiet) # its own --steps
set(_agTS ${_agTS0} --steps 1)
set(_agW ${PROJECT_SOURCE_DIR}/inputs/testsnap/W_2J8_2000)
set(_agNo --absent MPI_ABORT --once)
# the second and later app contexts of an MPMD line
set(_agNext : ${MPIEXEC_NUMPROC_FLAG} 1)

# agree_case(NAME REGEX COMMAND...): exit 2, REGEX on exactly one line, no MPI_Abort.
set(_agAll)
function(agree_case name re)
  add_test(NAME agree_${name} COMMAND ${PP_EXPECT} ${_agNo} 2 "${re}" -- ${ARGN})
  set(_agAll ${_agAll} agree_${name} PARENT_SCOPE)
endfunction()

# 4. Usage errors found after the session started, by every rank: once, exit 2.
set(_tiny ${PROJECT_SOURCE_DIR}/inputs/minife/tiny.deck)
agree_case(usage_deck_and_size "give --deck or --size, not both"
  ${_ag2} ${_agSP} --deck ${_tiny} --size 10)
agree_case(usage_cg_deck_and_size "give --deck or --size, not both" ${_ag3} ${_agCG} --deck ${_tiny})
agree_case(usage_team_too_big "--rows-per-team x --vector-len = 65536 threads per team; at most 1024"
  ${_ag3} ${_agSP} --size 4 --rows-per-team 1024 --vector-len 64)
agree_case(usage_fd_check_ref "--fd-check needs a periodic configuration"
  ${_ag2} ${_agTS} --case W_2 --fd-check 1)
# 5. Ranks that disagree: the options (each a hang or an MPI error before).
agree_case(options_value "rank 1 of 2: --max-iters 6 where rank 0 has --max-iters 5"
  ${_ag1} ${_agCG} --max-iters 5 ${_agNext} ${_agCG} --max-iters 6)
agree_case(options_sizes "rank 1 of 2: --size 2048 where rank 0 has --size 1024"
  ${_ag1} ${_agMB} --size 1024 ${_agNext} ${_agMB} --size 2048)
agree_case(options_extra "rank 2 of 3: the command line has an extra argument [0-9]+ '--history'"
  ${_ag2} ${_agCG} ${_agNext} ${_agCG} --history agree-h.csv)
agree_case(options_lacks "rank 2 of 3: the command line lacks rank 0's argument [0-9]+ '--dump'"
  ${_ag2} ${_agTS} --case W_2J8_2000 --dump agree.dump ${_agNext} ${_agTS} --case W_2J8_2000)
agree_case(options_steps "rank 1 of 2: --steps 3 where rank 0 has --steps 2"
  ${_ag1} ${_agTS0} --case W_2J8_2000 --steps 2 ${_agNext} ${_agTS0} --case W_2J8_2000 --steps 3)
agree_case(options_backend "rank 2 of 3: --backend all where rank 0 has --backend host"
  ${_ag2} ${_agCG} ${_agNext} $<TARGET_FILE:cgsolve> --backend all --size 4 ${_agF})

# 5. ... and the inputs: one relative name, other bytes per rank.
set(_agD ${CMAKE_CURRENT_BINARY_DIR}/agree)
file(READ ${PROJECT_SOURCE_DIR}/inputs/minife/tiny.deck _deck)
file(WRITE ${_agD}/a/d.deck "${_deck}")
file(WRITE ${_agD}/b/d.deck "${_deck}# one more comment\n")
file(READ ${_agW}/data.W_2J8_2000 _data)
file(WRITE ${_agD}/a/in.data "${_data}")
# atom 2 moved onto atom 1: a configuration the other rank never sees
string(REPLACE "\n2 1 1.5908933562752527 1.5897389181720971 1.591097718438668 "
               "\n2 1 0.00076389951434168 0.0008591375406175561 31.802524645159263 " _data "${_data}")
file(WRITE ${_agD}/b/in.data "${_data}")
set(_agTSd ${_agTS} --data in.data --coeff ${_agW}/W_2940_2017_2.snapcoeff --param ${_agW}/W_2940_2017_2.snapparam)
agree_case(input_deck "rank 2 of 3: the input deck 'd.deck' differs from rank 0's input deck 'd.deck'"
  ${_ag2} -wdir ${_agD}/a ${_agSP} --deck d.deck ${_agNext} -wdir ${_agD}/b ${_agSP} --deck d.deck)
agree_case(input_data "rank 1 of 2: the data file 'in.data' differs from rank 0's data file 'in.data'"
  ${_ag1} -wdir ${_agD}/a ${_agTSd} ${_agNext} -wdir ${_agD}/b ${_agTSd})
# The one argument that may differ: a rank's --device (and equal inputs pass).
add_test(NAME agree_device_may_differ COMMAND ${PP_EXPECT} 0 "cg_solve +host" --
  ${_ag1} -wdir ${_agD}/a $<TARGET_FILE:cgsolve> --backend host ${_agF} --device 0 --deck d.deck
  ${_agNext} -wdir ${_agD}/a $<TARGET_FILE:cgsolve> --backend host ${_agF} --device 1 --deck d.deck)

set_tests_properties(${_agAll} agree_device_may_differ PROPERTIES LABELS "mpi;input;unit" ENVIRONMENT "${PP_TEST_ENV}" TIMEOUT 60)

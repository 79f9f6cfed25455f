# The session and report layer through microbench: inputs refused before the
# copy ceiling is measured, OpenMP devices' memory, --device range, the host
# ceiling and %copy, raw samples and their MPI combination.
set(MB $<TARGET_FILE:microbench>)

# An oversized problem is refused (exit 2) before the ceiling's 2 x 256 MiB+ copy.
pp_test(session_refuse_before_ceiling COMMAND ${MB} --backend ${PP_TEST_MODELS} --size 2^30
  EXPECT 2 "needs [0-9.]+ GiB of (device|host) memory" LABELS unit input ENV ${PP_TEST_MEMORY})
set_tests_properties(session_refuse_before_ceiling PROPERTIES FAIL_REGULAR_EXPRESSION "measuring the copy ceiling")
# Host memory: compared with what is available, and the message names both
# figures (the machine's own, read now: the one fit test without PP_TEST_MEMORY_GIB).
pp_test(session_host_fit COMMAND ${MB} --backend host --size 2^29 --quiet
  EXPECT 2 "needs [0-9.]+ GiB of host memory; this node has [0-9.]+ GiB available \\(MemAvailable\\) of [0-9.]+ GiB physical"
  LABELS unit input)
if(PP_HAVE_OMP AND PP_OFFLOAD STREQUAL "cpu")
  # omp alone knows its device's memory (the host's, for the host as a device): exit 2, not 3.
  pp_test(session_omp_device_fit COMMAND ${MB} --backend omp --size 2^30 --quiet
    EXPECT 2 "needs [0-9.]+ GiB of device memory; omp device 0 has [0-9.]+ GiB free" LABELS unit input
    ENV ${PP_TEST_MEMORY})
  pp_test(session_bad_device COMMAND ${MB} --backend omp --device 99 --size 64 --quiet
    EXPECT 2 "omp: --device 99: this node has [0-9]+ OpenMP (offload )?devices?(, the host fallback)? \\(0 to [0-9]+\\)" LABELS unit input)
endif()

# The memory a fit check assumes for tests must be two positive figures.
pp_test(session_test_memory_malformed COMMAND ${MB} --backend host --size 64 --quiet
  EXPECT 2 "PP_TEST_MEMORY_GIB: expected 'HOST_GIB,DEVICE_GIB'" LABELS unit input ENV PP_TEST_MEMORY_GIB=16)

# The host ceiling streams from memory; CPU-offload omp is measured against it.
# Rows whose working set fits in the cache show no %copy; the others stay
# below 400%. They read 200-2400% against the old cache-resident and one-thread
# ceilings (1745% when omp is measured through omp_target_memcpy again); a
# correct ceiling reads up to ~190% for triad on a loaded 2-core CI machine
# (a CPU copy moves 3 arrays and counts 2), so 4x separates the two cases.
# The large size is one whose rows stream from memory on this host (beyond_cache.sh).
set(_beyond ${CMAKE_CURRENT_LIST_DIR}/beyond_cache.sh ${MB} --)
pp_test(session_copy_ceiling
  COMMAND ${_beyond} ${PP_HARNESS}/json_roundtrip.sh session_ceiling --copy-fraction-below 4.0 --
          ${MB} --backend ${PP_TEST_MODELS} --size 2^12,@BIG@ --kernels copy,triad,dot --tpb 256
          --warmup 1 --samples 3 --bootstrap 100 --quiet
  LABELS unit validate)
# Alone: a ceiling measured while other tests load the cores is no roof for rows timed after them.
set_tests_properties(session_copy_ceiling PROPERTIES RUN_SERIAL TRUE)
set_property(TEST session_copy_ceiling APPEND PROPERTY LABELS slow)
# --ceiling-mib below 8 x the last-level cache: no honest host ceiling, every %copy '-'.
pp_test(session_no_small_ceiling COMMAND ${MB} --backend host --size 2^24 --kernels copy ${PP_TEST_FAST}
  EXPECT 0 "copy +host +16777216 +- +[0-9.]+ ms +[0-9.]+ GB/s +- +- +PASS" LABELS unit)
# The summary after the table.
pp_test(session_summary COMMAND ${_beyond} ${PP_EXPECT} 0 "^triad +@BIG@ +- +[0-9.]+%" --
  ${MB} --backend host --size 2^12,@BIG@ --kernels triad,dot --warmup 1 --samples 2 --quiet LABELS unit)
# Alone: its arrays are sized beyond the host's cache (GiBs where the cache is large).
set_tests_properties(session_summary PROPERTIES RUN_SERIAL TRUE)
set_property(TEST session_summary APPEND PROPERTY LABELS slow)

if(PP_HAVE_MPI)
  # Two ranks: every row's samples, statistics and FOM are the slowest rank's.
  pp_mpi_command(_mpi2 2)
  pp_test(session_mpi2_json
    COMMAND ${PP_HARNESS}/json_roundtrip.sh session_mpi2 --ranks 2 --min-rows 6 --
            ${_mpi2} ${MB} --backend host --size 4096,2^18 --kernels copy,triad,reduce ${PP_TEST_FAST}
    LABELS mpi unit)
endif()

# The published results table (docs/results.md) is computed from the committed JSON, not typed:
# the script runs on them and the document holds exactly its output ...
set(RT ${PROJECT_SOURCE_DIR}/validate/results-table.py)
pp_test(results_table COMMAND python3 ${RT} --check
  EXPECT 0 "results.md table matches the JSON" LABELS unit)
# ... which --check can tell: a copy of the document with one figure changed is stale.
file(READ ${PROJECT_SOURCE_DIR}/docs/results.md _doc)
string(REGEX REPLACE "\\| 1\\.00 \\| ([0-9])" "| 1.00 | 9\\1" _doc "${_doc}")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/results-table-stale.md "${_doc}")
pp_test(results_table_stale COMMAND python3 ${RT} --check --doc ${CMAKE_CURRENT_BINARY_DIR}/results-table-stale.md
  EXPECT 1 "results-table-stale.md's table differs from the JSON" LABELS unit)
# ... and a result file that did not validate is refused, never shown.
set(_rt ${CMAKE_CURRENT_BINARY_DIR}/results-table-unvalidated/nvidia-h200)
file(READ ${PROJECT_SOURCE_DIR}/results/nvidia-h200/microbench/run1.json _j)
string(REPLACE "\"validated\": true" "\"validated\": false" _j "${_j}")
file(WRITE ${_rt}/microbench/run1.json "${_j}")
pp_test(results_table_unvalidated COMMAND python3 ${RT} --results ${_rt}/..
  EXPECT 2 "microbench/run1.json: not validated" LABELS unit)

# The outputs contract (docs/running.md#output), checked at start-up for
# every output of every app (--json, --csv, testsnap's --dump, cgsolve's
# --history): a regular file or a new path, never a FIFO or a device (nor a
# symlink to one), never one of the run's inputs, never another output of the
# run; exit 2 with one line before anything runs. tests/common/outputs.sh sets each
# case up. Before, the FIFO cases blocked forever after the whole run (hence
# the short TIMEOUT), the device cases were written through (and created
# /dev/full.host), the others overwrote an input or another output, exit 0.
set(_out ${CMAKE_CURRENT_LIST_DIR}/outputs.sh)
set(_outF --ceiling-mib 1 --warmup 0 --bootstrap 0 --quiet)
set(_outMB ${MB} --backend host --size 4096 --kernels triad --samples 1 ${_outF})
set(_outCG $<TARGET_FILE:cgsolve> --backend host --size 4 --samples 1 ${_outF})
set(_outTS $<TARGET_FILE:testsnap> --coeff ${PROJECT_SOURCE_DIR}/inputs/testsnap/W_2J8_2000/W_2940_2017_2.snapcoeff
  --param ${PROJECT_SOURCE_DIR}/inputs/testsnap/W_2J8_2000/W_2940_2017_2.snapparam --steps 1 ${_outF})
set(_notype "\\(an output is a regular file or a new path\\)")
pp_test(outputs_fifo COMMAND ${_out} fifo ${_outMB}
  EXPECT 2 "--json: cannot write '.*/f\\.json': is a FIFO ${_notype}" LABELS unit input)
pp_test(outputs_fifo_symlink COMMAND ${_out} fifo_link ${_outCG}
  EXPECT 2 "--history: cannot write '.*/h\\.csv': is a FIFO" LABELS unit input)
pp_test(outputs_devnull_symlink COMMAND ${_out} null_link ${_outMB}
  EXPECT 2 "--csv: cannot write '.*/r\\.csv': is a device ${_notype}" LABELS unit input)
pp_test(outputs_dump_devfull COMMAND ${_out} dump_full ${_outTS} --lattice 4 --backend ${PP_TEST_MODELS}
  EXPECT 2 "--dump: cannot write '/dev/full': is a device" LABELS unit input)
set_tests_properties(outputs_fifo outputs_fifo_symlink outputs_devnull_symlink outputs_dump_devfull
  PROPERTIES TIMEOUT 10)
pp_test(outputs_json_onto_deck COMMAND ${_out} json_deck ${PROJECT_SOURCE_DIR}/inputs/minife/tiny.deck
  $<TARGET_FILE:spmv> --backend host --samples 1 ${_outF}
  EXPECT 2 "--json '.*/\\./in\\.deck' is also the input deck '.*/in\\.deck': an output never replaces an input"
  LABELS unit input)
pp_test(outputs_dump_onto_data COMMAND ${_out} dump_data
  ${PROJECT_SOURCE_DIR}/inputs/testsnap/W_2J8_2000/data.W_2J8_2000 ${_outTS} --backend host
  EXPECT 2 "--dump '.*/in\\.data' is also the data file '.*/in\\.data': an output never replaces an input"
  LABELS unit input)
pp_test(outputs_json_is_csv COMMAND ${_out} json_csv ${_outMB}
  EXPECT 2 "--csv '.*/r' is also the --json file '.*/r': each output needs its own file" LABELS unit input)
pp_test(outputs_dump_is_json COMMAND ${_out} dump_json ${_outTS} --lattice 4 --backend host
  EXPECT 2 "--dump '.*/r' is also the --json file '.*/r': each output needs its own file" LABELS unit input)
# Names in messages at the end of the run are escaped as at start-up: a write
# that fails there (a file size limit of 0) names the path with \xNN, no raw
# control byte. Before, the terminal got ESC ] 0 ; ... BEL as given.
add_test(NAME outputs_end_names_escaped COMMAND ${PP_EXPECT} --clean 4
  "cannot write JSON file '.*/r\\\\x1b\\]0;pwn\\\\x07\\.json': File too large"
  -- ${_out} ctl_json ${_outMB})
add_test(NAME outputs_end_history_escaped COMMAND ${PP_EXPECT} --clean 4
  "--history: cannot write '.*/r\\\\x1b\\]0;pwn\\\\x07\\.csv'" -- ${_out} ctl_history ${_outCG})
# The same after an earlier process of the same PID left libomp's /tmp
# registration file empty: outputs.sh removes it first (else SIGBUS, exit 135).
add_test(NAME outputs_stale_registration COMMAND ${PP_EXPECT} --clean 4
  "--history: cannot write '.*/r\\\\x1b\\]0;pwn\\\\x07\\.csv'" -- ${_out} stale_history ${_outCG})
# A disk nearly full: the CSV fits, the JSON does not. Nothing is written unless
# everything is (before, the CSV stayed and the JSON's message gave no reason),
# and a write failure is exit 4, not a failed validation.
add_test(NAME outputs_all_or_none COMMAND ${PP_EXPECT} 4
  "cannot write JSON file '.*/r\\.json': File too large\nno output file was written" -- ${_out} partial ${_outMB})
add_test(NAME outputs_all_or_none_dump COMMAND ${PP_EXPECT} 4 "no output file was written"
  -- ${_out} partial ${_outTS} --lattice 4 --backend host)
set_tests_properties(outputs_end_names_escaped outputs_end_history_escaped outputs_stale_registration
  outputs_all_or_none outputs_all_or_none_dump PROPERTIES LABELS "unit;input" ENVIRONMENT "${PP_TEST_ENV}" TIMEOUT 120)
# `app ... --json --csv | head -1`: the reader gone, the text stops, never the run or its files.
# Every app's small run (its manifest's [tests] small); microbench's default sizes.
function(pp_closed_stdout app)
  pp_test(outputs_closed_stdout_${app} COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/app_closed_stdout.py
    ${CMAKE_CURRENT_BINARY_DIR}/closed_stdout_${app} $<TARGET_FILE:${app}> ${ARGN} LABELS unit)
  set_tests_properties(outputs_closed_stdout_${app} PROPERTIES TIMEOUT 60)
endfunction()
pp_closed_stdout(microbench --backend host ${_outF} --samples 1)
set_property(TEST outputs_closed_stdout_microbench APPEND PROPERTY LABELS slow) # its default sizes: seconds
foreach(app ${PP_APPS})
  if(NOT TARGET ${app} OR TEST outputs_closed_stdout_${app})
    continue()
  endif()
  set(_args --backend host ${_outF})
  if(NOT "${PP_APP_${app}.steps_are_samples}" STREQUAL "true")
    list(APPEND _args --samples 1)
  endif()
  pp_app_args(_small ${app} tests.small)
  pp_closed_stdout(${app} ${_args} ${_small})
endforeach()

# The inherited OpenMP environment is checked before the runtime starts, from
# one table (common/src/omp_env.c): on these values LLVM 19's libomp or
# libomptarget aborts (SIGABRT: an assertion, "OMP: Error", an uncaught C++
# exception, a heap error), crashes or hangs. Each is refused with exit 2 and
# one line ("OMP:" is the runtime speaking: too late). Before the table, every
# row but the first five ran into the runtime: exit 134 with a backtrace, 139,
# or a hang past the TIMEOUT (KMP_CPUINFO_FILE=/dev/zero, the FIFOs); the
# libomptarget memory manager's row, read only by GPU plugins, exited 0 here.
set(_ompfifo ${CMAKE_CURRENT_BINARY_DIR}/omp-env.fifo)
file(REMOVE ${_ompfifo})
execute_process(COMMAND mkfifo ${_ompfifo})
set(_big "\\(the OpenMP runtime could abort\\)")
set(_ovf "more than 2147483647 \\(libomp's parser overflows and aborts\\)")
foreach(row "omp_threads_negative|OMP_NUM_THREADS=-1|OMP_NUM_THREADS='-1' is not a comma-separated list of positive integers"
            "omp_threads_word|OMP_NUM_THREADS=abc|OMP_NUM_THREADS='abc' is not a comma-separated list of positive integers"
            "omp_threads_empty|OMP_NUM_THREADS=|OMP_NUM_THREADS='' is not a comma-separated list of positive integers"
            "omp_threads_many|OMP_NUM_THREADS=100000|OMP_NUM_THREADS='100000' asks for more than 4096 threads ${_big}"
            "omp_stack_huge|OMP_STACKSIZE=1T|OMP_STACKSIZE='1T' is more than 1024 MiB per thread ${_big}"
            "omp_kmp_stack_huge|KMP_STACKSIZE=1T|KMP_STACKSIZE='1T' is more than 1024 MiB per thread ${_big}"
            "omp_gomp_stack_huge|GOMP_STACKSIZE=1T|GOMP_STACKSIZE='1T' is more than 1024 MiB per thread ${_big}"
            "omp_gomp_stack_overflow|GOMP_STACKSIZE=99999999999999999999|GOMP_STACKSIZE='99999999999999999999' is more than 1024 MiB per thread ${_big}"
            "omp_stack_offset_huge|KMP_STACKOFFSET=2G|KMP_STACKOFFSET='2G' is more than 1024 MiB ${_big}"
            "omp_align_alloc_big|KMP_ALIGN_ALLOC=32768|KMP_ALIGN_ALLOC='32768' is 32 KiB or more"
            "omp_align_alloc_odd|KMP_ALIGN_ALLOC=100|KMP_ALIGN_ALLOC='100' is not a power of two"
            "omp_places_overflow|OMP_PLACES=threads(2147483648)|OMP_PLACES='threads\\(2147483648\\)' holds the number 2147483648, ${_ovf}"
            "omp_proc_bind_overflow|OMP_PROC_BIND=2147483648|OMP_PROC_BIND='2147483648' holds the number 2147483648, ${_ovf}"
            "omp_affinity_overflow|KMP_AFFINITY=granularity=fine,2147483648|KMP_AFFINITY='granularity=fine,2147483648' holds the number 2147483648, ${_ovf}"
            "omp_helper_affinity_overflow|KMP_HIDDEN_HELPER_AFFINITY=0,2147483648|KMP_HIDDEN_HELPER_AFFINITY='0,2147483648' holds the number 2147483648, ${_ovf}"
            "omp_blocktime_overflow|KMP_BLOCKTIME=2147483648us|KMP_BLOCKTIME='2147483648us' holds the number 2147483648, ${_ovf}"
            "omp_gomp_affinity_junk|GOMP_CPU_AFFINITY=1x|GOMP_CPU_AFFINITY='1x' is not a list of CPUs N, N-M, N-M:S or \\{N,...\\}"
            "omp_gomp_affinity_overflow|GOMP_CPU_AFFINITY=0-2147483648|GOMP_CPU_AFFINITY='0-2147483648' holds the number 2147483648, ${_ovf}"
            "omp_force_reduction|KMP_FORCE_REDUCTION=fast|KMP_FORCE_REDUCTION='fast' is not critical, atomic or tree"
            "omp_forkjoin_zero|KMP_FORKJOIN_BARRIER=0,1|KMP_FORKJOIN_BARRIER='0,1' sets 0 branch bits"
            "omp_forkjoin_release_zero|KMP_FORKJOIN_BARRIER=1,|KMP_FORKJOIN_BARRIER='1,' sets 0 branch bits"
            "omp_lock_props_empty|KMP_ADAPTIVE_LOCK_PROPS=|KMP_ADAPTIVE_LOCK_PROPS='' is empty"
            "omp_backoff_empty|KMP_SPIN_BACKOFF_PARAMS=|KMP_SPIN_BACKOFF_PARAMS='' is empty"
            "omp_hot_teams_huge|KMP_HOT_TEAMS_MAX_LEVEL=2147483647|KMP_HOT_TEAMS_MAX_LEVEL='2147483647' is more than 65536 levels"
            "omp_cpuinfo_dev_zero|KMP_CPUINFO_FILE=/dev/zero|KMP_CPUINFO_FILE='/dev/zero' is not a regular file"
            "omp_cpuinfo_missing|KMP_CPUINFO_FILE=/nonexistent/cpuinfo|KMP_CPUINFO_FILE='/nonexistent/cpuinfo' cannot be opened: No such file or directory"
            "omp_cpuinfo_invalid|KMP_CPUINFO_FILE=${PROJECT_SOURCE_DIR}/apps.txt|KMP_CPUINFO_FILE='.*/apps.txt' has no 'processor' line"
            "omp_tool_verbose_file|OMP_TOOL_VERBOSE_INIT=${CMAKE_CURRENT_BINARY_DIR}/omp-tool.log|OMP_TOOL_VERBOSE_INIT='.*/omp-tool.log' names a file"
            "omp_tool_libraries_fifo|OMP_TOOL_LIBRARIES=${_ompfifo}|OMP_TOOL_LIBRARIES='.*/omp-env.fifo' names .*/omp-env.fifo, a FIFO"
            "omp_target_profile_fifo|LIBOMPTARGET_PROFILE=${_ompfifo}|LIBOMPTARGET_PROFILE='.*/omp-env.fifo' is a FIFO"
            "omp_target_info_word|LIBOMPTARGET_INFO=abc|LIBOMPTARGET_INFO='abc' is not an integer \\(libomptarget's std::stoi throws"
            "omp_target_debug_range|LIBOMPTARGET_DEBUG=2147483648|LIBOMPTARGET_DEBUG='2147483648' is out of int range"
            "omp_target_mm_word|LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD=abc|LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD='abc' is not an integer")
  pp_case_split("${row}" name env re)
  pp_test(session_${name} COMMAND ${MB} --backend ${PP_TEST_MODELS} --size 4096 --kernels copy ${PP_TEST_FAST}
    EXPECT 2 "^microbench: ${re}.* \\(see --help\\)$" LABELS unit input ENV ${env})
  set_tests_properties(session_${name} PROPERTIES TIMEOUT 10 FAIL_REGULAR_EXPRESSION "OMP:")
endforeach()
# ... and every such variable at a value the runtime takes runs (no false
# refusal), in two runs: libomp warns when rivals (KMP_STACKSIZE and
# GOMP_STACKSIZE, GOMP_CPU_AFFINITY and OMP_PLACES) are both set.
pp_test(session_omp_env_valid COMMAND ${MB} --backend ${PP_TEST_MODELS} --size 4096 --kernels copy,dot ${PP_TEST_FAST}
  EXPECT 0 "dot +(omp|host) .*PASS" LABELS unit
  ENV KMP_STACKSIZE=4M KMP_STACKOFFSET=64 KMP_ALIGN_ALLOC=128 GOMP_CPU_AFFINITY=0 KMP_BLOCKTIME=200ms
      KMP_FORCE_REDUCTION=atomic KMP_FORKJOIN_BARRIER=2,2 KMP_ADAPTIVE_LOCK_PROPS=1,1024
      KMP_SPIN_BACKOFF_PARAMS=4096,100 KMP_HOT_TEAMS_MAX_LEVEL=2 KMP_CPUINFO_FILE=/proc/cpuinfo
      OMP_TOOL_VERBOSE_INIT=disabled OMP_TOOL_LIBRARIES= LIBOMPTARGET_INFO=0 LIBOMPTARGET_DEBUG=0
      LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD=0 LIBOMPTARGET_PROFILE=)
pp_test(session_omp_env_valid_places COMMAND ${MB} --backend ${PP_TEST_MODELS} --size 4096 --kernels copy,dot ${PP_TEST_FAST}
  EXPECT 0 "dot +(omp|host) .*PASS" LABELS unit
  ENV GOMP_STACKSIZE=4096 OMP_PLACES=threads OMP_PROC_BIND=close KMP_HIDDEN_HELPER_AFFINITY=none)
set_tests_properties(session_omp_env_valid session_omp_env_valid_places PROPERTIES TIMEOUT 60
  FAIL_REGULAR_EXPRESSION "OMP:")
if(PP_HAVE_MPI)
  # Under MPI rank 0 writes, so rank 0 checks; every rank exits 2, the line printed once.
  pp_mpi_command(_mpi2o 2)
  add_test(NAME outputs_mpi2_fifo COMMAND ${PP_EXPECT} --once --absent MPI_ABORT 2
    "--json: cannot write '.*/f\\.json': is a FIFO" -- ${_out} fifo ${_mpi2o} ${_outMB})
  add_test(NAME outputs_mpi2_dump_onto_data COMMAND ${PP_EXPECT} --once --absent MPI_ABORT 2
    "--dump '.*/in\\.data' is also the data file" -- ${_out} dump_data
    ${PROJECT_SOURCE_DIR}/inputs/testsnap/W_2J8_2000/data.W_2J8_2000 ${_mpi2o} ${_outTS} --backend host)
  set_tests_properties(outputs_mpi2_fifo outputs_mpi2_dump_onto_data PROPERTIES
    LABELS "mpi;input" ENVIRONMENT "${PP_TEST_ENV}" TIMEOUT 30)
endif()

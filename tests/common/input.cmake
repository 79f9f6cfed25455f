# Bad input refused before anything runs (label input): hostile decks, CLI
# values, result-file paths, JSON strings, and usage errors under MPI.
add_executable(test_input ${CMAKE_CURRENT_LIST_DIR}/test_input.c)
pp_link_common(test_input)
set(TI $<TARGET_FILE:test_input>)
set(MB $<TARGET_FILE:microbench>)
set(IN_DECKS ${CMAKE_CURRENT_BINARY_DIR}/decks)
string(ASCII 27 ESC)

# pp_input_test(NAME [ONCE] [CLEAN] [ABSENT re] [TIMEOUT s] EXPECT rc re COMMAND ...):
# pp_test's EXPECT with expect.sh's --once/--absent/--clean checks.
function(pp_input_test name)
  cmake_parse_arguments(T "ONCE;CLEAN" "ABSENT;TIMEOUT" "COMMAND;EXPECT;LABELS" ${ARGN})
  set(flags)
  if(T_ONCE)
    list(APPEND flags --once)
  endif()
  if(T_CLEAN)
    list(APPEND flags --clean)
  endif()
  if(T_ABSENT)
    list(APPEND flags --absent ${T_ABSENT})
  endif()
  pp_expect_split("${T_EXPECT}" rc re)
  add_test(NAME ${name} COMMAND ${PP_EXPECT} ${flags} ${rc} ${re} -- ${T_COMMAND})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 60)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "input;${T_LABELS}" ENVIRONMENT "${PP_TEST_ENV}"
    TIMEOUT ${T_TIMEOUT} FIXTURES_REQUIRED input_decks)
endfunction()

# the hostile decks (fixtures/make_decks.py): a fixture of the input tests, not a test
pp_fixture(input_make_decks input_decks COMMAND python3 ${PP_FIXTURES}/make_decks.py ${IN_DECKS})

# ---- decks (pp/deck.h) --------------------------------------------------------
foreach(ok ok bom crlf utf8)
  pp_input_test(input_deck_${ok} EXPECT 0 "^N = 4" COMMAND ${TI} deck-only ${IN_DECKS}/${ok}.deck N)
endforeach()
pp_input_test(input_deck_empty EXPECT 0 "deck read" COMMAND ${TI} deck ${IN_DECKS}/empty.deck)
# Each refused with file:line, any control byte shown escaped (never raw: CLEAN).
foreach(bad
    "nul|nul.deck:2: NUL byte"
    "escape|escape.deck:2: control character .x1b"
    "lone_cr|lone_cr.deck:1: carriage return .* not followed by a newline"
    "latin1|latin1.deck:1: byte .xe9 is not UTF-8"
    "c1|c1.deck:2: control character U.009B"
    "del|del.deck:1: control character .x7f"
    "long_line|long_line.deck:2: line longer than 1024 characters"
    "many_lines|many_lines.deck: more than 100000 lines"
    "too_big|too_big.deck' has [0-9]+ bytes; a deck has at most 1048576"
    "too_many_keys|too_many_keys.deck:10001: more than 10000 keys"
    "dup_far|dup_far.deck:5001: 'k17' is set again \\(first on line 18\\)"
    "dup_order|dup_order.deck:3: 'b' is set again \\(first on line 1\\)")
  string(FIND "${bad}" "|" bar)
  string(SUBSTRING "${bad}" 0 ${bar} name)
  math(EXPR bar "${bar} + 1")
  string(SUBSTRING "${bad}" ${bar} -1 re)
  pp_input_test(input_deck_${name} CLEAN TIMEOUT 10 EXPECT 2 "${re}" COMMAND ${TI} deck ${IN_DECKS}/${name}.deck N)
endforeach()
# 10000 distinct keys (the bound) parse quickly: the duplicate check is not quadratic.
pp_input_test(input_deck_max_keys TIMEOUT 10 EXPECT 0 "k9999 = 9999" COMMAND ${TI} deck ${IN_DECKS}/max_keys.deck k9999)
# Not regular files: refused at once, never read (a FIFO without writer, /dev/zero would hang).
pp_input_test(input_deck_dev_zero TIMEOUT 10 EXPECT 2 "'/dev/zero' is not a regular file" COMMAND ${TI} deck /dev/zero)
pp_input_test(input_deck_fifo TIMEOUT 10 EXPECT 2 "fifo.deck' is not a regular file" COMMAND ${TI} deck ${IN_DECKS}/fifo.deck)
pp_input_test(input_deck_dir EXPECT 2 "dir.deck' is a directory" COMMAND ${TI} deck ${IN_DECKS}/dir.deck)
pp_input_test(input_deck_absent EXPECT 2 "cannot open input deck '/nonexistent.deck'" COMMAND ${TI} deck /nonexistent.deck)
# Unknown keys (pp_deck_only): file, line, key and the nearest known key.
pp_input_test(input_deck_unknown_case EXPECT 2 "unknown_case.deck:3: unknown key 'n' \\(did you mean 'N'\\?\\)"
  COMMAND ${TI} deck-only ${IN_DECKS}/unknown_case.deck N nx)
pp_input_test(input_deck_unknown_typo EXPECT 2 "unknown_typo.deck:2: unknown key 'max_iter' \\(did you mean 'max_iters'\\?\\)"
  COMMAND ${TI} deck-only ${IN_DECKS}/unknown_typo.deck N max_iters tol)
pp_input_test(input_deck_unknown_far EXPECT 2 "unknown_far.deck:2: unknown key 'frobnicate' \\(known keys: N, max_iters\\)"
  COMMAND ${TI} deck-only ${IN_DECKS}/unknown_far.deck N max_iters)
if(TARGET spmv)
  set(SPMV $<TARGET_FILE:spmv>)
  pp_input_test(input_spmv_deck_bom EXPECT 0 "PASS" COMMAND ${SPMV} --deck ${IN_DECKS}/bom.deck --backend host ${PP_TEST_FAST})
  pp_input_test(input_spmv_deck_dev_zero TIMEOUT 10 EXPECT 2 "^spmv: input deck '/dev/zero' is not a regular file"
    COMMAND ${SPMV} --deck /dev/zero)
  pp_input_test(input_spmv_deck_escape CLEAN EXPECT 2 "escape.deck:2: control character" COMMAND ${SPMV} --deck ${IN_DECKS}/escape.deck)
endif()

# ---- command line (pp/cli.h) --------------------------------------------------
foreach(bad
    "empty_element|--size;1,,2|--size: empty element"
    "trailing_comma|--size;1,|--size: empty element"
    "backend_empty|--backend;host,,host|--backend: empty element"
    "value_is_option|--json;--quiet|--json needs a value, found the option '--quiet'"
    "value_missing|--csv|--csv needs a value \\(see --help"
    "too_large|--size;2^70|--size: '2\\^70' is too large"
    "too_large_samples|--samples;99999999999999999999|--samples: '9+' is too large"
    "samples_cap|--samples;100001|--samples: 100001 is outside \\[1, 100000\\]"
    "warmup_cap|--warmup;100001|--warmup: 100001 is outside \\[0, 100000\\]"
    "bootstrap_cap|--bootstrap;100001|--bootstrap: 100001 is outside \\[0, 100000\\]"
    "samples_x_bootstrap|--samples;1001;--bootstrap;100000|--samples 1001 x --bootstrap 100000 = .* at most 1e\\+08"
    "escape|--x${ESC}c|unknown option '--x.x1bc'")
  pp_case_split("${bad}" name parts re)
  pp_input_test(input_cli_${name} CLEAN EXPECT 2 "^microbench: ${re}" COMMAND ${MB} ${parts})
endforeach()
add_test(NAME input_cli_value_empty COMMAND ${PP_EXPECT} 2 "--json needs a value, found an empty string" -- ${MB} --json "")
set_tests_properties(input_cli_value_empty PROPERTIES LABELS input)
# Each option is given once, common and app options of every app, and two spellings
# of one option are one option: a repeat was taken silently, the last value winning.
foreach(row "samples|microbench|--samples;3;--samples;5|--samples given twice \\('3', then '5'\\)"
            "quiet|microbench|--quiet;--quiet|--quiet given twice"
            "json|microbench|--json;a.json;--json;b.json|--json given twice"
            "tpb|microbench|--tpb;128;--tpb;256|--tpb given twice"
            "deck|spmv|--deck;tiny;--deck;tiny|--deck given twice"
            "max_iters|cgsolve|--max-iters;5;--max-iters;6|--max-iters given twice"
            "xs_size|xsbench_like|-s;small;-s;large|-s given twice \\('small', then 'large'\\)"
            "xs_alias|xsbench_like|-s;small;--problem;large|-s and --problem are one option, given twice"
            "xs_kernel_variant|xsbench_like|-k;4;--variant;baseline|-k and --variant are one option"
            "xs_hash_bins|xsbench_like|-h;5;--hash-bins;6|--hash-bins given twice"
            "steps|testsnap|--steps;1;--steps;2|--steps given twice")
  pp_case_split("${row}" name parts re)
  list(GET parts 0 app)
  list(REMOVE_AT parts 0)
  if(TARGET ${app})
    pp_input_test(input_cli_repeat_${name} CLEAN EXPECT 2 "^${app}: ${re}.* \\(see --help\\)$"
      COMMAND $<TARGET_FILE:${app}> ${parts})
  endif()
endforeach()
pp_input_test(input_cli_ok EXPECT 0 "sizes 3: 1 8 2048" COMMAND ${TI} cli --size 1,2^3,2K --samples 100000 --bootstrap 1000)
pp_input_test(input_cli_no_bootstrap EXPECT 0 "samples 100000 bootstrap 0" COMMAND ${TI} cli --samples 100000 --bootstrap 0)

# ---- result files (pp/outfile.h) ----------------------------------------------
set(MB_TINY ${MB} --backend host --size 4096 --kernels triad --warmup 1 --samples 2 --bootstrap 10 --ceiling-mib 8 --quiet)
foreach(case dir missing noperm socket long1099 long5000 symlink replace devnull killed aborted)
  add_test(NAME input_outfile_${case} COMMAND ${CMAKE_CURRENT_LIST_DIR}/outfile.sh ${case} ${TI} ${MB_TINY})
  set_tests_properties(input_outfile_${case} PROPERTIES LABELS input ENVIRONMENT "${PP_TEST_ENV}"
    TIMEOUT 120 SKIP_RETURN_CODE 77)
endforeach()

# ---- JSON strings (pp/json.h) -------------------------------------------------
add_test(NAME input_json_utf8 COMMAND ${CMAKE_CURRENT_LIST_DIR}/json_utf8.sh ${TI} ${MB_TINY})
set_tests_properties(input_json_utf8 PROPERTIES LABELS "input;unit" ENVIRONMENT "${PP_TEST_ENV}" TIMEOUT 120)

# ---- MPI: a usage error printed once, by the rank that found it, exit 2 -------
if(PP_HAVE_MPI)
  pp_mpi_command(_mpi2 2)
  # Only rank 1 knows: it prints, and the job ends (MPI_Abort: the others cannot know).
  pp_input_test(input_mpi_rank1_error ONCE LABELS mpi
    EXPECT 2 "^test_input: rank 1 of 2: bad input seen by rank 1 only" COMMAND ${_mpi2} ${TI} rank1-error)
  # Collective checks: printed once, every rank exits 2, no MPI_ABORT banner.
  pp_input_test(input_mpi_collective_error ONCE ABSENT "MPI_ABORT|MPI_Abort" LABELS mpi
    EXPECT 2 "rank 1 of 2: bad input seen by rank 1 only" COMMAND ${_mpi2} ${TI} collective-error)
  pp_input_test(input_mpi_cli_error ONCE ABSENT "MPI_ABORT|MPI_Abort" LABELS mpi
    EXPECT 2 "--size: empty element" COMMAND ${_mpi2} ${MB} --size 1,,2)
  pp_input_test(input_mpi_cli_repeat ONCE ABSENT "MPI_ABORT|MPI_Abort" LABELS mpi
    EXPECT 2 "--samples given twice" COMMAND ${_mpi2} ${MB} --samples 2 --samples 3)
  # A file size limit the ranks of a launcher cannot start under (ulimit -f 4000:
  # Open MPI failed in MPI_Init_thread with 15 lines of PMIx errors and exit 1):
  # one line before MPI_Init, exit 2, printed by rank 0 only. A rank is known by
  # its launcher's variables (here Slurm's, on a process that MPI_Init then
  # starts alone: exit 1 before); a process no launcher started is left to MPI
  # (the write-error tests run one under ulimit -f 0).
  set(_fsize bash -c "ulimit -f 4000 && exec \"$@\"" bash) # bash: KiB (sh: 512-byte blocks)
  set(_fsize_re "the file size limit \\(ulimit -f\\) is 4000 KiB: MPI cannot start under it.*ulimit -f unlimited")
  pp_input_test(input_fsize_small ONCE EXPECT 2 "^microbench: ${_fsize_re}"
    COMMAND env SLURM_PROCID=0 ${_fsize} ${MB} --backend host --size 4096 --kernels copy --quiet)
  pp_input_test(input_mpi_fsize_small ONCE ABSENT "MPI_Init_thread" LABELS mpi TIMEOUT 120
    EXPECT 2 "^microbench: ${_fsize_re}" COMMAND ${_fsize} ${_mpi2} ${MB} --backend host --size 4096 --kernels copy --quiet)
  pp_input_test(input_mpi_unwritable_json ONCE ABSENT "MPI_ABORT|MPI_Abort" LABELS mpi
    EXPECT 2 "--json: cannot write" COMMAND ${_mpi2} ${MB_TINY} --json /nonexistent/x.json)
  if(TARGET spmv)
    pp_input_test(input_mpi_deck_error ONCE ABSENT "MPI_ABORT|MPI_Abort" LABELS mpi
      EXPECT 2 "nul.deck:2: NUL byte" COMMAND ${_mpi2} ${SPMV} --deck ${IN_DECKS}/nul.deck)
  endif()
endif()

# libFuzzer harnesses of the deck reader and the CLI parsers (tests/fuzz/).
option(PP_BUILD_FUZZ "build the libFuzzer harnesses in tests/fuzz (clang)" OFF)
if(PP_BUILD_FUZZ)
  add_subdirectory(fuzz)
endif()

# xsbench_like: checksums against values XSBench 20 itself printed (read from
# validate/xsbench/checksums.txt, never computed here), every variant, the
# history method, MPI splits, planted faults, bad input refused with exit 2.
set(XS $<TARGET_FILE:xsbench_like>)
set(XS_FAST --warmup 0 --samples 2 --bootstrap 0 --ceiling-mib 8 --quiet)
# The CPU-offload omp model once its kernel file is in the tree.
set(XS_MODELS host)
if(PP_HAVE_OMP AND PP_OFFLOAD STREQUAL "cpu" AND EXISTS ${PROJECT_SOURCE_DIR}/xsbench_like/kernels/omp.c)
  set(XS_MODELS host,omp)
endif()
file(STRINGS ${PROJECT_SOURCE_DIR}/validate/xsbench/checksums.txt XS_RECORDED REGEX "^[a-zA-Z]")

# Sets XS_ARGS (XSBench's arguments, used unchanged) and XS_SUM (its checksum).
function(xs_recorded name)
  foreach(line IN LISTS XS_RECORDED)
    if(line MATCHES "^${name} \\| ([^|]*) \\| ([0-9]+) \\|")
      separate_arguments(args UNIX_COMMAND "${CMAKE_MATCH_1}")
      set(XS_ARGS ${args} PARENT_SCOPE)
      set(XS_SUM ${CMAKE_MATCH_2} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "tests/apps/xsbench_like.cmake: no recorded XSBench run '${name}'")
endfunction()

# xs_check(TEST RUN [extra args]): the run's arguments, its recorded checksum required.
function(xs_check test run)
  xs_recorded(${run})
  pp_test(xsbench_like_${test} COMMAND ${XS} ${XS_ARGS} --expect-checksum ${XS_SUM} ${ARGN} ${XS_FAST}
    EXPECT 0 "checksum ${XS_SUM}" LABELS validate)
endfunction()

foreach(grid unionized nuclide hash)
  xs_check(${grid}_1e5 small-event-${grid}-l100000 --backend ${XS_MODELS})
  xs_check(${grid}_variants small-event-${grid}-l10000 --backend ${XS_MODELS} --variant all)
  xs_check(${grid}_history small-history-${grid}-p1000 --backend host)
endforeach()
xs_check(hash_bins_37 small-event-hash-h37-l100000 --backend ${XS_MODELS})   # XSBench's -h N
xs_check(hash_bins_1 small-event-hash-h1-l10000 --backend ${XS_MODELS})
xs_check(gridpoints small-event-unionized-g1000-l100000 --backend ${XS_MODELS})
xs_check(one_lookup small-event-unionized-l1 --backend ${XS_MODELS} --variant all)
xs_check(history_long small-history-nuclide-p7-l1000 --backend host)
# XSBench's kernel ids select the variants.
xs_check(kernel_id_6 small-event-unionized-l10000 --backend ${XS_MODELS} -k 6)
# the sorted variants sampled by energy band (one band: every lookup) as well as per lookup (default)
xs_check(split_energy small-event-unionized-l10000 --backend ${XS_MODELS} --variant all --split energy)
# --material-launch concurrent: XSBench's checksum still; a model without a
# concurrent launch (host, CPU omp) says it ran them one after another
xs_check(material_concurrent small-event-unionized-l10000 --backend ${XS_MODELS} --variant all
  --material-launch concurrent)
pp_test(xsbench_like_material_serial_note COMMAND ${XS} -s small -l 1000 --backend host -k 6
  --material-launch concurrent --warmup 0 --samples 2 --bootstrap 0 --ceiling-mib 8
  EXPECT 0 "host material launch +serial .this model has no concurrent launch." LABELS validate)
# --material-launch single: one lookups call over all the sorted pairs, each
# lookup's material from its key; XSBench's checksum still (every model)
xs_check(material_single small-event-unionized-l10000 --backend ${XS_MODELS} --variant all
  --material-launch single)
pp_test(xsbench_like_material_single_note COMMAND ${XS} -s small -l 1000 --backend host -k 6
  --material-launch single --warmup 0 --samples 2 --bootstrap 0 --ceiling-mib 8
  EXPECT 0 "host material launch +single: one kernel over all the sorted lookups" LABELS validate)
# --phases: a row per phase after the whole's, with the whole's verdict
pp_test(xsbench_like_phases COMMAND ${XS} -s small -l 10000 --variant all --phases --backend ${XS_MODELS} ${XS_FAST}
  EXPECT 0 "event_sort +host +10000 sorted-energy .-k 6. .* PASS part of event .validated." LABELS validate)
pp_test(xsbench_like_phases_fault COMMAND ${XS} -s small -l 1000 -k 6 --phases --backend host ${XS_FAST}
  --inject-fault xs-checksum EXPECT 1 "event_lookups +host .* FAIL part of event .FAILED." LABELS validate)
# A default run: XSBench's published value, called valid (17M lookups, ~10 s).
pp_test(xsbench_like_published COMMAND ${XS} -m event -s small --backend host --warmup 0 --samples 1
  --bootstrap 0 --ceiling-mib 8
  EXPECT 0 "valid: 945990 is XSBench's published checksum for its default small event run" LABELS validate)
# Any other run: compared with the host computation, and the output says why.
pp_test(xsbench_like_unpublished COMMAND ${XS} -s small -l 5000 --variant all --backend ${XS_MODELS} ${XS_FAST}
  EXPECT 0 "prints any other run's checksum marked INVALID" LABELS validate)

# Planted faults: a wrong checksum and a wrong sort must fail.
pp_test(xsbench_like_fault_checksum COMMAND ${XS} -s small -l 1000 --backend host ${XS_FAST}
  --inject-fault xs-checksum EXPECT 1 "FAIL checksum [0-9]+ != [0-9]+" LABELS validate)
pp_test(xsbench_like_fault_sort COMMAND ${XS} -s small -l 1000 --backend host --variant sorted-energy
  ${XS_FAST} --inject-fault xs-sort EXPECT 1 "FAIL .*sort of 1000 keys WRONG" LABELS validate)
# --split energy: the band sampler checked alone against the host's lookups; one
# pair changed after it ran must fail that check (the checksum still agrees)
pp_test(xsbench_like_fault_band_check COMMAND ${XS} -s small -l 1000 --backend ${XS_MODELS} -k 6
  --split energy ${XS_FAST} --inject-fault xs-band-check
  EXPECT 1 "band sampling alone: 1000 lookups, 1000 kept .host: 1000., WRONG" LABELS validate)
# The band's fault without --split energy: no band, nothing changed, exit 2.
pp_test(xsbench_like_fault_band_not_fired COMMAND ${XS} -s small -l 1000 --backend host -k 6 ${XS_FAST}
  --inject-fault xs-band EXPECT 2 "--inject-fault 'xs-band' changed no result in this run" LABELS validate fault)
# A fault name the app does not plant is refused at start-up, not after the run
# (the large problem runs for tens of seconds: the timeout fails a late refusal).
pp_test(xsbench_like_fault_unknown COMMAND ${XS} -s large --backend host ${XS_FAST} --inject-fault xs-bogus
  EXPECT 2 "^xsbench_like: --inject-fault: 'xs-bogus' is not a fault xsbench_like can plant" LABELS unit)
set_tests_properties(xsbench_like_fault_unknown PROPERTIES TIMEOUT 5)

# MPI: lookups (particles) split over ranks; the checksum equals XSBench's.
if(PP_HAVE_MPI)
  foreach(np 2 3)
    pp_mpi_command(_mpi ${np})
    xs_recorded(small-event-unionized-l100000)
    pp_test(xsbench_like_mpi${np} COMMAND ${_mpi} ${XS} ${XS_ARGS} --expect-checksum ${XS_SUM}
      --backend host --variant all ${XS_FAST} EXPECT 0 "${np} ranks split the lookups" LABELS mpi)
    xs_recorded(small-history-unionized-p1000)
    pp_test(xsbench_like_mpi${np}_history COMMAND ${_mpi} ${XS} ${XS_ARGS} --expect-checksum ${XS_SUM}
      --backend host ${XS_FAST} EXPECT 0 "${np} ranks split the particles" LABELS mpi)
  endforeach()
  # --split energy: the sorted variants' ranks take energy bands; every
  # lookup in exactly one band (the recorded checksum), the device's count of each
  # band the host's (a band that starts late fails both)
  pp_mpi_command(_mpi 3)
  xs_recorded(small-event-unionized-l100000)
  pp_test(xsbench_like_mpi3_split_energy COMMAND ${_mpi} ${XS} ${XS_ARGS} --expect-checksum ${XS_SUM}
    --backend ${XS_MODELS} --variant sorted-energy,sorted-material --split energy ${XS_FAST}
    EXPECT 0 "energy bands .r/3, \\(r\\+1\\)/3\\)" LABELS mpi) # (no '[': CMake lists)
  pp_mpi_command(_mpi 2)
  # the single launch over each rank's band, phases timed (no ranges phase)
  pp_test(xsbench_like_mpi2_split_energy_single COMMAND ${_mpi} ${XS} ${XS_ARGS} --expect-checksum ${XS_SUM}
    --backend ${XS_MODELS} --variant sorted-energy,sorted-material --split energy --material-launch single
    --phases ${XS_FAST} EXPECT 0 "event_lookups .* sorted-material .* PASS part of event .validated." LABELS mpi)
  set_tests_properties(xsbench_like_mpi2_split_energy_single PROPERTIES TIMEOUT 60)
  pp_test(xsbench_like_mpi2_split_lookups COMMAND ${_mpi} ${XS} ${XS_ARGS} --expect-checksum ${XS_SUM}
    --backend ${XS_MODELS} --variant sorted-energy --split lookups ${XS_FAST}
    EXPECT 0 "every variant by contiguous blocks of lookups \\(--split lookups\\)" LABELS mpi)
  pp_test(xsbench_like_mpi2_fault_band COMMAND ${_mpi} ${XS} ${XS_ARGS} --backend ${XS_MODELS}
    --variant sorted-energy --split energy --inject-fault xs-band ${XS_FAST}
    EXPECT 1 "FAIL checksum [0-9]+ != [0-9]+ .*; band count [0-9]+ != [0-9]+" LABELS mpi)
  # one lookup on two ranks: rank 0 has none, and every variant still sums right
  pp_mpi_command(_mpi 2)
  xs_recorded(small-event-unionized-l1)
  pp_test(xsbench_like_mpi2_empty_rank COMMAND ${_mpi} ${XS} ${XS_ARGS} --expect-checksum ${XS_SUM}
    --backend ${XS_MODELS} --variant all ${XS_FAST} EXPECT 0 "2 ranks split the lookups" LABELS mpi)
  # --phases where a rank's energy band is empty: it times no sort, the other
  # rank does, and the phase rows (collective) still agree; this hung before
  pp_test(xsbench_like_mpi2_phases_empty_band COMMAND ${_mpi} ${XS} ${XS_ARGS} --expect-checksum ${XS_SUM}
    --backend ${XS_MODELS} --variant sorted-energy --split energy --phases ${XS_FAST}
    EXPECT 0 "event_sort .* PASS part of event .validated." LABELS mpi)
  set_tests_properties(xsbench_like_mpi2_phases_empty_band PROPERTIES TIMEOUT 60)
endif()

# Bad input: one line, exit 2, before the data is generated (xs_bad_on: on
# the given models; xs_bad: on host).
function(xs_bad_on name models re)
  pp_test(xsbench_like_bad_${name} COMMAND ${XS} ${ARGN} --backend ${models} --quiet EXPECT 2 "${re}" LABELS input)
  set_tests_properties(xsbench_like_bad_${name} PROPERTIES TIMEOUT 60)
endfunction()
function(xs_bad name re)
  xs_bad_on(${name} host "${re}" ${ARGN})
endfunction()
xs_bad(size "-s: unknown problem size \\(small, large, XL, XXL\\)" -s medium)
xs_bad(sort "--sort: expected 'own' or 'vendor'" --sort cub)
xs_bad(sort_check "--sort-check checks the sorted variants. sort" --sort-check)
xs_bad(split_unsorted "--split is how ranks share the sorted variants' lookups" --split energy)
xs_bad(split_value "--split: expected 'lookups' or 'energy'" -k 6 --split band)
xs_bad(material_unsorted "--material-launch is how the sorted variants launch" --material-launch concurrent)
xs_bad(material_value "--material-launch: expected 'serial', 'concurrent' or 'single'" -k 6 --material-launch all)
xs_bad(phases_history "--phases times the event method's phases: not with --method history" -m history --phases)
xs_bad(grid "--grid: expected 'unionized', 'nuclide' or 'hash'" --grid linear)
xs_bad(lookups_0 "-l: 0 is outside \\[1, 1099511627776\\]" -l 0)
xs_bad(lookups_big "--lookups: 1099511627777 is outside \\[1, 1099511627776\\]" --lookups 1099511627777)
xs_bad(history_big "particles x lookups per particle is beyond 2\\^40" -m history -p 2^30 -l 2^11)
xs_bad(method "-m: expected 'event' or 'history'" -m both)
xs_bad(kernel_5 "-k 5 \\(fuel/non-fuel partition\\) is not implemented" -k 5)
xs_bad(variant "--variant: unknown variant" --variant fastest)
xs_bad(history_variant "variants \\(--variant, -k\\) are event-method kernels" -m history -k 6)
xs_bad(size_option "--size is not used" --size 10)
xs_bad(binary "binary file mode is not supported" -b read)
xs_bad(too_big "the XXL unionized-grid data \\([0-9.]+ GiB\\) with the scratch of 17000000 lookups \\([0-9.]+ GiB\\) needs [0-9.]+ GiB of host memory" -s XXL)
# the lookups' scratch, not the data, is what does not fit: say so
xs_bad(scratch_too_big "the scratch of 1099511627776 lookups \\([0-9.e+]+ GiB\\) with the small unionized-grid data \\(0.235 GiB\\) needs" -s small -l 1099511627776)
# '-h' with a number is XSBench's hash bins, a negative one too: refused, never --help
xs_bad(hash_bins_negative "--hash-bins: '-5' is not a non-negative integer" -G hash -h -5)
# a request no asked model can honour is bad usage, before the data is generated
xs_bad(sort_vendor_nowhere "no asked model can run sorted-energy: host: --sort vendor: no vendor sort" -s small --sort vendor -k 6)
# ... also when other rows run: --sort vendor only sorts, and no asked model has one
xs_bad(sort_vendor_row "no asked model can run sorted-energy: host: --sort vendor: no vendor sort"
  -s small -l 1000 --variant baseline,sorted-energy --sort vendor)
# options that would be ignored are refused: -h N without the hash grid, --sort vendor without a sort
xs_bad(hash_bins_grid "--hash-bins \\(XSBench's -h N\\) is for the hash grid" -s small -l 1000 -h 50)
xs_bad(sort_vendor_unsorted "--sort vendor is the sorted variants' sort" -s small -l 1000 --sort vendor)
# '-h' followed by any value is hash bins, checked as one (never --help)
xs_bad(hash_bins_word "--hash-bins: 'foo' is not a non-negative integer" -G hash -h foo)
xs_bad(variant_empty "--variant: empty element in the list" -s small -l 1000 --variant baseline,,fuel)
if(XS_MODELS MATCHES "omp")
  # a model's own limits: history on host only; the sort's 32-bit offsets (2^33 lookups)
  xs_bad_on(history_omp omp "no asked model can run history: omp: the history method runs on the host model only"
    -s small -m history -p 10 -l 5)
  xs_bad_on(lookups_omp omp "omp: 8589934592 lookups per rank, more than its 4294967295"
    -s small -l 2^33)
endif()
set_property(TEST xsbench_like_bad_too_big xsbench_like_bad_scratch_too_big APPEND PROPERTY ENVIRONMENT ${PP_TEST_MEMORY})

# The GPU models' tile radix sort, emulated on the CPU (one thread per GPU
# thread, four blocks at once): 8-bit and 4-bit passes, a partial last tile,
# warps of 32 and 64 lanes, stability, two sorts with the same scratch across
# the epochs' wrap; a planted fault must fail. (Seen failing: no clearing of
# the counts by the last tile, an aggregate taken for a prefix, a status word
# of an earlier pass taken for this one's, a window's word not ready skipped,
# the walk ended after one window.)
if(TARGET xs_kernels_emu)
  set(XS_EMU $<TARGET_FILE:xs_kernels_emu>)
  # 5 tiles, 4 at once: the 4th's look-back passes counts alone (aggregates)
  # over two windows of 2 to a prefix
  pp_test(xsbench_like_tile_sort_w32 COMMAND ${XS_EMU} sort 8200 28 32 EXPECT 0 "8200 keys, bits .28, 64., 32-lane warps, twice: ok" LABELS validate)
  pp_test(xsbench_like_tile_sort_w64 COMMAND ${XS_EMU} sort 8200 28 64 EXPECT 0 "8200 keys, bits .28, 64., 64-lane warps, twice: ok" LABELS validate)
  pp_test(xsbench_like_tile_sort_stable COMMAND ${XS_EMU} sort 4200 60 32 ties EXPECT 0 "stability, twice: ok" LABELS validate)
  pp_test(xsbench_like_tile_sort_fault COMMAND ${XS_EMU} sort 2100 60 32 fault EXPECT 1 "2100 keys.*WRONG" LABELS validate)
  # The band sampler (device/sample_band.h): 3 bands of 40000 lookups (3 blocks
  # at once racing for their places, the last one partial; rings wrapping and
  # flushed at the end), one counter across the launches; and 77 lookups in 4
  # bands (lanes with no step, empty rings). A planted fault must fail. (Seen
  # failing: a ring place without the queued count, the flush's place without
  # the lane, the counter's earlier value not subtracted, the rest left in the
  # ring unwritten. Not seen: the warp barrier after a flush left out, since
  # the emulated ballot is itself a barrier of the warp.)
  pp_test(xsbench_like_band_w32 COMMAND ${XS_EMU} band 40000 3 32 EXPECT 0 "40000 lookups in 3 bands, 32-lane warps: ok" LABELS validate)
  pp_test(xsbench_like_band_w64 COMMAND ${XS_EMU} band 40000 3 64 EXPECT 0 "40000 lookups in 3 bands, 64-lane warps: ok" LABELS validate)
  pp_test(xsbench_like_band_small COMMAND ${XS_EMU} band 77 4 32 EXPECT 0 "77 lookups in 4 bands, 32-lane warps: ok" LABELS validate)
  pp_test(xsbench_like_band_fault COMMAND ${XS_EMU} band 40000 3 32 fault EXPECT 1 "in 3 bands.*WRONG" LABELS validate)
endif()

# More threads than the OpenMP runtime can be sure to create (pp/omp_env.h):
# refused at start-up, where libomp used to abort after the data was built.
pp_test(xsbench_like_threads_too_many COMMAND ${XS} -s small -l 1000 --backend host ${XS_FAST} --threads 65536
  EXPECT 2 "^xsbench_like: --threads: " LABELS unit input)
set_tests_properties(xsbench_like_threads_too_many PROPERTIES TIMEOUT 10 FAIL_REGULAR_EXPRESSION "OMP:")

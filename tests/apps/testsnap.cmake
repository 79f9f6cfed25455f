# testsnap: TestSNAP's own W_2 reference in its convention, the three LAMMPS
# cases against LAMMPS's per-atom dumps, finite differences, the energy
# identity of the GPU models, planted faults, and bad input refused with
# exit 2 naming the file and line.
set(TS $<TARGET_FILE:testsnap>)
set(TS_SELF $<TARGET_FILE:testsnap_selftest>)
set(TS_IN ${PROJECT_SOURCE_DIR}/inputs/testsnap)
set(TS_BAD ${PROJECT_SOURCE_DIR}/testsnap/tests)
set(TS_J8C ${TS_IN}/W_2J8_2000/W_2940_2017_2.snapcoeff)
set(TS_J8P ${TS_IN}/W_2J8_2000/W_2940_2017_2.snapparam)
set(TS_J14C ${TS_IN}/W_2J14_2000_disp/W_2J14_TestSNAP.snapcoeff)
set(TS_J14P ${TS_IN}/W_2J14_2000_disp/W_2J14_TestSNAP.snapparam)
# TS_FAST without --steps, for tests of their own step count (an option is given once)
set(TS_FAST_BASE --warmup 0 --bootstrap 100 --ceiling-mib 8 --quiet)
set(TS_FAST ${TS_FAST_BASE} --steps 1)

# TestSNAP's 2-atom reference: forces on local and ghost atoms, unfolded.
pp_test(testsnap_w2 COMMAND ${TS} --case W_2 --backend ${PP_TEST_MODELS} ${TS_FAST_BASE} --steps 2
  EXPECT 0 "host: forces vs TestSNAP's forces .*RMS \\|F_i - F_ref\\| = [0-9.]+e-1[5-9] eV/A" LABELS validate)
# LAMMPS's per-atom energies and forces (peratom.dump of each case).
foreach(c W_2J8_2000 W_2J8_2000_disp W_2J14_2000_disp)
  pp_test(testsnap_lammps_${c} COMMAND ${TS} --case ${c} --backend ${PP_TEST_MODELS} ${TS_FAST}
    EXPECT 0 "host: energies vs the reference: max .*\nhost: forces vs .*peratom.dump.*\nhost: PASS" LABELS validate)
endforeach()
# Forces against central differences of the energies, on a disordered lattice
# (neighbour counts vary), twojmax 8 and 14.
pp_test(testsnap_fd_j8 COMMAND ${TS} --lattice 4 --displace 0.2 --coeff ${TS_J8C} --param ${TS_J8P}
  --fd-check 24 --backend host ${TS_FAST} EXPECT 0 "host: finite differences .*: PASS" LABELS validate)
pp_test(testsnap_fd_j14 COMMAND ${TS} --lattice 4,4,5 --displace 0.2 --seed 3 --coeff ${TS_J14C}
  --param ${TS_J14P} --fd-check 9 --backend host ${TS_FAST} EXPECT 0 "host: finite differences .*: PASS" LABELS validate)
# Energies through Y (the GPU models' route) equal energies through B; the GPU
# models' level-by-level U and dU recursions and the path forms of --deidrj
# split equal the whole-neighbour ones.
pp_test(testsnap_energy_identity_j8 COMMAND ${TS_SELF} ${TS_J8C} ${TS_J8P}
  EXPECT 0 "through B: .*PASS\nlevel-by-level forms .*PASS\npath forms .*PASS" LABELS unit)
pp_test(testsnap_energy_identity_j14 COMMAND ${TS_SELF} ${TS_J14C} ${TS_J14P}
  EXPECT 0 "through B: .*PASS\nlevel-by-level forms .*PASS\npath forms .*PASS" LABELS unit)

# Planted faults: one force component or one energy off by 1e-6.
pp_test(testsnap_fault_force COMMAND ${TS} --case W_2J8_2000 --backend host ${TS_FAST} --inject-fault snap-force
  EXPECT 1 "max 1e-06 eV/A \\(tolerance 1e-09\\)\nhost: FAIL" LABELS validate fault)
pp_test(testsnap_fault_energy COMMAND ${TS} --case W_2J8_2000 --backend host ${TS_FAST} --inject-fault snap-energy
  EXPECT 1 "max \\|E_i - E_ref\\| = 1e-06 eV.*\n.*\nhost: FAIL" LABELS validate fault)
pp_test(testsnap_fault_w2 COMMAND ${TS} --case W_2 --backend host ${TS_FAST} --inject-fault snap-force
  EXPECT 1 "host: FAIL" LABELS validate fault)
# A fault name the app does not plant is refused at start-up, not after the
# run (the timeout fails a late refusal).
pp_test(testsnap_fault_unknown COMMAND ${TS} --case W_2J14_2000_disp --backend host --steps 20 ${TS_FAST_BASE}
  --inject-fault snap-bogus
  EXPECT 2 "^testsnap: --inject-fault: 'snap-bogus' is not a fault testsnap can plant" LABELS unit)
set_tests_properties(testsnap_fault_unknown PROPERTIES TIMEOUT 5)
pp_test(testsnap_fault_fd COMMAND ${TS} --lattice 4 --displace 0.2 --coeff ${TS_J8C} --param ${TS_J8P}
  --fd-check 3 --backend host ${TS_FAST} --inject-fault snap-force
  EXPECT 1 "finite differences .*worst atom 1 x\\): FAIL" LABELS validate fault)
pp_test(testsnap_fault_identity COMMAND ${TS_SELF} ${TS_J8C} ${TS_J8P} --plant EXPECT 1 "FAIL" LABELS unit fault)
pp_test(testsnap_fault_level_forms COMMAND ${TS_SELF} ${TS_J8C} ${TS_J8P} --plant-level
  EXPECT 1 "level-by-level forms .*1e-06 eV/A .*FAIL" LABELS unit fault)
# one diagonal of one pair's path-form dE_i/dr_j left out
pp_test(testsnap_fault_split_forms COMMAND ${TS_SELF} ${TS_J8C} ${TS_J8P} --plant-split
  EXPECT 1 "level-by-level forms .*PASS\npath forms .*FAIL" LABELS unit fault)

# The analytic FLOP counts (testsnap/flops.c) against hand-derived numbers
# for twojmax 2 and a brute-force walk of the loops for 2, 4, 8, 14.
pp_test(testsnap_flops COMMAND $<TARGET_FILE:testsnap_flops_test> EXPECT 0 "flop counts: PASS" LABELS unit)
pp_test(testsnap_fault_flops COMMAND $<TARGET_FILE:testsnap_flops_test> --plant
  EXPECT 1 "twojmax  2 compute_ui/pair  analytic 148, brute force 149: FAIL" LABELS unit fault)

# Bad input: exit 2, one line naming the file and line.
set(TS_POT --coeff ${TS_J8C} --param ${TS_J8P})
foreach(t
    "truncated.data|truncated.data:17: file ends in the Atoms section after 2 of 3 atoms"
    "more_atoms.data|more_atoms.data:18: more lines in the Atoms section than the 2 atoms"
    "fewer_atoms.data|fewer_atoms.data:19: Atoms section has 2 atoms, the header says 3"
    "two_types.data|two_types.data:4: 2 atom types"
    "triclinic.data|triclinic.data:9: triclinic box"
    "full_style.data|full_style.data:14: atom style 'full'"
    "small_box.data|small_box.data: the box .* is smaller than twice the cutoff 4.73442 A")
  string(REPLACE "|" ";" t "${t}")
  list(GET t 0 f)
  list(GET t 1 re)
  string(REPLACE ".data" "" n ${f})
  pp_test(testsnap_bad_data_${n} COMMAND ${TS} --data ${TS_BAD}/${f} ${TS_POT} --backend host ${TS_FAST}
    EXPECT 2 "${re}" LABELS input)
endforeach()
pp_test(testsnap_bad_data_missing COMMAND ${TS} --data /nonexistent/data.W ${TS_POT} --backend host ${TS_FAST}
  EXPECT 2 "cannot open data file '/nonexistent/data.W'" LABELS input)
foreach(t
    "odd_twojmax|odd_twojmax.snapparam:3: twojmax = 7: must be an even integer"
    "negative_twojmax|negative_twojmax.snapparam:2: twojmax = -2: must be an even integer"
    "unknown_key|unknown_key.snapparam:4: unknown keyword 'wrongkey'"
    "quadratic|quadratic.snapparam:3: quadraticflag = 1 is not supported"
    "no_twojmax|no_twojmax.snapparam: required keyword 'twojmax' is missing")
  string(REPLACE "|" ";" t "${t}")
  list(GET t 0 n)
  list(GET t 1 re)
  pp_test(testsnap_bad_param_${n} COMMAND ${TS} --lattice 4 --coeff ${TS_J8C} --param ${TS_BAD}/${n}.snapparam
    --backend host ${TS_FAST} EXPECT 2 "${re}" LABELS input)
endforeach()
foreach(t
    "count_mismatch|count_mismatch.snapcoeff:5: 50 coefficients per element, but twojmax 8 .* needs 56"
    "truncated|truncated.snapcoeff:40: file ends after 34 of 56 coefficients"
    "two_elements|two_elements.snapcoeff:5: 2 elements")
  string(REPLACE "|" ";" t "${t}")
  list(GET t 0 n)
  list(GET t 1 re)
  pp_test(testsnap_bad_coeff_${n} COMMAND ${TS} --lattice 4 --coeff ${TS_BAD}/${n}.snapcoeff --param ${TS_J8P}
    --backend host ${TS_FAST} EXPECT 2 "${re}" LABELS input)
endforeach()
# An unknown --case names the cases of the inputs folder.
pp_test(testsnap_case_unknown COMMAND ${TS} --case W_3 --backend host ${TS_FAST}
  EXPECT 2 "--case W_3: no such case in .*/testsnap; the cases: W_2, W_2J14_2000_disp, W_2J8_2000, W_2J8_2000_disp"
  LABELS input)
set_tests_properties(testsnap_case_unknown PROPERTIES TIMEOUT 30)
pp_test(testsnap_bad_reference COMMAND ${TS} --case W_2J8_2000 --reference ${TS_BAD}/short.dump --backend host
  ${TS_FAST} EXPECT 2 "short.dump:30: file ends after 21 of 2000 atoms" LABELS input)
pp_test(testsnap_bad_lattice_small COMMAND ${TS} --lattice 2 ${TS_POT} --backend host ${TS_FAST}
  EXPECT 2 "--lattice: the box .* is smaller than twice the cutoff" LABELS input)

# Hostile inputs (label input), every file read through pp/input.h: what is
# not a regular file is refused before a byte is read (a FIFO without writer
# or /dev/zero once hung: TIMEOUT), a directory is called one, bytes no text
# holds are named with the line.
set(TS_J8D ${TS_IN}/W_2J8_2000/data.W_2J8_2000)
set(TS_HOSTILE ${CMAKE_CURRENT_BINARY_DIR}/testsnap_hostile)
pp_fixture(testsnap_make_hostile testsnap_hostile  # a fixture, not a test
  COMMAND ${TS_BAD}/make_hostile.sh ${TS_HOSTILE} ${TS_BAD}/wide_box.data ${TS_IN}/W_2)
# ts_input_test(NAME ...): pp_input_test (input.cmake) with the hostile files, TIMEOUT 20 unless given.
function(ts_input_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 20)
  endif()
  pp_input_test(${name} TIMEOUT ${T_TIMEOUT} ${T_UNPARSED_ARGUMENTS})
  set_property(TEST ${name} APPEND PROPERTY FIXTURES_REQUIRED testsnap_hostile)
endfunction()
foreach(t
    "dev_zero_data|--data;/dev/zero;${TS_POT}|data file '/dev/zero' is not a regular file"
    "dev_zero_param|--lattice;4;--coeff;${TS_J8C};--param;/dev/zero|SNAP parameter file '/dev/zero' is not a regular file"
    "dev_zero_reference|--case;W_2J8_2000;--reference;/dev/zero|reference dump '/dev/zero' is not a regular file"
    "fifo_data|--data;${TS_HOSTILE}/fifo;${TS_POT}|data file '.*/fifo' is not a regular file"
    "fifo_coeff|--lattice;4;--coeff;${TS_HOSTILE}/fifo;--param;${TS_J8P}|SNAP coefficient file '.*/fifo' is not a regular file"
    "dir_data|--data;${TS_BAD};${TS_POT}|data file '${TS_BAD}' is a directory"
    "dir_coeff|--lattice;4;--coeff;${TS_BAD};--param;${TS_J8P}|SNAP coefficient file '${TS_BAD}' is a directory"
    "dir_param|--lattice;4;--coeff;${TS_J8C};--param;${TS_BAD}|SNAP parameter file '${TS_BAD}' is a directory"
    "dir_reference|--case;W_2J8_2000;--reference;${TS_BAD}|reference dump '${TS_BAD}' is a directory"
    "nul_data|--data;${TS_HOSTILE}/nul.data;${TS_POT}|nul.data:3: NUL byte \\(.x00\\): not a text file"
    "escape_data|--data;${TS_HOSTILE}/escape.data;${TS_POT}|escape.data:1: control character .x1b")
  pp_case_split("${t}" n parts re)
  ts_input_test(testsnap_input_${n} CLEAN EXPECT 2 "^testsnap: .*${re}" COMMAND ${TS} ${parts} --backend host ${TS_FAST})
endforeach()
# Inputs the math cannot take are bad input (exit 2 with the reason), not a
# FAIL of the host model against itself (NaN energies).
foreach(t
    "coincident|--data;${TS_BAD}/coincident.data;${TS_POT}|coincident.data: atoms 1 and 2 are at the same position: SNAP needs distinct atoms"
    "coincident_image|--data;${TS_BAD}/coincident_image.data;${TS_POT}|atoms 1 and 2 are at the same position \\(through periodic images\\)"
    "box_overflow|--data;${TS_BAD}/box_overflow.data;${TS_POT}|box_overflow.data: the box \\(2e\\+300 x .*\\) is not finite"
    "far_1e300|--data;${TS_BAD}/far_1e300.data;${TS_POT}|far_1e300.data:17: atom 2: x = 1e300 is more than 1000 box lengths outside the box \\(0 to 10\\)"
    "far_1e18|--data;${TS_BAD}/far_1e18.data;${TS_POT}|far_1e18.data:17: atom 2: x = 1e18 is more than 1000 box lengths outside the box \\(0 to 10\\)"
    "big_coeff|--lattice;4;--coeff;${TS_BAD}/big_coeff.snapcoeff;--param;${TS_J8P}|big_coeff.snapcoeff: coefficients up to \\|beta\\| = 1e\\+308 .* energies and forces could overflow")
  pp_case_split("${t}" n parts re)
  ts_input_test(testsnap_input_${n} EXPECT 2 "^testsnap: .*${re}" COMMAND ${TS} ${parts} --backend host ${TS_FAST})
endforeach()
# No neighbour pairs (atoms farther apart than the cutoff, or a cutoff of
# 1e-300): every model gives each atom the isolated atom's energy, beta0 +
# sum_k beta_k (j_k + 1) (B_k of a lone atom, wself = 1: -8.5778723972740 eV
# for W_2940_2017_2), and no force (no_pairs_*.dump); the empty reverse index
# is not read past (once an 8-byte upload of a 4-byte array: ASan,
# scripts/sanitize --omp), and the neighbour counts are reported as 0.
foreach(t
    "lone|2|--lattice;1;--lattice-constant;10;--coeff;${TS_J8C};--param;${TS_J8P}"
    "sparse|16|--lattice;2,2,2;--lattice-constant;100;--coeff;${TS_J8C};--param;${TS_J8P}"
    "rcutfac|16|--lattice;2;--coeff;${TS_J8C};--param;${TS_BAD}/tiny_rcutfac.snapparam")
  string(REPLACE "|" ";" parts "${t}")
  list(GET parts 0 n)
  list(GET parts 1 na)
  list(REMOVE_AT parts 0 1)
  pp_test(testsnap_no_pairs_${n} COMMAND ${TS} ${parts} --backend ${PP_TEST_MODELS} ${TS_FAST}
    --reference ${TS_BAD}/no_pairs_${na}.dump
    EXPECT 0 "host: energies vs the reference: max .*\nhost: forces vs .*no_pairs_${na}.dump: RMS .* = 0 eV/A .*, max 0 eV/A\nhost: PASS\nneighbours min 0 max 0 mean 0.000"
    LABELS validate input)
endforeach()
# TestSNAP's reference folder: a neighbour index is range-checked as read,
# before it is narrowed to int (2^32 + 34 once read as 34 and passed); the
# folder is taken literally, not as a glob pattern (lit[1] was refused, and
# inputs/testsnap/* picked W_2 and ran).
ts_input_test(testsnap_input_ref_wide_jlist EXPECT 2 "^testsnap: .*wide_jlist/jlist.txt:1: neighbour 4294967330 outside 0..34 "
  COMMAND ${TS} --testsnap-ref ${TS_HOSTILE}/wide_jlist --backend host ${TS_FAST})
ts_input_test(testsnap_input_ref_literal EXPECT 0 "^host: PASS$"
  COMMAND ${TS} --testsnap-ref ${TS_HOSTILE}/lit[1] --backend host ${TS_FAST})
ts_input_test(testsnap_input_ref_pattern EXPECT 2 "^testsnap: .*testsnap/\\*: no such folder \\(a folder name is taken literally"
  COMMAND ${TS} --testsnap-ref ${TS_IN}/* --backend host ${TS_FAST})
# Clustered atoms: the density estimate passes the fit check, but an atom
# has thousands of neighbours; refused when the first list longer than what
# fits is counted (once 108 s of neighbour search, then exit 3; 0.5 s now,
# 3.6 s under ASan: TIMEOUT 10).
ts_input_test(testsnap_input_clustered TIMEOUT 10 EXPECT 2 "^testsnap: .*cluster.data: atom [0-9]+ has [0-9]+ neighbours within the cutoff .*do not fit in memory; at most [0-9]+ slots fit"
  COMMAND ${CMAKE_COMMAND} -E env ${PP_TEST_MEMORY} ${TS} --data ${TS_HOSTILE}/cluster.data ${TS_POT} --backend host ${TS_FAST})
# Huge boxes and tiny cutoffs: the neighbour cells are bounded by what the
# atoms need (once 1024^3 cells, 4.3 GB: run in 3 GB of address space here,
# but not under ASan, whose shadow memory needs terabytes of it), and a box /
# cutoff beyond int is no overflow (UBSan, scripts/sanitize).
foreach(t
    "wide_box|--data;${TS_BAD}/wide_box.data;${TS_POT}"
    "huge_box|--data;${TS_BAD}/huge_box.data;${TS_POT}"
    "small_rcutfac|--lattice;4;--coeff;${TS_J8C};--param;${TS_BAD}/small_rcutfac.snapparam"
    "tiny_rcutfac|--lattice;4;--coeff;${TS_J8C};--param;${TS_BAD}/tiny_rcutfac.snapparam")
  string(REPLACE "|" ";" parts "${t}")
  list(GET parts 0 n)
  list(REMOVE_AT parts 0)
  ts_input_test(testsnap_input_${n} EXPECT 0 "^host: PASS$"
    COMMAND sh -c "[ -n \"$ASAN_OPTIONS\" ] || ulimit -v 3000000 && exec \"$@\"" sh ${TS} ${parts} --backend host ${TS_FAST})
endforeach()
# A lattice too large for memory is refused before it is made (once after
# 5 s and 2.4 GB: here in 2 GB of address space).
ts_input_test(testsnap_input_lattice_too_big EXPECT 2 "^testsnap: the SNAP problem needs [0-9.]+ GiB of host memory"
  COMMAND sh -c "[ -n \"$ASAN_OPTIONS\" ] || ulimit -v 2000000 && exec \"$@\"" sh ${TS} --lattice 368,368,368 ${TS_POT} --backend host ${TS_FAST})
# Options: --size is not used (as --samples); --fd-check beyond the 3 x 54
# distinct components is refused, not run for minutes.
ts_input_test(testsnap_input_size_unused EXPECT 2 "^testsnap: --size is not used: give --case, --data or --lattice"
  COMMAND ${TS} --size 5 --backend host ${TS_FAST})
ts_input_test(testsnap_input_fd_check_cap
  EXPECT 2 "^testsnap: --fd-check 10000: the configuration has 162 force components \\(3 x 54 atoms\\)"
  COMMAND ${TS} --lattice 3 ${TS_POT} --fd-check 10000 --backend host ${TS_FAST})
# A file name with a newline and an escape is shown escaped in the text report.
ts_input_test(testsnap_input_name_escaped CLEAN EXPECT 0 "^   problem +.*/new.x0aline.x1b.data \\(2 atoms\\)$"
  COMMAND sh -c "exec \"$@\" \"$(printf '${TS_HOSTILE}/new\\nline\\033.data')\"" sh ${TS} ${TS_POT} --backend host ${TS_FAST} --data)
pp_test(testsnap_help_faults COMMAND ${TS} --help EXPECT 0 "Planted faults: snap-force, snap-energy, snap-mpi-combine" LABELS unit)
# --dump through pp/outfile.h, as --json: checked before the run, a
# temporary file renamed at the end (testsnap/tests/dump.sh).
set(TS_DUMP_ARGS --lattice 4 ${TS_POT} ${TS_FAST})
foreach(c long1220 symlink full devfull missing dir)
  add_test(NAME testsnap_dump_${c} COMMAND ${TS_BAD}/dump.sh ${c} ${TS} ${TS_DUMP_ARGS} --backend host)
  set_tests_properties(testsnap_dump_${c} PROPERTIES LABELS input ENVIRONMENT "${PP_TEST_ENV}" TIMEOUT 60)
endforeach()

# Live: a fresh random configuration, its reference made by LAMMPS now.
# Skipped (not passed) when no LAMMPS with ML-SNAP is installed
# (validate/testsnap/install_lammps.sh, or LMP=/path/to/lmp).
pp_test(testsnap_live_lammps COMMAND ${PROJECT_SOURCE_DIR}/validate/testsnap/live_check.sh ${TS} LABELS validate)
set_tests_properties(testsnap_live_lammps PROPERTIES SKIP_RETURN_CODE 77)

# The omp model on the CPU-offload build: both compute_yi forms, the LAMMPS
# 2J14 case and TestSNAP's W_2 (also covered by the PP_TEST_MODELS runs above).
if(PP_HAVE_OMP AND PP_OFFLOAD STREQUAL "cpu")
  foreach(yi collapsed nested)
    pp_test(testsnap_omp_yi_${yi} COMMAND ${TS} --case W_2J8_2000_disp --backend omp --yi ${yi} ${TS_FAST}
      EXPECT 0 "omp: forces vs .*peratom.dump.*\nomp: PASS" LABELS validate)
  endforeach()
  pp_test(testsnap_omp_fault COMMAND ${TS} --case W_2J8_2000 --backend omp ${TS_FAST} --inject-fault snap-force
    EXPECT 1 "omp: FAIL" LABELS validate fault)
  # compute_deidrj split (--deidrj split, TestSNAP Kokkos_V2's mapping): LAMMPS's
  # case, an uneven twojmax 14 lattice (160 atoms: a partial tile; 23 to 30
  # neighbours) against the host model, and the same with a planted fault.
  pp_test(testsnap_omp_deidrj_split COMMAND ${TS} --case W_2J8_2000_disp --backend omp --deidrj split ${TS_FAST}
    EXPECT 0 "omp: forces vs .*peratom.dump.*\nomp: PASS" LABELS validate)
  pp_test(testsnap_omp_deidrj_split_j14 COMMAND ${TS} --lattice 5,4,4 --displace 0.3 --coeff ${TS_J14C}
    --param ${TS_J14P} --backend host,omp --deidrj split ${TS_FAST} EXPECT 0 "host: PASS\nomp: PASS" LABELS validate)
  pp_test(testsnap_omp_deidrj_split_fault COMMAND ${TS} --case W_2J8_2000_disp --backend omp --deidrj split
    ${TS_FAST} --inject-fault snap-force EXPECT 1 "max 1e-06 eV/A \\(tolerance 1e-09\\)\nomp: FAIL" LABELS validate fault)
  ts_input_test(testsnap_input_deidrj_bad EXPECT 2 "^testsnap: .*--deidrj: expected 'levels' or 'split'"
    COMMAND ${TS} --lattice 4 ${TS_POT} --backend omp --deidrj tiled ${TS_FAST})
  # A variant no asked model can run is bad usage, found before the reference
  # is computed; when another model can, the refusing one is reported NOT RUN.
  foreach(t "levels3|--levels;3|omp: 3 levels \\(lanes per neighbour\\) need kernel mode"
            "team_scratch|--scratch;team|omp: team-shared scratch needs kernel mode")
    pp_case_split("${t}" n parts re)
    ts_input_test(testsnap_input_variant_${n} EXPECT 2 "^testsnap: no asked model can run this variant: ${re}"
      COMMAND ${TS} --lattice 4 ${TS_POT} --backend omp ${parts} ${TS_FAST})
  endforeach()
  ts_input_test(testsnap_input_variant_some EXPECT 0 "host: PASS\n.*omp +NOT RUN: omp: 3 levels"
    COMMAND ${TS} --lattice 4 ${TS_POT} --backend host,omp --levels 3 ${TS_FAST})
  add_test(NAME testsnap_dump_several COMMAND ${TS_BAD}/dump.sh several ${TS} ${TS_DUMP_ARGS} --backend host,omp)
  set_tests_properties(testsnap_dump_several PROPERTIES LABELS input ENVIRONMENT "${PP_TEST_ENV}" TIMEOUT 60)
endif()

# MPI: contiguous blocks of atoms per rank, forces summed over ranks. On 2
# and 3 ranks against LAMMPS's reference (the 1e-10 tolerances), and the
# dumps of 1, 2 and 3 ranks equal to rounding (measured: energies identical,
# forces within 2.9e-15 eV/A on W_2J8_2000; tested to 1e-12).
if(PP_HAVE_MPI)
  set(TS_DUMPS ${CMAKE_CURRENT_BINARY_DIR}/testsnap_mpi)
  file(MAKE_DIRECTORY ${TS_DUMPS})
  set(TS_CMP ${PROJECT_SOURCE_DIR}/testsnap/tests/compare_dumps.py)
  # expect.sh with --once: rank 0 alone prints the verdicts
  function(ts_mpi_test name np rc re)
    pp_mpi_command(mpi ${np})
    add_test(NAME ${name} COMMAND ${PP_EXPECT} --once --absent MPI_ABORT ${rc} ${re} -- ${mpi} ${TS} ${ARGN})
    set_tests_properties(${name} PROPERTIES LABELS "mpi;validate" ENVIRONMENT "${PP_TEST_ENV}" TIMEOUT 600)
  endfunction()
  foreach(np 1 2 3)
    ts_mpi_test(testsnap_mpi${np}_lammps ${np} 0 "^host: PASS$" --case W_2J8_2000 --backend host ${TS_FAST}
      --dump ${TS_DUMPS}/W_2J8_2000.${np})
    set_tests_properties(testsnap_mpi${np}_lammps PROPERTIES FIXTURES_SETUP testsnap_mpi_dumps)
  endforeach()
  ts_mpi_test(testsnap_mpi3_blocks 3 0 "decomposition +3 ranks, contiguous blocks of 666 to 667 atoms"
    --case W_2J8_2000 --backend host ${TS_FAST})
  add_test(NAME testsnap_mpi_dumps_equal COMMAND ${PP_EXPECT} 0 "W_2J8_2000.3: 2000 atoms, .*: PASS" --
    python3 ${TS_CMP} 1e-12 1e-12 ${TS_DUMPS}/W_2J8_2000.1 ${TS_DUMPS}/W_2J8_2000.2 ${TS_DUMPS}/W_2J8_2000.3)
  set_tests_properties(testsnap_mpi_dumps_equal PROPERTIES LABELS "mpi;validate" FIXTURES_REQUIRED testsnap_mpi_dumps)
  # Planted fault: the last rank sends only the forces on its own atoms (its
  # pairs' reactions on other ranks' atoms are lost). The run fails against
  # LAMMPS, and its dump fails the equality check.
  ts_mpi_test(testsnap_mpi2_fault_combine 2 1 "^host: FAIL$" --case W_2J8_2000 --backend host ${TS_FAST}
    --inject-fault snap-mpi-combine --dump ${TS_DUMPS}/W_2J8_2000.fault)
  set_tests_properties(testsnap_mpi2_fault_combine PROPERTIES LABELS "mpi;validate;fault"
    FIXTURES_SETUP testsnap_mpi_fault_dump)
  add_test(NAME testsnap_mpi_dumps_fault COMMAND ${PP_EXPECT} 1 "W_2J8_2000.fault: 2000 atoms, .*: FAIL" --
    python3 ${TS_CMP} 1e-12 1e-12 ${TS_DUMPS}/W_2J8_2000.1 ${TS_DUMPS}/W_2J8_2000.fault)
  set_tests_properties(testsnap_mpi_dumps_fault PROPERTIES LABELS "mpi;validate;fault"
    FIXTURES_REQUIRED "testsnap_mpi_dumps;testsnap_mpi_fault_dump")
  # On one rank nothing is combined: the fault changes no result, exit 2.
  pp_test(testsnap_fault_combine_one_rank COMMAND ${TS} --case W_2J8_2000 --backend host ${TS_FAST}
    --inject-fault snap-mpi-combine EXPECT 2 "--inject-fault 'snap-mpi-combine' changed no result" LABELS validate fault)
  # A generated lattice (neighbour counts vary, 160 atoms in uneven blocks)
  # on 3 ranks against the 1-rank run's dump, and its forces against finite
  # differences of the energies.
  set(TS_LAT --lattice 4,4,5 --displace 0.2 ${TS_POT} --backend host ${TS_FAST})
  ts_mpi_test(testsnap_mpi1_lattice 1 0 "^host: PASS$" ${TS_LAT} --dump ${TS_DUMPS}/lattice.1)
  set_tests_properties(testsnap_mpi1_lattice PROPERTIES FIXTURES_SETUP testsnap_mpi_lattice)
  ts_mpi_test(testsnap_mpi3_lattice 3 0 "^host: PASS$" ${TS_LAT} --reference ${TS_DUMPS}/lattice.1 --fd-check 6)
  set_tests_properties(testsnap_mpi3_lattice PROPERTIES FIXTURES_REQUIRED testsnap_mpi_lattice)
  if(PP_HAVE_OMP AND PP_OFFLOAD STREQUAL "cpu")
    ts_mpi_test(testsnap_mpi2_omp 2 0 "^omp: PASS$" --case W_2J8_2000 --backend omp ${TS_FAST})
  endif()
  # TestSNAP's 2-atom reference keeps ghost atoms: one rank only.
  ts_mpi_test(testsnap_mpi2_w2_refused 2 2 "runs on one rank only" --case W_2 --backend host ${TS_FAST})
  # A bad input every rank reads alike: one message, exit 2, no MPI_Abort.
  ts_mpi_test(testsnap_mpi2_bad_data 2 2 "truncated.data:17: file ends in the Atoms section" --data
    ${TS_BAD}/truncated.data ${TS_POT} --backend host ${TS_FAST})
  # One rank alone reading /dev/zero (MPMD, one command line: in.data is the data
  # file in one working folder, /dev/zero in the other): one line, the whole job
  # ends (it once hung).
  set(_z ${CMAKE_CURRENT_BINARY_DIR}/zero-one-rank)
  file(MAKE_DIRECTORY ${_z}/a ${_z}/b)
  file(CREATE_LINK ${TS_J8D} ${_z}/a/in.data SYMBOLIC)
  file(CREATE_LINK /dev/zero ${_z}/b/in.data SYMBOLIC)
  pp_mpi_command(_mpi1 1)
  add_test(NAME testsnap_mpi2_dev_zero_one_rank COMMAND ${PP_EXPECT} --once --absent MPI_ABORT 2
    "rank 1 of 2: data file 'in.data' is not a regular file" -- ${_mpi1}
    -wdir ${_z}/a ${TS} --data in.data ${TS_POT} --backend host ${TS_FAST} : ${MPIEXEC_NUMPROC_FLAG} 1
    -wdir ${_z}/b ${TS} --data in.data ${TS_POT} --backend host ${TS_FAST})
  set_tests_properties(testsnap_mpi2_dev_zero_one_rank PROPERTIES ENVIRONMENT "${PP_TEST_ENV}")
  set_tests_properties(testsnap_mpi2_w2_refused testsnap_mpi2_bad_data testsnap_mpi2_dev_zero_one_rank
    PROPERTIES LABELS "mpi;input")
  set_tests_properties(testsnap_mpi2_dev_zero_one_rank PROPERTIES TIMEOUT 30)
endif()

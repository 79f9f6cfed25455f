# Unit tests of the common layer.
add_executable(test_common test_common.c)
pp_link_common(test_common)
pp_test(unit_common COMMAND test_common LABELS unit)
add_executable(test_measure test_measure.c)
pp_link_common(test_measure)
pp_test(unit_measure COMMAND test_measure LABELS unit)

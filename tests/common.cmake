# Unit tests of the common layer.
add_executable(test_common test_common.c)
pp_link_common(test_common)
pp_test(unit_common COMMAND test_common LABELS unit)

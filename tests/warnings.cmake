# A quiet build (issue 46): the CI gate over build logs (validate/warnings-gate and
# its allowlist .ci/warnings-allow.toml), and the warnings fixed in the tree kept away.
include(pytest.cmake)
pp_pytest(tools_warnings_gate MODULE test_warnings_gate.py LABELS unit TIMEOUT 60)

# GCC's -Wformat-truncation in testsnap/main.c (the texts of the variant and check
# columns), which GCC 12 finds at -O1 and -Os: none.
find_program(PP_TEST_GCC NAMES gcc-12 gcc)
if(PP_TEST_GCC)
  add_test(NAME quiet_gcc_testsnap_main COMMAND ${PP_EXPECT} --absent "warning:" 0 "^compiled$" --
    sh -c "for o in -O1 -Os -O3; do \"$0\" $o -Wall -Wextra -fopenmp -foffload=disable -std=c11 -DPP_HAVE_OMP=1 -I\"$1/testsnap\" -I\"$1/common/include\" -c \"$1/testsnap/main.c\" -o /dev/null 2>&1 || exit 1; done && echo compiled"
    ${PP_TEST_GCC} ${PROJECT_SOURCE_DIR})
  set_tests_properties(quiet_gcc_testsnap_main PROPERTIES LABELS unit TIMEOUT 120)
endif()

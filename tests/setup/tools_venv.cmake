# The tools' figures without root (scripts/tools-venv; tests/setup/tools_venv.sh says what
# each case checks): setup's hint when matplotlib is missing, and a user without root
# making the venv and getting figures from a suite run (needs PyPI: skipped without).
pp_test(tools_venv_setup_hint COMMAND ${CMAKE_CURRENT_LIST_DIR}/tools_venv.sh setup_hint
        EXPECT 0 "^PASS: " LABELS unit)
pp_test(tools_venv_user_figures COMMAND ${CMAKE_CURRENT_LIST_DIR}/tools_venv.sh user_venv
        EXPECT 0 "^PASS: " LABELS noroot)
set_tests_properties(tools_venv_setup_hint PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
set_tests_properties(tools_venv_user_figures PROPERTIES TIMEOUT 400 SKIP_RETURN_CODE 77)

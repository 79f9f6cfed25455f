# The tools' tests (tests/tools/test_*.py, pytest) as CTest tests, one per area: each runs
# a pytest module, or the part of one selected by -k, with the build's bin folder
# and a work folder of its own (tests/tools/conftest.py). A CTest whose every
# test was skipped (a missing matplotlib, CUPTI, git history) reports itself
# skipped, never passed.
#
# The Python that runs them has pytest: PP_PYTEST_PYTHON, else the project's
# venv (python3 -m venv .venv && .venv/bin/pip install -e .[figures,test]), else
# python3 (scripts/test installs pytest for it). Without one that imports pytest,
# the tests fail and say so: never a skip.
include_guard(GLOBAL)
set(PP_PYTEST_MODULES ${CMAKE_CURRENT_LIST_DIR}) # the modules, beside this file
set(PP_PYTEST_PYTHON "" CACHE STRING "the Python that runs tests/tools (default: .venv/bin/python, else python3)")
set(_pp_pytest_python ${PP_PYTEST_PYTHON})
if(NOT _pp_pytest_python)
  find_program(_pp_python3 python3)
  foreach(_py ${PROJECT_SOURCE_DIR}/.venv/bin/python ${_pp_python3})
    if(EXISTS ${_py})
      execute_process(COMMAND ${_py} -c "import pytest" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
      if(_rc EQUAL 0)
        set(_pp_pytest_python ${_py})
        break()
      endif()
    endif()
  endforeach()
  if(NOT _pp_pytest_python)
    message(STATUS "pytest: not found for .venv/bin/python or python3; the tools_* tests will fail "
                   "(pip install pytest, or scripts/test)")
    set(_pp_pytest_python python3)
  endif()
endif()

# pp_pytest(NAME MODULE file.py [SELECT -k-expression] [LABELS l...] [TIMEOUT s] [ARGS a...] [ENV V=x...]
#           [EXPECT rc regex])
function(pp_pytest name)
  cmake_parse_arguments(T "" "MODULE;SELECT;TIMEOUT" "LABELS;ARGS;ENV;EXPECT" ${ARGN})
  set(cmd ${_pp_pytest_python} -m pytest -p no:cacheprovider -q -ra -c ${PROJECT_SOURCE_DIR}/pyproject.toml
      --rootdir ${PROJECT_SOURCE_DIR} --pp-bin ${PROJECT_BINARY_DIR}/bin --pp-work ${CMAKE_CURRENT_BINARY_DIR}/tools/${name}
      ${PP_PYTEST_MODULES}/${T_MODULE})
  if(T_SELECT)
    list(APPEND cmd -k "${T_SELECT}")
  endif()
  list(APPEND cmd ${T_ARGS})
  if(T_EXPECT)
    pp_expect_split("${T_EXPECT}" rc re)
    add_test(NAME ${name} COMMAND ${PP_EXPECT} ${rc} ${re} -- ${cmd})
  else()
    add_test(NAME ${name} COMMAND ${cmd})
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  # pytest's last line "N skipped in ..." (no passed, no failed): every test of it skipped. The
  # line must end the output: a failed test's captured output may hold such a line (a pytest
  # the test ran), which must not turn the failure into a skip.
  set(env ${PP_TEST_ENV} PYTHONDONTWRITEBYTECODE=1 ${T_ENV})
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" ENVIRONMENT "${env}"
                       TIMEOUT ${T_TIMEOUT} SKIP_REGULAR_EXPRESSION "\n[0-9]+ skipped(, [0-9]+ deselected)? in [0-9.]+s\n?$")
endfunction()

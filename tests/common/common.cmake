# Unit tests of the common layer.
add_executable(test_common ${CMAKE_CURRENT_LIST_DIR}/test_common.c)
pp_link_common(test_common)
pp_test(unit_common COMMAND test_common LABELS unit)
add_executable(test_measure ${CMAKE_CURRENT_LIST_DIR}/test_measure.c)
pp_link_common(test_measure)
pp_test(unit_measure COMMAND test_measure LABELS unit)

# The model list (pp/model.h's PP_MODELS) and what is generated from it.
add_executable(test_models ${CMAKE_CURRENT_LIST_DIR}/test_models.c)
pp_link_common(test_models)
target_compile_options(test_models PRIVATE -Wall -Wextra)
pp_test(unit_models COMMAND test_models LABELS unit)
# ... and that nothing lists the models by hand instead.
pp_test(models_listed_once COMMAND ${CMAKE_CURRENT_LIST_DIR}/models_listed_once.sh ${PROJECT_SOURCE_DIR}
  LABELS unit)
# The planted-fault rule: never exit 0 (caught: 1 with FAIL; changed a result no
# check failed: 1 saying so; changed nothing: 2 saying so).
add_executable(test_fault ${CMAKE_CURRENT_LIST_DIR}/test_fault.c)
pp_link_common(test_fault)
pp_test(unit_fault_caught COMMAND $<TARGET_FILE:test_fault> caught EXPECT 1 "^row +host .*FAIL value 2" LABELS unit fault)
pp_test(unit_fault_uncaught COMMAND $<TARGET_FILE:test_fault> uncaught
  EXPECT 1 "--inject-fault 'f' changed a result but every check passed" LABELS unit fault)
pp_test(unit_fault_unfired COMMAND $<TARGET_FILE:test_fault> unfired EXPECT 2 "--inject-fault 'f' changed no result" LABELS unit fault)

# The tests' own helpers (tests/test_util.h): NaN-safe comparisons.  test_util_nan_fails
# feeds a NaN into a comparison written as the tests write it: it must fail.
ionf_add_test(NAME test_util_nan SOURCES test_util_nan.c LABELS unit)
add_test(NAME test_util_nan_fails COMMAND ${IONF_FRESH_DIR} $<TARGET_FILE:test_util_nan> nan)
set_tests_properties(test_util_nan_fails PROPERTIES WILL_FAIL TRUE LABELS unit
                     WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

# The public C API (include/ionfront.h): programs linked with the shared libionfront
# that include only the public header.
foreach(t test_api_iliev1 test_api_misuse)
  add_executable(${t} api/${t}.c)
  target_link_libraries(${t} PRIVATE ionfront::ionfront m)
  target_compile_options(${t} PRIVATE ${IONF_WARNINGS})
endforeach()
add_test(NAME test_api_misuse COMMAND test_api_misuse)
set_tests_properties(test_api_misuse PROPERTIES WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME api_cli_match COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/api/api_cli_match.sh
                                    $<TARGET_FILE:ionfront> $<TARGET_FILE:test_api_iliev1>)
set_tests_properties(api_cli_match PROPERTIES SKIP_RETURN_CODE 77)

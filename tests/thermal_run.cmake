# Thermal radiation's run: config, files, command line, MPI, C API (issue 26, part 2; the
# solver's own tests are in thermal.cmake)
# the config: built-ins, the effective YAML round trip, profiles, the ranks' blocks
ionf_add_test(NAME test_config_thermal SOURCES test_config_thermal.c LABELS unit)
# the built-in slab through the run (config -> profile -> solve) against the exact slab
ionf_add_test(NAME test_thermal_run_slab SOURCES test_thermal_run_slab.c LABELS unit)
# every thermal built-in runs and writes its datasets; 1, 2, 3 ranks bit for bit; fields
# from HDF5; --overwrite; --dry-run
ionf_add_test(NAME cli_thermal SCRIPT ${CMAKE_CURRENT_SOURCE_DIR}/cli_thermal.sh
              ARGS ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:ionfront> PROCESSORS 2 LABELS mpi
              TIMEOUT 300)
# bad thermal configs: messages naming the key and value, no crash, nothing left behind
ionf_add_test(NAME cli_thermal_bad_input SCRIPT ${CMAKE_CURRENT_SOURCE_DIR}/cli_thermal_bad_input.sh
              ARGS $<TARGET_FILE:ionfront>)
# the C API of a coupling loop (ionf_thermal_*), through the public header only
add_executable(test_api_thermal api/test_api_thermal.c)
target_link_libraries(test_api_thermal PRIVATE ionfront::ionfront m)
target_compile_options(test_api_thermal PRIVATE ${IONF_WARNINGS})
add_test(NAME test_api_thermal COMMAND ${IONF_FRESH_DIR} $<TARGET_FILE:test_api_thermal>)
set_tests_properties(test_api_thermal PROPERTIES WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
                     SKIP_RETURN_CODE 77)
if(IONFRONT_CUDA)
  # the API's device-memory path (IONF_MEMORY_DEVICE on the cuda backend) against host
  # arrays: the same bits; skips (77) without a GPU
  ionf_add_test(NAME test_api_thermal_gpu SOURCES test_api_thermal_gpu.cu LABELS gpu)
endif()

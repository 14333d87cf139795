# The public C API (include/ionfront.h): programs linked with the shared libionfront
# that include only the public header.
foreach(t test_api_iliev1 test_api_misuse test_api_set_field)
  add_executable(${t} api/${t}.c)
  target_link_libraries(${t} PRIVATE ionfront::ionfront m)
  target_compile_options(${t} PRIVATE ${IONF_WARNINGS})
endforeach()
add_test(NAME test_api_misuse COMMAND ${IONF_FRESH_DIR} $<TARGET_FILE:test_api_misuse>)
# a refused ionf_engine_set_field leaves the field as it was (issue 20)
add_test(NAME test_api_set_field COMMAND ${IONF_FRESH_DIR} $<TARGET_FILE:test_api_set_field>)
# the library as a guest: no printing, the caller's MPI, GSL and HDF5 error handlers kept,
# its own duplicate of the caller's communicator (the test calls MPI, GSL, HDF5 itself)
add_executable(test_api_guest api/test_api_guest.c)
target_link_libraries(test_api_guest PRIVATE ionfront::ionfront MPI::MPI_C GSL::gsl
                      ${HDF5_C_LIBRARIES})
target_include_directories(test_api_guest PRIVATE ${HDF5_INCLUDE_DIRS})
target_compile_definitions(test_api_guest PRIVATE ${HDF5_DEFINITIONS})
target_compile_options(test_api_guest PRIVATE ${IONF_WARNINGS})
add_test(NAME test_api_guest COMMAND ${IONF_FRESH_DIR} $<TARGET_FILE:test_api_guest>)
set_tests_properties(test_api_guest PROPERTIES WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(test_api_misuse PROPERTIES WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
# a write error on rank 0 mid-run: every rank returns an error, none hangs (2 ranks)
add_executable(test_api_rank_error api/test_api_rank_error.c)
target_link_libraries(test_api_rank_error PRIVATE ionfront::ionfront MPI::MPI_C)
target_compile_options(test_api_rank_error PRIVATE ${IONF_WARNINGS})
add_test(NAME test_api_rank_error
         COMMAND timeout 60 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${IONF_MPIEXEC_FLAGS}
                 $<TARGET_FILE:test_api_rank_error>)
set_tests_properties(test_api_rank_error PROPERTIES PROCESSORS 2 LABELS mpi TIMEOUT 90)
add_test(NAME api_cli_match COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/api/api_cli_match.sh
                                    $<TARGET_FILE:ionfront> $<TARGET_FILE:test_api_iliev1>)
set_tests_properties(api_cli_match PROPERTIES SKIP_RETURN_CODE 77)
if(IONFRONT_CUDA) # the same on the GPU (skips without one)
  add_test(NAME api_cli_match_gpu COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/api/api_cli_match.sh
                                          $<TARGET_FILE:ionfront> $<TARGET_FILE:test_api_iliev1> cuda)
  set_tests_properties(api_cli_match_gpu PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu
                       ENVIRONMENT IONFRONT_GPU_PROBE=$<TARGET_FILE:gpu_probe>)
endif()

# The Python package (python/ionfront) over the shared library: pytest, including a
# 2-rank mpi4py run (Debian: python3-numpy python3-pytest python3-mpi4py python3-h5py).
find_program(IONF_SYSTEM_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT IONF_SYSTEM_PYTHON)
  find_program(IONF_SYSTEM_PYTHON python3)
endif()
add_test(NAME python_ionfront
         COMMAND ${CMAKE_COMMAND} -E env IONFRONT_LIBRARY=$<TARGET_FILE:ionfront_shared>
                 IONFRONT_TEST_API_ILIEV1=$<TARGET_FILE:test_api_iliev1>
                 IONFRONT_CLI=$<TARGET_FILE:ionfront>
                 IONFRONT_GPU_PROBE=$<TARGET_FILE:gpu_probe>
                 ${CMAKE_CURRENT_SOURCE_DIR}/api/run_pytest.sh ${IONF_SYSTEM_PYTHON}
                 ${CMAKE_SOURCE_DIR}/python/tests)
set_tests_properties(python_ionfront PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi
                     TIMEOUT 300)

# `pip install .` in a fresh clone, into a new venv (CPU only; skipped when pip cannot reach
# PyPI): import ionfront with no environment variable, a run through the package, the
# installed commands.  Labels pip, network.  It builds its own copy from the clone, the same
# whatever this build is: scripts/test.sh registers it in one of its two builds.
if(IONFRONT_PIP_INSTALL_TEST)
  ionf_add_test(NAME pip_install SCRIPT ${CMAKE_CURRENT_SOURCE_DIR}/api/pip_install.sh
                ARGS ${CMAKE_SOURCE_DIR} ${IONF_SYSTEM_PYTHON} PROCESSORS 2 LABELS pip network
                TIMEOUT 1200)
endif()

# install into a temporary prefix; find_package(ionfront), pkg-config and Python use it
add_test(NAME api_install_consumer COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/api/install_consumer.sh
                                           ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} ${IONF_SYSTEM_PYTHON})
set_tests_properties(api_install_consumer PROPERTIES TIMEOUT 300)

# libionfront.so exports exactly the calls of include/ionfront.h (cmake/ionfront.map):
# no internal name, no exported data, no declared call missing.
add_test(NAME api_exports COMMAND ${IONF_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/api/check_exports.py
                                  ${CMAKE_NM} $<TARGET_FILE:ionfront_shared>
                                  ${CMAKE_SOURCE_DIR}/include/ionfront.h)
# ionfront.Thermal's device arrays (__cuda_array_interface__) on the cuda backend: the
# NumPy arrays' bits; skips (77) without numpy or a GPU
if(IONFRONT_CUDA)
  # (the environment as a test property, not `cmake -E env`: the GPU machine runs the
  # packed tests without a cmake binary)
  add_test(NAME python_thermal_device_gpu
           COMMAND ${IONF_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/api/thermal_device_gpu.py)
  set_tests_properties(python_thermal_device_gpu PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu
                       WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
                       ENVIRONMENT "IONFRONT_LIBRARY=$<TARGET_FILE:ionfront_shared>;PYTHONDONTWRITEBYTECODE=1"
                       # prepended: a PYTHONPATH that brings numpy (the GPU machine's) stays
                       ENVIRONMENT_MODIFICATION "PYTHONPATH=path_list_prepend:${CMAKE_SOURCE_DIR}/python")
endif()

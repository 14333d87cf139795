# Monte Carlo photon packets (raytracing.method: montecarlo; src/mc*.{c,h}, gpu/mc_trace.cu)
ionf_add_test(NAME test_mc_philox SOURCES test_mc_philox.c LABELS unit)
ionf_add_test(NAME test_mc_dda SOURCES test_mc_dda.c LABELS unit)
ionf_add_test(NAME test_mc_rates SOURCES test_mc_rates.c LABELS unit)
if(IONFRONT_CUDA)
  ionf_add_test(NAME test_mc_gpu SOURCES test_mc_gpu.cu test_mc_gpu_host.c LABELS gpu)
  add_test(NAME cli_mc_gpu COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_mc_gpu.sh ${MPIEXEC_EXECUTABLE}
                                  $<TARGET_FILE:ionfront>)
  set_tests_properties(cli_mc_gpu PROPERTIES SKIP_RETURN_CODE 77 LABELS gpu TIMEOUT 600
                       ENVIRONMENT IONFRONT_GPU_PROBE=$<TARGET_FILE:gpu_probe>)
endif()
add_test(NAME cli_mc COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_mc.sh ${MPIEXEC_EXECUTABLE}
                            $<TARGET_FILE:ionfront>)
set_tests_properties(cli_mc PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi TIMEOUT 300)

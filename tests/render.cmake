# `ionfront render`: the volume renderer, the particle binning, the command line.
ionf_add_test(NAME test_render_sphere SOURCES test_render_sphere.c)
ionf_add_test(NAME test_render_binning SOURCES test_render_binning.c)
# GPU against CPU (exits 77 without a GPU)
if(IONFRONT_CUDA)
  ionf_add_test(NAME test_render_gpu SOURCES test_render_gpu.c LABELS gpu)
endif()
add_test(NAME cli_render COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_render.sh $<TARGET_FILE:ionfront>
                                 ${CMAKE_CURRENT_SOURCE_DIR}/render_check.py ${MPIEXEC_EXECUTABLE})
set_tests_properties(cli_render PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi TIMEOUT 300)

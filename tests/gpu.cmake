# GPU tests: built when CUDA is enabled; they exit 77 (skipped) without a GPU.
if(IONFRONT_CUDA)
  ionf_add_test(NAME test_gpu_k_headers SOURCES test_gpu_k_headers.cu LABELS gpu)
  ionf_add_test(NAME test_backend_agreement SOURCES test_backend_agreement.c LABELS gpu TIMEOUT 600)
  # helium's band rates and H + He chemistry on the GPU as on the host (issue 21)
  ionf_add_test(NAME test_gpu_helium_k SOURCES test_gpu_helium_k.cu LABELS gpu)
endif()

# IONFRONT_REQUIRE_GPU=1 makes a GPU test fail instead of skipping where no GPU is
# usable (a broken driver is not "no GPU"): checked on machines without a GPU (CI);
# skips itself where a GPU is usable.  test_sph_trace_gpu is built in both builds.
add_test(NAME gpu_require COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/gpu_require.sh $<TARGET_FILE:gpu_probe>
                                  $<TARGET_FILE:test_sph_trace_gpu>
                                  ${CMAKE_CURRENT_SOURCE_DIR}/api/api_cli_match.sh)
set_tests_properties(gpu_require PROPERTIES SKIP_RETURN_CODE 77 LABELS unit)

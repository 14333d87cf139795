# GPU tests: built when CUDA is enabled; they exit 77 (skipped) without a GPU.
if(IONFRONT_CUDA)
  ionf_add_test(NAME test_gpu_k_headers SOURCES test_gpu_k_headers.cu LABELS gpu)
  ionf_add_test(NAME test_backend_agreement SOURCES test_backend_agreement.c LABELS gpu TIMEOUT 600)
endif()

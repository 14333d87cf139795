/**
 * @file sph_chem_stub.c
 * @brief sph_chem_cuda_pass in a CPU-only build: says so (gpu/sph_chem.cu is the real one).
 */
#include "core/ionf_config.h"
#include "chem/sph_chem.h"

#if !IONF_HAVE_CUDA
ionf_err sph_chem_cuda_pass(const struct chem_input *in, struct chem_state *state,
                            struct chem_pass_result *result) {
  (void)in, (void)state, (void)result;
  return ionf_error_set(IONF_ERR_UNSUPPORTED,
                        "sph_chem_cuda_pass: this build has no CUDA (configure with -DIONFRONT_CUDA=ON)");
}

void sph_chem_cuda_release(void) {}

int sph_cuda_select_device(int local_rank) {
  (void)local_rank;
  return -1;
}
#endif

/* ISO C: a translation unit is not empty */
typedef int sph_chem_stub_unused;

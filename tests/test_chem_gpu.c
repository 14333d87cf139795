/**
 * @file test_chem_gpu.c
 * @brief The CUDA chemistry solver on host arrays staged through the GPU (the
 *        particle engine's) against the CPU solver on the same varied cells,
 *        isothermal and thermal, through the chemistry interface (chem/chem.h): the
 *        same x_av, x_end, T to 3e-13 relative (both run chem_k.h's chem_cell_pass;
 *        only libm against CUDA's maths can differ; measured on an H200, 2026-11-27:
 *        7.6e-15 isothermal, 2.9e-14 thermal; 10x margin), the same counts and sums (the
 *        staged solver forms them on the host in cell order).  The solver on GPU
 *        arrays is checked by test_backend_agreement.  Skips (77) without a GPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chem/chem.h"
#include "core/ionf_config.h"
#include "engine/backend.h"
#include "gpu/core/cuda_util.h"
#include "test_util.h"

#define N 20000

static double frand(unsigned *s) {
  *s = *s * 1664525u + 1013904223u;
  return (*s >> 8) / 16777216.0;
}

static void compare(int thermal) {
  static double n_h[N], t_k[N], gamma[N], x0[N], heat[N];
  static double xa_c[N], xe_c[N], ta_c[N], te_c[N], xa_g[N], xe_g[N], ta_g[N], te_g[N];
  unsigned s = 12345u + (unsigned)thermal;
  for (int i = 0; i < N; ++i) {
    n_h[i] = 1e-4 * pow(10.0, 3.0 * frand(&s));
    t_k[i] = thermal ? 100.0 + 2e4 * frand(&s) : 1e4;
    gamma[i] = 1e-16 * pow(10.0, 5.0 * frand(&s));
    x0[i] = 1e-3 + 0.9 * frand(&s);
    heat[i] = gamma[i] * 3.0 * 1.602e-12;
    xa_c[i] = xa_g[i] = x0[i];
    ta_c[i] = ta_g[i] = t_k[i];
  }
  struct chem_params p = {2.59e-13, -0.7, 5.8e-11, 157809.0, 1, 7.1e-7, thermal, 0.0, 0.0};
  struct chem_input in = {N, 3.15576e14, p, n_h, t_k, gamma, x0, thermal ? heat : NULL, N, 1, {.abundance_he = 0.0}};
  struct chem_state cpu = {xa_c, xe_c, thermal ? ta_c : NULL, thermal ? te_c : NULL};
  struct chem_state gpu = {xa_g, xe_g, thermal ? ta_g : NULL, thermal ? te_g : NULL};
  struct chem_pass_result rc_cpu, rc_gpu;
  struct chem_solver *on_cpu = NULL, *on_gpu = NULL;
  EXPECT(chem_solver_create_cpu(&on_cpu) == IONF_OK, "cpu solver");
  ionf_err rc = IONF_ERR_UNSUPPORTED;
#if IONF_HAVE_CUDA
  rc = chem_solver_create_cuda(0, NULL, &on_gpu);
#endif
  EXPECT(rc == IONF_OK, "gpu solver: %s", ionf_error_message());
  if (rc != IONF_OK) {
    chem_solver_destroy(on_cpu);
    return;
  }
  EXPECT(on_cpu->ops.pass(on_cpu, &in, &cpu, &rc_cpu) == IONF_OK, "cpu pass");
  rc = on_gpu->ops.pass(on_gpu, &in, &gpu, &rc_gpu);
  chem_solver_destroy(on_cpu);
  chem_solver_destroy(on_gpu);
  EXPECT(rc == IONF_OK, "gpu pass: %s", ionf_error_message());
  if (rc != IONF_OK) return;
  double worst = 0.0;
  for (int i = 0; i < N; ++i) {
    worst = test_worst(worst, test_rel_diff(xa_g[i], xa_c[i], 0.0));
    worst = test_worst(worst, test_rel_diff(xe_g[i], xe_c[i], 0.0));
    if (thermal) {
      worst = test_worst(worst, test_rel_diff(ta_g[i], ta_c[i], 0.0));
      worst = test_worst(worst, test_rel_diff(te_g[i], te_c[i], 0.0));
    }
  }
  printf("%s: largest relative difference GPU - CPU %.3g\n", thermal ? "thermal" : "isothermal",
         worst);
  EXPECT(worst <= 3e-13, "GPU and CPU agree (%.3g)", worst);
  EXPECT(llabs(rc_gpu.unconverged_cells - rc_cpu.unconverged_cells) <= 2, "unconverged counts %lld %lld",
         (long long)rc_gpu.unconverged_cells, (long long)rc_cpu.unconverged_cells);
  EXPECT_REL(rc_gpu.sum_x_end, rc_cpu.sum_x_end, 1e-10, "sum of x_end");
  EXPECT_REL(rc_gpu.sum_t_end, rc_cpu.sum_t_end, 1e-10, "sum of T_end");
}

int main(void) {
  char gpu_why[256];
  if (test_gpu_probe(gpu_why, sizeof gpu_why) == 0) {
    return test_gpu_skip(gpu_why);
  }
  compare(0);
  compare(1);
  TEST_RETURN();
}

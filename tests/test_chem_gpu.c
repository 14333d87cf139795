/**
 * @file test_chem_gpu.c
 * @brief The CUDA chemistry solver on host arrays staged through the GPU (the
 *        particle engine's) against the CPU solver on the same varied cells,
 *        isothermal and thermal, through the chemistry interface (chem/chem.h): the
 *        same x_av, x_end, T to 3e-13 relative (both run chem_k.h's chem_cell_pass;
 *        only libm against CUDA's maths can differ; measured on an H200, 2026-11-27:
 *        7.6e-15 isothermal, 2.9e-14 thermal; 10x margin), the same counts and sums (the
 *        staged solver forms them on the host in cell order).  Also one block of the
 *        cells, as a particle run's rank passes it (pointers offset to the block's
 *        first cell, species the whole array's count apart), hydrogen and helium,
 *        thermal: the block's cells as the CPU's over all cells (helium: 6e-12, as
 *        test_sph_helium_gpu), the cells outside it untouched.  The solver on GPU
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

/* One block [first, first + count) of M cells with ns species (species-major, M apart):
   the staged solver on the block against the CPU solver on all cells. */
static void compare_block(int ns) {
  enum { M = 1000 };
  const int64_t first = 301, count = 333;
  static double n_h[M], t_k[M], gamma[3 * M], x0[3 * M], heat[3 * M];
  static double xa_c[3 * M], xe_c[3 * M], ta_c[M], te_c[M], xa_g[3 * M], xe_g[3 * M], ta_g[M],
      te_g[M];
  unsigned s = 777u + (unsigned)ns;
  for (int i = 0; i < M; ++i) {
    n_h[i] = 1e-3 * pow(10.0, 2.0 * frand(&s));
    t_k[i] = ta_c[i] = ta_g[i] = te_c[i] = te_g[i] = 100.0 + 2e4 * frand(&s);
    for (int k = 0; k < ns; ++k) {
      gamma[k * M + i] = 1e-15 * pow(10.0, 3.0 * frand(&s)) / (1 + k * k);
      heat[k * M + i] = gamma[k * M + i] * 3.0 * 1.602e-12;
      x0[k * M + i] = k == 2 ? 1e-6 : 1e-3 + 0.5 * frand(&s);
      xa_c[k * M + i] = xa_g[k * M + i] = xe_c[k * M + i] = xe_g[k * M + i] = x0[k * M + i];
    }
  }
  struct chem_params p = {2.59e-13, -0.7, 5.8e-11, 157809.0, 1, 7.1e-7, 1, 0.0, 0.0};
  struct chem_he_params he = {ns == 3 ? 0.08 : 0.0, 7.1e-7, 1, 1, 2.59e-13, -0.7, 0.0, 0.0};
  struct chem_input all = {M, 3.15576e13, p, n_h, t_k, gamma, x0, heat, M, ns, he};
  struct chem_input block = {count, 3.15576e13, p, n_h + first, t_k + first, gamma + first,
                             x0 + first, heat + first, M, ns, he};
  struct chem_state cpu = {xa_c, xe_c, ta_c, te_c};
  struct chem_state gpu = {xa_g + first, xe_g + first, ta_g + first, te_g + first};
  struct chem_pass_result r_cpu, r_gpu;
  struct chem_solver *on_cpu = NULL, *on_gpu = NULL;
  ionf_err rc = IONF_ERR_UNSUPPORTED;
  EXPECT(chem_solver_create_cpu(&on_cpu) == IONF_OK, "cpu solver");
#if IONF_HAVE_CUDA
  rc = chem_solver_create_cuda(0, NULL, &on_gpu);
#endif
  EXPECT(rc == IONF_OK, "gpu solver: %s", ionf_error_message());
  if (rc == IONF_OK) {
    EXPECT(on_cpu->ops.pass(on_cpu, &all, &cpu, &r_cpu) == IONF_OK, "cpu pass");
    rc = on_gpu->ops.pass(on_gpu, &block, &gpu, &r_gpu);
    EXPECT(rc == IONF_OK, "gpu pass over the block: %s", ionf_error_message());
  }
  chem_solver_destroy(on_cpu);
  chem_solver_destroy(on_gpu);
  if (rc != IONF_OK) return;
  double worst = 0.0;
  int outside = 0;
  for (int i = 0; i < M; ++i) {
    int in_block = i >= first && i < first + count;
    for (int k = 0; k < ns; ++k) {
      int c = k * M + i;
      if (in_block) {
        worst = test_worst(worst, test_rel_diff(xa_g[c], xa_c[c], 0.0));
        worst = test_worst(worst, test_rel_diff(xe_g[c], xe_c[c], 0.0));
      } else {
        outside += xa_g[c] != x0[c] || xe_g[c] != x0[c];
      }
    }
    if (in_block) {
      worst = test_worst(worst, test_rel_diff(ta_g[i], ta_c[i], 0.0));
      worst = test_worst(worst, test_rel_diff(te_g[i], te_c[i], 0.0));
    } else {
      outside += ta_g[i] != t_k[i] || te_g[i] != t_k[i];
    }
  }
  printf("block of %lld of %d cells, %d species: largest relative difference GPU - CPU %.3g\n",
         (long long)count, M, ns, worst);
  EXPECT(worst <= (ns == 3 ? 6e-12 : 3e-13), "the block agrees with the CPU's pass (%.3g)", worst);
  EXPECT(outside == 0, "%d values outside the block changed", outside);
}

int main(void) {
  char gpu_why[256];
  if (test_gpu_probe(gpu_why, sizeof gpu_why) == 0) {
    return test_gpu_skip(gpu_why);
  }
  compare(0);
  compare(1);
  compare_block(1);
  compare_block(3);
  TEST_RETURN();
}

/**
 * @file test_chem_clumping_gpu.c
 * @brief The CUDA chemistry solver with a clumping factor (the density model, each cell
 *        its own C) against the CPU solver with the same, on host arrays staged through
 *        the GPU: hydrogen and hydrogen with helium, the temperature evolving.  The same
 *        x_av, x_end, T to test_chem_gpu's tolerances (3e-13 hydrogen, 6e-12 with helium:
 *        libm against CUDA's maths), and clumping changes the answer (a check that C
 *        reached the kernel).  Skips (77) without a GPU.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chem/chem.h"
#include "core/ionf_config.h"
#include "test_util.h"

#define M 4000

static double frand(unsigned *s) {
  *s = *s * 1664525u + 1013904223u;
  return (*s >> 8) / 16777216.0;
}

/* One pass of `solver` with clumping k over fresh copies of the inputs; x_end out. */
static int pass(struct chem_solver *solver, const struct chem_clumping *k, int ns,
                const double *x0, const double *t_k, double *x_end, double *t_end) {
  static double n_h[M], gamma[3 * M], heat[3 * M], x_av[3 * M], t_av[M];
  unsigned s = 99u;
  double sum = 0.0;
  for (int i = 0; i < M; ++i) {
    n_h[i] = 1e-4 * pow(10.0, 2.0 * frand(&s));
    sum += n_h[i];
    t_av[i] = t_k[i];
    for (int c = 0; c < ns; ++c) {
      gamma[c * M + i] = 1e-15 * pow(10.0, 3.0 * frand(&s)) / (1 + c * c);
      heat[c * M + i] = gamma[c * M + i] * 3.0 * 1.602e-12;
      x_av[c * M + i] = x0[c * M + i];
    }
  }
  struct chem_clumping kk = *k;
  if (kk.model == CHEM_CLUMPING_DENSITY) kk.mean_n_h_cm3 = sum / M;
  struct chem_params p = {2.59e-13, -0.7, 5.8e-11, 157809.0, 1, 7.1e-7, 1, 0.0, 0.0};
  struct chem_he_params he = {ns == 3 ? 0.08 : 0.0, 7.1e-7, 1, 1, 2.59e-13, -0.7, 0.0, 0.0};
  struct chem_input in = {M, 3.15576e13, p, n_h, t_k, gamma, x0, heat, M, ns, he};
  struct chem_state st = {x_av, x_end, t_av, t_end};
  struct chem_pass_result r;
  chem_solver_set_clumping(solver, &kk);
  ionf_err rc = solver->ops.pass(solver, &in, &st, &r);
  EXPECT(rc == IONF_OK, "%s pass: %s", solver->name, ionf_error_message());
  return rc == IONF_OK;
}

static void compare(int ns) {
  static double x0[3 * M], t_k[M], xc[3 * M], xg[3 * M], x1[3 * M], tc[M], tg[M], t1[M];
  unsigned s = 7u;
  for (int i = 0; i < M; ++i) {
    t_k[i] = 100.0 + 2e4 * frand(&s);
    for (int c = 0; c < ns; ++c) x0[c * M + i] = c == 2 ? 1e-6 : 1e-3 + 0.5 * frand(&s);
  }
  struct chem_clumping k, none;
  memset(&k, 0, sizeof k);
  memset(&none, 0, sizeof none);
  k.model = CHEM_CLUMPING_DENSITY;
  k.a = 3.0, k.b = 14.0, k.c = -2.0;
  struct chem_solver *cpu = NULL, *gpu = NULL;
  EXPECT(chem_solver_create_cpu(&cpu) == IONF_OK, "cpu solver");
  ionf_err rc = IONF_ERR_UNSUPPORTED;
#if IONF_HAVE_CUDA
  rc = chem_solver_create_cuda(0, NULL, &gpu);
#endif
  EXPECT(rc == IONF_OK, "gpu solver: %s", ionf_error_message());
  if (rc == IONF_OK && pass(cpu, &k, ns, x0, t_k, xc, tc) && pass(gpu, &k, ns, x0, t_k, xg, tg) &&
      pass(gpu, &none, ns, x0, t_k, x1, t1)) {
    double worst = 0.0, effect = 0.0;
    for (int i = 0; i < ns * M; ++i) {
      worst = test_worst(worst, test_rel_diff(xg[i], xc[i], 0.0));
      effect = test_worst(effect, test_abs_diff(x1[i], xg[i]));
    }
    for (int i = 0; i < M; ++i) worst = test_worst(worst, test_rel_diff(tg[i], tc[i], 0.0));
    printf("%s: GPU - CPU with clumping: %.3g relative; clumping moves x by up to %.3g\n",
           ns == 3 ? "H + He" : "H", worst, effect);
    EXPECT(worst <= (ns == 3 ? 6e-12 : 3e-13), "GPU and CPU differ by %.3g", worst);
    EXPECT(effect > 1e-3, "clumping did not change the GPU's answer (%.3g)", effect);
  }
  chem_solver_destroy(cpu);
  chem_solver_destroy(gpu);
}

int main(void) {
  char why[256];
  if (test_gpu_probe(why, sizeof why) <= 0) return test_gpu_skip(why);
  compare(1);
  compare(3);
  TEST_RETURN();
}

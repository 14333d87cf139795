/**
 * @file test_gpu_helium_k.cu
 * @brief Helium's shared maths gives the same numbers on the GPU as on the host:
 *        the band-table rates of a cell from three absorbers' columns (bands_k.h)
 *        and the H + He chemistry pass of one cell with its temperature
 *        (chem_he_k.h), over many random inputs.  Skips (77) without a GPU.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "chem/chem_he_k.h"
#include "rt/bands.h"
}
#include "test_util.h"

#define N_CASES 2048
#define N_OUT 12

struct he_case {
  double col[3], dcol[3], ds, vol;
  struct chem_he_state s0;
  struct chem_he_rates g;
  double heat[3], n_h, t_k, dt;
};

__host__ __device__ static void evaluate(const struct he_case *c, const struct bands_view *v,
                                         const struct chem_he_params *p, double *out) {
  double gamma[3] = {0, 0, 0}, heat[3] = {0, 0, 0};
  bands_rates(v, 5e48, c->col, c->dcol, c->ds, c->vol, gamma, heat, (double *)0);
  for (int s = 0; s < 3; ++s) {
    out[s] = gamma[s];
    out[3 + s] = heat[s];
  }
  struct chem_he_state av = c->s0;
  double t_av = c->t_k;
  int moved;
  struct chem_he_pass_result r = chem_he_cell_pass(p, 1, c->dt, c->s0, c->n_h, c->t_k, c->g, c->heat,
                                                   &av, &t_av, &moved);
  out[6] = r.end.x_hii;
  out[7] = r.end.x_heii;
  out[8] = r.end.x_heiii;
  out[9] = r.t_end_k;
  out[10] = t_av;
  out[11] = av.x_heiii;
}

__global__ void evaluate_kernel(const struct he_case *cases, struct bands_view v,
                                struct chem_he_params p, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) evaluate(&cases[i], &v, &p, out + N_OUT * i);
}

static double uniform(double lo, double hi) { return lo + (hi - lo) * (rand() / (double)RAND_MAX); }

/* b's tables on the device, in a view with device pointers (freed by the caller). */
static struct bands_view device_view(const struct bands *b, double **dev) {
  struct bands_view v = bands_view_of(b);
  const double *host[5] = {b->sigma_cm2, b->table, b->e_table, b->whole.table, b->whole.e_table};
  size_t bytes[5] = {sizeof(double) * 3 * (size_t)b->n_bins, sizeof(double) * bands_table_doubles(b),
                     sizeof(double) * bands_table_doubles(b), sizeof(double) * b->whole.doubles,
                     sizeof(double) * b->whole.doubles};
  for (int q = 0; q < 5; ++q) {
    dev[q] = NULL;
    if (!host[q] || !bytes[q]) continue;
    cudaMalloc((void **)&dev[q], bytes[q]);
    cudaMemcpy(dev[q], host[q], bytes[q], cudaMemcpyHostToDevice);
  }
  v.sigma_cm2 = dev[0];
  v.table = dev[1];
  v.e_table = dev[2];
  v.whole.table = dev[3];
  v.whole.e_table = dev[4];
  return v;
}

/* The cases on the host and on the device with C2-Ray's sub-bins (whole = 0) or the
   whole-band tables (whole = 1). */
static void compare(int whole);

int main(void) {
  char why[256];
  if (test_gpu_probe(why, sizeof why) == 0) return test_gpu_skip(why);
  compare(0);
  compare(1);
  TEST_RETURN();
}

static void compare(int whole) {
  struct bands_setup setup = {};
  setup.type = BANDS_BLACKBODY;
  setup.t_eff_k = 1e5;
  setup.e_max_ev = 544.16;
  setup.n_sub[0] = 1;
  setup.n_sub[1] = 8;
  setup.n_sub[2] = 8;
  setup.heating = 1;
  setup.whole = whole;
  struct bands b;
  if (bands_build(&setup, &b) != IONF_OK) {
    fprintf(stderr, "FAIL: bands: %s\n", ionf_error_message());
    ++test_failures;
    return;
  }
  srand(2024);
  static struct he_case cases[N_CASES];
  for (int i = 0; i < N_CASES; ++i) {
    struct he_case *c = &cases[i];
    for (int s = 0; s < 3; ++s) {
      c->col[s] = pow(10.0, uniform(10.0, 20.0));
      c->dcol[s] = pow(10.0, uniform(8.0, 19.0));
      c->heat[s] = pow(10.0, uniform(-26.0, -22.0));
    }
    c->ds = 1.6e20;
    c->vol = 4.0 * IONF_PI * pow(10.0, uniform(40.0, 44.0)) * c->ds;
    c->s0.x_hii = pow(10.0, uniform(-4.0, 0.0)) * 0.999;
    c->s0.x_heii = 0.5 * pow(10.0, uniform(-4.0, 0.0));
    c->s0.x_heiii = 0.4 * pow(10.0, uniform(-6.0, 0.0));
    c->g.gamma_hi = pow(10.0, uniform(-16.0, -11.0));
    c->g.gamma_hei = pow(10.0, uniform(-16.0, -11.0));
    c->g.gamma_heii = pow(10.0, uniform(-18.0, -13.0));
    c->n_h = pow(10.0, uniform(-5.0, 0.0));
    c->t_k = pow(10.0, uniform(2.0, 5.0));
    c->dt = pow(10.0, uniform(11.0, 15.0));
  }
  struct chem_he_params p = {0.08, 7.1e-7, 1, 1, 2.59e-13, -0.7, 0.0, 0.0};
  struct bands_view hv = bands_view_of(&b);
  static double host[N_CASES * N_OUT], dev_out[N_CASES * N_OUT];
  for (int i = 0; i < N_CASES; ++i) evaluate(&cases[i], &hv, &p, host + N_OUT * i);
  double *dev_tables[5];
  struct bands_view dv = device_view(&b, dev_tables);
  struct he_case *d_cases;
  double *d_out;
  cudaMalloc((void **)&d_cases, sizeof cases);
  cudaMalloc((void **)&d_out, sizeof dev_out);
  cudaMemcpy(d_cases, cases, sizeof cases, cudaMemcpyHostToDevice);
  evaluate_kernel<<<(N_CASES + 127) / 128, 128>>>(d_cases, dv, p, d_out, N_CASES);
  cudaError_t err = cudaMemcpy(dev_out, d_out, sizeof dev_out, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    fprintf(stderr, "FAIL: kernel: %s\n", cudaGetErrorString(err));
    ++test_failures;
    return;
  }
  /* worst relative differences: rates (relative to the cell's largest rate of that
     kind, as table differences of nearly equal numbers), fractions and temperatures */
  double worst[3] = {0, 0, 0};
  for (int i = 0; i < N_CASES; ++i) {
    const double *h = host + N_OUT * i, *d = dev_out + N_OUT * i;
    double g_scale = 1e-300, h_scale = 1e-300;
    for (int s = 0; s < 3; ++s) {
      g_scale = fmax(g_scale, fabs(h[s]));
      h_scale = fmax(h_scale, fabs(h[3 + s]));
    }
    for (int s = 0; s < 3; ++s) {
      worst[0] = test_worst(worst[0], test_abs_diff(h[s], d[s]) / g_scale);
      worst[0] = test_worst(worst[0], test_abs_diff(h[3 + s], d[3 + s]) / h_scale);
    }
    for (int q = 6; q < 9; ++q) worst[1] = test_worst(worst[1], test_rel_diff(h[q], d[q], 1e-12));
    for (int q = 9; q < 12; ++q) worst[2] = test_worst(worst[2], test_rel_diff(h[q], d[q], 1e-12));
  }
  printf("GPU vs host, %d cases, %s: band rates %.3g, ion fractions %.3g, temperatures %.3g\n",
         N_CASES, whole ? "whole bands" : "sub-bins", worst[0], worst[1], worst[2]);
  /* measured on an H200 (2026-11-27, the band tables of bands_k.h as cubics per interval):
     band rates 2.46e-9 (host and device round the cubics differently in the last bit, FMA
     or not; a rate is a difference of table values over dtau), ion fractions 7.76e-5 and
     temperatures 3.02e-5: those last bits can change an iteration count, and the n_e
     iteration stops at a relative change of 1e-6, the temperature's at 1e-3 (chem_he_k.h),
     so the two sides agree to the convergence criteria, not to rounding.  Tolerances 5x. */
  /* whole bands (rt/bands_whole_k.h): 2.01e-8 measured on an H200 (2026-11-28): the same
     kind of difference, exp(-Lambda_in) expm1(Lambda_in - Lambda_out) over nearly equal
     bicubic Lambdas; 5x */
  const double tol_rates = whole ? 1.0e-7 : 1.2e-8;
  EXPECT(worst[0] <= tol_rates, "%s: band rates differ by %.3g", whole ? "whole bands" : "sub-bins",
         worst[0]);
  EXPECT(worst[1] <= 4e-4, "ion fractions differ by %.3g", worst[1]);
  EXPECT(worst[2] <= 1.5e-4, "temperatures differ by %.3g", worst[2]);
  for (int q = 0; q < 5; ++q) cudaFree(dev_tables[q]);
  cudaFree(d_cases);
  cudaFree(d_out);
  bands_free(&b);
}

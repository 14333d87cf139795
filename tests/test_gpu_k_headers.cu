/**
 * @file test_gpu_k_headers.cu
 * @brief The shared *_k.h maths gives the same numbers on the GPU as on the
 *        host: interpolation stencils and columns, photoionization rates and
 *        the chemistry update, over many random inputs, and whole columns of a
 *        plane-parallel source (planar_k.h) through a random medium from every
 *        face.  Skips (77) without a GPU.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "rt/asora/asora_k.h"
#include "chem/chem_k.h"
#include "rt/photo_k.h"
#include "rt/planar/planar_k.h"
}
#include "test_util.h"

#define N_CASES 4096
#define N_OUT 11

struct k_case {
  int d[3];
  double col[4], n_hi, tau_in, dtau, gamma, x0, t_k, dt;
};

__host__ __device__ static void evaluate(const struct k_case *c, const struct photo_table_view *t,
                                         const struct chem_params *p, double *out) {
  struct asora_stencil st;
  asora_stencil_make(c->d[0], c->d[1], c->d[2], NULL, &st);
  out[0] = asora_column_in(&st, c->col, 6.3e-18);
  out[1] = st.ds_cells;
  double vol = asora_shell_volume_cm3(c->d[0], c->d[1], c->d[2], st.ds_cells, 1.6e20);
  out[2] = photo_gamma(t, SPECIES_HI, 5e48, c->tau_in, c->tau_in + c->dtau, c->n_hi, st.ds_cells * 1.6e20, vol);
  struct chem_cell_result r = chem_cell_update(p, c->x0, c->x0, 1e-3, c->t_k, c->gamma, c->dt);
  out[3] = r.x_end;
  out[4] = r.x_av;
  out[5] = (double)r.iterations;
  struct chem_cell_result rt = chem_cell_update_thermal(p, c->x0, c->x0, c->t_k, c->t_k, 1e-3,
                                                        c->gamma, 1e-12 * c->gamma, c->dt);
  out[7] = rt.t_end_k;
  out[8] = rt.t_av_k;
  double heat = 0.0;
  photo_rates(t, SPECIES_HI, 5e48, c->tau_in, c->tau_in + c->dtau, c->n_hi, st.ds_cells * 1.6e20, vol, &heat);
  out[9] = heat;
  /* scale of the heating rate: the energy entering the cell per atom (as for gamma) */
  double heat_in = t->grey ? 0.0
                           : photo_table_lookup(t->sp[SPECIES_HI].heat_thick, t->num_tau, t->min_log_tau,
                                                t->dlog_tau, c->tau_in);
  out[10] = 5e48 * heat_in / (c->n_hi * vol) + 1e-300;
  /* Scale of the rate: the photons entering the cell per atom.  Table rates
     are differences of nearly equal numbers, so host and device (whose log10
     and exp differ in the last bit) agree relative to this, not to the rate. */
  double thick_in = t->grey ? exp(-c->tau_in)
                            : photo_table_lookup(t->sp[SPECIES_HI].thick, t->num_tau, t->min_log_tau,
                                                 t->dlog_tau, c->tau_in);
  out[6] = 5e48 * thick_in / (c->n_hi * vol);
  /* stencil identity: which neighbours are used */
  for (int m = 0; m < 4; ++m)
    if (st.s[m] > 0.0) out[1] += 1e3 * (m + 1) * (st.off[m][0] + 40 * st.off[m][1]);
}

__global__ void evaluate_kernel(const struct k_case *cases, struct photo_table_view t,
                                struct chem_params p, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) evaluate(&cases[i], &t, &p, out + N_OUT * i);
}

static double uniform(double lo, double hi) { return lo + (hi - lo) * (rand() / (double)RAND_MAX); }

__global__ void planar_kernel(struct planar_column_view v, double *gamma, double *heat) {
  long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (c < v.n * v.n) planar_trace_column(&v, c, gamma, heat);
}

/* Columns of a plane source from each face through a random medium (thick and
   thin cells), host against device: Gamma and heating relative to the photons
   (energy) entering each cell per atom, as for the point-source rates above. */
static int check_planar(struct photo_table_view t, struct photo_table_view t_dev) {
  const long long n = 24, cells = n * n * n;
  const double cell_cm = 1.6e20;
  size_t bytes = sizeof(double) * (size_t)cells;
  double *n_h = (double *)malloc(bytes), *x = (double *)malloc(bytes);
  double *g = (double *)malloc(bytes), *h = (double *)malloc(bytes);
  double *g_dev_host = (double *)malloc(bytes), *h_dev_host = (double *)malloc(bytes);
  for (long long c = 0; c < cells; ++c) {
    n_h[c] = pow(10.0, uniform(-5.0, -1.0));
    x[c] = rand() % 4 == 0 ? 1.0 - 1e-14 : uniform(0.0, 0.999);
  }
  double *d_n_h, *d_x, *d_g, *d_h;
  if (cudaMalloc(&d_n_h, bytes) != cudaSuccess || cudaMalloc(&d_x, bytes) != cudaSuccess ||
      cudaMalloc(&d_g, bytes) != cudaSuccess || cudaMalloc(&d_h, bytes) != cudaSuccess) {
    fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(d_n_h, n_h, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice);
  int failures = 0;
  for (int face = 0; face < PLANAR_N_FACES; ++face) {
    struct planar_column_view v;
    v.n_h_cm3 = n_h;
    v.x_ion_av = x;
    v.n_species = 1;
    v.abundance_he = 0.0;
    v.n = n;
    v.cell_cm = cell_cm;
    v.face = face;
    v.ndot_per_s = planar_column_ndot(1e6, cell_cm);
    v.tables = t;
    memset(g, 0, bytes);
    memset(h, 0, bytes);
    for (long long c = 0; c < n * n; ++c) planar_trace_column(&v, c, g, t.heating ? h : NULL);
    struct planar_column_view vd = v;
    vd.n_h_cm3 = d_n_h;
    vd.x_ion_av = d_x;
    vd.tables = t_dev;
    cudaMemset(d_g, 0, bytes);
    cudaMemset(d_h, 0, bytes);
    planar_kernel<<<(unsigned)((n * n + 127) / 128), 128>>>(vd, d_g, t.heating ? d_h : NULL);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      fprintf(stderr, "planar kernel failed\n");
      return 1;
    }
    cudaMemcpy(g_dev_host, d_g, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_dev_host, d_h, bytes, cudaMemcpyDeviceToHost);
    double worst_g = 0.0, worst_h = 0.0, volume = cell_cm * cell_cm * cell_cm;
    for (long long col = 0; col < n * n; ++col) {
      double column = 0.0;
      for (long long s = 0; s < n; ++s) {
        long long c = planar_cell_index(n, face, col, s);
        double n_hi = n_h[c] * (1.0 - x[c]), tau_in = t.sp[SPECIES_HI].sigma0_cm2 * column;
        column += n_hi * cell_cm;
        double in_g = t.grey ? exp(-tau_in)
                             : photo_table_lookup(t.sp[SPECIES_HI].thick, t.num_tau, t.min_log_tau, t.dlog_tau, tau_in);
        double in_h = t.grey ? 0.0
                             : photo_table_lookup(t.sp[SPECIES_HI].heat_thick, t.num_tau, t.min_log_tau,
                                                  t.dlog_tau, tau_in);
        double scale_g = fabs(g[c]) + v.ndot_per_s * in_g / (n_hi * volume + 1e-300) * (n_hi > 0);
        double scale_h = fabs(h[c]) + v.ndot_per_s * in_h / (n_hi * volume + 1e-300) * (n_hi > 0);
        double dg = fabs(g_dev_host[c] - g[c]) / (scale_g + 1e-300);
        double dh = fabs(h_dev_host[c] - h[c]) / (scale_h + 1e-300);
        if (!(dg <= worst_g)) worst_g = dg;
        if (t.heating && !(dh <= worst_h)) worst_h = dh;
      }
    }
    /* the same bound as for the point-source rates above: tables 1e-10, grey 1e-12 */
    double tol = t.grey ? 1e-12 : 1e-10;
    printf("plane source through %d (grey=%d): largest relative GPU-host difference: Gamma %.3g, "
           "heating %.3g\n", face, t.grey, worst_g, worst_h);
    if (!(worst_g <= tol) || !(worst_h <= tol)) {
      fprintf(stderr, "FAIL plane source face %d: Gamma %.3g, heating %.3g (> %.1g)\n", face,
              worst_g, worst_h, tol);
      ++failures;
    }
  }
  cudaFree(d_n_h);
  cudaFree(d_x);
  cudaFree(d_g);
  cudaFree(d_h);
  free(n_h);
  free(x);
  free(g);
  free(h);
  free(g_dev_host);
  free(h_dev_host);
  return failures;
}

int main(void) {
  char gpu_why[256];
  if (test_gpu_probe(gpu_why, sizeof gpu_why) == 0) {
    return test_gpu_skip(gpu_why);
  }
  srand(12345);
  static struct k_case cases[N_CASES];
  for (int i = 0; i < N_CASES; ++i) {
    struct k_case *c = &cases[i];
    do {
      for (int a = 0; a < 3; ++a) c->d[a] = rand() % 41 - 20;
    } while (c->d[0] == 0 && c->d[1] == 0 && c->d[2] == 0);
    for (int m = 0; m < 4; ++m) c->col[m] = pow(10.0, uniform(14.0, 19.0));
    c->n_hi = pow(10.0, uniform(-8.0, 0.0));
    c->tau_in = pow(10.0, uniform(-9.0, 2.0));
    c->dtau = pow(10.0, uniform(-10.0, 1.0));
    c->gamma = pow(10.0, uniform(-18.0, -10.0));
    c->x0 = pow(10.0, uniform(-4.0, 0.0)) * 0.999;
    c->t_k = pow(10.0, uniform(2.0, 5.0));
    c->dt = pow(10.0, uniform(10.0, 16.0));
  }
  /* black-body-like tables on both sides */
  int num_tau = 2000;
  double *thick = (double *)malloc(sizeof(double) * (num_tau + 1));
  double *thin = (double *)malloc(sizeof(double) * (num_tau + 1));
  struct photo_table_view t;
  memset(&t, 0, sizeof t); /* no inv_tau: photo_table_locate's log10 (test_photo_locate: the fast one) */
  t.num_tau = num_tau;
  t.min_log_tau = -20.0;
  t.dlog_tau = 24.0 / num_tau;
  t.grey = 0;
  t.sp[SPECIES_HI].sigma0_cm2 = 6.3e-18;
  double *heat_thick = (double *)malloc(sizeof(double) * (num_tau + 1));
  double *heat_thin = (double *)malloc(sizeof(double) * (num_tau + 1));
  for (int i = 0; i <= num_tau; ++i) {
    double tau = photo_table_tau(i, t.min_log_tau, t.dlog_tau);
    thick[i] = exp(-0.5 * tau) * 0.7 + 0.3 * exp(-tau);
    thin[i] = 0.35 * exp(-0.5 * tau) + 0.3 * exp(-tau);
    heat_thick[i] = 1e-11 * (exp(-0.3 * tau) * 0.5 + 0.5 * exp(-tau));
    heat_thin[i] = 1e-11 * (0.15 * exp(-0.3 * tau) + 0.5 * exp(-tau));
  }
  t.heating = 1;
  struct chem_params p;
  p.alpha_b_1e4_cm3_s = 2.59e-13;
  p.alpha_b_power = -0.7;
  p.col_h0 = 5.835e-11;
  p.col_t_h0_k = 1.578e5;
  p.collisional = 1;
  p.abu_c = 7.1e-7;
  p.thermal = 1;
  p.t_cmb_k = 27.0;
  p.hubble_per_s = 1e-16;

  struct k_case *d_cases;
  double *d_out, *d_thick, *d_thin, *d_heat_thick, *d_heat_thin;
  size_t table_bytes = sizeof(double) * (num_tau + 1);
  if (cudaMalloc(&d_cases, sizeof cases) != cudaSuccess ||
      cudaMalloc(&d_out, sizeof(double) * N_OUT * N_CASES) != cudaSuccess ||
      cudaMalloc(&d_thick, table_bytes) != cudaSuccess ||
      cudaMalloc(&d_thin, table_bytes) != cudaSuccess ||
      cudaMalloc(&d_heat_thick, table_bytes) != cudaSuccess ||
      cudaMalloc(&d_heat_thin, table_bytes) != cudaSuccess) {
    fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(d_cases, cases, sizeof cases, cudaMemcpyHostToDevice);
  cudaMemcpy(d_thick, thick, table_bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_thin, thin, table_bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_heat_thick, heat_thick, table_bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_heat_thin, heat_thin, table_bytes, cudaMemcpyHostToDevice);
  struct photo_table_view t_dev = t;
  t_dev.sp[SPECIES_HI].thick = d_thick;
  t_dev.sp[SPECIES_HI].thin = d_thin;
  t_dev.sp[SPECIES_HI].heat_thick = d_heat_thick;
  t_dev.sp[SPECIES_HI].heat_thin = d_heat_thin;
  int failures = 0;
  for (int grey = 0; grey <= 1; ++grey) {
    t.grey = t_dev.grey = grey;
    t.sp[SPECIES_HI].thick = thick;
    t.sp[SPECIES_HI].thin = thin;
    t.sp[SPECIES_HI].heat_thick = heat_thick;
    t.sp[SPECIES_HI].heat_thin = heat_thin;
    evaluate_kernel<<<(N_CASES + 127) / 128, 128>>>(d_cases, t_dev, p, d_out, N_CASES);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
      fprintf(stderr, "kernel failed: %s\n", cudaGetErrorString(err));
      return 1;
    }
    static double gpu[N_OUT * N_CASES];
    cudaMemcpy(gpu, d_out, sizeof gpu, cudaMemcpyDeviceToHost);
    double worst[N_OUT] = {0};
    for (int i = 0; i < N_CASES; ++i) {
      double host[N_OUT];
      evaluate(&cases[i], &t, &p, host);
      for (int k = 0; k < N_OUT; ++k) {
        if (k == 6 || k == 10) continue; /* the scales of the rates, not outputs */
        double scale = k == 2 ? host[6] : k == 9 ? host[10] : fabs(host[k]);
        double rel = fabs(gpu[N_OUT * i + k] - host[k]) / (scale + 1e-300);
        if (!(rel <= worst[k])) worst[k] = rel;
      }
    }
    const char *names[N_OUT] = {"column_in", "ds and stencil", "gamma (per photon in)",
                                "x_end", "x_av", "iterations", "", "T_end (thermal)",
                                "T_av (thermal)", "heating (per energy in)", ""};
    for (int k = 0; k < N_OUT; ++k) {
      if (k == 6 || k == 10) continue;
      /* libm and CUDA exp/log10/pow agree to a few ulp; iterations must match exactly.
         Table rates: a last-bit difference of log10(tau) moves the table coordinate
         by ulp/dlog_tau (dlog_tau = 0.012 here), and the difference of two such
         lookups carries it, so they agree to ~1e-12 of the photons entering (seen:
         3.4e-12 on an H200); they are held to the 1e-10 the backends must meet. */
      double tol = k == 5 ? 0.0 : ((k == 2 || k == 9) && !grey) ? 1e-10 : 1e-12;
      if (k == 7 || k == 8) tol = 1e-10; /* sub-stepped integration: rounding accumulates */
      printf("%s grey=%d: largest relative GPU-host difference %.3g\n", names[k], grey, worst[k]);
      if (!(worst[k] <= tol)) {
        fprintf(stderr, "FAIL %s differs by %.3g (> %.1g)\n", names[k], worst[k], tol);
        ++failures;
      }
    }
    failures += check_planar(t, t_dev);
  }
  cudaFree(d_cases);
  cudaFree(d_out);
  cudaFree(d_thick);
  cudaFree(d_thin);
  cudaFree(d_heat_thick);
  cudaFree(d_heat_thin);
  free(thick);
  free(thin);
  free(heat_thick);
  free(heat_thin);
  printf(failures ? "%d failure(s)\n" : "all checks passed\n", failures);
  return failures ? 1 : 0;
}

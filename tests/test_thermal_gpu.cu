/**
 * @file test_thermal_gpu.cu
 * @brief Thermal radiation's ERMC solve on the GPU (gpu/thermal/thermal_cuda.h) against
 *        the CPU solver (both run thermal_k.h's thermal_element_estimate with the same
 *        Philox counters): a grey slab (lin1, black walls, periodic y and z) and a WSGG box
 *        (grey diffuse walls, all six faces, gases sorted, three multigrid levels): every
 *        cell's Q^R and every wall patch's flux the same to a relative 1e-7 of the largest
 *        |Q|: only libm against CUDA's exp/sin/cos and the GPU's fused multiply-adds
 *        differ, by last bits, except where a ray's transmissivity lands a last bit on
 *        either side of transmissivity_min (1e-6): it ends one step apart, which moves its
 *        element's estimate by at most transmissivity_min / rays of the largest |Q| (1.6e-8
 *        with 64 rays; measured on an H200: 2e-16 for the slab); the same crossings count
 *        within 1e-6; the
 *        kernel with plain loads and the solve on device arrays give the cached kernel's
 *        bits exactly.  Skips (77) without a GPU.
 */
#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "gpu/thermal/thermal_cuda.h"
#include "thermal/thermal.h"
#include "test_util.h"
}

#define TOL_REL 1e-7

struct problem {
  struct thermal_setup s;
  int64_t cells, walls;
  double *t_k, *x_h2o, *x_co2;
};

static void slab(struct problem *p) {
  memset(p, 0, sizeof *p);
  struct thermal_setup *s = &p->s;
  s->n[0] = 16;
  s->n[1] = s->n[2] = 4;
  for (int a = 0; a < 3; ++a) s->cell_m[a] = 1.0 / 16.0;
  s->periodic[1] = s->periodic[2] = 1;
  s->wall[THERMAL_FACE_X_LO].emissivity = s->wall[THERMAL_FACE_X_HI].emissivity = 1.0;
  s->wall[THERMAL_FACE_X_LO].t_k = 500.0;
  s->wall[THERMAL_FACE_X_HI].t_k = 1500.0;
  s->gas_model = THERMAL_GAS_GREY;
  s->kappa_per_m = 1.0;
  s->rays_per_element = 200;
  s->seed = 7;
  s->transmissivity_min = 1e-6;
  p->cells = 16 * 4 * 4;
  p->t_k = (double *)calloc((size_t)p->cells, sizeof(double));
  for (int64_t c = 0; c < p->cells; ++c) p->t_k[c] = 500.0 + 1000.0 * ((double)(c / 16) + 0.5) / 16.0;
}

static void wsgg_box(struct problem *p) {
  memset(p, 0, sizeof *p);
  struct thermal_setup *s = &p->s;
  const int n = 12;
  for (int a = 0; a < 3; ++a) {
    s->n[a] = n;
    s->cell_m[a] = 1.0 / n;
  }
  for (int f = 0; f < THERMAL_FACES; ++f) {
    s->wall[f].emissivity = 0.5 + 0.1 * f / 6.0;
    s->wall[f].t_k = 400.0 + 50.0 * f;
  }
  s->gas_model = THERMAL_GAS_WSGG_BORDBAR14;
  s->rays_per_element = 64;
  s->seed = 11;
  s->transmissivity_min = 1e-6;
  s->multigrid.levels = 3;
  s->multigrid.steps_per_level = 3;
  s->sort_gases = 1;
  p->cells = (int64_t)n * n * n;
  p->t_k = (double *)calloc((size_t)p->cells, sizeof(double));
  p->x_h2o = (double *)calloc((size_t)p->cells, sizeof(double));
  p->x_co2 = (double *)calloc((size_t)p->cells, sizeof(double));
  for (int64_t c = 0; c < p->cells; ++c) {
    double x = ((double)(c / (n * n)) + 0.5) / n, y = ((double)((c / n) % n) + 0.5) / n,
           z = ((double)(c % n) + 0.5) / n, xyz = x * y * z;
    p->t_k[c] = 500.0 - 2000.0 * xyz * xyz + 2000.0 * xyz + 800.0 * x; /* 3dims, tilted */
    p->x_h2o[c] = 0.1 + 0.1 * y;
    p->x_co2[c] = 0.1;
  }
}

static void release(struct problem *p) {
  free(p->t_k);
  free(p->x_h2o);
  free(p->x_co2);
}

struct answer {
  double *q, *qs, *wq, *ws;
  int64_t steps;
};

static int solve(const struct problem *p, int gpu, int plain, int on_device, struct answer *a) {
  int64_t walls = thermal_wall_patches(&p->s);
  a->q = (double *)calloc((size_t)p->cells, sizeof(double));
  a->qs = (double *)calloc((size_t)p->cells, sizeof(double));
  a->wq = (double *)calloc((size_t)(walls > 0 ? walls : 1), sizeof(double));
  a->ws = (double *)calloc((size_t)(walls > 0 ? walls : 1), sizeof(double));
  struct thermal_range r = {0, p->cells, 0, walls};
  struct thermal_fields f = {p->t_k, NULL, p->x_h2o, p->x_co2};
  struct thermal_result out = {a->q, a->qs, a->wq, a->ws, 0, 0};
  ionf_err rc;
  if (!gpu) {
    rc = thermal_solve_cpu(&p->s, &f, &r, &out);
  } else if (!on_device) {
    struct thermal_cuda_options o = {plain, 0};
    rc = thermal_solve_cuda_opt(&p->s, &f, &r, &out, 0, &o);
  } else {
    size_t bytes = sizeof(double) * (size_t)p->cells;
    double *d[5] = {NULL, NULL, NULL, NULL, NULL};
    for (int i = 0; i < 5; ++i) cudaMalloc((void **)&d[i], bytes);
    cudaMemcpy(d[0], p->t_k, bytes, cudaMemcpyHostToDevice);
    if (p->x_h2o) cudaMemcpy(d[1], p->x_h2o, bytes, cudaMemcpyHostToDevice);
    if (p->x_co2) cudaMemcpy(d[2], p->x_co2, bytes, cudaMemcpyHostToDevice);
    struct thermal_fields fd = {d[0], NULL, p->x_h2o ? d[1] : NULL, p->x_co2 ? d[2] : NULL};
    struct thermal_result od = {d[3], d[4], a->wq, a->ws, 0, 0};
    rc = thermal_solve_cuda(&p->s, &fd, &r, &od, 1);
    cudaMemcpy(a->q, d[3], bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(a->qs, d[4], bytes, cudaMemcpyDeviceToHost);
    out.steps_traced = od.steps_traced;
    for (int i = 0; i < 5; ++i) cudaFree(d[i]);
  }
  a->steps = out.steps_traced;
  if (rc != IONF_OK) fprintf(stderr, "solve failed: %s\n", ionf_error_message());
  return rc == IONF_OK;
}

static void answer_free(struct answer *a) {
  free(a->q);
  free(a->qs);
  free(a->wq);
  free(a->ws);
}

/* max |x - y| over max |y| (NaN: infinity) */
static double rel_diff(const double *x, const double *y, int64_t n) {
  double big = 0.0, worst = 0.0;
  for (int64_t i = 0; i < n; ++i) big = fmax(big, fabs(y[i]));
  for (int64_t i = 0; i < n; ++i) {
    double d = fabs(x[i] - y[i]);
    if (!(d <= worst)) worst = isnan(d) ? INFINITY : d;
  }
  return big > 0.0 ? worst / big : worst;
}

static void check(const char *name, struct problem *p) {
  int64_t walls = thermal_wall_patches(&p->s);
  struct answer cpu, gpu, plain, dev;
  int ok = solve(p, 0, 0, 0, &cpu) && solve(p, 1, 0, 0, &gpu) && solve(p, 1, 1, 0, &plain) &&
           solve(p, 1, 0, 1, &dev);
  EXPECT(ok, "%s: every solve ran", name);
  if (ok) {
    double dq = rel_diff(gpu.q, cpu.q, p->cells), ds = rel_diff(gpu.qs, cpu.qs, p->cells);
    double dw = walls > 0 ? rel_diff(gpu.wq, cpu.wq, walls) : 0.0;
    double dsteps = fabs((double)gpu.steps - (double)cpu.steps) / (double)cpu.steps;
    printf("%s: GPU vs CPU: Q %.3g, sigma %.3g, walls %.3g (relative to the largest), crossings "
           "%lld vs %lld\n",
           name, dq, ds, dw, (long long)gpu.steps, (long long)cpu.steps);
    EXPECT(dq <= TOL_REL && ds <= TOL_REL && dw <= TOL_REL, "%s: GPU vs CPU within %g", name,
           TOL_REL);
    EXPECT(dsteps <= 1e-6, "%s: crossings %lld vs %lld", name, (long long)gpu.steps,
           (long long)cpu.steps);
    EXPECT(memcmp(plain.q, gpu.q, sizeof(double) * (size_t)p->cells) == 0 &&
               memcmp(plain.wq, gpu.wq, sizeof(double) * (size_t)(walls > 0 ? walls : 1)) == 0,
           "%s: the plain-loads kernel gives the same bits", name);
    EXPECT(memcmp(dev.q, gpu.q, sizeof(double) * (size_t)p->cells) == 0 &&
               memcmp(dev.qs, gpu.qs, sizeof(double) * (size_t)p->cells) == 0 &&
               memcmp(dev.wq, gpu.wq, sizeof(double) * (size_t)(walls > 0 ? walls : 1)) == 0,
           "%s: device arrays give the host arrays' bits", name);
  }
  answer_free(&cpu);
  answer_free(&gpu);
  answer_free(&plain);
  answer_free(&dev);
}

int main(void) {
  char why[256];
  if (test_gpu_probe(why, sizeof why) <= 0) return test_gpu_skip(why);
  struct problem p;
  slab(&p);
  check("grey slab", &p);
  release(&p);
  wsgg_box(&p);
  check("WSGG box", &p);
  release(&p);
  TEST_RETURN();
}

/**
 * @file thermal_cuda.cu
 * @brief Thermal radiation's ERMC solve on the GPU (thermal_cuda.h).
 */
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define THERMAL_CUDA_KERNEL thermal_cuda_kernel_cached
extern "C" {
#include "gpu/core/cuda_util.h"
#include "gpu/thermal/thermal_cuda.h"
#include "thermal/thermal.h"
#include "thermal/thermal_levels.h"
}
#include "gpu/thermal/thermal_cuda_kernel.cuh"

/* the plain-loads kernel (thermal_cuda_plain.cu) */
__global__ void thermal_cuda_kernel_plain(struct thermal_view v, int64_t cell_first,
                                          int64_t cell_count, int64_t wall_first,
                                          int64_t wall_count, double *q, double *q_sigma,
                                          double *wall_q, double *wall_sigma,
                                          unsigned long long *steps);

/* Device copies of a solve: one allocation, carved into the arrays. */
struct thermal_cuda_buffers {
  char *base;
  size_t used, size;
};

static void *carve(struct thermal_cuda_buffers *b, size_t bytes) {
  size_t at = (b->used + 255) & ~(size_t)255;
  b->used = at + bytes;
  return b->base ? b->base + at : NULL;
}

/* The device arrays of the view: the levels' tables, the walls' and the medium (when
   given on the host); pass 0 sizes the allocation, pass 1 fills the pointers and copies. */
static ionf_err lay_out(struct thermal_cuda_buffers *b, const struct thermal_setup *s,
                        const struct thermal_fields *f, int device_fields,
                        const struct thermal_levels *lv, struct thermal_view *v,
                        double **d_q, double **d_sigma, double **d_wq, double **d_ws,
                        unsigned long long **d_steps, const struct thermal_range *r,
                        int results_on_device, cudaStream_t stream) {
  const int64_t cells = s->n[0] * s->n[1] * s->n[2];
  for (int l = 0; l < lv->levels; ++l) {
    size_t bytes = sizeof(double) * (size_t)lv->gases * (size_t)lv->cells[l];
    double *k = (double *)carve(b, bytes), *ib = (double *)carve(b, bytes);
    if (b->base) {
      CUDA_CHECK(cudaMemcpyAsync(k, lv->kappa_per_m[l], bytes, cudaMemcpyHostToDevice, stream),
                 "copying the thermal tables");
      CUDA_CHECK(cudaMemcpyAsync(ib, lv->ib_w_per_m2_sr[l], bytes, cudaMemcpyHostToDevice, stream),
                 "copying the thermal tables");
      v->level[l].kappa_per_m = k;
      v->level[l].ib_w_per_m2_sr = ib;
    }
  }
  size_t wall_bytes = sizeof(double) * (size_t)lv->gases * (size_t)lv->wall_first[6];
  double *wib = (double *)carve(b, wall_bytes > 0 ? wall_bytes : 8);
  if (b->base) {
    if (wall_bytes > 0)
      CUDA_CHECK(cudaMemcpyAsync(wib, lv->wall_ib_w_per_m2_sr, wall_bytes, cudaMemcpyHostToDevice,
                                 stream),
                 "copying the walls' tables");
    v->wall_ib_w_per_m2_sr = wib;
  }
  const double *host[4] = {f->t_k, f->p_atm, f->x_h2o, f->x_co2};
  const double **view[4] = {&v->t_k, &v->p_atm, &v->x_h2o, &v->x_co2};
  for (int i = 0; i < 4; ++i) {
    if (!host[i] || device_fields) continue; /* device fields: the view has them already */
    size_t bytes = sizeof(double) * (size_t)cells;
    double *d = (double *)carve(b, bytes);
    if (b->base) {
      CUDA_CHECK(cudaMemcpyAsync(d, host[i], bytes, cudaMemcpyHostToDevice, stream),
                 "copying the medium");
      *view[i] = d;
    }
  }
  size_t cell_bytes = sizeof(double) * (size_t)(r->cell_count > 0 ? r->cell_count : 1);
  size_t patch_bytes = sizeof(double) * (size_t)(r->wall_count > 0 ? r->wall_count : 1);
  if (!results_on_device) {
    *d_q = (double *)carve(b, cell_bytes);
    *d_sigma = (double *)carve(b, cell_bytes);
  }
  *d_wq = (double *)carve(b, patch_bytes);
  *d_ws = (double *)carve(b, patch_bytes);
  *d_steps = (unsigned long long *)carve(b, sizeof(unsigned long long));
  return IONF_OK;
}

/* Device fields -> host copies (the levels are built on the host). */
static ionf_err fields_to_host(const struct thermal_fields *f, int64_t cells, double *host[4],
                               struct thermal_fields *h) {
  const double *dev[4] = {f->t_k, f->p_atm, f->x_h2o, f->x_co2};
  const double **out[4] = {&h->t_k, &h->p_atm, &h->x_h2o, &h->x_co2};
  for (int i = 0; i < 4; ++i) {
    *out[i] = NULL;
    if (!dev[i]) continue;
    host[i] = (double *)ionf_malloc(sizeof(double) * (size_t)cells, "a copy of the medium");
    IONF_CHECK(host[i], IONF_ERR_MEM, "out of memory for a copy of the medium (%lld cells)",
               (long long)cells);
    CUDA_CHECK(cudaMemcpy(host[i], dev[i], sizeof(double) * (size_t)cells, cudaMemcpyDeviceToHost),
               "copying the medium from the GPU");
    *out[i] = host[i];
  }
  return IONF_OK;
}

static ionf_err solve(const struct thermal_setup *s, const struct thermal_fields *f,
                      const struct thermal_range *r, struct thermal_result *out,
                      int device_pointers, const struct thermal_cuda_options *opt,
                      struct thermal_levels *lv, double *host_copy[4], cudaStream_t stream,
                      struct thermal_cuda_buffers *b) {
  const int64_t cells = s->n[0] * s->n[1] * s->n[2];
  struct thermal_fields hf = *f;
  if (device_pointers) IONF_CALL(fields_to_host(f, cells, host_copy, &hf));
  IONF_CALL(thermal_levels_build(s, &hf, lv));
  struct thermal_view v;
  thermal_levels_view(s, device_pointers ? f : &hf, lv, &v);
  double *d_q = out->q_w_per_m3, *d_sigma = out->q_sigma_w_per_m3, *d_wq, *d_ws;
  unsigned long long *d_steps;
  IONF_CALL(lay_out(b, s, f, device_pointers, lv, &v, &d_q, &d_sigma, &d_wq, &d_ws, &d_steps, r,
                    device_pointers, stream));
  IONF_CALL(cuda_util_alloc((void **)&b->base, b->used, "the thermal solve's tables"));
  b->size = b->used;
  b->used = 0;
  IONF_CALL(lay_out(b, s, f, device_pointers, lv, &v, &d_q, &d_sigma, &d_wq, &d_ws, &d_steps, r,
                    device_pointers, stream));
  CUDA_CHECK(cudaMemsetAsync(d_steps, 0, sizeof *d_steps, stream), "clearing a counter");
  int threads = opt && opt->threads_per_block > 0 ? opt->threads_per_block : 128;
  int64_t total = r->cell_count + r->wall_count;
  int64_t blocks = (total + threads - 1) / threads;
  if (blocks < 1) blocks = 1;
  if (blocks > 2147483647LL) blocks = 2147483647LL;
  if (total > 0) {
    if (opt && opt->plain_loads)
      thermal_cuda_kernel_plain<<<(unsigned)blocks, threads, 0, stream>>>(
          v, r->cell_first, r->cell_count, r->wall_first, r->wall_count, d_q, d_sigma, d_wq, d_ws,
          d_steps);
    else
      thermal_cuda_kernel_cached<<<(unsigned)blocks, threads, 0, stream>>>(
          v, r->cell_first, r->cell_count, r->wall_first, r->wall_count, d_q, d_sigma, d_wq, d_ws,
          d_steps);
    CUDA_CHECK(cudaGetLastError(), "launch of the thermal kernel");
  }
  unsigned long long steps = 0;
  size_t cell_bytes = sizeof(double) * (size_t)r->cell_count;
  size_t patch_bytes = sizeof(double) * (size_t)r->wall_count;
  if (!device_pointers && cell_bytes > 0) {
    CUDA_CHECK(cudaMemcpyAsync(out->q_w_per_m3, d_q, cell_bytes, cudaMemcpyDeviceToHost, stream),
               "the thermal results");
    CUDA_CHECK(cudaMemcpyAsync(out->q_sigma_w_per_m3, d_sigma, cell_bytes, cudaMemcpyDeviceToHost,
                               stream),
               "the thermal results");
  }
  if (patch_bytes > 0) {
    CUDA_CHECK(cudaMemcpyAsync(out->wall_q_w_per_m2, d_wq, patch_bytes, cudaMemcpyDeviceToHost,
                               stream),
               "the walls' results");
    CUDA_CHECK(cudaMemcpyAsync(out->wall_q_sigma_w_per_m2, d_ws, patch_bytes,
                               cudaMemcpyDeviceToHost, stream),
               "the walls' results");
  }
  CUDA_CHECK(cudaMemcpyAsync(&steps, d_steps, sizeof steps, cudaMemcpyDeviceToHost, stream),
             "the thermal counters");
  CUDA_CHECK(cudaStreamSynchronize(stream), "the thermal solve");
  out->rays_traced = total * s->rays_per_element;
  out->steps_traced = (int64_t)steps;
  return IONF_OK;
}

extern "C" ionf_err thermal_solve_cuda_opt(const struct thermal_setup *s,
                                           const struct thermal_fields *f,
                                           const struct thermal_range *r,
                                           struct thermal_result *out, int device_pointers,
                                           const struct thermal_cuda_options *opt) {
  IONF_CALL(thermal_setup_check(s));
  const int64_t cells = s->n[0] * s->n[1] * s->n[2];
  const int64_t walls = thermal_wall_patches(s);
  IONF_CHECK(r->cell_first >= 0 && r->cell_count >= 0 && r->cell_first <= cells - r->cell_count &&
                 r->wall_first >= 0 && r->wall_count >= 0 &&
                 r->wall_first <= walls - r->wall_count,
             IONF_ERR_INTERNAL, "thermal (GPU): a range outside the grid's %lld cells and %lld patches",
             (long long)cells, (long long)walls);
  IONF_CHECK(f->t_k, IONF_ERR_INTERNAL, "thermal (GPU): no temperature field");
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "a stream for the thermal solve");
  struct thermal_levels lv;
  memset(&lv, 0, sizeof lv);
  double *host_copy[4] = {NULL, NULL, NULL, NULL};
  struct thermal_cuda_buffers b = {NULL, 0, 0};
  ionf_err rc = solve(s, f, r, out, device_pointers, opt, &lv, host_copy, stream, &b);
  if (rc != IONF_OK) cudaStreamSynchronize(stream); /* nothing in flight on freed memory */
  cudaFree(b.base);
  cudaStreamDestroy(stream);
  thermal_levels_free(&lv);
  for (int i = 0; i < 4; ++i) free(host_copy[i]);
  return rc;
}

extern "C" ionf_err thermal_solve_cuda(const struct thermal_setup *s, const struct thermal_fields *f,
                                       const struct thermal_range *r, struct thermal_result *out,
                                       int device_pointers) {
  return thermal_solve_cuda_opt(s, f, r, out, device_pointers, NULL);
}

/**
 * @file planar_cuda.cu
 * @brief Plane-parallel sources on the GPU, behind the tracer interface
 *        (src/rt/planar/planar.h): one thread per column of cells normal to the
 *        face, walking it from the face (planar_k.h, shared with the CPU).
 *
 * Columns of one face share no cell, and each face's launch follows the point
 * sources' kernels on the same stream, so plain adds onto their Gamma are safe.
 */
#include <cuda_runtime.h>

extern "C" {
#include "gpu/core/cuda_util.h"
#include "rt/planar/planar.h"
#include "rt/planar/planar_k.h"
}

#define PLANAR_THREADS 256

__global__ void __launch_bounds__(PLANAR_THREADS)
    planar_trace_kernel(struct planar_column_view v, double *gamma, double *heat) {
  long long columns = v.n * v.n;
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < columns;
       c += (long long)gridDim.x * blockDim.x)
    planar_trace_column(&v, c, gamma, heat);
}

struct planar_cuda {
  struct planar_tracer_setup s;
  cudaStream_t stream;
};

static ionf_err cuda_trace(struct tracer *t, const struct tracer_fields *f, struct tracer_rates *r,
                           struct trace_stats *stats) {
  struct planar_cuda *pc = (struct planar_cuda *)t->impl;
  double *heat = pc->s.tables.heating ? r->heating_erg_per_s : NULL;
  size_t species_bytes = sizeof(double) * (size_t)f->cells * (size_t)f->n_species;
  if (!r->accumulate) { /* the first tracer of a pass sets every cell */
    CUDA_CHECK(cudaMemsetAsync(r->gamma_per_s, 0, species_bytes, pc->stream), "clearing Gamma");
    if (heat)
      CUDA_CHECK(cudaMemsetAsync(heat, 0, species_bytes, pc->stream), "clearing the heating rates");
  }
  long long n = pc->s.grid.n, columns = n * n;
  for (int p = 0; p < pc->s.n_planes; ++p) { /* one launch per face */
    struct planar_column_view v;
    v.n_h_cm3 = f->n_h_cm3;
    v.x_ion_av = f->x_ion_av;
    v.n_species = f->n_species;
    v.abundance_he = f->abundance_he;
    v.n = n;
    v.cell_cm = f->cell_cm;
    v.face = pc->s.planes[p].face;
    v.ndot_per_s = planar_column_ndot(pc->s.planes[p].flux_per_cm2_s, f->cell_cm);
    v.tables = pc->s.tables;
    long long blocks = (columns + PLANAR_THREADS - 1) / PLANAR_THREADS;
    planar_trace_kernel<<<(unsigned)blocks, PLANAR_THREADS, 0, pc->stream>>>(v, r->gamma_per_s,
                                                                             heat);
    CUDA_CHECK(cudaGetLastError(), "launch of the plane-source kernel");
  }
  CUDA_CHECK(cudaStreamSynchronize(pc->stream), "plane sources");
  if (stats) stats->cells_traced += (int64_t)pc->s.n_planes * columns * n;
  return IONF_OK;
}

extern "C" ionf_err planar_tracer_create_cuda(const struct planar_tracer_setup *s,
                                              struct tracer **out) {
  static const struct tracer_ops ops = {NULL, cuda_trace, NULL, NULL};
  *out = NULL;
  IONF_CALL(planar_tracer_check(s));
  IONF_CALL(tracer_alloc("planar", TRACER_DEVICE, &ops, sizeof(struct planar_cuda), out));
  struct planar_cuda *pc = (struct planar_cuda *)(*out)->impl;
  pc->s = *s;
  pc->stream = (cudaStream_t)s->stream;
  return IONF_OK;
}

/**
 * @file mc_trace.cu
 * @brief Monte Carlo photon packets on the GPU: a thread per packet (grid-stride
 *        over all packets of this rank's sources), each walked by mc_trace_packet
 *        (mc_k.h, the CPU's code) with cuRAND's Philox4x32-10; tallies by fp64
 *        atomicAdd, so sums differ from the CPU's only in the order of additions.
 */
#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>

extern "C" {
#include "core/constants.h"
#include "gpu/core/cuda_util.h"
#include "gpu/rt/mc/mc_cuda.h"
#include "gpu/rt/tracer_cuda.h"
#include "rt/mc/mc_k.h"
}

#include <stdlib.h>

#define MC_THREADS 256

struct mc_cuda {
  double *d_gamma_sq;
  double *d_spectrum;
  int64_t cells;
  unsigned long long *d_crossed;
  double *d_total;        /* the diffuse field's photons per second, all cells */
};

struct mc_kernel_args {
  struct mc_medium m;
  const int *src_ijk;
  const double *src_ndot;
  long long total;        /* packets: sources x packets per source */
  long long sources;      /* this rank's sources */
  unsigned packets;       /* per source */
  uint32_t seed;
  unsigned long long step;
  const double *spectrum;
  int spectrum_points;
  double e0_erg;
  unsigned long long *crossed;
};

__global__ void mc_packet_kernel(struct mc_kernel_args a) {
  unsigned long long crossed = 0;
  long long stride = (long long)gridDim.x * blockDim.x;
  /* neighbouring threads take different sources (when there are several), so that a
     warp's first atomic adds do not all land on one source's cells */
  for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < a.total; q += stride) {
    long long s = q % a.sources;
    struct mc_packet pk;
    mc_source_packet(a.seed, a.m.n, a.src_ijk + 3 * s, a.src_ndot[s], a.step,
                     (uint32_t)(q / a.sources), a.packets, a.spectrum, a.spectrum_points, &pk);
    crossed += (unsigned long long)mc_trace_packet(&a.m, &pk, a.e0_erg);
  }
  if (crossed) atomicAdd(a.crossed, crossed);
}

/* ---- the diffuse field (recombination_emission): the CPU's mc_cpu.c loop, per cell */

struct mc_recomb_args {
  struct mc_medium m;
  const double *temperature_k;
  double alpha_a, alpha_b, alpha_power, abu_c;
  uint32_t seed;
  unsigned long long step;
  long long rank, ranks;
  double budget;          /* packets per pass */
  const double *total;    /* device: photons per second of all cells */
  double e0_erg;
  unsigned long long *crossed;
};

__device__ static double recomb_rate(const struct mc_recomb_args *a, long long c, double vol) {
  double t = a->temperature_k[c];
  return mc_recombination_photons(a->m.n_h_cm3[c], a->m.x_hii_av[c], a->abu_c,
                                  mc_alpha(a->alpha_a, a->alpha_power, t),
                                  mc_alpha(a->alpha_b, a->alpha_power, t), vol);
}

__global__ void mc_recomb_total_kernel(struct mc_recomb_args a, double *total) {
  typedef cub::BlockReduce<double, MC_THREADS> reduce_t;
  __shared__ typename reduce_t::TempStorage tmp;
  long long cells = a.m.n * a.m.n * a.m.n;
  double vol = a.m.cell_cm * a.m.cell_cm * a.m.cell_cm, sum = 0.0;
  for (long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x; c < cells;
       c += (long long)gridDim.x * blockDim.x)
    sum += recomb_rate(&a, c, vol);
  double block = reduce_t(tmp).Sum(sum);
  if (threadIdx.x == 0) atomicAdd(total, block);
}

__global__ void mc_recomb_kernel(struct mc_recomb_args a) {
  long long cells = a.m.n * a.m.n * a.m.n;
  double total = *a.total;
  if (!(total > 0.0)) return;
  double vol = a.m.cell_cm * a.m.cell_cm * a.m.cell_cm, per_packet = total / a.budget;
  unsigned long long crossed = 0;
  long long stride = (long long)gridDim.x * blockDim.x * a.ranks;
  for (long long c = a.rank + ((long long)blockIdx.x * blockDim.x + threadIdx.x) * a.ranks;
       c < cells; c += stride) {
    uint32_t k = mc_recombination_count(recomb_rate(&a, c, vol) / per_packet, a.seed,
                                        (uint64_t)c, a.step);
    for (uint32_t q = 0; q < k; ++q) {
      struct mc_packet pk;
      mc_recombination_packet(a.seed, a.m.n, c, a.step, q, per_packet, &pk);
      crossed += (unsigned long long)mc_trace_packet(&a.m, &pk, a.e0_erg);
    }
  }
  if (crossed) atomicAdd(a.crossed, crossed);
}

extern "C" ionf_err mc_cuda_create(const struct mc_state *st, int64_t n, struct mc_cuda **out) {
  struct mc_cuda *m = (struct mc_cuda *)calloc(1, sizeof *m);
  if (!m) return ionf_error_set(IONF_ERR_MEM, "out of memory (Monte Carlo GPU state)");
  *out = m;
  m->cells = grid_cells(n);
  IONF_CALL(cuda_util_alloc((void **)&m->d_gamma_sq, sizeof(double) * (size_t)m->cells,
                            "the Monte Carlo tallies"));
  IONF_CALL(cuda_util_alloc((void **)&m->d_crossed, sizeof(unsigned long long), "a counter"));
  IONF_CALL(cuda_util_alloc((void **)&m->d_total, sizeof(double), "a sum"));
  if (st->spectrum) {
    size_t bytes = sizeof(double) * (size_t)st->spectrum_points;
    IONF_CALL(cuda_util_alloc((void **)&m->d_spectrum, bytes, "the packet spectrum"));
    CUDA_CHECK(cudaMemcpy(m->d_spectrum, st->spectrum, bytes, cudaMemcpyHostToDevice),
                 "copy of the packet spectrum");
  }
  return IONF_OK;
}

extern "C" void mc_cuda_destroy(struct mc_cuda *m) {
  if (!m) return;
  if (m->d_gamma_sq) cudaFree(m->d_gamma_sq);
  if (m->d_spectrum) cudaFree(m->d_spectrum);
  if (m->d_crossed) cudaFree(m->d_crossed);
  if (m->d_total) cudaFree(m->d_total);
  free(m);
}

extern "C" ionf_err mc_cuda_trace(struct mc_cuda *m, const struct mc_state *st,
                                  const struct mc_cuda_pass *p, int64_t *cells_crossed) {
  cudaStream_t stream = (cudaStream_t)p->stream;
  CUDA_CHECK(cudaMemsetAsync(m->d_gamma_sq, 0, sizeof(double) * (size_t)m->cells, stream),
               "clearing the Monte Carlo tallies");
  CUDA_CHECK(cudaMemsetAsync(m->d_crossed, 0, sizeof(unsigned long long), stream),
               "clearing a counter");
  struct mc_kernel_args a;
  a.m = mc_medium_make(st, p->n, p->periodic, p->cell_cm, p->r_max_cells, p->n_h_cm3,
                       p->x_hii_av, p->gamma, m->d_gamma_sq, p->heat);
  a.src_ijk = p->src_ijk;
  a.src_ndot = p->src_ndot;
  a.packets = (unsigned)st->packets_per_source;
  a.total = (long long)p->source_count * (long long)st->packets_per_source;
  a.sources = (long long)p->source_count;
  a.seed = st->seed;
  a.step = (unsigned long long)st->step;
  a.spectrum = m->d_spectrum;
  a.spectrum_points = st->spectrum_points;
  a.e0_erg = IONF_E_HI_EV * IONF_EV_ERG;
  a.crossed = m->d_crossed;
  unsigned long long crossed = 0;
  if (a.total > 0) {
    long long want = (a.total + MC_THREADS - 1) / MC_THREADS;
    long long cap = 32LL * (p->sm_count > 0 ? p->sm_count : 1); /* grid-stride beyond */
    unsigned blocks = (unsigned)(want < cap ? want : cap);
    mc_packet_kernel<<<blocks, MC_THREADS, 0, stream>>>(a);
    CUDA_CHECK(cudaGetLastError(), "launch of the Monte Carlo kernel");
  }
  if (st->recombination_emission && st->recombination_packets > 0 && p->temperature_k) {
    struct mc_recomb_args r;
    r.m = a.m;
    r.temperature_k = p->temperature_k;
    r.alpha_a = st->alpha_a_1e4_cm3_s;
    r.alpha_b = st->alpha_b_1e4_cm3_s;
    r.alpha_power = st->alpha_power;
    r.abu_c = st->abu_c;
    r.seed = st->seed;
    r.step = (unsigned long long)st->step;
    r.rank = st->rank;
    r.ranks = st->ranks > 0 ? st->ranks : 1;
    r.budget = (double)st->recombination_packets;
    r.total = m->d_total;
    r.e0_erg = a.e0_erg;
    r.crossed = m->d_crossed;
    unsigned blocks = (unsigned)(8 * (p->sm_count > 0 ? p->sm_count : 1));
    CUDA_CHECK(cudaMemsetAsync(m->d_total, 0, sizeof(double), stream), "clearing a sum");
    mc_recomb_total_kernel<<<blocks, MC_THREADS, 0, stream>>>(r, m->d_total);
    CUDA_CHECK(cudaGetLastError(), "launch of the recombination-sum kernel");
    mc_recomb_kernel<<<4 * blocks, MC_THREADS, 0, stream>>>(r);
    CUDA_CHECK(cudaGetLastError(), "launch of the recombination-packet kernel");
  }
  CUDA_CHECK(cudaMemcpyAsync(&crossed, m->d_crossed, sizeof crossed, cudaMemcpyDeviceToHost,
                               stream),
               "copy of a counter");
  CUDA_CHECK(cudaStreamSynchronize(stream), "the Monte Carlo kernel");
  if (cells_crossed) *cells_crossed = (int64_t)crossed;
  return IONF_OK;
}

extern "C" ionf_err mc_cuda_download_sq(struct mc_cuda *m, double *host, int64_t first,
                                        int64_t count, void *stream) {
  CUDA_CHECK(cudaMemcpyAsync(host + first, m->d_gamma_sq + first, sizeof(double) * (size_t)count,
                               cudaMemcpyDeviceToHost, (cudaStream_t)stream),
               "copy of the Monte Carlo tallies");
  CUDA_CHECK(cudaStreamSynchronize((cudaStream_t)stream), "copy of the Monte Carlo tallies");
  return IONF_OK;
}

/* ---- the tracer (src/rt/mc/mc.h): the kernels above on the backend's fields ------ */

struct mc_tracer_cuda {
  struct mc_tracer_setup s;
  cudaStream_t stream;
  int sm_count;
  struct mc_cuda *m;
  struct tracer_cuda_sources src; /* this rank's sources on the device */
};

static struct mc_tracer_cuda *tracer_of(struct tracer *t) { return (struct mc_tracer_cuda *)t->impl; }

static ionf_err mc_set_sources(struct tracer *t, const struct tracer_sources *src) {
  struct mc_tracer_cuda *mt = tracer_of(t);
  CUDA_CHECK(cudaStreamSynchronize(mt->stream), "waiting for the GPU before new sources");
  return tracer_cuda_sources_take(&mt->src, src);
}

static ionf_err tracer_trace(struct tracer *t, const struct tracer_fields *f,
                             struct tracer_rates *r, struct trace_stats *stats) {
  struct mc_tracer_cuda *mt = tracer_of(t);
  size_t species_bytes = sizeof(double) * (size_t)f->cells * (size_t)f->n_species;
  if (!r->accumulate) {
    CUDA_CHECK(cudaMemsetAsync(r->gamma_per_s, 0, species_bytes, mt->stream), "clearing Gamma");
    if (r->heating_erg_per_s)
      CUDA_CHECK(cudaMemsetAsync(r->heating_erg_per_s, 0, species_bytes, mt->stream),
                 "clearing the heating rates");
  }
  const long long hi = (long long)SPECIES_HI * f->cells; /* packets are absorbed by HI */
  IONF_CHECK(tracer_radius_fits(f->r_max_cells, mt->s.r_max_cells), IONF_ERR_INTERNAL,
             "Monte Carlo: a pass's photon radius %g cells exceeds the %g it was made with",
             f->r_max_cells, mt->s.r_max_cells);
  struct mc_cuda_pass p = {mt->s.grid.n,      mt->s.grid.periodic, f->cell_cm,
                           f->r_max_cells,    f->n_h_cm3,          f->x_ion_av + hi,
                           f->temperature_k,  mt->src.ijk,         mt->src.ndot_per_s,
                           mt->src.count,     r->gamma_per_s + hi, r->heating_erg_per_s,
                           mt->sm_count,      mt->stream};
  int64_t crossed = 0;
  IONF_CALL(mc_cuda_trace(mt->m, mt->s.state, &p, &crossed));
  if (stats) stats->cells_traced += crossed;
  return IONF_OK;
}

static ionf_err tracer_sync_host(struct tracer *t) {
  struct mc_tracer_cuda *mt = tracer_of(t);
  return mc_cuda_download_sq(mt->m, mt->s.state->gamma_sq, 0, grid_cells(mt->s.grid.n),
                             mt->stream);
}

static void tracer_destroy_cuda(struct tracer *t) {
  struct mc_tracer_cuda *mt = tracer_of(t);
  mc_cuda_destroy(mt->m);
  tracer_cuda_sources_free(&mt->src);
}

extern "C" ionf_err mc_tracer_create_cuda(const struct mc_tracer_setup *s, struct tracer **out) {
  static const struct tracer_ops ops = {mc_set_sources, tracer_trace, tracer_sync_host,
                                        tracer_destroy_cuda};
  *out = NULL;
  IONF_CALL(mc_tracer_check(s));
  IONF_CALL(tracer_alloc("montecarlo", TRACER_DEVICE, &ops, sizeof(struct mc_tracer_cuda), out));
  struct mc_tracer_cuda *mt = tracer_of(*out);
  mt->s = *s;
  mt->stream = (cudaStream_t)s->stream;
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute(&mt->sm_count, cudaDevAttrMultiProcessorCount, device);
  ionf_err rc = err == cudaSuccess ? IONF_OK : cuda_util_fail((int)err, "Monte Carlo set-up");
  if (rc == IONF_OK) rc = mc_cuda_create(s->state, s->grid.n, &mt->m);
  if (rc != IONF_OK) {
    tracer_destroy(*out);
    *out = NULL;
  }
  return rc;
}

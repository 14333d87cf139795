/**
 * @file chem_cuda.cu
 * @brief The CUDA chemistry solver (src/chem/chem.h): one thread per cell
 *        (grid-stride) running chem_k.h's chem_cell_pass, as the CPU loop does.
 *
 * Two ways in: arrays already in GPU memory (the grid's CUDA backend), with the
 * convergence sums reduced per block by CUB and added atomically; or host arrays
 * (the particle engine, whose state lives on the host) copied in and out each pass,
 * with a per-cell flag byte so that the host forms the sums in cell order.
 */
#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>

#include <stdlib.h>
#include <string.h>

extern "C" {
#include "chem/chem.h"
#include "chem/chem_he_k.h"
#include "chem/chem_k.h"
#include "gpu/core/cuda_util.h"
}

#define CHEM_THREADS 256

enum { FLAG_UNCONVERGED = 1, FLAG_AT_MAX = 2 };

/* Convergence sums of one pass (device mode). */
struct chem_sums {
  unsigned long long unconverged, at_max;
  double sum_x, sum_neutral, sum_mass, sum_t;
};

struct chem_kernel_args {
  long long cells;
  double dt_s;
  struct chem_params p;
  struct chem_clumping clumping;               /* the recombinations' clumping factor */
  const double *n_h, *t_k, *gamma, *x0, *heat; /* heat: thermal runs, else NULL */
  double *x_av, *x_end, *t_av, *t_end;        /* t_av, t_end: thermal runs */
  struct chem_sums *sums;                      /* device mode */
  unsigned char *flags;                        /* host mode: per-cell flags */
};

/* The block's sums added to the pass's (device mode): CUB block reductions, then one
   atomic add per block and quantity. */
__device__ static void add_block_sums(struct chem_sums *sums, unsigned long long unconverged,
                                      unsigned long long at_max, double sx, double sn, double sm,
                                      double st) {
  typedef cub::BlockReduce<double, CHEM_THREADS> reduce_d;
  typedef cub::BlockReduce<unsigned long long, CHEM_THREADS> reduce_u;
  __shared__ union {
    typename reduce_d::TempStorage d;
    typename reduce_u::TempStorage u;
  } tmp;
  unsigned long long u = reduce_u(tmp.u).Sum(unconverged);
  if (threadIdx.x == 0) atomicAdd(&sums->unconverged, u);
  __syncthreads();
  u = reduce_u(tmp.u).Sum(at_max);
  if (threadIdx.x == 0) atomicAdd(&sums->at_max, u);
  __syncthreads();
  double v = reduce_d(tmp.d).Sum(sx);
  if (threadIdx.x == 0) atomicAdd(&sums->sum_x, v);
  __syncthreads();
  v = reduce_d(tmp.d).Sum(sn);
  if (threadIdx.x == 0) atomicAdd(&sums->sum_neutral, v);
  __syncthreads();
  v = reduce_d(tmp.d).Sum(sm);
  if (threadIdx.x == 0) atomicAdd(&sums->sum_mass, v);
  __syncthreads();
  v = reduce_d(tmp.d).Sum(st);
  if (threadIdx.x == 0) atomicAdd(&sums->sum_t, v);
}

template <bool FLAGS>
__global__ void __launch_bounds__(CHEM_THREADS, 3) chem_pass_kernel(struct chem_kernel_args a) {
  unsigned long long unconverged = 0, at_max = 0;
  double sx = 0.0, sn = 0.0, sm = 0.0, st = 0.0;
  const int thermal = a.heat != NULL;
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < a.cells;
       c += (long long)gridDim.x * blockDim.x) {
    int moved;
    const double n_h = a.n_h[c];
    double x_av = a.x_av[c], t_av = thermal ? a.t_av[c] : 0.0;
    struct chem_cell_result r =
        chem_cell_pass(&a.p, &a.clumping, thermal, a.dt_s, a.x0[c], n_h, a.t_k[c], a.gamma[c],
                       thermal ? a.heat[c] : 0.0, &x_av, &t_av, &moved);
    a.x_av[c] = x_av;
    a.x_end[c] = r.x_end;
    if (thermal) {
      a.t_av[c] = t_av;
      a.t_end[c] = r.t_end_k;
    }
    if (FLAGS) {
      a.flags[c] = (unsigned char)((moved ? FLAG_UNCONVERGED : 0) | (r.converged ? 0 : FLAG_AT_MAX));
    } else {
      unconverged += moved;
      at_max += !r.converged;
      sx += r.x_end;
      sn += 1.0 - r.x_end;
      sm += n_h * r.x_end;
      st += r.t_end_k;
    }
  }
  if (FLAGS) return;
  add_block_sums(a.sums, unconverged, at_max, sx, sn, sm, st);
}

/* Hydrogen with helium: chem_he_cell_pass on every cell of the [species][cell] arrays
   (species `stride` apart), as chem_cpu.c's loop; FLAGS as chem_pass_kernel's (grids:
   sums on the device; particles, staged: per-cell flags, sums on the host). */
struct chem_he_kernel_args {
  long long cells, stride;
  double dt_s;
  struct chem_he_params p;
  struct chem_clumping clumping;               /* the recombinations' clumping factor */
  const double *n_h, *t_k, *gamma, *x0, *heat; /* heat: thermal runs, else NULL */
  double *x_av, *x_end, *t_av, *t_end;
  struct chem_sums *sums;
  unsigned char *flags;                        /* host mode: per-cell flags */
};

template <bool FLAGS>
__global__ void __launch_bounds__(CHEM_THREADS) chem_he_pass_kernel(struct chem_he_kernel_args a) {
  unsigned long long unconverged = 0, at_max = 0;
  double sx = 0.0, sn = 0.0, sm = 0.0, st = 0.0;
  const int thermal = a.heat != NULL;
  const long long k = a.stride;
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < a.cells;
       c += (long long)gridDim.x * blockDim.x) {
    struct chem_he_state s0 = {a.x0[c], a.x0[k + c], a.x0[2 * k + c]};
    struct chem_he_state av = {a.x_av[c], a.x_av[k + c], a.x_av[2 * k + c]};
    struct chem_he_rates g = {a.gamma[c], a.gamma[k + c], a.gamma[2 * k + c]};
    double heat[3] = {0.0, 0.0, 0.0};
    if (thermal)
      for (int s = 0; s < 3; ++s) heat[s] = a.heat[s * k + c];
    double t_av = thermal ? a.t_av[c] : 0.0;
    int moved;
    const double n_h = a.n_h[c];
    struct chem_he_pass_result r =
        chem_he_cell_pass_clumped(&a.p, &a.clumping, thermal, a.dt_s, s0, n_h, a.t_k[c], g, heat,
                                  &av, &t_av, &moved);
    a.x_av[c] = av.x_hii;
    a.x_av[k + c] = av.x_heii;
    a.x_av[2 * k + c] = av.x_heiii;
    a.x_end[c] = r.end.x_hii;
    a.x_end[k + c] = r.end.x_heii;
    a.x_end[2 * k + c] = r.end.x_heiii;
    if (thermal) {
      a.t_av[c] = t_av;
      a.t_end[c] = r.t_end_k;
    }
    if (FLAGS) {
      a.flags[c] = (unsigned char)((moved ? FLAG_UNCONVERGED : 0) | (r.converged ? 0 : FLAG_AT_MAX));
      continue;
    }
    unconverged += moved;
    at_max += !r.converged;
    sx += r.end.x_hii;
    sn += 1.0 - r.end.x_hii;
    sm += n_h * r.end.x_hii;
    st += r.t_end_k;
  }
  if (FLAGS) return;
  add_block_sums(a.sums, unconverged, at_max, sx, sn, sm, st);
}

struct cuda_chem {
  cudaStream_t stream;
  int sm_count;
  int resident[2];               /* blocks of chem_pass_kernel<FLAGS> an SM holds at once */
  struct chem_sums *d_sums;      /* device mode */
  long long capacity;            /* host mode: cells the buffers hold */
  double *field[9];              /* host mode: n_h, t_k, gamma, x0, x_av, x_end, heat, t_av, t_end */
  unsigned char *d_flags, *h_flags;
};

static struct cuda_chem *chem_of(struct chem_solver *s) { return (struct cuda_chem *)s->impl; }

/* One wave of resident blocks striding over the cells (16 blocks per SM, 3 resident,
 * left the last of six waves two-thirds empty). */
static long long launch_blocks(const struct cuda_chem *cc, long long cells, int flags) {
  long long blocks = (cells + CHEM_THREADS - 1) / CHEM_THREADS;
  long long max_blocks = (long long)cc->resident[flags] * cc->sm_count;
  if (blocks > max_blocks) blocks = max_blocks;
  return blocks < 1 ? 1 : blocks;
}

/* The kernel arguments of a pass over `in` (hydrogen's block of the species arrays). */
static struct chem_kernel_args kernel_args(const struct chem_input *in,
                                           const struct chem_clumping *clumping,
                                           struct chem_state *st) {
  struct chem_kernel_args a;
  memset(&a, 0, sizeof a);
  const int thermal = in->params.thermal && in->heating_erg_per_s && st->t_av_k && st->t_end_k;
  const long long h = (long long)SPECIES_HI * in->species_stride;
  a.cells = in->n_cells;
  a.dt_s = in->dt_s;
  a.p = in->params;
  a.clumping = *clumping;
  a.n_h = in->n_h_cm3;
  a.t_k = in->temperature_k;
  a.gamma = in->gamma_per_s + h;
  a.x0 = in->x_ion + h;
  a.heat = thermal ? in->heating_erg_per_s + h : NULL;
  a.x_av = st->x_ion_av + h;
  a.x_end = st->x_ion_end + h;
  a.t_av = thermal ? st->t_av_k : NULL;
  a.t_end = thermal ? st->t_end_k : NULL;
  return a;
}

/* The kernel arguments of a pass with helium (every species' block). */
static struct chem_he_kernel_args he_kernel_args(const struct chem_input *in,
                                                 const struct chem_clumping *clumping,
                                                 struct chem_state *st) {
  struct chem_he_kernel_args a;
  memset(&a, 0, sizeof a);
  const int thermal = in->params.thermal && in->heating_erg_per_s && st->t_av_k && st->t_end_k;
  a.cells = in->n_cells;
  a.stride = in->species_stride;
  a.dt_s = in->dt_s;
  a.p = in->he;
  a.clumping = *clumping;
  a.n_h = in->n_h_cm3;
  a.t_k = in->temperature_k;
  a.gamma = in->gamma_per_s;
  a.x0 = in->x_ion;
  a.heat = thermal ? in->heating_erg_per_s : NULL;
  a.x_av = st->x_ion_av;
  a.x_end = st->x_ion_end;
  a.t_av = thermal ? st->t_av_k : NULL;
  a.t_end = thermal ? st->t_end_k : NULL;
  return a;
}

static ionf_err device_pass(struct chem_solver *s, const struct chem_input *in,
                            struct chem_state *state, struct chem_pass_result *out) {
  struct cuda_chem *cc = chem_of(s);
  CUDA_CHECK(cudaMemsetAsync(cc->d_sums, 0, sizeof(struct chem_sums), cc->stream),
             "clearing the sums");
  if (in->n_species == 3) {
    struct chem_he_kernel_args a = he_kernel_args(in, &s->clumping, state);
    a.sums = cc->d_sums;
    chem_he_pass_kernel<false><<<(unsigned)launch_blocks(cc, in->n_cells, 0), CHEM_THREADS, 0,
                                 cc->stream>>>(a);
  } else {
    struct chem_kernel_args a = kernel_args(in, &s->clumping, state);
    a.sums = cc->d_sums;
    chem_pass_kernel<false><<<(unsigned)launch_blocks(cc, in->n_cells, 0), CHEM_THREADS, 0,
                              cc->stream>>>(a);
  }
  CUDA_CHECK(cudaGetLastError(), "launch of the chemistry kernel");
  struct chem_sums sums;
  CUDA_CHECK(cudaMemcpyAsync(&sums, cc->d_sums, sizeof sums, cudaMemcpyDeviceToHost, cc->stream),
             "chemistry");
  CUDA_CHECK(cudaStreamSynchronize(cc->stream), "chemistry");
  chem_pass_result_set(out, (int64_t)sums.unconverged, (int64_t)sums.at_max, sums.sum_x,
                       sums.sum_neutral, sums.sum_mass, sums.sum_t);
  return IONF_OK;
}

static void release_staging(struct cuda_chem *cc) {
  for (int f = 0; f < 9; ++f) cudaFree(cc->field[f]);
  cudaFree(cc->d_flags);
  cudaFreeHost(cc->h_flags);
  memset(cc->field, 0, sizeof cc->field);
  cc->d_flags = cc->h_flags = NULL;
  cc->capacity = 0;
}

static ionf_err reserve_staging(struct cuda_chem *cc, long long n) {
  if (n <= cc->capacity) return IONF_OK;
  release_staging(cc);
  for (int f = 0; f < 9; ++f)
    IONF_CALL(cuda_util_alloc((void **)&cc->field[f], sizeof(double) * (size_t)n,
                              "the chemistry's particle arrays"));
  IONF_CALL(cuda_util_alloc((void **)&cc->d_flags, (size_t)n, "the chemistry's flags"));
  CUDA_CHECK(cudaMallocHost((void **)&cc->h_flags, (size_t)n), "allocation of the flags");
  cc->capacity = n;
  return IONF_OK;
}

/* host -> staging buffer f (or back), n doubles; with `blocks` species blocks (host ones
   `stride` apart, the staging ones n apart). */
static ionf_err stage_species(struct cuda_chem *cc, int f, double *host, long long n,
                              long long stride, int blocks, int to_device) {
  for (int b = 0; b < blocks; ++b) {
    double *dev = cc->field[f] + b * n, *h = host + b * stride;
    if (to_device)
      CUDA_CHECK(cudaMemcpy(dev, h, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice),
                 "copy to the GPU");
    else
      CUDA_CHECK(cudaMemcpy(h, dev, sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost),
                 "copy from the GPU");
  }
  return IONF_OK;
}

/* host -> staging buffer f (or back), n doubles */
static ionf_err stage(struct cuda_chem *cc, int f, double *host, long long n, int to_device) {
  if (to_device)
    CUDA_CHECK(cudaMemcpy(cc->field[f], host, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice),
               "copy to the GPU");
  else
    CUDA_CHECK(cudaMemcpy(host, cc->field[f], sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost),
               "copy from the GPU");
  return IONF_OK;
}

/* The convergence sums in cell order from the per-cell flags and the host results, as
   chem_cpu_pass forms them on one thread. */
static void host_sums(const struct chem_kernel_args *h, const unsigned char *flags,
                      struct chem_pass_result *out) {
  long long unconverged = 0, at_max = 0;
  double sx = 0.0, sn = 0.0, sm = 0.0, st = 0.0;
  for (long long i = 0; i < h->cells; ++i) {
    double x = h->x_end[i];
    unconverged += (flags[i] & FLAG_UNCONVERGED) != 0;
    at_max += (flags[i] & FLAG_AT_MAX) != 0;
    sx += x;
    sn += 1.0 - x;
    sm += h->n_h[i] * x;
    st += h->heat ? h->t_end[i] : h->t_k[i];
  }
  chem_pass_result_set(out, unconverged, at_max, sx, sn, sm, st);
}

/*
 * Staged with helium: the per-species arrays' three blocks copied in (packed n apart),
 * chem_he_pass_kernel<true>, the averages and end values copied back; the sums from the
 * flags in cell order over hydrogen's block, as chem_cpu.c's helium loop on one thread.
 */
static ionf_err host_pass_he(struct cuda_chem *cc, const struct chem_input *in,
                             const struct chem_clumping *clumping, struct chem_state *state,
                             struct chem_pass_result *out) {
  long long n = in->n_cells, k = in->species_stride;
  struct chem_he_kernel_args h = he_kernel_args(in, clumping, state); /* the host arrays */
  const int thermal = h.heat != NULL;
  IONF_CALL(reserve_staging(cc, 3 * n)); /* every buffer holds three species blocks */
  IONF_CALL(stage(cc, 0, (double *)h.n_h, n, 1));
  IONF_CALL(stage(cc, 1, (double *)h.t_k, n, 1));
  IONF_CALL(stage_species(cc, 2, (double *)h.gamma, n, k, 3, 1));
  IONF_CALL(stage_species(cc, 3, (double *)h.x0, n, k, 3, 1));
  IONF_CALL(stage_species(cc, 4, h.x_av, n, k, 3, 1));
  if (thermal) {
    IONF_CALL(stage_species(cc, 6, (double *)h.heat, n, k, 3, 1));
    IONF_CALL(stage(cc, 7, h.t_av, n, 1));
  }
  struct chem_he_kernel_args a = h;
  a.stride = n;
  a.n_h = cc->field[0];
  a.t_k = cc->field[1];
  a.gamma = cc->field[2];
  a.x0 = cc->field[3];
  a.x_av = cc->field[4];
  a.x_end = cc->field[5];
  a.heat = thermal ? cc->field[6] : NULL;
  a.t_av = thermal ? cc->field[7] : NULL;
  a.t_end = thermal ? cc->field[8] : NULL;
  a.flags = cc->d_flags;
  chem_he_pass_kernel<true><<<(unsigned)launch_blocks(cc, n, 1), CHEM_THREADS>>>(a);
  CUDA_CHECK(cudaGetLastError(), "launch of the chemistry kernel");
  IONF_CALL(stage_species(cc, 4, h.x_av, n, k, 3, 0));
  IONF_CALL(stage_species(cc, 5, h.x_end, n, k, 3, 0));
  if (thermal) {
    IONF_CALL(stage(cc, 7, h.t_av, n, 0));
    IONF_CALL(stage(cc, 8, h.t_end, n, 0));
  }
  CUDA_CHECK(cudaMemcpy(cc->h_flags, cc->d_flags, (size_t)n, cudaMemcpyDeviceToHost),
             "copy from the GPU");
  struct chem_kernel_args sums_view = kernel_args(in, clumping, state); /* hydrogen's: the sums */
  host_sums(&sums_view, cc->h_flags, out);
  return IONF_OK;
}

static ionf_err host_pass(struct chem_solver *s, const struct chem_input *in,
                          struct chem_state *state, struct chem_pass_result *out) {
  struct cuda_chem *cc = chem_of(s);
  long long n = in->n_cells;
  memset(out, 0, sizeof *out);
  if (n > 0 && in->n_species == 3) return host_pass_he(cc, in, &s->clumping, state, out);
  if (n <= 0) return IONF_OK;
  struct chem_kernel_args h = kernel_args(in, &s->clumping, state); /* the host arrays */
  const int thermal = h.heat != NULL;
  IONF_CALL(reserve_staging(cc, n));
  IONF_CALL(stage(cc, 0, (double *)h.n_h, n, 1));
  IONF_CALL(stage(cc, 1, (double *)h.t_k, n, 1));
  IONF_CALL(stage(cc, 2, (double *)h.gamma, n, 1));
  IONF_CALL(stage(cc, 3, (double *)h.x0, n, 1));
  IONF_CALL(stage(cc, 4, h.x_av, n, 1));
  if (thermal) {
    IONF_CALL(stage(cc, 6, (double *)h.heat, n, 1));
    IONF_CALL(stage(cc, 7, h.t_av, n, 1));
  }
  struct chem_kernel_args a = h;
  a.n_h = cc->field[0];
  a.t_k = cc->field[1];
  a.gamma = cc->field[2];
  a.x0 = cc->field[3];
  a.x_av = cc->field[4];
  a.x_end = cc->field[5];
  a.heat = thermal ? cc->field[6] : NULL;
  a.t_av = thermal ? cc->field[7] : NULL;
  a.t_end = thermal ? cc->field[8] : NULL;
  a.flags = cc->d_flags;
  chem_pass_kernel<true><<<(unsigned)launch_blocks(cc, n, 1), CHEM_THREADS>>>(a);
  CUDA_CHECK(cudaGetLastError(), "launch of the chemistry kernel");
  IONF_CALL(stage(cc, 4, h.x_av, n, 0));
  IONF_CALL(stage(cc, 5, h.x_end, n, 0));
  if (thermal) {
    IONF_CALL(stage(cc, 7, h.t_av, n, 0));
    IONF_CALL(stage(cc, 8, h.t_end, n, 0));
  }
  CUDA_CHECK(cudaMemcpy(cc->h_flags, cc->d_flags, (size_t)n, cudaMemcpyDeviceToHost),
             "copy from the GPU");
  host_sums(&h, cc->h_flags, out);
  return IONF_OK;
}

static void cuda_chem_destroy(struct chem_solver *s) {
  struct cuda_chem *cc = chem_of(s);
  if (cc) {
    release_staging(cc);
    cudaFree(cc->d_sums);
    free(cc);
  }
  free(s);
}

extern "C" ionf_err chem_solver_create_cuda(int device_arrays, void *stream,
                                            struct chem_solver **out) {
  *out = NULL;
  struct chem_solver *s = (struct chem_solver *)ionf_calloc(1, sizeof *s, "the CUDA chemistry");
  if (!s) return IONF_ERR_MEM;
  struct cuda_chem *cc = (struct cuda_chem *)ionf_calloc(1, sizeof *cc, "the CUDA chemistry");
  if (!cc) {
    free(s);
    return IONF_ERR_MEM;
  }
  s->impl = cc;
  s->name = device_arrays ? "cuda" : "cuda-staged";
  s->device_arrays = device_arrays;
  s->ops.pass = device_arrays ? device_pass : host_pass;
  s->ops.destroy = cuda_chem_destroy;
  cc->stream = (cudaStream_t)stream;
  int device = 0;
  ionf_err rc = IONF_OK;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute(&cc->sm_count, cudaDevAttrMultiProcessorCount, device);
  if (err == cudaSuccess)
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&cc->resident[0], chem_pass_kernel<false>,
                                                        CHEM_THREADS, 0);
  if (err == cudaSuccess)
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&cc->resident[1], chem_pass_kernel<true>,
                                                        CHEM_THREADS, 0);
  for (int f = 0; f < 2; ++f)
    if (cc->resident[f] < 1) cc->resident[f] = 1;
  if (err != cudaSuccess) rc = cuda_util_fail((int)err, "chemistry set-up");
  if (rc == IONF_OK && device_arrays)
    rc = cuda_util_alloc((void **)&cc->d_sums, sizeof(struct chem_sums), "the chemistry's sums");
  if (rc != IONF_OK) {
    cuda_chem_destroy(s);
    return rc;
  }
  *out = s;
  return IONF_OK;
}

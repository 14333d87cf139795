/**
 * @file backend_cuda.cu
 * @brief The CUDA backend: the fields live in GPU memory for the whole
 *        ray-tracing <-> chemistry iteration; the host sees them only when
 *        the engine asks (outputs, the MPI sum of Gamma).
 *
 * Kernels (the per-cell maths is the shared code of src/*_k.h):
 *  - asora_trace_kernel: one block per source of a batch; the source's cells
 *    in cube shells h = 0, 1, ... (asora_k.h), a block barrier between shells
 *    (every upstream neighbour of shell h is in shell h - 1); Gamma by
 *    double-precision atomicAdd.  Each block has a column buffer over its
 *    source's traced domain (box clipped to R_max): memory follows the work.
 *  - planar_trace_kernel: plane-parallel sources, one thread per column of cells
 *    normal to the face (planar_k.h), added after the point sources.
 *  - chem_pass_kernel: one thread per cell (grid-stride), chem_cell_update,
 *    the convergence sums reduced per block with CUB and added atomically.
 */
#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>
#include <hwloc.h>
#include <hwloc/cudart.h>

extern "C" {
#include "rt/asora/asora_k.h"
#include "engine/backend.h"
#include "chem/chem_k.h"
#include "mpi/comm.h"
#include "gpu/rt/mc/mc_cuda.h"
#include "gpu/mpi/nccl_sum.h"
#include "rt/photo_k.h"
#include "rt/planar/planar_k.h"
#include "chem/species_k.h"
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_THREADS 256
#define CHEM_THREADS 256

/* ---- errors -------------------------------------------------------------------- */

static ionf_err cuda_fail(cudaError_t err, const char *what) {
  cudaGetLastError(); /* clear a non-sticky error */
  ionf_err code = err == cudaErrorMemoryAllocation ? IONF_ERR_GPU_MEM : IONF_ERR_GPU;
  return ionf_error_set(code, "rank %d: CUDA %s failed: %s (%s)", comm_rank(), what,
                        cudaGetErrorName(err), cudaGetErrorString(err));
}

#define CUDA_CALL(expr, what)                       \
  do {                                              \
    cudaError_t cuda_call_err_ = (expr);            \
    if (cuda_call_err_ != cudaSuccess) {            \
      ionf_error_trace(__func__, __FILE__, __LINE__); \
      return cuda_fail(cuda_call_err_, (what));     \
    }                                               \
  } while (0)

/* cudaMalloc with a message naming the size and what is free. */
static ionf_err device_alloc(void **ptr, size_t bytes, const char *what) {
  *ptr = NULL;
  cudaError_t err = cudaMalloc(ptr, bytes ? bytes : 1);
  if (err == cudaSuccess) return IONF_OK;
  cudaGetLastError();
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  *ptr = NULL;
  return ionf_error_set(IONF_ERR_GPU_MEM,
                        "rank %d: GPU out of memory allocating %.3f GB for %s "
                        "(%.3f GB free of %.3f GB); use a smaller grid or raytracing.R_max, "
                        "or more GPUs",
                        comm_rank(), (double)bytes / 1e9, what, (double)free_b / 1e9,
                        (double)total_b / 1e9);
}

/* ---- kernels -------------------------------------------------------------------- */

struct trace_kernel_args {
  const double *n_h_cm3;
  const double *x_ion_av;       /* [species][n^3] */
  double *gamma;                /* [species][n^3] */
  double *heat;                 /* [species][n^3] photo-heating accumulator (thermal runs), else NULL */
  double *columns;              /* batch x column_stride (each: [species][domain box]) */
  long long column_stride;
  const int *src_ijk;           /* this rank's sources */
  const double *src_ndot;
  long long first;              /* first source of the batch (index into src_*) */
  long long count;              /* sources in the batch */
  long long n;
  int periodic;
  double cell_cm;
  double r_max_cells;
  struct photo_table_view tables;
  unsigned long long *cells_visited;
};

/* What tracing source s needs, from the kernel arguments. */
__device__ static void source_view(const struct trace_kernel_args *a, long long s,
                                   struct asora_source_view *v) {
  v->n_h_cm3 = a->n_h_cm3;
  v->x_ion_av = a->x_ion_av;
  v->n = a->n;
  v->periodic = a->periodic;
  v->cell_cm = a->cell_cm;
  v->src[0] = a->src_ijk[3 * s];
  v->src[1] = a->src_ijk[3 * s + 1];
  v->src[2] = a->src_ijk[3 * s + 2];
  v->ndot_per_s = a->src_ndot[s];
  asora_domain_make(v->src, a->n, a->periodic, a->r_max_cells, &v->dom);
  v->tables = a->tables;
}

template <int THREADS, int MIN_BLOCKS>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    asora_trace_kernel(struct trace_kernel_args a) {
  if (blockIdx.x >= a.count) return;
  struct asora_source_view v;
  source_view(&a, a.first + blockIdx.x, &v);
  double *column = a.columns + (long long)blockIdx.x * a.column_stride;
  const long long cells = a.n * a.n * a.n; /* species stride of gamma and heat */
  int h_max = asora_domain_h_max(&v.dom);
  unsigned long long visited = 0;
  __shared__ struct asora_cube_shell cs; /* one copy per block, not 200 B per thread */
  for (int h = 0; h <= h_max; ++h) {
    if (threadIdx.x == 0) asora_cube_shell_make(&v.dom, h, &cs);
    __syncthreads();
    for (long long t = threadIdx.x; t < cs.start[6]; t += blockDim.x) {
      int di, dj, dk;
      asora_cube_shell_cell(&cs, t, &di, &dj, &dk);
      long long idx;
      double g[IONF_N_SPECIES], heat[IONF_N_SPECIES], col_out[IONF_N_SPECIES];
      if (asora_cell_step(&v, column, di, dj, dk, &idx, g, a.heat ? heat : NULL, col_out)) {
        ++visited;
        for (int s = 0; s < IONF_N_SPECIES; ++s) {
          long long at = s * cells + idx;
          if (g[s] != 0.0) atomicAdd(&a.gamma[at], g[s]);
          if (a.heat && heat[s] != 0.0) atomicAdd(&a.heat[at], heat[s]);
        }
      }
    }
    __syncthreads(); /* shell h is complete (and cs free) before shell h + 1 */
  }
  typedef cub::BlockReduce<unsigned long long, THREADS> reduce_t;
  __shared__ typename reduce_t::TempStorage tmp;
  unsigned long long total = reduce_t(tmp).Sum(visited);
  if (threadIdx.x == 0) atomicAdd(a.cells_visited, total);
}

/*
 * Few sources (fewer than fill the GPU with one block each): every cell of cube
 * shell h of every source of the batch in one launch, many blocks per source
 * (blockIdx.y = source), one launch per shell; the launch boundary orders the
 * shells.  Same per-cell maths, same results as the block-per-source kernel.
 */
__global__ void __launch_bounds__(TRACE_THREADS)
    asora_shell_kernel(struct trace_kernel_args a, int h) {
  struct asora_source_view v;
  source_view(&a, a.first + blockIdx.y, &v);
  if (h > asora_domain_h_max(&v.dom)) return;
  __shared__ struct asora_cube_shell cs;
  if (threadIdx.x == 0) asora_cube_shell_make(&v.dom, h, &cs);
  __syncthreads();
  double *column = a.columns + (long long)blockIdx.y * a.column_stride;
  const long long cells = a.n * a.n * a.n; /* species stride of gamma and heat */
  unsigned long long visited = 0;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < cs.start[6];
       t += (long long)gridDim.x * blockDim.x) {
    int di, dj, dk;
    asora_cube_shell_cell(&cs, t, &di, &dj, &dk);
    long long idx;
    double g[IONF_N_SPECIES], heat[IONF_N_SPECIES], col_out[IONF_N_SPECIES];
    if (asora_cell_step(&v, column, di, dj, dk, &idx, g, a.heat ? heat : NULL, col_out)) {
      ++visited;
      for (int s = 0; s < IONF_N_SPECIES; ++s) {
        long long at = s * cells + idx;
        if (g[s] != 0.0) atomicAdd(&a.gamma[at], g[s]);
        if (a.heat && heat[s] != 0.0) atomicAdd(&a.heat[at], heat[s]);
      }
    }
  }
  typedef cub::BlockReduce<unsigned long long, TRACE_THREADS> reduce_t;
  __shared__ typename reduce_t::TempStorage tmp;
  unsigned long long total = reduce_t(tmp).Sum(visited);
  if (threadIdx.x == 0 && total) atomicAdd(a.cells_visited, total);
}

/*
 * Plane-parallel sources (planar_k.h): one thread per column of cells normal to
 * the face, walking it from the face.  Columns of one face share no cell, and
 * the launch follows the point sources' kernels on the same stream, so plain
 * adds onto their Gamma are safe.
 */
__global__ void __launch_bounds__(TRACE_THREADS)
    planar_trace_kernel(struct planar_column_view v, double *gamma, double *heat) {
  long long columns = v.n * v.n;
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < columns;
       c += (long long)gridDim.x * blockDim.x)
    planar_trace_column(&v, c, gamma, heat);
}

/* Multiply every cell by `factor` (density dilution in an expanding universe). */
__global__ void scale_kernel(double *field, long long cells, double factor) {
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < cells;
       c += (long long)gridDim.x * blockDim.x)
    field[c] *= factor;
}

/* Convergence sums of one chemistry pass. */
struct chem_sums {
  unsigned long long unconverged, at_max;
  double sum_x, sum_neutral, sum_mass, sum_t;
};

__global__ void __launch_bounds__(CHEM_THREADS)
    chem_pass_kernel(long long cells, double dt_s, struct chem_params p, const double *n_h,
                     const double *t_k, const double *gamma, const double *x0, double *x_av,
                     double *x_end, const double *heat, double *t_av, double *t_end,
                     struct chem_sums *sums) {
  unsigned long long unconverged = 0, at_max = 0;
  double sx = 0.0, sn = 0.0, sm = 0.0, st = 0.0;
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < cells;
       c += (long long)gridDim.x * blockDim.x) {
    double old = x_av[c];
    struct chem_cell_result r;
    if (heat) { /* the temperature evolves (same maths as chem_cpu.c) */
      double t_old = t_av[c];
      r = chem_cell_update_thermal(&p, x0[c], old, t_k[c], t_old, n_h[c], gamma[c], heat[c], dt_s);
      t_av[c] = r.t_av_k;
      t_end[c] = r.t_end_k;
      unconverged += chem_cell_unconverged(old, r.x_av) ||
                     fabs(r.t_av_k - t_old) > CHEM_MIN_FRACTIONAL_T_CHANGE * r.t_av_k;
    } else {
      r = chem_cell_update(&p, x0[c], old, n_h[c], t_k[c], gamma[c], dt_s);
      unconverged += chem_cell_unconverged(old, r.x_av);
    }
    x_av[c] = r.x_av;
    x_end[c] = r.x_end;
    at_max += !r.converged;
    sx += r.x_end;
    sn += 1.0 - r.x_end;
    sm += n_h[c] * r.x_end;
    st += r.t_end_k;
  }
  typedef cub::BlockReduce<double, CHEM_THREADS> reduce_d;
  typedef cub::BlockReduce<unsigned long long, CHEM_THREADS> reduce_u;
  __shared__ union {
    typename reduce_d::TempStorage d;
    typename reduce_u::TempStorage u;
  } tmp;
  double v;
  unsigned long long u;
  u = reduce_u(tmp.u).Sum(unconverged);
  if (threadIdx.x == 0) atomicAdd(&sums->unconverged, u);
  __syncthreads();
  u = reduce_u(tmp.u).Sum(at_max);
  if (threadIdx.x == 0) atomicAdd(&sums->at_max, u);
  __syncthreads();
  v = reduce_d(tmp.d).Sum(sx);
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

/* ---- the backend ------------------------------------------------------------------ */

struct cuda_backend {
  struct backend_setup s;
  int device;
  int sm_count;
  cudaStream_t stream;
  long long cells;
  /* d_x, d_x_av, d_x_end, d_gamma, d_heat: [species][cells], as the host fields */
  double *d_n_h, *d_x, *d_x_av, *d_x_end, *d_t, *d_gamma;
  double *d_t_av, *d_t_end, *d_heat;  /* thermal runs only (NULL otherwise) */
  double *d_heat_thick[IONF_N_SPECIES], *d_heat_thin[IONF_N_SPECIES];
  int *d_src_ijk;
  double *d_src_ndot;
  long long n_src;              /* this rank's sources on the device */
  long long src_capacity;       /* sources d_src_* hold room for */
  size_t columns_bytes;         /* size of d_columns */
  size_t description_len;       /* be->description before the source part */
  double *d_thick[IONF_N_SPECIES], *d_thin[IONF_N_SPECIES];
  double *d_columns;
  long long column_stride;      /* doubles per in-flight source */
  long long batch;              /* sources in flight */
  int h_max;                    /* largest cube shell of any source */
  double *pinned[3];            /* host fields page-locked for fast copies */
  struct nccl_sum *nccl;        /* device all-reduce over the ranks, when available */
  int n_pinned;
  struct chem_sums *d_sums;
  unsigned long long *d_visited;
  struct mc_cuda *mc;           /* raytracing.method montecarlo (gpu/mc_trace.cu); NULL: ASORA */
};

static struct cuda_backend *cuda_of(struct rt_backend *be) {
  return (struct cuda_backend *)be->impl;
}

/* Host pointer and device pointer of each field bit. */
static void field_pair(struct cuda_backend *cb, unsigned bit, double **host, double **dev) {
  struct grid_fields *f = cb->s.host;
  switch (bit) {
    case FIELD_N_H: *host = f->n_h_cm3; *dev = cb->d_n_h; break;
    case FIELD_X: *host = f->x_ion; *dev = cb->d_x; break;
    case FIELD_X_AV: *host = f->x_ion_av; *dev = cb->d_x_av; break;
    case FIELD_X_END: *host = f->x_ion_end; *dev = cb->d_x_end; break;
    case FIELD_T: *host = f->temperature_k; *dev = cb->d_t; break;
    case FIELD_T_AV: *host = f->temperature_av_k; *dev = cb->d_t_av; break;
    case FIELD_T_END: *host = f->temperature_end_k; *dev = cb->d_t_end; break;
    case FIELD_HEAT: *host = f->heating_erg_per_s; *dev = cb->d_heat; break;
    default: *host = f->gamma_per_s; *dev = cb->d_gamma; break;
  }
}

static ionf_err cuda_move(struct rt_backend *be, unsigned mask, int64_t first, int64_t count,
                          int to_device) {
  struct cuda_backend *cb = cuda_of(be);
  size_t bytes = sizeof(double) * (size_t)count;
  for (unsigned bit = 1; bit <= FIELD_HEAT; bit <<= 1) {
    if (!(mask & bit)) continue;
    double *host0, *dev0;
    field_pair(cb, bit, &host0, &dev0);
    if (!host0 || !dev0) continue; /* a thermal field in an isothermal run */
    if (!to_device && bit == FIELD_GAMMA && cb->mc) /* Monte Carlo: its error tallies too (HI) */
      IONF_CALL(mc_cuda_download_sq(cb->mc, cb->s.mc->gamma_sq, first, count, cb->stream));
    int blocks = backend_field_per_species(bit) ? IONF_N_SPECIES : 1;
    for (int b = 0; b < blocks; ++b) { /* the range of every species */
      double *host = host0 + b * cb->cells + first;
      double *dev = dev0 + b * cb->cells + first;
      if (to_device)
        CUDA_CALL(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, cb->stream),
                  "copy of a field to the GPU");
      else
        CUDA_CALL(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, cb->stream),
                  "copy of a field from the GPU");
    }
  }
  CUDA_CALL(cudaStreamSynchronize(cb->stream), "field copy");
  return IONF_OK;
}

static ionf_err cuda_upload(struct rt_backend *be, unsigned mask, int64_t first, int64_t count) {
  return cuda_move(be, mask, first, count, 1);
}
static ionf_err cuda_download(struct rt_backend *be, unsigned mask, int64_t first,
                              int64_t count) {
  return cuda_move(be, mask, first, count, 0);
}

/* Sources in flight: enough blocks to fill the GPU several times over, as many
   as half the free memory holds (counting `reusable` bytes of buffers that would
   be freed), never more than there are sources. */
static long long choose_batch(struct cuda_backend *cb, long long bytes_per_source,
                              size_t reusable) {
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  long long by_memory =
      (long long)(0.5 * ((double)free_b + (double)reusable) / (double)bytes_per_source);
  long long want = 8LL * cb->sm_count;
  long long batch = want < by_memory ? want : by_memory;
  if (batch > cb->n_src) batch = cb->n_src;
  return batch < 1 ? 1 : batch;
}

/*
 * This rank's sources to the GPU, and the per-source column buffers sized for
 * them (the largest traced domain) with the batch chosen from their count: at
 * set-up and whenever the sources change.  Buffers grow when needed and are
 * otherwise reused; the description's source part is rewritten.
 */
static ionf_err cuda_take_sources(struct rt_backend *be) {
  struct cuda_backend *cb = cuda_of(be);
  const struct backend_setup *s = &cb->s;
  CUDA_CALL(cudaStreamSynchronize(cb->stream), "waiting for the GPU before new sources");
  cb->n_src = s->source_count;
  if (cb->n_src > cb->src_capacity || !cb->d_src_ijk) {
    cudaFree(cb->d_src_ijk);
    cudaFree(cb->d_src_ndot);
    cb->d_src_ijk = NULL;
    cb->d_src_ndot = NULL;
    cb->src_capacity = 0;
    IONF_CALL(device_alloc((void **)&cb->d_src_ijk, 3 * sizeof(int) * (size_t)cb->n_src,
                           "source positions"));
    IONF_CALL(device_alloc((void **)&cb->d_src_ndot, sizeof(double) * (size_t)cb->n_src,
                           "source rates"));
    cb->src_capacity = cb->n_src;
  }
  if (cb->n_src > 0) {
    CUDA_CALL(cudaMemcpy(cb->d_src_ijk, s->sources->ijk + 3 * s->first_source,
                         3 * sizeof(int) * (size_t)cb->n_src, cudaMemcpyHostToDevice),
              "copy of source positions");
    CUDA_CALL(cudaMemcpy(cb->d_src_ndot, s->sources->ndot_per_s + s->first_source,
                         sizeof(double) * (size_t)cb->n_src, cudaMemcpyHostToDevice),
              "copy of source rates");
  }

  /* the column buffer of the largest traced domain sizes every in-flight slot */
  long long stride = 1;
  cb->h_max = 0;
  for (long long i = 0; i < cb->n_src; ++i) {
    const int32_t *p = s->sources->ijk + 3 * (s->first_source + i);
    int src[3] = {p[0], p[1], p[2]};
    struct asora_domain dom;
    asora_domain_make(src, s->grid.n, s->grid.periodic, s->r_max_cells, &dom);
    long long c = IONF_N_SPECIES * asora_domain_box_cells(&dom); /* a box per species */
    if (c > stride) stride = c;
    int h = asora_domain_h_max(&dom);
    if (h > cb->h_max) cb->h_max = h;
  }
  cb->column_stride = stride;
  cb->batch = choose_batch(cb, stride * (long long)sizeof(double), cb->columns_bytes);
  if (s->source_batch_size > 0)
    cb->batch = s->source_batch_size < cb->n_src ? s->source_batch_size : cb->n_src;
  if (cb->batch < 1) cb->batch = 1;
  size_t used = (size_t)cb->batch * (size_t)stride * sizeof(double);
  if (used > cb->columns_bytes) {
    cudaFree(cb->d_columns);
    cb->d_columns = NULL;
    cb->columns_bytes = 0;
    IONF_CALL(device_alloc((void **)&cb->d_columns, used, "the per-source column buffers"));
    cb->columns_bytes = used;
  }
  be->inflight_sources = cb->batch;
  be->column_bytes_per_source = 8.0 * (double)stride;
  size_t len = cb->description_len;
  snprintf(be->description + len, sizeof be->description - len,
           "; %lld source(s) in flight, %.2f MB of column buffer each (%.2f GB)", cb->batch,
           8.0 * (double)stride / 1e6, (double)used / 1e9);
  return IONF_OK;
}

static ionf_err cuda_setup(struct rt_backend *be, const struct backend_setup *s) {
  struct cuda_backend *cb = cuda_of(be);
  cb->s = *s;
  cb->cells = grid_cells(s->grid.n);
  size_t field_bytes = sizeof(double) * (size_t)cb->cells;
  size_t species_bytes = field_bytes * IONF_N_SPECIES; /* [species][cells] */
  double **fields[] = {&cb->d_n_h, &cb->d_x, &cb->d_x_av, &cb->d_x_end, &cb->d_t, &cb->d_gamma};
  int per_species[] = {0, 1, 1, 1, 0, 1};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i)
    IONF_CALL(device_alloc((void **)fields[i], per_species[i] ? species_bytes : field_bytes,
                           "the grid fields"));
  if (s->host->temperature_av_k) { /* the temperature evolves */
    double **thermal[] = {&cb->d_t_av, &cb->d_t_end, &cb->d_heat};
    for (size_t i = 0; i < sizeof thermal / sizeof thermal[0]; ++i)
      IONF_CALL(device_alloc((void **)thermal[i], i == 2 ? species_bytes : field_bytes,
                             "the temperature fields"));
  }

  /* Page-lock the host fields that cross PCIe every iteration under MPI (Gamma,
     x_av) or at outputs, so those copies run at full speed.  Best effort. */
  if (comm_size() > 1) {
    double *pin[] = {s->host->gamma_per_s, s->host->x_ion_av, s->host->x_ion_end};
    /* (the thermal fields cross too, but pinning them is not worth the locked memory) */
    for (size_t i = 0; i < sizeof pin / sizeof pin[0]; ++i)
      if (cudaHostRegister(pin[i], species_bytes, cudaHostRegisterDefault) == cudaSuccess)
        cb->pinned[cb->n_pinned++] = pin[i];
      else
        cudaGetLastError();
  }

  if (s->want_device_sum && comm_size() > 1) {
    char why[200];
    IONF_CALL(nccl_sum_create(&cb->nccl, why, sizeof why));
    size_t len = strlen(be->description);
    snprintf(be->description + len, sizeof be->description - len, "; Gamma summed %s%s",
             cb->nccl ? "on the GPUs by NCCL" : "through the host: ", cb->nccl ? "" : why);
    if (!cb->nccl) be->ops.gamma_allreduce = NULL;
  } else {
    be->ops.gamma_allreduce = NULL;
  }

  /* tables, convergence sums, then this rank's sources and their column buffers */
  size_t table_bytes = sizeof(double) * ((size_t)s->tables->num_tau + 1);
  for (int sp = 0; sp < IONF_N_SPECIES; ++sp) { /* every species' tables */
    const struct photo_species_tables *t = &s->tables->sp[sp];
    IONF_CALL(device_alloc((void **)&cb->d_thick[sp], table_bytes, "the rate tables"));
    IONF_CALL(device_alloc((void **)&cb->d_thin[sp], table_bytes, "the rate tables"));
    CUDA_CALL(cudaMemcpy(cb->d_thick[sp], t->thick, table_bytes, cudaMemcpyHostToDevice),
              "copy of the rate tables");
    CUDA_CALL(cudaMemcpy(cb->d_thin[sp], t->thin, table_bytes, cudaMemcpyHostToDevice),
              "copy of the rate tables");
    if (s->tables->heating) {
      IONF_CALL(device_alloc((void **)&cb->d_heat_thick[sp], table_bytes, "the heating tables"));
      IONF_CALL(device_alloc((void **)&cb->d_heat_thin[sp], table_bytes, "the heating tables"));
      CUDA_CALL(cudaMemcpy(cb->d_heat_thick[sp], t->heat_thick, table_bytes,
                           cudaMemcpyHostToDevice), "copy of the heating tables");
      CUDA_CALL(cudaMemcpy(cb->d_heat_thin[sp], t->heat_thin, table_bytes,
                           cudaMemcpyHostToDevice), "copy of the heating tables");
    }
  }
  IONF_CALL(device_alloc((void **)&cb->d_sums, sizeof(struct chem_sums), "reduction sums"));
  IONF_CALL(device_alloc((void **)&cb->d_visited, sizeof(unsigned long long), "a counter"));

  cb->description_len = strlen(be->description);
  IONF_CALL(cuda_take_sources(be));
  if (s->mc) IONF_CALL(mc_cuda_create(s->mc, s->grid.n, &cb->mc));
  return IONF_OK;
}

/* A new halo catalogue: this rank's new share of the sources. */
static ionf_err cuda_set_sources(struct rt_backend *be, const struct source_list *sources,
                                 int64_t first_source, int64_t source_count) {
  struct cuda_backend *cb = cuda_of(be);
  cb->s.sources = sources;
  cb->s.first_source = first_source;
  cb->s.source_count = source_count;
  return cuda_take_sources(be);
}

static ionf_err cuda_set_step(struct rt_backend *be, const struct backend_step_params *p) {
  struct cuda_backend *cb = cuda_of(be);
  cb->s.grid.cell_cm = p->cell_cm;
  cb->s.chem = p->chem;
  if (p->density_factor != 1.0) {
    scale_kernel<<<8 * cb->sm_count, 256, 0, cb->stream>>>(cb->d_n_h, cb->cells,
                                                          p->density_factor);
    CUDA_CALL(cudaGetLastError(), "launch of the density scaling");
  }
  return IONF_OK;
}

static ionf_err cuda_step_begin(struct rt_backend *be) {
  struct cuda_backend *cb = cuda_of(be);
  size_t bytes = sizeof(double) * (size_t)cb->cells;
  size_t x_bytes = bytes * IONF_N_SPECIES; /* every species */
  CUDA_CALL(cudaMemcpyAsync(cb->d_x_av, cb->d_x, x_bytes, cudaMemcpyDeviceToDevice, cb->stream),
            "copy x -> x_av");
  CUDA_CALL(cudaMemcpyAsync(cb->d_x_end, cb->d_x, x_bytes, cudaMemcpyDeviceToDevice, cb->stream),
            "copy x -> x_end");
  if (cb->d_t_av) {
    CUDA_CALL(cudaMemcpyAsync(cb->d_t_av, cb->d_t, bytes, cudaMemcpyDeviceToDevice, cb->stream),
              "copy T -> T_av");
    CUDA_CALL(cudaMemcpyAsync(cb->d_t_end, cb->d_t, bytes, cudaMemcpyDeviceToDevice, cb->stream),
              "copy T -> T_end");
  }
  return IONF_OK;
}

static ionf_err cuda_step_end(struct rt_backend *be) {
  struct cuda_backend *cb = cuda_of(be);
  CUDA_CALL(cudaMemcpyAsync(cb->d_x, cb->d_x_end,
                            sizeof(double) * (size_t)cb->cells * IONF_N_SPECIES,
                            cudaMemcpyDeviceToDevice, cb->stream),
            "copy x_end -> x");
  if (cb->d_t_end)
    CUDA_CALL(cudaMemcpyAsync(cb->d_t, cb->d_t_end, sizeof(double) * (size_t)cb->cells,
                              cudaMemcpyDeviceToDevice, cb->stream),
              "copy T_end -> T");
  CUDA_CALL(cudaStreamSynchronize(cb->stream), "end of step");
  return IONF_OK;
}

static ionf_err cuda_trace(struct rt_backend *be, struct trace_stats *stats) {
  struct cuda_backend *cb = cuda_of(be);
  size_t species_bytes = sizeof(double) * (size_t)cb->cells * IONF_N_SPECIES;
  CUDA_CALL(cudaMemsetAsync(cb->d_gamma, 0, species_bytes, cb->stream), "clearing Gamma");
  int heating = cb->s.tables->heating && cb->d_heat;
  if (heating)
    CUDA_CALL(cudaMemsetAsync(cb->d_heat, 0, species_bytes, cb->stream),
              "clearing the heating rates");
  CUDA_CALL(cudaMemsetAsync(cb->d_visited, 0, sizeof(unsigned long long), cb->stream),
            "clearing a counter");
  if (cb->mc) { /* raytracing.method montecarlo: photon packets instead of ASORA */
    struct mc_cuda_pass mp = {cb->s.grid.n,    cb->s.grid.periodic, cb->s.grid.cell_cm,
                              cb->s.r_max_cells, cb->d_n_h,         cb->d_x_av,
                              cb->d_t,         cb->d_src_ijk,   cb->d_src_ndot,      cb->n_src,
                              cb->d_gamma,     heating ? cb->d_heat : NULL,
                              cb->sm_count,    cb->stream};
    int64_t crossed = 0;
    IONF_CALL(mc_cuda_trace(cb->mc, cb->s.mc, &mp, &crossed));
    if (stats) stats->cells_traced = crossed;
    return IONF_OK;
  }
  struct trace_kernel_args a;
  a.n_h_cm3 = cb->d_n_h;
  a.x_ion_av = cb->d_x_av;
  a.gamma = cb->d_gamma;
  a.columns = cb->d_columns;
  a.column_stride = cb->column_stride;
  a.src_ijk = cb->d_src_ijk;
  a.src_ndot = cb->d_src_ndot;
  a.n = cb->s.grid.n;
  a.periodic = cb->s.grid.periodic;
  a.cell_cm = cb->s.grid.cell_cm;
  a.r_max_cells = cb->s.r_max_cells;
  a.tables = photo_tables_view(cb->s.tables);
  for (int sp = 0; sp < IONF_N_SPECIES; ++sp) {
    a.tables.sp[sp].thick = cb->d_thick[sp];
    a.tables.sp[sp].thin = cb->d_thin[sp];
    a.tables.sp[sp].heat_thick = cb->d_heat_thick[sp];
    a.tables.sp[sp].heat_thin = cb->d_heat_thin[sp];
  }
  a.heat = heating ? cb->d_heat : NULL;
  a.cells_visited = cb->d_visited;
  /* batches run in order on one stream: a slot's buffer is free when the next batch starts */
  for (long long first = 0; first < cb->n_src; first += cb->batch) {
    a.first = first;
    a.count = cb->n_src - first < cb->batch ? cb->n_src - first : cb->batch;
    if (a.count >= 2LL * cb->sm_count) {
      /* 256 threads capped at 64 registers: 4 blocks (32 warps) per SM; measured
         7-12% faster than 3 blocks of 76 registers (benchmarks/RESULTS.md) */
      asora_trace_kernel<TRACE_THREADS, 4><<<(unsigned)a.count, TRACE_THREADS, 0, cb->stream>>>(a);
      CUDA_CALL(cudaGetLastError(), "launch of the ray-tracing kernel");
      continue;
    }
    /* few sources: spread each shell over the whole GPU */
    long long blocks_total = 4LL * cb->sm_count;
    long long per_source = (blocks_total + a.count - 1) / a.count;
    long long shell_max = 6LL * (2LL * cb->h_max + 1) * (2LL * cb->h_max + 1);
    long long need = (shell_max + TRACE_THREADS - 1) / TRACE_THREADS;
    if (per_source > need) per_source = need;
    if (per_source < 1) per_source = 1;
    dim3 grid((unsigned)per_source, (unsigned)a.count);
    for (int h = 0; h <= cb->h_max; ++h) {
      asora_shell_kernel<<<grid, TRACE_THREADS, 0, cb->stream>>>(a, h);
      CUDA_CALL(cudaGetLastError(), "launch of the ray-tracing kernel");
    }
  }
  /* plane-parallel sources on top, one launch per face */
  long long n = cb->s.grid.n, columns = n * n;
  for (int p = 0; p < cb->s.n_planes; ++p) {
    struct planar_column_view v;
    v.n_h_cm3 = cb->d_n_h;
    v.x_ion_av = cb->d_x_av;
    v.n = n;
    v.cell_cm = cb->s.grid.cell_cm;
    v.face = cb->s.planes[p].face;
    v.ndot_per_s = planar_column_ndot(cb->s.planes[p].flux_per_cm2_s, cb->s.grid.cell_cm);
    v.tables = a.tables;
    long long blocks = (columns + TRACE_THREADS - 1) / TRACE_THREADS;
    planar_trace_kernel<<<(unsigned)blocks, TRACE_THREADS, 0, cb->stream>>>(
        v, cb->d_gamma, heating ? cb->d_heat : NULL);
    CUDA_CALL(cudaGetLastError(), "launch of the plane-source kernel");
  }
  unsigned long long visited = 0;
  CUDA_CALL(cudaMemcpyAsync(&visited, cb->d_visited, sizeof visited, cudaMemcpyDeviceToHost,
                            cb->stream),
            "ray tracing");
  CUDA_CALL(cudaStreamSynchronize(cb->stream), "ray tracing");
  if (stats) stats->cells_traced = (int64_t)visited + (int64_t)cb->s.n_planes * columns * n;
  return IONF_OK;
}

static ionf_err cuda_chemistry(struct rt_backend *be, double dt_s, int64_t first, int64_t count,
                               struct chem_pass_result *out) {
  struct cuda_backend *cb = cuda_of(be);
  CUDA_CALL(cudaMemsetAsync(cb->d_sums, 0, sizeof(struct chem_sums), cb->stream),
            "clearing the sums");
  long long blocks = (count + CHEM_THREADS - 1) / CHEM_THREADS;
  long long max_blocks = 16LL * cb->sm_count;
  if (blocks > max_blocks) blocks = max_blocks;
  if (blocks < 1) blocks = 1;
  /* hydrogen's update (the only species today): its block of the per-species fields */
  long long h = SPECIES_HI * cb->cells + first;
  chem_pass_kernel<<<(unsigned)blocks, CHEM_THREADS, 0, cb->stream>>>(
      count, dt_s, cb->s.chem, cb->d_n_h + first, cb->d_t + first, cb->d_gamma + h,
      cb->d_x + h, cb->d_x_av + h, cb->d_x_end + h,
      cb->d_t_av ? cb->d_heat + h : NULL, cb->d_t_av ? cb->d_t_av + first : NULL,
      cb->d_t_av ? cb->d_t_end + first : NULL, cb->d_sums);
  CUDA_CALL(cudaGetLastError(), "launch of the chemistry kernel");
  struct chem_sums sums;
  CUDA_CALL(cudaMemcpyAsync(&sums, cb->d_sums, sizeof sums, cudaMemcpyDeviceToHost, cb->stream),
            "chemistry");
  CUDA_CALL(cudaStreamSynchronize(cb->stream), "chemistry");
  out->unconverged_cells = (int64_t)sums.unconverged;
  out->cells_at_max_iter = (int64_t)sums.at_max;
  out->sum_x_end = sums.sum_x;
  out->sum_x_neutral_end = sums.sum_neutral;
  out->sum_x_end_mass = sums.sum_mass;
  out->sum_t_end = sums.sum_t;
  return IONF_OK;
}

static ionf_err cuda_gamma_allreduce(struct rt_backend *be) {
  struct cuda_backend *cb = cuda_of(be);
  long long values = cb->cells * IONF_N_SPECIES; /* every species */
  IONF_CALL(nccl_sum_allreduce(cb->nccl, cb->d_gamma, values, cb->stream));
  if (cb->d_heat && cb->s.tables->heating)
    IONF_CALL(nccl_sum_allreduce(cb->nccl, cb->d_heat, values, cb->stream));
  CUDA_CALL(cudaStreamSynchronize(cb->stream), "NCCL all-reduce");
  return IONF_OK;
}

static ionf_err cuda_read_x_line(struct rt_backend *be, int64_t j, int64_t k, double *out) {
  struct cuda_backend *cb = cuda_of(be);
  size_t n = (size_t)cb->s.grid.n;
  /* x[i][j][k] for all i: a column with a pitch of n^2 doubles */
  const double *x_hii = cb->d_x + (size_t)SPECIES_HI * (size_t)cb->cells;
  CUDA_CALL(cudaMemcpy2D(out, sizeof(double), x_hii + (size_t)j * n + (size_t)k,
                         n * n * sizeof(double), sizeof(double), n, cudaMemcpyDeviceToHost),
            "copy of a line of x_HII");
  return IONF_OK;
}

static void cuda_destroy(struct rt_backend *be) {
  struct cuda_backend *cb = cuda_of(be);
  if (cb) {
    void *all[] = {cb->d_n_h,    cb->d_x,        cb->d_x_av,     cb->d_x_end,   cb->d_t,
                   cb->d_gamma,  cb->d_src_ijk,  cb->d_src_ndot, cb->d_columns, cb->d_sums,
                   cb->d_visited, cb->d_t_av,    cb->d_t_end,    cb->d_heat};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
      if (all[i]) cudaFree(all[i]);
    for (int sp = 0; sp < IONF_N_SPECIES; ++sp) {
      void *tables[] = {cb->d_thick[sp], cb->d_thin[sp], cb->d_heat_thick[sp], cb->d_heat_thin[sp]};
      for (size_t i = 0; i < sizeof tables / sizeof tables[0]; ++i)
        if (tables[i]) cudaFree(tables[i]);
    }
    nccl_sum_destroy(cb->nccl);
    mc_cuda_destroy(cb->mc);
    if (cb->stream) cudaStreamDestroy(cb->stream);
    for (int i = 0; i < cb->n_pinned; ++i) cudaHostUnregister(cb->pinned[i]);
    free(cb);
  }
  free(be);
}

/*
 * Bind this process to the cores nearest its GPU (hwloc), within whatever
 * binding the launcher already gave it; says what it did in `note`.
 */
static void bind_near_device(int device, char *note, size_t size) {
  snprintf(note, size, "cores unchanged");
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return;
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    return;
  }
  hwloc_cpuset_t near = hwloc_bitmap_alloc(), mine = hwloc_bitmap_alloc();
  if (near && mine && hwloc_cudart_get_device_cpuset(topo, device, near) == 0 &&
      hwloc_get_cpubind(topo, mine, HWLOC_CPUBIND_PROCESS) == 0) {
    hwloc_bitmap_and(near, near, mine);
    if (!hwloc_bitmap_iszero(near) && !hwloc_bitmap_isequal(near, mine) &&
        hwloc_set_cpubind(topo, near, HWLOC_CPUBIND_PROCESS) == 0) {
      char *list = NULL;
      hwloc_bitmap_list_asprintf(&list, near);
      snprintf(note, size, "bound to the GPU's cores %s", list ? list : "?");
      free(list);
    } else if (!hwloc_bitmap_iszero(near)) {
      snprintf(note, size, "already on the GPU's cores");
    }
  }
  hwloc_bitmap_free(near);
  hwloc_bitmap_free(mine);
  hwloc_topology_destroy(topo);
}

extern "C" int rt_backend_cuda_device_count(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError(); /* clear the sticky "no device" error */
    return 0;
  }
  return n;
}

extern "C" ionf_err rt_backend_create_cuda(struct rt_backend **out) {
  *out = NULL;
  int count = rt_backend_cuda_device_count();
  if (count == 0)
    return ionf_error_set(IONF_ERR_UNSUPPORTED,
                          "backend 'cuda' asked for, but no CUDA device is visible "
                          "(check CUDA_VISIBLE_DEVICES and nvidia-smi, or use backend: cpu)");
  struct rt_backend *be = (struct rt_backend *)ionf_calloc(1, sizeof *be, "the CUDA backend");
  if (!be) return IONF_ERR_MEM;
  struct cuda_backend *cb =
      (struct cuda_backend *)ionf_calloc(1, sizeof *cb, "the CUDA backend state");
  if (!cb) {
    free(be);
    return IONF_ERR_MEM;
  }
  be->impl = cb;
  be->type_name = "cuda";
  be->ops.setup = cuda_setup;
  be->ops.set_step = cuda_set_step;
  be->ops.set_sources = cuda_set_sources;
  be->ops.upload = cuda_upload;
  be->ops.download = cuda_download;
  be->ops.step_begin = cuda_step_begin;
  be->ops.trace = cuda_trace;
  be->ops.chemistry = cuda_chemistry;
  be->ops.gamma_allreduce = cuda_gamma_allreduce;
  be->ops.step_end = cuda_step_end;
  be->ops.read_x_line = cuda_read_x_line;
  be->ops.destroy = cuda_destroy;
  cb->device = comm_local_rank() % count;
  cudaDeviceProp prop;
  cudaError_t err = cudaSetDevice(cb->device);
  if (err == cudaSuccess) err = cudaGetDeviceProperties(&prop, cb->device);
  if (err == cudaSuccess) err = cudaStreamCreate(&cb->stream);
  if (err != cudaSuccess) {
    ionf_err rc = cuda_fail(err, "device set-up");
    cuda_destroy(be);
    return rc;
  }
  cb->sm_count = prop.multiProcessorCount;
  char binding[160];
  bind_near_device(cb->device, binding, sizeof binding);
  char pci[32];
  snprintf(pci, sizeof pci, "%04x:%02x:%02x.0", prop.pciDomainID, prop.pciBusID,
           prop.pciDeviceID);
  snprintf(be->description, sizeof be->description,
           "CUDA on %s (device %d of %d, PCI %s, %d SMs, %.0f GB; %s)", prop.name, cb->device,
           count, pci, cb->sm_count, (double)prop.totalGlobalMem / 1e9, binding);
  *out = be;
  return IONF_OK;
}

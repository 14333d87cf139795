/**
 * @file sph_trace.cu
 * @brief The particle tracer on the GPU: the same function as
 *        src/sph_trace_cpu.c, from the shared per-ray maths of
 *        src/sph_trace_k.h (this file is compiled with --fmad=false so that
 *        the device rounds the hit tests as the host does: both paths find
 *        the same hits in the same order).
 *
 * A pass runs the rays (all sources x n_rays, source-major, HEALPix NESTED
 * order within a source, one thread per ray) in batches:
 *  1. count: traverse the tree, count each ray's hits;
 *  2. CUB exclusive scan of the counts; the offsets come back to the host,
 *     which cuts the batch into pieces whose hits fit the hit buffers (never
 *     overflowing: a piece is at most `hit_capacity` hits, sized from free GPU
 *     memory);
 *  3. fill: traverse again, write each hit's sph_hit_key (float t, sorted
 *     slot) into its ray's segment;
 *  4. cub::DeviceSegmentedSort::SortKeys (the keys are unique within a ray,
 *     so the order is the CPU's);
 *  5. walk: one thread per ray over its sorted hits, recomputing each hit's
 *     column (cheaper than storing it), accumulating tau, atomicAdd of the
 *     rates into the particles (sorted slots).
 * Finally the rates are scattered back to particle order and copied out.
 *
 * The tree, the sorted particles and the ray directions stay on the device
 * between calls for the same particles/tree (pointers and sizes compared);
 * sph_trace_cuda_release frees everything.
 */
#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

extern "C" {
#include "bvh_build.h"
#include "error.h"
#include "sph_trace.h"
#include "sph_trace_k.h"
#include "sph_trace_prep.h"
}

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#define TRACE_THREADS 128
/* Traversal stacks up to this depth live in registers/local memory; deeper trees
   (chains) get a global-memory stack of height + 2 entries per ray. */
#define TRACE_LOCAL_STACK 64
/* Rays per batch (the count pass's array). */
#define TRACE_BATCH_RAYS ((int64_t)1 << 20)
/* Most hits held at once (keys and values, double-buffered for the sort). */
#define TRACE_MAX_HIT_CAPACITY ((int64_t)1 << 28)

/* ---- errors ------------------------------------------------------------------------ */

static ionf_err trace_cuda_fail(cudaError_t err, const char *what) {
  cudaGetLastError();
  ionf_err code = err == cudaErrorMemoryAllocation ? IONF_ERR_GPU_MEM : IONF_ERR_GPU;
  return ionf_error_set(code, "GPU particle tracer: CUDA %s failed: %s (%s)", what,
                        cudaGetErrorName(err), cudaGetErrorString(err));
}

#define TRACE_CUDA(expr, what)                          \
  do {                                                  \
    cudaError_t trace_cuda_err_ = (expr);               \
    if (trace_cuda_err_ != cudaSuccess) {               \
      ionf_error_trace(__func__, __FILE__, __LINE__);   \
      return trace_cuda_fail(trace_cuda_err_, (what));  \
    }                                                   \
  } while (0)

/* ---- device state kept between calls ---------------------------------------------------- */

/* A device buffer that grows. */
struct dbuf {
  void *p;
  size_t bytes;
};

static ionf_err dbuf_ensure(struct dbuf *b, size_t bytes, const char *what) {
  if (bytes == 0) bytes = 1;
  if (b->bytes >= bytes) return IONF_OK;
  if (b->p) cudaFree(b->p);
  b->p = NULL;
  b->bytes = 0;
  cudaError_t err = cudaMalloc(&b->p, bytes);
  if (err != cudaSuccess) {
    cudaGetLastError();
    b->p = NULL;
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    return ionf_error_set(IONF_ERR_GPU_MEM,
                          "GPU particle tracer: out of GPU memory allocating %.3f GB for %s "
                          "(%.3f GB free of %.3f GB)",
                          (double)bytes / 1e9, what, (double)free_b / 1e9, (double)total_b / 1e9);
  }
  b->bytes = bytes;
  return IONF_OK;
}

static void dbuf_free(struct dbuf *b) {
  if (b->p) cudaFree(b->p);
  b->p = NULL;
  b->bytes = 0;
}

struct trace_state {
  /* which particles/tree the resident copies are of */
  const void *particles_key, *tree_key, *pos_key, *nodes_key, *order_key;
  int64_t n;
  int32_t n_nodes, n_leaves, root;
  int resident;
  /* resident: sorted particles, tree */
  struct dbuf xyzh, nodes, leaves, order;
  /* per call */
  struct dbuf n_h_atoms, x_hii, n_hi, gamma_s, heat_s, gamma_out, heat_out;
  struct dbuf dirs, table, src_pos, src_ndot, photo[4];
  int64_t dirs_nside;
  /* per batch */
  struct dbuf counts, offsets, rel, keys_a, keys_b, temp, gstack;
  int64_t hit_capacity;
  cudaStream_t stream;
};

static struct trace_state g_trace;

/* ---- kernels ----------------------------------------------------------------------- */

/* What the traversal and walk kernels read. */
struct trace_scene {
  const double *xyzh;
  const struct bvh_node *nodes;
  const struct bvh_leaf *leaves;
  int32_t root;
  int32_t n_leaves;
  struct bvh_box root_box;
  const double *dirs;
  const double *src_pos;
  int64_t n_rays;
  double r_max_cm;
  double reach;
  const double *table;
};

static unsigned int blocks_for(int64_t n) {
  return (unsigned int)((n + TRACE_THREADS - 1) / TRACE_THREADS);
}

__device__ static void make_ray(const struct trace_scene &s, int64_t r, struct sph_ray *ray) {
  int64_t src = r / s.n_rays, k = r % s.n_rays;
  sph_ray_make(s.src_pos + 3 * src, s.dirs + 3 * k, s.r_max_cm, ray);
}

/*
 * Depth-first traversal of ray r, left child first (the CPU's order).  WRITE:
 * hits (sph_hit_key) go to keys from `out` on; else only counted.  Returns the count.
 */
template <bool WRITE>
__device__ static int64_t traverse(const struct trace_scene &s, const struct sph_ray &ray,
                                   int32_t *stack, uint64_t *keys, int64_t out) {
  int64_t count = 0;
  const struct bvh_box &rb = s.root_box;
  if (s.n_leaves == 0 ||
      !sph_ray_box(&ray, s.reach, rb.lo[0], rb.hi[0], rb.lo[1], rb.hi[1], rb.lo[2], rb.hi[2]))
    return 0;
  int sp = 0;
  stack[sp++] = s.root;
  while (sp > 0) {
    int32_t ref = stack[--sp];
    if (bvh_ref_is_leaf(ref)) {
      struct bvh_leaf l = s.leaves[bvh_ref_leaf(ref)];
      for (int32_t slot = l.first; slot < l.first + l.count; ++slot) {
        const double *p = s.xyzh + 4 * (int64_t)slot;
        double c[3] = {__ldg(p), __ldg(p + 1), __ldg(p + 2)}, h = __ldg(p + 3);
        double t, q2;
        int inside;
        if (sph_ray_sphere(&ray, c, h, &t, &q2, &inside)) {
          if (WRITE) keys[out + count] = sph_hit_key(t, slot);
          ++count;
        }
      }
      continue;
    }
    struct bvh_node n = s.nodes[ref];
    int hit[2];
    sph_ray_node(&ray, s.reach, &n, hit);
    if (hit[1]) stack[sp++] = n.child[1];
    if (hit[0]) stack[sp++] = n.child[0];
  }
  return count;
}

template <bool WRITE>
__global__ void trace_kernel(struct trace_scene s, int64_t r0, int64_t nb, int64_t *counts,
                             const int64_t *offsets, int64_t base, uint64_t *keys,
                             int32_t *gstack, int stack_stride) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nb) return;
  int32_t local[TRACE_LOCAL_STACK];
  int32_t *stack = gstack ? gstack + (size_t)i * (size_t)stack_stride : local;
  struct sph_ray ray;
  make_ray(s, r0 + i, &ray);
  if (WRITE)
    traverse<true>(s, ray, stack, keys, offsets[i] - base);
  else
    counts[i] = traverse<false>(s, ray, stack, NULL, 0);
}

/* Segment offsets of rays [a, b) relative to the first: rel[k] = offsets[a + k] - offsets[a]. */
__global__ void rel_offsets_kernel(const int64_t *offsets, int64_t a, int64_t m, int64_t *rel) {
  int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k <= m) rel[k] = offsets[a + k] - offsets[a];
}

/* One thread per ray: its sorted hits, tau accumulated, rates credited. */
__global__ void walk_kernel(struct trace_scene s, struct photo_table_view tv, int heating,
                            const double *ndot, int64_t r0, int64_t a, int64_t m,
                            const int64_t *offsets, const uint64_t *keys, const double *n_hi,
                            double *gamma, double *heat) {
  int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  int64_t i = a + k, r = r0 + i;
  struct sph_ray ray;
  make_ray(s, r, &ray);
  double ndot_ray = ndot[r / s.n_rays] / (double)s.n_rays;
  int64_t base = offsets[a];
  double tau = 0.0;
  for (int64_t j = offsets[i] - base; j < offsets[i + 1] - base; ++j) {
    int32_t slot = sph_hit_key_slot(keys[j]);
    const double *p = s.xyzh + 4 * (int64_t)slot;
    double c[3] = {p[0], p[1], p[2]}, h = p[3];
    double t, q2;
    int inside;
    if (!sph_ray_sphere(&ray, c, h, &t, &q2, &inside)) continue; /* cannot happen */
    double col = sph_hit_column_per_atom(s.table, q2, h, inside);
    double tau_out, dheat = 0.0;
    double g = sph_hit_credit(&tv, ndot_ray, tau, n_hi[slot], col, &tau_out,
                              heating ? &dheat : NULL);
    tau = tau_out;
    atomicAdd(&gamma[slot], g);
    if (heating) atomicAdd(&heat[slot], dheat);
  }
}

__global__ void neutral_kernel(const double *n_h_atoms, const double *x_hii, const int32_t *order,
                               int64_t n, double *n_hi) {
  int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n) return;
  int64_t i = order[s];
  n_hi[s] = n_h_atoms[i] * (1.0 - x_hii[i]);
}

__global__ void scatter_kernel(const double *sorted, const int32_t *order, int64_t n,
                               double *out) {
  int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s < n) out[order[s]] = sorted[s];
}

/* ---- host side --------------------------------------------------------------------- */

extern "C" void sph_trace_cuda_release(void) {
  struct trace_state *g = &g_trace;
  struct dbuf *all[] = {&g->xyzh,     &g->nodes,   &g->leaves,  &g->order,    &g->n_h_atoms,
                        &g->x_hii,    &g->n_hi,    &g->gamma_s, &g->heat_s,   &g->gamma_out,
                        &g->heat_out, &g->dirs,    &g->table,   &g->src_pos,  &g->src_ndot,
                        &g->photo[0], &g->photo[1], &g->photo[2], &g->photo[3], &g->counts,
                        &g->offsets,  &g->rel,     &g->keys_a,  &g->keys_b,   &g->temp,    &g->gstack};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k) dbuf_free(all[k]);
  if (g->stream) cudaStreamDestroy(g->stream);
  memset(g, 0, sizeof *g);
}

/* Copy the tree and the sorted particles unless they are the resident ones. */
static ionf_err make_resident(const struct sph_trace_input *in) {
  struct trace_state *g = &g_trace;
  const struct particle_set *p = in->particles;
  const struct bvh *t = in->tree;
  if (g->resident && g->particles_key == p && g->tree_key == t && g->pos_key == p->pos_cm &&
      g->nodes_key == t->nodes && g->order_key == t->order && g->n == p->count &&
      g->n_nodes == t->n_nodes && g->n_leaves == t->n_leaves && g->root == t->root)
    return IONF_OK;
  g->resident = 0;
  int64_t n = p->count;
  std::vector<double> xyzh((size_t)(4 * n));
#pragma omp parallel for schedule(static)
  for (int64_t s = 0; s < n; ++s) {
    int64_t i = t->order[s];
    for (int a = 0; a < 3; ++a) xyzh[(size_t)(4 * s + a)] = p->pos_cm[3 * i + a];
    xyzh[(size_t)(4 * s + 3)] = p->h_cm[i];
  }
  IONF_CALL(dbuf_ensure(&g->xyzh, xyzh.size() * sizeof(double), "sorted particles"));
  IONF_CALL(dbuf_ensure(&g->nodes, (size_t)t->n_nodes * sizeof(struct bvh_node), "tree nodes"));
  IONF_CALL(dbuf_ensure(&g->leaves, (size_t)t->n_leaves * sizeof(struct bvh_leaf), "tree leaves"));
  IONF_CALL(dbuf_ensure(&g->order, (size_t)n * sizeof(int32_t), "sorted order"));
  TRACE_CUDA(cudaMemcpy(g->xyzh.p, xyzh.data(), xyzh.size() * sizeof(double),
                        cudaMemcpyHostToDevice), "copy of the particles");
  if (t->n_nodes > 0)
    TRACE_CUDA(cudaMemcpy(g->nodes.p, t->nodes, (size_t)t->n_nodes * sizeof(struct bvh_node),
                          cudaMemcpyHostToDevice), "copy of the tree nodes");
  if (t->n_leaves > 0)
    TRACE_CUDA(cudaMemcpy(g->leaves.p, t->leaves, (size_t)t->n_leaves * sizeof(struct bvh_leaf),
                          cudaMemcpyHostToDevice), "copy of the tree leaves");
  if (n > 0)
    TRACE_CUDA(cudaMemcpy(g->order.p, t->order, (size_t)n * sizeof(int32_t),
                          cudaMemcpyHostToDevice), "copy of the sorted order");
  g->particles_key = p;
  g->tree_key = t;
  g->pos_key = p->pos_cm;
  g->nodes_key = t->nodes;
  g->order_key = t->order;
  g->n = n;
  g->n_nodes = t->n_nodes;
  g->n_leaves = t->n_leaves;
  g->root = t->root;
  g->resident = 1;
  return IONF_OK;
}

/* Hit buffers and CUB temporary storage for `capacity` hits in up to `segments` rays. */
static ionf_err ensure_hit_buffers(int64_t capacity, int64_t segments) {
  struct trace_state *g = &g_trace;
  IONF_CALL(dbuf_ensure(&g->keys_a, (size_t)capacity * sizeof(uint64_t), "hit keys"));
  IONF_CALL(dbuf_ensure(&g->keys_b, (size_t)capacity * sizeof(uint64_t), "sorted hit keys"));
  size_t sort_bytes = 0, scan_bytes = 0;
  const int64_t *rel = (const int64_t *)g->rel.p;
  TRACE_CUDA(cub::DeviceSegmentedSort::SortKeys(
                 NULL, sort_bytes, (const uint64_t *)g->keys_a.p, (uint64_t *)g->keys_b.p,
                 capacity, segments, rel, rel + 1, g->stream),
             "segmented sort storage query");
  TRACE_CUDA(cub::DeviceScan::ExclusiveSum(NULL, scan_bytes, (const int64_t *)g->counts.p,
                                           (int64_t *)g->offsets.p, TRACE_BATCH_RAYS + 1,
                                           g->stream),
             "scan storage query");
  IONF_CALL(dbuf_ensure(&g->temp, sort_bytes > scan_bytes ? sort_bytes : scan_bytes,
                        "CUB temporary storage"));
  g->hit_capacity = capacity;
  return IONF_OK;
}

/*
 * Size the hit buffers from free memory on the first call (at most
 * TRACE_MAX_HIT_CAPACITY).  The environment variable
 * IONF_SPH_TRACE_HIT_CAPACITY (hits) overrides it, for the test that makes
 * batches split into many pieces.
 */
static ionf_err size_hit_buffers(void) {
  struct trace_state *g = &g_trace;
  const char *env = getenv("IONF_SPH_TRACE_HIT_CAPACITY");
  int64_t forced = env ? strtoll(env, NULL, 10) : 0;
  if (forced > 0 && forced != g->hit_capacity) g->hit_capacity = 0;
  if (g->hit_capacity > 0) return IONF_OK;
  size_t free_b = 0, total_b = 0;
  TRACE_CUDA(cudaMemGetInfo(&free_b, &total_b), "free memory query");
  /* 16 bytes a hit (keys, twice) + sort storage of about as much again */
  int64_t cap = (int64_t)((double)free_b * 0.5 / 32.0);
  if (cap > TRACE_MAX_HIT_CAPACITY) cap = TRACE_MAX_HIT_CAPACITY;
  if (forced > 0) {
    dbuf_free(&g->keys_a);
    dbuf_free(&g->keys_b);
    return ensure_hit_buffers(forced, TRACE_BATCH_RAYS);
  }
  if (cap < ((int64_t)1 << 16)) cap = (int64_t)1 << 16;
  for (;;) {
    ionf_err rc = ensure_hit_buffers(cap, TRACE_BATCH_RAYS);
    if (rc == IONF_OK) return IONF_OK;
    if (rc != IONF_ERR_GPU_MEM || cap <= ((int64_t)1 << 16)) return rc;
    ionf_error_clear();
    dbuf_free(&g->keys_a);
    dbuf_free(&g->keys_b);
    dbuf_free(&g->temp);
    cap /= 2;
  }
}

static ionf_err upload(struct dbuf *b, const void *src, size_t bytes, const char *what) {
  IONF_CALL(dbuf_ensure(b, bytes, what));
  if (bytes) TRACE_CUDA(cudaMemcpyAsync(b->p, src, bytes, cudaMemcpyHostToDevice, g_trace.stream), what);
  return IONF_OK;
}

static ionf_err trace_pass(const struct sph_trace_input *in, struct sph_trace_output *out,
                           const struct sph_trace_prep *prep, int64_t *hits_out) {
  struct trace_state *g = &g_trace;
  const struct bvh *tree = in->tree;
  const struct particle_set *p = in->particles;
  int64_t n = p->count;
  int heating = in->heating && in->tables.heating;
  if (!g->stream)
    TRACE_CUDA(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking), "stream creation");
  IONF_CALL(make_resident(in));
  cudaStream_t st = g->stream;

  /* per-call inputs */
  if (g->dirs_nside != prep->nside) {
    IONF_CALL(upload(&g->dirs, prep->dirs, (size_t)(3 * prep->n_rays) * sizeof(double),
                     "ray directions"));
    g->dirs_nside = prep->nside;
  }
  IONF_CALL(upload(&g->table, prep->column_table, sizeof prep->column_table, "kernel column table"));
  int64_t ns = in->sources.count;
  IONF_CALL(upload(&g->src_pos, in->sources.pos_cm, (size_t)(3 * ns) * sizeof(double),
                   "source positions"));
  IONF_CALL(upload(&g->src_ndot, in->sources.ndot_per_s, (size_t)ns * sizeof(double),
                   "source photon rates"));
  IONF_CALL(upload(&g->n_h_atoms, p->n_h_atoms, (size_t)n * sizeof(double), "hydrogen atoms"));
  IONF_CALL(upload(&g->x_hii, in->x_hii, (size_t)n * sizeof(double), "ionized fractions"));
  IONF_CALL(dbuf_ensure(&g->n_hi, (size_t)n * sizeof(double), "neutral atoms"));
  IONF_CALL(dbuf_ensure(&g->gamma_s, (size_t)n * sizeof(double), "rates"));
  IONF_CALL(dbuf_ensure(&g->gamma_out, (size_t)n * sizeof(double), "rates (particle order)"));
  if (heating) {
    IONF_CALL(dbuf_ensure(&g->heat_s, (size_t)n * sizeof(double), "heating rates"));
    IONF_CALL(dbuf_ensure(&g->heat_out, (size_t)n * sizeof(double), "heating (particle order)"));
  }
  struct photo_table_view tv = in->tables;
  if (!tv.grey) {
    size_t tb = (size_t)(tv.num_tau + 1) * sizeof(double);
    const double *host[4] = {tv.sp[SPECIES_HI].thick, tv.sp[SPECIES_HI].thin, tv.sp[SPECIES_HI].heat_thick, tv.sp[SPECIES_HI].heat_thin};
    for (int k = 0; k < 4; ++k)
      if (host[k]) IONF_CALL(upload(&g->photo[k], host[k], tb, "rate tables"));
    tv.sp[SPECIES_HI].thick = (const double *)g->photo[0].p;
    tv.sp[SPECIES_HI].thin = (const double *)g->photo[1].p;
    tv.sp[SPECIES_HI].heat_thick = tv.sp[SPECIES_HI].heat_thick ? (const double *)g->photo[2].p : NULL;
    tv.sp[SPECIES_HI].heat_thin = tv.sp[SPECIES_HI].heat_thin ? (const double *)g->photo[3].p : NULL;
  }
  if (n > 0) {
    neutral_kernel<<<blocks_for(n), TRACE_THREADS, 0, st>>>(
        (const double *)g->n_h_atoms.p, (const double *)g->x_hii.p, (const int32_t *)g->order.p,
        n, (double *)g->n_hi.p);
    TRACE_CUDA(cudaMemsetAsync(g->gamma_s.p, 0, (size_t)n * sizeof(double), st), "clear");
    if (heating)
      TRACE_CUDA(cudaMemsetAsync(g->heat_s.p, 0, (size_t)n * sizeof(double), st), "clear");
  }

  /* batch buffers */
  IONF_CALL(dbuf_ensure(&g->counts, (size_t)(TRACE_BATCH_RAYS + 1) * sizeof(int64_t), "hit counts"));
  IONF_CALL(dbuf_ensure(&g->offsets, (size_t)(TRACE_BATCH_RAYS + 1) * sizeof(int64_t), "hit offsets"));
  IONF_CALL(dbuf_ensure(&g->rel, (size_t)(TRACE_BATCH_RAYS + 1) * sizeof(int64_t), "segment offsets"));
  IONF_CALL(size_hit_buffers());
  int stack_stride = 0;
  int32_t *gstack = NULL;
  int64_t batch_rays = TRACE_BATCH_RAYS;
  if (tree->height + 2 > TRACE_LOCAL_STACK) {
    /* a deep tree (chains): global stacks, fewer rays per batch to keep them under 1 GiB */
    stack_stride = tree->height + 2;
    int64_t fit = ((int64_t)1 << 28) / stack_stride;
    batch_rays = fit < 1024 ? 1024 : (fit < batch_rays ? fit : batch_rays);
    IONF_CALL(dbuf_ensure(&g->gstack, (size_t)batch_rays * (size_t)stack_stride * sizeof(int32_t),
                          "traversal stacks"));
    gstack = (int32_t *)g->gstack.p;
  }

  struct trace_scene s;
  s.xyzh = (const double *)g->xyzh.p;
  s.nodes = (const struct bvh_node *)g->nodes.p;
  s.leaves = (const struct bvh_leaf *)g->leaves.p;
  s.root = tree->root;
  s.n_leaves = tree->n_leaves;
  s.root_box = tree->root_box;
  s.dirs = (const double *)g->dirs.p;
  s.src_pos = (const double *)g->src_pos.p;
  s.n_rays = prep->n_rays;
  s.r_max_cm = in->r_max_cm;
  s.reach = in->r_max_cm > 0.0 ? in->r_max_cm + prep->h_max_cm : INFINITY;
  s.table = (const double *)g->table.p;

  int64_t total_rays = ns * prep->n_rays, hits = 0;
  std::vector<int64_t> offsets_h((size_t)TRACE_BATCH_RAYS + 1);
  int64_t *counts = (int64_t *)g->counts.p, *offsets = (int64_t *)g->offsets.p;
  for (int64_t r0 = 0; r0 < total_rays && n > 0; r0 += batch_rays) {
    int64_t nb = total_rays - r0 < batch_rays ? total_rays - r0 : batch_rays;
    trace_kernel<false><<<blocks_for(nb), TRACE_THREADS, 0, st>>>(s, r0, nb, counts, NULL, 0, NULL,
                                                                  gstack, stack_stride);
    TRACE_CUDA(cudaGetLastError(), "count kernel launch");
    TRACE_CUDA(cudaMemsetAsync(counts + nb, 0, sizeof(int64_t), st), "clear");
    size_t temp_bytes = g->temp.bytes;
    TRACE_CUDA(cub::DeviceScan::ExclusiveSum(g->temp.p, temp_bytes, counts, offsets, nb + 1, st),
               "scan of the hit counts");
    TRACE_CUDA(cudaMemcpyAsync(offsets_h.data(), offsets, (size_t)(nb + 1) * sizeof(int64_t),
                               cudaMemcpyDeviceToHost, st), "copy of the hit offsets");
    TRACE_CUDA(cudaStreamSynchronize(st), "hit count pass");
    hits += offsets_h[(size_t)nb];
    /* pieces [a, b) of at most hit_capacity hits */
    for (int64_t a = 0; a < nb;) {
      int64_t b = a + 1;
      IONF_CHECK(offsets_h[(size_t)b] - offsets_h[(size_t)a] <= g->hit_capacity, IONF_ERR_GPU_MEM,
                 "GPU particle tracer: one ray has %lld hits, more than the %lld the hit buffers "
                 "hold", (long long)(offsets_h[(size_t)b] - offsets_h[(size_t)a]),
                 (long long)g->hit_capacity);
      while (b < nb && offsets_h[(size_t)b + 1] - offsets_h[(size_t)a] <= g->hit_capacity) ++b;
      int64_t m = b - a, piece_hits = offsets_h[(size_t)b] - offsets_h[(size_t)a];
      if (piece_hits > 0) {
        int64_t base = offsets_h[(size_t)a];
        /* fill: rays [a, b) of the batch, hit offsets relative to the piece */
        trace_kernel<true><<<blocks_for(m), TRACE_THREADS, 0, st>>>(
            s, r0 + a, m, NULL, offsets + a, base, (uint64_t *)g->keys_a.p, gstack, stack_stride);
        TRACE_CUDA(cudaGetLastError(), "fill kernel launch");
        int64_t *rel = (int64_t *)g->rel.p;
        rel_offsets_kernel<<<blocks_for(m + 1), TRACE_THREADS, 0, st>>>(offsets, a, m, rel);
        temp_bytes = g->temp.bytes;
        size_t need = 0;
        TRACE_CUDA(cub::DeviceSegmentedSort::SortKeys(
                       NULL, need, (const uint64_t *)g->keys_a.p, (uint64_t *)g->keys_b.p,
                       piece_hits, m, rel, rel + 1, st),
                   "segmented sort storage query");
        if (need > temp_bytes) {
          TRACE_CUDA(cudaStreamSynchronize(st), "sync before growing the sort storage");
          IONF_CALL(dbuf_ensure(&g->temp, need, "CUB temporary storage"));
          temp_bytes = g->temp.bytes;
        }
        TRACE_CUDA(cub::DeviceSegmentedSort::SortKeys(
                       g->temp.p, temp_bytes, (const uint64_t *)g->keys_a.p, (uint64_t *)g->keys_b.p,
                       piece_hits, m, rel, rel + 1, st),
                   "segmented sort of the hits");
        /* walk: offsets relative to the piece's first ray: walk_kernel subtracts offsets[a] */
        walk_kernel<<<blocks_for(m), TRACE_THREADS, 0, st>>>(
            s, tv, heating, (const double *)g->src_ndot.p, r0, a, m, offsets,
            (const uint64_t *)g->keys_b.p, (const double *)g->n_hi.p, (double *)g->gamma_s.p,
            (double *)g->heat_s.p);
        TRACE_CUDA(cudaGetLastError(), "walk kernel launch");
      }
      a = b;
    }
  }
  if (n > 0) {
    scatter_kernel<<<blocks_for(n), TRACE_THREADS, 0, st>>>(
        (const double *)g->gamma_s.p, (const int32_t *)g->order.p, n, (double *)g->gamma_out.p);
    TRACE_CUDA(cudaMemcpyAsync(out->gamma_hi_per_s, g->gamma_out.p, (size_t)n * sizeof(double),
                               cudaMemcpyDeviceToHost, st), "copy of the rates");
    if (heating) {
      scatter_kernel<<<blocks_for(n), TRACE_THREADS, 0, st>>>(
          (const double *)g->heat_s.p, (const int32_t *)g->order.p, n, (double *)g->heat_out.p);
      TRACE_CUDA(cudaMemcpyAsync(out->heating_erg_per_s, g->heat_out.p, (size_t)n * sizeof(double),
                                 cudaMemcpyDeviceToHost, st), "copy of the heating rates");
    }
    TRACE_CUDA(cudaStreamSynchronize(st), "tracing pass");
    if (in->heating && !heating) memset(out->heating_erg_per_s, 0, (size_t)n * sizeof(double));
  }
  *hits_out = hits;
  return IONF_OK;
}

extern "C" ionf_err sph_trace_cuda(const struct sph_trace_input *in, struct sph_trace_output *out,
                                   struct sph_trace_stats *stats) {
  double t0 = omp_get_wtime();
  IONF_CHECK(bvh_cuda_device_count() > 0, IONF_ERR_UNSUPPORTED,
             "sph_trace_cuda: no CUDA device found");
  struct sph_trace_prep prep;
  IONF_CALL(sph_trace_prepare(in, out, 0, &prep));
  int64_t hits = 0;
  ionf_err rc = trace_pass(in, out, &prep, &hits);
  sph_trace_prep_free(&prep);
  if (rc != IONF_OK) {
    ionf_error_trace(__func__, __FILE__, __LINE__);
    return rc;
  }
  if (stats) {
    stats->rays = in->sources.count * in->n_rays;
    stats->hits = hits;
    stats->seconds = omp_get_wtime() - t0;
  }
  return IONF_OK;
}

/**
 * @file sph_trace_thread.cu
 * @brief The particle tracer's GPU schedule with independent rays: one thread
 *        per ray (grace's "individual" traversal).  Used for trees deeper than
 *        the warp schedule's stack (gpu/sph_trace_warp.cu) and on request
 *        (tuning.schedule THREAD), and kept to measure the two against
 *        each other (benchmarks/RESULTS.md).
 *
 * The rays run in batches:
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
 */
#include "gpu/particles/sph_trace_gpu.h"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <math.h>
#include <stdlib.h>

/* Traversal stacks up to this depth live in registers/local memory; deeper trees
   (chains) get a global-memory stack of height + 2 entries per ray. */
#define TRACE_LOCAL_STACK 64
/* Rays per batch (the count pass's array). */
#define TRACE_BATCH_RAYS ((int64_t)1 << 20)
/* Most hits held at once (keys, double-buffered for the sort). */
#define TRACE_MAX_HIT_CAPACITY ((int64_t)1 << 28)

/* ---- kernels ---------------------------------------------------------------------- */

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
  struct sph_ray primary, ray;
  trace_make_ray(s, r0 + i, &primary);
  struct sph_periodic_range range;
  int64_t n_images = trace_image_range(s, primary, &range), count = 0;
  for (int64_t k = 0; k < n_images; ++k) { /* periodic: every image offset of the box */
    trace_image_ray(s, primary, range, k, &ray);
    count += traverse<WRITE>(s, ray, stack, keys, WRITE ? offsets[i] - base + count : 0);
  }
  if (!WRITE) counts[i] = count;
}

/* Segment offsets of rays [a, b) relative to the first: rel[k] = offsets[a + k] - offsets[a]. */
__global__ void rel_offsets_kernel(const int64_t *offsets, int64_t a, int64_t m, int64_t *rel) {
  int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k <= m) rel[k] = offsets[a + k] - offsets[a];
}

/* One thread per ray: its sorted hits, tau accumulated, rates credited. */
__global__ void walk_kernel(struct trace_scene s, struct trace_walk w, int64_t r0, int64_t a,
                            int64_t m, const int64_t *offsets, const uint64_t *keys) {
  int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  int64_t i = a + k, r = r0 + i;
  struct sph_ray ray;
  trace_make_ray(s, r, &ray);
  double ndot_ray = w.ndot[r / s.n_rays] / (double)s.n_rays_source;
  int64_t base = offsets[a];
  struct sph_tau tau = {0.0, 0.0};
  for (int64_t j = offsets[i] - base; j < offsets[i + 1] - base; ++j) {
    int32_t slot = sph_hit_key_slot(keys[j]);
    double col = trace_hit_column(s, ray, keys[j]);
    double dheat = 0.0;
    double g = sph_hit_credit(&w.tv, ndot_ray, sph_tau_value(tau), w.n_hi[slot], col,
                              w.heating ? &dheat : NULL);
    sph_tau_add(&tau, sph_hit_dtau(&w.tv, w.n_hi[slot], col));
    atomicAdd(&w.gamma[slot], g);
    if (w.heating) atomicAdd(&w.heat[slot], dheat);
  }
}

/* With helium: one thread per ray, the three columns carried (sph_hit_credit_he). */
__global__ void walk_he_kernel(struct trace_scene s, struct trace_walk w, int64_t r0, int64_t a,
                               int64_t m, const int64_t *offsets, const uint64_t *keys) {
  int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  int64_t i = a + k, r = r0 + i;
  struct sph_ray ray;
  trace_make_ray(s, r, &ray);
  double ndot_ray = w.ndot[r / s.n_rays] / (double)s.n_rays_source;
  int64_t base = offsets[a];
  struct sph_columns cols = {};
  for (int64_t j = offsets[i] - base; j < offsets[i + 1] - base; ++j) {
    int32_t slot = sph_hit_key_slot(keys[j]);
    double col = trace_hit_column(s, ray, keys[j]);
    struct sph_absorbers ab = w.absorbers[slot];
    double col_in[BANDS_N_ABSORBERS], g[BANDS_N_ABSORBERS], dheat[BANDS_N_ABSORBERS];
    sph_columns_value(&cols, col_in);
    sph_hit_credit_he(&w.bands, ndot_ray, col_in, &ab, col, g, w.heating ? dheat : NULL);
    sph_columns_add(&cols, &ab, col);
    for (int sp = 0; sp < BANDS_N_ABSORBERS; ++sp) {
      atomicAdd(&w.gamma[sp * w.n + slot], g[sp]);
      if (w.heating) atomicAdd(&w.heat[sp * w.n + slot], dheat[sp]);
    }
  }
}

/* ---- host side --------------------------------------------------------------------- */

/* Hit buffers and CUB temporary storage for `capacity` hits in up to `segments` rays. */
static ionf_err ensure_hit_buffers(struct thread_rays_state *g, cudaStream_t st,
                                   int64_t capacity, int64_t segments) {
    IONF_CALL(dbuf_ensure(&g->keys_a, (size_t)capacity * sizeof(uint64_t), "hit keys"));
  IONF_CALL(dbuf_ensure(&g->keys_b, (size_t)capacity * sizeof(uint64_t), "sorted hit keys"));
  size_t sort_bytes = 0, scan_bytes = 0;
  const int64_t *rel = (const int64_t *)g->rel.p;
  TRACE_CUDA(cub::DeviceSegmentedSort::SortKeys(
                 NULL, sort_bytes, (const uint64_t *)g->keys_a.p, (uint64_t *)g->keys_b.p,
                 capacity, segments, rel, rel + 1, st),
             "segmented sort storage query");
  TRACE_CUDA(cub::DeviceScan::ExclusiveSum(NULL, scan_bytes, (const int64_t *)g->counts.p,
                                           (int64_t *)g->offsets.p, TRACE_BATCH_RAYS + 1,
                                           st),
             "scan storage query");
  IONF_CALL(dbuf_ensure(&g->temp, sort_bytes > scan_bytes ? sort_bytes : scan_bytes,
                        "CUB temporary storage"));
  g->hit_capacity = capacity;
  return IONF_OK;
}

/*
 * Size the hit buffers from free memory on the first call (at most
 * TRACE_MAX_HIT_CAPACITY).  `forced` > 0 (tuning.hit_capacity, hits)
 * overrides it, for the test that makes batches split into many pieces.
 */
static ionf_err size_hit_buffers(struct thread_rays_state *g, cudaStream_t st, int64_t forced) {
  IONF_CHECK(forced >= 0, IONF_ERR_CONFIG,
             "GPU particle tracer: tuning.hit_capacity = %lld: give a number of hits >= 1 "
             "(0: sized from free GPU memory)", (long long)forced);
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
    return ensure_hit_buffers(g, st, forced, TRACE_BATCH_RAYS);
  }
  if (cap < ((int64_t)1 << 16)) cap = (int64_t)1 << 16;
  for (;;) {
    ionf_err rc = ensure_hit_buffers(g, st, cap, TRACE_BATCH_RAYS);
    if (rc == IONF_OK) return IONF_OK;
    if (rc != IONF_ERR_GPU_MEM || cap <= ((int64_t)1 << 16)) return rc;
    ionf_error_clear();
    dbuf_free(&g->keys_a);
    dbuf_free(&g->keys_b);
    dbuf_free(&g->temp);
    cap /= 2;
  }
}

ionf_err sph_trace_thread_rays(const struct trace_scene *s, const struct trace_walk *w,
                              int64_t total_rays, int64_t hit_capacity, cudaStream_t st,
                              struct thread_rays_state *g, int64_t *hits) {
  IONF_CALL(dbuf_ensure(&g->counts, (size_t)(TRACE_BATCH_RAYS + 1) * sizeof(int64_t), "hit counts"));
  IONF_CALL(dbuf_ensure(&g->offsets, (size_t)(TRACE_BATCH_RAYS + 1) * sizeof(int64_t), "hit offsets"));
  IONF_CALL(dbuf_ensure(&g->rel, (size_t)(TRACE_BATCH_RAYS + 1) * sizeof(int64_t), "segment offsets"));
  if (!g->offsets_host)
    TRACE_CUDA(cudaMallocHost((void **)&g->offsets_host,
                              (size_t)(TRACE_BATCH_RAYS + 1) * sizeof(int64_t)),
               "pinned hit offsets");
  IONF_CALL(size_hit_buffers(g, st, hit_capacity));
  int stack_stride = 0;
  int32_t *gstack = NULL;
  int64_t batch_rays = TRACE_BATCH_RAYS;
  if (s->height + 2 > TRACE_LOCAL_STACK) {
    /* a deep tree (chains): global stacks, fewer rays per batch to keep them under 1 GiB */
    stack_stride = s->height + 2;
    int64_t fit = ((int64_t)1 << 28) / stack_stride;
    batch_rays = fit < 1024 ? 1024 : (fit < batch_rays ? fit : batch_rays);
    IONF_CALL(dbuf_ensure(&g->gstack, (size_t)batch_rays * (size_t)stack_stride * sizeof(int32_t),
                          "traversal stacks"));
    gstack = (int32_t *)g->gstack.p;
  }

  int64_t *offsets_h = g->offsets_host;
  *hits = 0;
  int64_t *counts = (int64_t *)g->counts.p, *offsets = (int64_t *)g->offsets.p;
  for (int64_t r0 = 0; r0 < total_rays; r0 += batch_rays) {
    int64_t nb = total_rays - r0 < batch_rays ? total_rays - r0 : batch_rays;
    trace_kernel<false><<<trace_blocks_for(nb), TRACE_THREADS, 0, st>>>(*s, r0, nb, counts, NULL, 0, NULL,
                                                                  gstack, stack_stride);
    TRACE_CUDA(cudaGetLastError(), "count kernel launch");
    TRACE_CUDA(cudaMemsetAsync(counts + nb, 0, sizeof(int64_t), st), "clear");
    size_t temp_bytes = g->temp.bytes;
    TRACE_CUDA(cub::DeviceScan::ExclusiveSum(g->temp.p, temp_bytes, counts, offsets, nb + 1, st),
               "scan of the hit counts");
    TRACE_CUDA(cudaMemcpyAsync(offsets_h, offsets, (size_t)(nb + 1) * sizeof(int64_t),
                               cudaMemcpyDeviceToHost, st), "copy of the hit offsets");
    TRACE_CUDA(cudaStreamSynchronize(st), "hit count pass");
    *hits += offsets_h[nb];
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
        trace_kernel<true><<<trace_blocks_for(m), TRACE_THREADS, 0, st>>>(
            *s, r0 + a, m, NULL, offsets + a, base, (uint64_t *)g->keys_a.p, gstack, stack_stride);
        TRACE_CUDA(cudaGetLastError(), "fill kernel launch");
        int64_t *rel = (int64_t *)g->rel.p;
        rel_offsets_kernel<<<trace_blocks_for(m + 1), TRACE_THREADS, 0, st>>>(offsets, a, m, rel);
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
        if (w->n_species == 3)
          walk_he_kernel<<<trace_blocks_for(m), TRACE_THREADS, 0, st>>>(
              *s, *w, r0, a, m, offsets, (const uint64_t *)g->keys_b.p);
        else
          walk_kernel<<<trace_blocks_for(m), TRACE_THREADS, 0, st>>>(
              *s, *w, r0, a, m, offsets, (const uint64_t *)g->keys_b.p);
        TRACE_CUDA(cudaGetLastError(), "walk kernel launch");
      }
      a = b;
    }
  }
  return IONF_OK;
}

void sph_trace_thread_rays_free(struct thread_rays_state *g) {
  struct dbuf *all[] = {&g->counts, &g->offsets, &g->rel, &g->keys_a, &g->keys_b, &g->temp,
                        &g->gstack};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k) dbuf_free(all[k]);
  if (g->offsets_host) cudaFreeHost(g->offsets_host);
  g->offsets_host = NULL;
  g->hit_capacity = 0;
}

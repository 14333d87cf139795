/**
 * @file sph_trace_warp.cu
 * @brief The particle tracer's default GPU schedule: one warp per ray.
 *
 * Why: a ray crosses ~10^2-10^3 kernel spheres, and its hits must be walked in
 * distance order.  One thread per ray (gpu/sph_trace_thread.cu) walks the tree
 * twice and sorts the hits through global memory.  Here the 32 lanes share one
 * ray: each traversal step pops up to 32 nodes (one per lane) from a stack in
 * shared memory, a leaf's (up to 32) particles are tested one per lane with
 * coalesced loads, the hits' sph_hit_keys go to the warp's buffer in shared
 * memory, a bitonic sort orders them, a warp scan gives each lane the optical
 * depth at the start of its run of hits, and the lanes credit their hits.
 *
 * Windows: the buffer holds 512 hits (WARP_DEFAULT_KEYS), so a ray is cut into windows of
 * closest-approach distance [fa, fb) (float bounds, membership by float(t):
 * the key's own rounding, so a hit lies in exactly one window and the walk
 * order is the global key order, the CPU's).  Each window is traversed from
 * the root with the slab tests limited to [fa - h_max, fb + h_max]; its length
 * adapts to the hit density seen (aiming at half the buffer); a window that
 * overflows is halved and traversed again.  The optical depth carries from
 * one window to the next.
 *
 * Rays are handed out by an atomic counter (persistent blocks), in the
 * source-major HEALPix NESTED order, so neighbouring warps trace neighbouring
 * rays through the same nodes and particles (L1/L2 reuse).
 */
#include "sph_trace_gpu.h"

#include <math.h>
#include <stdlib.h>

#define WARP_RAYS_PER_BLOCK (TRACE_THREADS / 32)
#define WARP_KEYS 1024             /* the largest window buffer (8 KiB of keys per warp) */
#define WARP_DEFAULT_KEYS 512      /* the buffer unless IONF_SPH_TRACE_WINDOW_HITS says (measured:
                                      512 with 8 blocks/SM beats 256 and 1024, RESULTS.md) */
#define WARP_DEFAULT_MIN_BLOCKS 8  /* launch bound unless IONF_SPH_TRACE_MIN_BLOCKS says: 64
                                      registers, 32 warps per SM, some spills (measured) */
#define WARP_STACK 512             /* traversal stack entries per warp */
/* Above this depth the warp pops one node at a time (depth-first), which adds at
   most height + 1 entries: the stack never overflows for height <= MAX_HEIGHT. */
#define WARP_STACK_SOFT (WARP_STACK - 32 - (WARP_RAYS_MAX_HEIGHT + 2))
#define FULL_MASK 0xffffffffu
/* Windows one ray may take (the smallest buffer, 2 hits, needs ~1 per hit) */
#define WARP_MAX_WINDOWS (1L << 22)

enum { CTR_NEXT_RAY = 0, CTR_HITS = 1, CTR_TOO_DENSE = 2, CTR_COUNT = 3 };

/* A sorted particle's x, y, z, h: two 16-byte read-only loads. */
__device__ static inline void load_xyzh(const double *xyzh, int32_t slot, double *c, double *h) {
  const double2 *q = (const double2 *)xyzh + 2 * (int64_t)slot;
  double2 a = __ldg(q), b = __ldg(q + 1);
  c[0] = a.x;
  c[1] = a.y;
  c[2] = b.x;
  *h = b.y;
}

template <int KEYS>
struct warp_shared {
  uint64_t keys[KEYS];
  int32_t stack[WARP_STACK];
};

/*
 * The window's hits into m.keys; returns how many there are (stops early, with
 * a count > cap, once they do not fit).  Uniform across the warp.
 */
template <int KEYS>
__device__ static int window_hits(const struct trace_scene &s, const struct sph_ray &primary,
                                  const struct sph_periodic_range &range, int64_t n_images,
                                  float fa, float fb, int cap, struct warp_shared<KEYS> &m,
                                  int lane) {
  double fa_d = (double)fa, fb_d = (double)fb;
  /* float(t) >= fa implies t >= fa - ulp(fa)/2: the margin 2^-23 |fa| covers it */
  double lo = isinf(fa_d) ? 0.0 : fmax(0.0, fa_d - s.h_max_cm - fabs(fa_d) * 1.2e-7);
  double hi = isinf(fb_d) ? s.reach : fmin(s.reach, fb_d + s.h_max_cm + fabs(fb_d) * 1.2e-7);
  unsigned below = (1u << lane) - 1u;
  int n = 0;
  for (int64_t image = 0; image < n_images && n <= cap; ++image) {
    struct sph_ray ray;
    trace_image_ray(s, primary, range, image, &ray);
    const struct bvh_box &rb = s.root_box;
    if (s.periodic && !sph_ray_box_range(&ray, lo, hi, rb.lo[0], rb.hi[0], rb.lo[1], rb.hi[1],
                                         rb.lo[2], rb.hi[2]))
      continue; /* this image of the box is off the window */
    int sp = 1;
    if (lane == 0) m.stack[0] = s.root;
    __syncwarp();
    while (sp > 0) {
      int k = sp >= WARP_STACK_SOFT ? 1 : (sp < 32 ? sp : 32);
      int32_t ref = lane < k ? m.stack[sp - 1 - lane] : 0;
      __syncwarp();
      sp -= k;
      int active = lane < k, leaf = active && bvh_ref_is_leaf(ref);
      int hit[2] = {0, 0};
      int32_t child[2] = {0, 0};
      if (active && !leaf) {
        struct bvh_node nd = s.nodes[ref];
        sph_ray_node_range(&ray, lo, hi, &nd, hit);
        child[0] = nd.child[0];
        child[1] = nd.child[1];
      }
      unsigned b1 = __ballot_sync(FULL_MASK, hit[1]), b0 = __ballot_sync(FULL_MASK, hit[0]);
      int n1 = __popc(b1);
      if (hit[1]) m.stack[sp + __popc(b1 & below)] = child[1];
      if (hit[0]) m.stack[sp + n1 + __popc(b0 & below)] = child[0];
      sp += n1 + __popc(b0);
      unsigned leaves = __ballot_sync(FULL_MASK, leaf);
      while (leaves) {
        int owner = __ffs(leaves) - 1;
        leaves &= leaves - 1u;
        struct bvh_leaf l = s.leaves[bvh_ref_leaf(__shfl_sync(FULL_MASK, ref, owner))];
        for (int base = 0; base < l.count; base += 32) {
          int is_hit = 0;
          uint64_t key = 0;
          if (base + lane < l.count) {
            int32_t slot = l.first + base + lane;
            double c[3], h, t, q2;
            int inside;
            load_xyzh(s.xyzh, slot, c, &h);
            if (sph_ray_sphere(&ray, c, h, &t, &q2, &inside)) {
              float ft = (float)t;
              if (ft >= fa && ft < fb) {
                is_hit = 1;
                key = sph_hit_key(t, slot);
              }
            }
          }
          unsigned hm = __ballot_sync(FULL_MASK, is_hit);
          if (is_hit) {
            int pos = n + __popc(hm & below);
            if (pos < cap) m.keys[pos] = key;
          }
          n += __popc(hm);
        }
      }
      __syncwarp();
      if (n > cap) break; /* the window is cut and traversed again */
    }
    __syncwarp();
  }
  return n;
}

/* Bitonic sort of keys[0, n) in shared memory, padded to a power of two. */
__device__ static void window_sort(uint64_t *keys, int n, int lane) {
  int p = 1;
  while (p < n) p <<= 1;
  for (int i = n + lane; i < p; i += 32) keys[i] = ~(uint64_t)0;
  __syncwarp();
  for (int k = 2; k <= p; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = lane; i < p / 2; i += 32) {
        int a = 2 * i - (i & (j - 1)), b = a + j;
        uint64_t x = keys[a], y = keys[b];
        if ((x > y) == ((a & k) == 0)) {
          keys[a] = y;
          keys[b] = x;
        }
      }
      __syncwarp();
    }
  }
}

/* The warp's values of a sum from lane `from` (d lanes down) / broadcast. */
__device__ static inline struct sph_tau tau_shfl_up(struct sph_tau a, int d) {
  struct sph_tau b = {__shfl_up_sync(FULL_MASK, a.hi, d), __shfl_up_sync(FULL_MASK, a.lo, d)};
  return b;
}

__device__ static inline struct sph_tau tau_shfl(struct sph_tau a, int lane) {
  struct sph_tau b = {__shfl_sync(FULL_MASK, a.hi, lane), __shfl_sync(FULL_MASK, a.lo, lane)};
  return b;
}

/*
 * Credit the window's n sorted hits: lane L walks hits [L * per, (L + 1) * per)
 * from the optical depth before them (tau_start plus a warp scan of the runs'
 * optical depths, all as struct sph_tau sums, so the grouping does not change
 * the result: see sph_trace_k.h).  Returns the optical depth after the window.
 */
__device__ static struct sph_tau window_walk(const struct trace_scene &s,
                                             const struct trace_walk &w,
                                             const struct sph_ray &ray, double ndot_ray,
                                             struct sph_tau tau_start, const uint64_t *keys,
                                             int n, int lane) {
  int per = (n + 31) / 32, j0 = lane * per, j1 = j0 + per < n ? j0 + per : n;
  struct sph_tau run = {0.0, 0.0};
  for (int j = j0; j < j1; ++j) {
    int32_t slot = sph_hit_key_slot(keys[j]);
    sph_tau_add(&run, sph_hit_dtau(&w.tv, w.n_hi[slot], trace_hit_column(s, ray, keys[j])));
  }
  struct sph_tau incl = run; /* inclusive scan over lanes */
  for (int d = 1; d < 32; d <<= 1) {
    struct sph_tau up = tau_shfl_up(incl, d);
    if (lane >= d) {
      sph_tau_merge(&up, incl); /* lower lanes first: the hits' order */
      incl = up;
    }
  }
  struct sph_tau before = tau_shfl_up(incl, 1), tau = tau_start;
  if (lane > 0) sph_tau_merge(&tau, before);
  for (int j = j0; j < j1; ++j) {
    int32_t slot = sph_hit_key_slot(keys[j]);
    double col = trace_hit_column(s, ray, keys[j]), dheat = 0.0;
    double g = sph_hit_credit(&w.tv, ndot_ray, sph_tau_value(tau), w.n_hi[slot], col,
                              w.heating ? &dheat : NULL);
    sph_tau_add(&tau, sph_hit_dtau(&w.tv, w.n_hi[slot], col));
    atomicAdd(&w.gamma[slot], g);
    if (w.heating) atomicAdd(&w.heat[slot], dheat);
  }
  struct sph_tau after = tau_start;
  sph_tau_merge(&after, tau_shfl(incl, 31));
  return after;
}

/*
 * Where a ray's closest approaches can lie: [t_in, t_out] of the line through
 * the root box (a hit's closest approach is inside its sphere, inside the
 * box), cut at t_max.  0 when the ray has no hits.
 */
__device__ static int ray_extent(const struct trace_scene &s, const struct sph_ray &ray,
                                 double *t_in, double *t_out) {
  if (s.periodic) { /* every image: only r_max (finite for periodic sets) bounds t */
    *t_in = -s.h_max_cm;
    *t_out = ray.t_max;
    return s.n_leaves > 0;
  }
  double a = -INFINITY, b = INFINITY;
  for (int ax = 0; ax < 3; ++ax) {
    double t0 = (s.root_box.lo[ax] - ray.o[ax]) * ray.inv_d[ax];
    double t1 = (s.root_box.hi[ax] - ray.o[ax]) * ray.inv_d[ax];
    a = sph_max(a, sph_min(t0, t1));
    b = sph_min(b, sph_max(t0, t1));
  }
  b = sph_min(b, ray.t_max);
  *t_in = sph_max(a, -s.h_max_cm); /* t < -h_max: no sphere holds the source that far behind */
  *t_out = b;
  return s.n_leaves > 0 && a <= b && b >= -s.h_max_cm;
}

template <int KEYS, int MIN_BLOCKS>
__global__ void __launch_bounds__(TRACE_THREADS, MIN_BLOCKS)
    warp_rays_kernel(struct trace_scene s, struct trace_walk w, int64_t total_rays, int cap,
                     unsigned long long *ctr) {
  __shared__ struct warp_shared<KEYS> shared[WARP_RAYS_PER_BLOCK];
  int lane = threadIdx.x & 31;
  struct warp_shared<KEYS> &m = shared[threadIdx.x / 32];
  double len = 4.0 * s.h_max_cm; /* window length; adapted to the hit density */
  unsigned long long my_hits = 0;
  for (;;) {
    unsigned long long r = 0;
    if (lane == 0) r = atomicAdd(&ctr[CTR_NEXT_RAY], 1ull);
    r = __shfl_sync(FULL_MASK, r, 0);
    if (r >= (unsigned long long)total_rays) break;
    struct sph_ray ray;
    trace_make_ray(s, (int64_t)r, &ray);
    double t_in, t_out;
    if (!ray_extent(s, ray, &t_in, &t_out)) continue;
    struct sph_periodic_range range;
    int64_t n_images = trace_image_range(s, ray, &range);
    double ndot_ray = w.ndot[(int64_t)r / s.n_rays] / (double)s.n_rays;
    struct sph_tau tau = {0.0, 0.0};
    float fa = __double2float_rd(t_in);
    /* after an overflowing last window, the next window ends at a finite fb: a
       last window re-cut from fa >= t_out (float rounding) would never shrink */
    int allow_last = 1;
    for (long windows = 0;; ++windows) {
      if (windows > WARP_MAX_WINDOWS) { /* a safety net: never spin on one ray */
        if (lane == 0) atomicExch(&ctr[CTR_TOO_DENSE], 1ull);
        break;
      }
      double end = (double)fa + len;
      int last = allow_last && end >= t_out;
      float fb = last ? INFINITY : __double2float_rn(end);
      if (!(fb > fa)) fb = nextafterf(fa, INFINITY);
      int n = window_hits(s, ray, range, n_images, fa, fb, cap, m, lane);
      double ulp = (double)nextafterf(fa, INFINITY) - (double)fa;
      double used = last ? fmax(t_out - (double)fa, ulp) : (double)fb - (double)fa;
      if (n > cap) {
        if (fb == nextafterf(fa, INFINITY)) { /* more hits at one float distance than fit */
          if (lane == 0) atomicExch(&ctr[CTR_TOO_DENSE], 1ull);
          break;
        }
        len = 0.4 * used * (double)cap / (double)n;
        allow_last = 0;
        continue;
      }
      allow_last = 1;
      if (n > 0) {
        window_sort(m.keys, n, lane);
        tau = window_walk(s, w, ray, ndot_ray, tau, m.keys, n, lane);
        __syncwarp();
      }
      my_hits += (unsigned long long)n;
      /* aim at half the buffer: grow up to 4x after a sparse window, shrink at most 2x */
      double grow = 0.5 * (double)cap / (double)(n > 1 ? n : 1);
      len = used * fmin(4.0, fmax(0.5, grow));
      if (last) break;
      fa = fb;
    }
  }
  if (lane == 0 && my_hits) atomicAdd(&ctr[CTR_HITS], my_hits);
}

ionf_err sph_trace_warp_rays(const struct trace_scene *s, const struct trace_walk *w,
                             int64_t total_rays, cudaStream_t st, struct warp_rays_state *g,
                             int64_t *hits, int *too_dense) {
  *hits = 0;
  *too_dense = 0;
  IONF_CHECK(s->height <= WARP_RAYS_MAX_HEIGHT, IONF_ERR_INTERNAL,
             "GPU particle tracer: tree height %d exceeds the warp schedule's %d",
             (int)s->height, WARP_RAYS_MAX_HEIGHT);
  if (total_rays <= 0) return IONF_OK;
  /* IONF_SPH_TRACE_WINDOW_HITS (2 .. WARP_KEYS): the window buffer's hits (default
     WARP_DEFAULT_KEYS); small values force many windows in the tests */
  const char *env = getenv("IONF_SPH_TRACE_WINDOW_HITS");
  int cap = WARP_DEFAULT_KEYS;
  if (env && *env) {
    long v = strtol(env, NULL, 10);
    IONF_CHECK(v >= 2 && v <= WARP_KEYS, IONF_ERR_CONFIG,
               "environment IONF_SPH_TRACE_WINDOW_HITS = '%s': give 2 .. %d", env, WARP_KEYS);
    cap = (int)v;
  }
  /* IONF_SPH_TRACE_MIN_BLOCKS (1, 6, 8): blocks per SM the compiler must fit (fewer
     registers, some spilled), for measuring occupancy against spills */
  const char *env_mb = getenv("IONF_SPH_TRACE_MIN_BLOCKS");
  int min_blocks = WARP_DEFAULT_MIN_BLOCKS;
  if (env_mb && *env_mb) {
    min_blocks = (int)strtol(env_mb, NULL, 10);
    IONF_CHECK(min_blocks == 1 || min_blocks == 6 || min_blocks == 8, IONF_ERR_CONFIG,
               "environment IONF_SPH_TRACE_MIN_BLOCKS = '%s': give 1, 6 or 8", env_mb);
  }
  /* the smallest buffer that holds cap keys (less shared memory per warp) */
  int keys = cap <= 256 ? 256 : (cap <= 512 ? 512 : 1024);
  typedef void (*warp_kernel)(struct trace_scene, struct trace_walk, int64_t, int,
                              unsigned long long *);
  static const warp_kernel kernels[3][3] = {
      {warp_rays_kernel<256, 1>, warp_rays_kernel<256, 6>, warp_rays_kernel<256, 8>},
      {warp_rays_kernel<512, 1>, warp_rays_kernel<512, 6>, warp_rays_kernel<512, 8>},
      {warp_rays_kernel<1024, 1>, warp_rays_kernel<1024, 6>, warp_rays_kernel<1024, 8>}};
  warp_kernel kernel = kernels[keys == 256 ? 0 : (keys == 512 ? 1 : 2)]
                              [min_blocks == 1 ? 0 : (min_blocks == 6 ? 1 : 2)];
  keys = keys * 10 + min_blocks; /* the variant the block count was sized for */
  if (g->blocks == 0 || g->keys != keys) {
    int dev = 0, sms = 0, per_sm = 0;
    TRACE_CUDA(cudaGetDevice(&dev), "device query");
    TRACE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "SM count");
    TRACE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, TRACE_THREADS, 0),
               "occupancy query");
    g->blocks = sms * (per_sm > 0 ? per_sm : 1);
    g->keys = keys;
  }
  IONF_CALL(dbuf_ensure(&g->counters, CTR_COUNT * sizeof(unsigned long long), "ray counters"));
  unsigned long long *ctr = (unsigned long long *)g->counters.p;
  TRACE_CUDA(cudaMemsetAsync(ctr, 0, CTR_COUNT * sizeof(unsigned long long), st), "clear");
  int64_t warps = total_rays, blocks = (warps + WARP_RAYS_PER_BLOCK - 1) / WARP_RAYS_PER_BLOCK;
  if (blocks > g->blocks) blocks = g->blocks;
  kernel<<<(unsigned int)blocks, TRACE_THREADS, 0, st>>>(*s, *w, total_rays, cap, ctr);
  TRACE_CUDA(cudaGetLastError(), "warp tracer launch");
  unsigned long long h[CTR_COUNT];
  TRACE_CUDA(cudaMemcpyAsync(h, ctr, sizeof h, cudaMemcpyDeviceToHost, st), "copy of the counters");
  TRACE_CUDA(cudaStreamSynchronize(st), "warp tracer");
  *hits = (int64_t)h[CTR_HITS];
  *too_dense = h[CTR_TOO_DENSE] != 0;
  return IONF_OK;
}

void sph_trace_warp_rays_free(struct warp_rays_state *g) {
  dbuf_free(&g->counters);
  g->blocks = 0;
  g->keys = 0;
}

/**
 * @file sph_trace_warp.cu
 * @brief The particle tracer's default GPU schedule: one warp per ray.
 *
 * Why: a ray crosses ~10^2-10^3 kernel spheres, and its hits must be walked in
 * distance order.  One thread per ray (gpu/sph_trace_thread.cu) walks the tree
 * twice and sorts the hits through global memory.  Here the 32 lanes share one
 * ray: each traversal step pops up to 8 nodes from a stack in shared memory
 * and tests their four-wide slots (struct bvh4_slot: a binary node's
 * grandchildren, two levels per step), a lane per box; the particles of the
 * leaves reached in a step are tested as one list, 32 at a time, one per lane
 * with coalesced loads; the hits'
 * sph_hit_keys go to the warp's buffer in shared memory; they are ordered by
 * buckets of distance (window_order; a bitonic sort for small or piled-up
 * windows); the lanes then take the hits 32 at a time in key order, a warp
 * scan giving each the optical depth before its hit, and credit them.
 *
 * Windows: the buffer holds 512 hits (SPH_TRACE_WINDOW_HITS_DEFAULT), so a ray is cut into
 * windows of closest-approach distance [fa, fb) (float bounds, membership by
 * float(t): the key's own rounding, so a hit lies in exactly one window and the
 * walk order is the global key order, the CPU's).  Each window is traversed
 * from the root with the slab tests limited to [fa, fb] (window_slab_lo/hi); its
 * length adapts to the hit density seen (aiming at 0.85 of the buffer); a
 * window about to overflow is cut short where it stands (window_cut: ended
 * at the nearest hit of the distance bucket holding its 3/4-th hit, the hits
 * beyond dropped); with small buffers, or when it
 * cannot be cut, it is shortened and traversed again.  The optical depth
 * carries from one window to the next.
 *
 * Rays are handed out by an atomic counter (persistent blocks), in the
 * source-major HEALPix NESTED order, so neighbouring warps trace neighbouring
 * rays through the same nodes and particles (L1/L2 reuse).
 */
#include "gpu/particles/sph_trace_gpu.h"
#include "gpu/particles/sph_trace_warp_walk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define WARP_RAYS_PER_BLOCK (TRACE_THREADS / 32)
#define WARP_KEYS 1024             /* the largest window buffer (8 KiB of keys per warp) */
static_assert(WARP_KEYS == SPH_TRACE_WINDOW_HITS_MAX, "the tuning's largest window buffer");
/* Defaults (src/particles/sph_trace.h, measured, RESULTS.md): a 512-hit buffer
   (SPH_TRACE_WINDOW_HITS_DEFAULT; with 8 blocks/SM it beats 256 and 1024), a launch
   bound of 8 blocks per SM (SPH_TRACE_MIN_BLOCKS_DEFAULT: 64 registers, 32 warps per
   SM, some spills), windows aiming at 0.85 of the buffer (SPH_TRACE_WINDOW_AIM_DEFAULT:
   0.85 beats 0.5 and 0.7); struct sph_trace_tuning changes them. */
#define WARP_CUT_MIN_KEYS 64       /* buffers this large cut a window that overflows (window_cut) */
#define WARP_STACK 256             /* traversal stack entries per warp (256: 1% faster than 512,
                                      measured; more of the SM's memory left to L1) */
/* Above this depth the warp pops one node at a time (depth-first), each adding
   at most 3 entries per four-wide level (height / 2 + 1 of them) after a step
   of at most 32 pushes: the stack never overflows for height <= MAX_HEIGHT. */
#define WARP_STACK_SOFT(height) (WARP_STACK - 32 - 3 * ((height) / 2 + 2))
/* Windows one ray may take (the smallest buffer, 2 hits, needs ~1 per hit) */
#define WARP_MAX_WINDOWS (1L << 22)

/* counters: next ray, hits, failure flag; windows walked, cut short, traversed again */
enum {
  CTR_NEXT_RAY = 0,
  CTR_HITS = 1,
  CTR_TOO_DENSE = 2,
  CTR_WINDOWS = 3,
  CTR_CUTS = 4,
  CTR_RETRIES = 5,
  CTR_COUNT = 6
};

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
  int32_t leaf_offset[32];       /* a step's popped leaves: slot = list position + offset */
  uint16_t order[KEYS];          /* window_order: the buffer position of the j-th key in order */
};

/* OR of v over the warp. */
__device__ static inline unsigned warp_or(unsigned v) {
#if __CUDA_ARCH__ >= 800
  return __reduce_or_sync(FULL_MASK, v);
#else
  for (int d = 16; d > 0; d >>= 1) v |= __shfl_xor_sync(FULL_MASK, v, d);
  return v;
#endif
}

template <int KEYS>
__device__ static void window_sort(uint64_t *keys, int n, int lane);

/* The largest v over the warp (the smallest: ~warp_max_u(~v)). */
__device__ static inline unsigned warp_max_u(unsigned v) {
#if __CUDA_ARCH__ >= 800
  return __reduce_max_sync(FULL_MASK, v);
#else
  for (int d = 16; d > 0; d >>= 1) v = max(v, (unsigned)__shfl_xor_sync(FULL_MASK, v, d));
  return v;
#endif
}

/* A key's bucket of nb: monotone in the key (IEEE subtraction and scaling are). */
__device__ static inline int key_bucket(uint64_t key, float t_lo, float scale, int nb) {
  float x = (sph_hit_key_t(key) - t_lo) * scale;
  return x < (float)(nb - 1) ? (int)x : nb - 1;
}

/* The scale of nb buckets of equal width over float(t) in [t_lo, t_hi]. */
__device__ static inline float bucket_scale(float t_lo, float t_hi, int nb) {
  float scale = t_hi > t_lo ? (float)nb / (t_hi - t_lo) : 0.0f;
  return scale <= 3.0e38f ? scale : 0.0f; /* a span too small to scale: one bucket */
}

/* The largest float(t) of the window's n keys (a last window has no finite end). */
__device__ static inline float keys_t_max(const uint64_t *keys, int n, int lane) {
  unsigned u_hi = 0u;
  for (int i = lane; i < n; i += 32) u_hi = max(u_hi, (unsigned)(keys[key_pos(i)] >> 32));
  return sph_hit_key_t((uint64_t)warp_max_u(u_hi) << 32);
}

/*
 * The window's n keys counted into NB buckets of equal width from t_lo (16-bit
 * counters packed two per word in hist); lane L reads its NB / 32 buckets'
 * words into wv.  Returns how many keys lie in the buckets below lane L's
 * (a warp scan); *run: how many in its own.
 */
template <int NB>
__device__ static int bucket_counts(const uint64_t *keys, int n, float t_lo, float scale,
                                    uint32_t *hist, uint32_t (&wv)[NB / 64], int *run, int lane) {
  static_assert(NB % 64 == 0, "two 16-bit counters per word, 32 lanes");
  for (int w = lane; w < NB / 2; w += 32) hist[w] = 0u;
  __syncwarp();
  for (int i = lane; i < n; i += 32) {
    int b = key_bucket(keys[key_pos(i)], t_lo, scale, NB);
    atomicAdd(&hist[b >> 1], 1u << (16 * (b & 1)));
  }
  __syncwarp();
  int r = 0;
#pragma unroll
  for (int w = 0; w < NB / 64; ++w) {
    wv[w] = hist[lane * (NB / 64) + w];
    r += (int)(wv[w] & 0xffffu) + (int)(wv[w] >> 16);
  }
  int end = r;
  for (int d = 1; d < 32; d <<= 1) {
    int up = __shfl_up_sync(FULL_MASK, end, d);
    if (lane >= d) end += up;
  }
  *run = r;
  return end - r;
}

/*
 * A window about to overflow is cut short instead of traversed again: end it
 * at the float distance t of key k (k = 3/4 of its n keys, at most cap - 32,
 * so that a round of 32 hits fits after), keep the keys below t and go on
 * with the shorter window.  Every hit at a distance below t is then in the
 * buffer, found before or after the cut.  Returns the keys kept and sets
 * *fb = t; -1 when t would not exceed fa (more hits at distance fa than fit:
 * the caller's too-dense path).  This one sorts the buffer (exact k);
 * window_cut below finds a cut by buckets and comes here when it cannot.
 */
template <int KEYS>
__device__ __noinline__ static int window_cut_sorted(uint64_t *keys, int n, int cap, float fa,
                                                     float *fb, int lane) {
  window_sort<KEYS>(keys, n, lane);
  int k = min(3 * n / 4, cap - 32), kept = 0; /* measured: 3/4 beats 7/8 */
  float t = sph_hit_key_t(keys[key_pos(k)]);
  if (!(t > fa)) {
    kept = -1;
  } else { /* keys [0, k) have distances <= t: drop those equal to t, 32 at a time from k down */
    for (int base = k; base > 0; base -= 32) {
      int j = base - 1 - lane;
      unsigned equal = __ballot_sync(FULL_MASK, j >= 0 && sph_hit_key_t(keys[key_pos(j)]) == t);
      if (equal != FULL_MASK) {
        kept = base - (__ffs(~equal) - 1);
        break;
      }
    }
    *fb = t;
  }
  __syncwarp(); /* the reads above before the buffer is written again */
  return kept;
}

/*
 * The cut by buckets (the window's traversal stack is in use, so the counters
 * live in m.order, free until the window is ordered): KEYS buckets of equal
 * width in float(t) over the window, a histogram and a warp scan find the
 * bucket B holding key k; the window ends at t = the smallest float(t) in B,
 * so every key of a lower bucket lies below t and every other key at or
 * above it (the map is monotone); the keys below t are compacted in place.
 * About 1/15 of the sorting cut's work at 512 keys.  Returns as
 * window_cut_sorted, which it calls when B's smallest distance is fa.
 */
template <int KEYS>
__device__ __noinline__ static int window_cut(struct warp_shared<KEYS> &m, int n, int cap, float fa,
                                              float *fb, int lane) {
  enum { PER_LANE = KEYS / 32 };
  uint64_t *keys = m.keys;
  float t_lo = fa, t_hi = isfinite(*fb) ? *fb : keys_t_max(keys, n, lane);
  float scale = bucket_scale(t_lo, t_hi, KEYS);
  /* lane L's buckets [PER_LANE L, PER_LANE (L + 1)): counts and where they start */
  uint32_t wv[KEYS / 64];
  int run = 0;
  int before = bucket_counts<KEYS>(keys, n, t_lo, scale, (uint32_t *)m.order, wv, &run, lane);
  int end = before + run;
  int k = min(3 * n / 4, cap - 32); /* measured: 3/4 beats 7/8 */
  int cut_bucket = -1;
  if (before <= k && k < end) { /* this lane's buckets hold key k */
#pragma unroll
    for (int w = 0; w < PER_LANE; ++w) {
      int c = (int)((wv[w >> 1] >> (16 * (w & 1))) & 0xffffu);
      if (cut_bucket < 0 && k < before + c) cut_bucket = lane * PER_LANE + w;
      before += c;
    }
  }
  unsigned owner = __ballot_sync(FULL_MASK, cut_bucket >= 0);
  int src = __ffs(owner) - 1;
  cut_bucket = __shfl_sync(FULL_MASK, cut_bucket, src);
  unsigned u_min = ~0u; /* the smallest distance in the cut bucket */
  for (int i = lane; i < n; i += 32) {
    uint64_t key = keys[key_pos(i)];
    if (key_bucket(key, t_lo, scale, KEYS) == cut_bucket) u_min = min(u_min, (unsigned)(key >> 32));
  }
  float t = sph_hit_key_t((uint64_t)~warp_max_u(~u_min) << 32);
  __syncwarp(); /* the counters' reads before the fallback may sort */
  if (!(t > fa)) return window_cut_sorted<KEYS>(keys, n, cap, fa, fb, lane);
  int at = 0; /* compaction in place: writes land at or below the round being read */
  for (int base = 0; base < n; base += 32) {
    int i = base + lane;
    uint64_t key = i < n ? keys[key_pos(i)] : 0;
    int keep = i < n && sph_hit_key_t(key) < t;
    unsigned km = __ballot_sync(FULL_MASK, keep);
    __syncwarp(); /* the round's reads before its writes (a ballot orders no memory) */
    if (keep) keys[key_pos(at + __popc(km & ((1u << lane) - 1u)))] = key;
    at += __popc(km);
    __syncwarp();
  }
  *fb = t;
  return at; /* the keys of the buckets below the cut one */
}

/*
 * The slab range [lo, hi] that the window [fa, fb)'s traversal tests nodes
 * over.  No h_max padding: a hit's point of closest approach, ray(t), lies
 * inside its kernel sphere (b < h), so inside its leaf's box and every box
 * above it, and the slab test over any range holding t passes.  For t < 0 a
 * hit's sphere holds the source, ray(0): both bounds are clamped at 0 (a
 * window wholly behind the source tests [0, 0]).  Margins:
 * float(t) >= fa implies t >= fa - ulp(fa)/2, covered by 2^-23 |fa|; and
 * 1e-6 h_max covers the double rounding of t, b and the slab test (~1e-16
 * of the coordinates) that could put a computed hit a hair outside its box.
 */
__device__ static inline double window_slab_lo(const struct trace_scene &s, float fa) {
  double a = (double)fa;
  return isinf(a) ? 0.0 : fmax(0.0, a - 1e-6 * s.h_max_cm - fabs(a) * 1.2e-7);
}

__device__ static inline double window_slab_hi(const struct trace_scene &s, float fb) {
  double b = (double)fb;
  return isinf(b) ? s.reach : fmin(s.reach, fmax(0.0, b + 1e-6 * s.h_max_cm + fabs(b) * 1.2e-7));
}

/*
 * The window [fa, *fb)'s hits into m.keys; returns how many there are.  With a
 * buffer of at least WARP_CUT_MIN_KEYS a window about to overflow is cut
 * (window_cut: *fb moves down); with a smaller one, or when it cannot be cut,
 * the traversal stops early with a count > cap (the caller retraverses a
 * shorter window).  Uniform across the warp.
 */
template <int KEYS>
__device__ static int window_hits(const struct trace_scene &s, const struct sph_ray &primary,
                                  const struct sph_periodic_range &range, int64_t n_images,
                                  float fa, float *fb_io, int cap, struct warp_shared<KEYS> &m,
                                  int lane) {
  float fb = *fb_io;
  double lo = window_slab_lo(s, fa), hi = window_slab_hi(s, fb);
  unsigned below = (1u << lane) - 1u;
  int n = 0;
  for (int64_t image = 0; image < n_images && n <= cap; ++image) {
    struct sph_ray ray;
    trace_image_ray(s, primary, range, image, &ray);
    const struct bvh_box &rb = s.root_box;
    if (s.periodic && !sph_ray_box_range(&ray, lo, hi, rb.lo[0], rb.hi[0], rb.lo[1], rb.hi[1],
                                         rb.lo[2], rb.hi[2]))
      continue; /* this image of the box is off the window */
    int sp = 1, soft = WARP_STACK_SOFT(s.height);
    if (lane == 0) m.stack[0] = s.root;
    __syncwarp();
    while (sp > 0) {
      /* Up to 8 nodes popped, four lanes each: lane 4e + q tests slot q of
         node e (struct bvh4_slot: two levels down per step, the slab tests
         on all lanes); a leaf whose box the ray crosses joins this step's
         leaf list at once, an inner node is pushed.  Only a tree of one
         leaf has a leaf on the stack (its root). */
      int k = sp >= soft ? 1 : (sp < 8 ? sp : 8);
      int e = lane >> 2, q = lane & 3;
      int32_t ref = e < k ? m.stack[sp - 1 - e] : 0;
      __syncwarp();
      sp -= k;
      int leaf = 0, push = 0;
      int32_t child = 0, first = 0, count = 0;
      if (e < k) {
        if (bvh_ref_is_leaf(ref)) {
          if (q == 0) {
            struct bvh_leaf l = s.leaves[bvh_ref_leaf(ref)];
            first = l.first;
            count = l.count;
            leaf = 1;
          }
        } else {
          const int4 *slot = (const int4 *)(s.slots4 + 4 * (int64_t)ref + q);
          int4 a = __ldg(slot), b = __ldg(slot + 1); /* lo x y z, hi x | hi y z, ref, count */
          if (b.w != 0 && sph_ray_box_range(&ray, lo, hi, __int_as_float(a.x), __int_as_float(a.w),
                                            __int_as_float(a.y), __int_as_float(b.x),
                                            __int_as_float(a.z), __int_as_float(b.y))) {
            leaf = b.w > 0;
            push = !leaf;
            first = b.z;
            count = leaf ? b.w : 0;
            child = b.z;
          }
        }
      }
      unsigned bp = __ballot_sync(FULL_MASK, push);
      if (push) m.stack[sp + __popc(bp & below)] = child;
      sp += __popc(bp);
      unsigned leaf_mask = __ballot_sync(FULL_MASK, leaf);
      if (leaf_mask) {
        /* The popped leaves' particles as one list, 32 per round across leaf
           boundaries (full lanes, independent loads).  A warp scan of the
           counts places each leaf in the list; the leaves, in lane order,
           leave their slot offsets in shared memory; in each round an OR over
           the lanes marks where leaves start, and lane j's leaf is the last
           one started at or before j.  The hits' order in the buffer does
           not matter: the window is sorted. */
        int end = count;
        for (int d = 1; d < 32; d <<= 1) {
          int up = __shfl_up_sync(FULL_MASK, end, d);
          if (lane >= d) end += up;
        }
        int total = __shfl_sync(FULL_MASK, end, 31), start = end - count;
        if (leaf) m.leaf_offset[__popc(leaf_mask & below)] = first - start;
        __syncwarp();
        int started = 0; /* leaves started in earlier rounds */
        for (int base = 0; base < total; base += 32) {
          int j = base + lane;
          unsigned starts = warp_or(leaf && start >= base && start < base + 32
                                        ? 1u << (start - base) : 0u);
          int r = started + __popc(starts & ((2u << lane) - 1u)) - 1;
          started += __popc(starts);
          int is_hit = 0;
          uint64_t key = 0;
          float ft = 0.0f;
          if (j < total) {
            int32_t slot = j + m.leaf_offset[r];
            double c[3], h, t, q2;
            int inside;
            load_xyzh(s.xyzh, slot, c, &h);
            if (sph_ray_sphere(&ray, c, h, &t, &q2, &inside)) {
              ft = (float)t;
              if (ft >= fa && ft < fb) {
                is_hit = 1;
                key = sph_hit_key(t, slot);
              }
            }
          }
          unsigned hm = __ballot_sync(FULL_MASK, is_hit);
          if (n + __popc(hm) > cap && cap >= WARP_CUT_MIN_KEYS) {
            int kept = window_cut<KEYS>(m, n, cap, fa, &fb, lane);
            if (kept < 0) return cap + 1; /* cannot be cut: the caller's too-dense path */
            n = kept;
            hi = window_slab_hi(s, fb);
            is_hit = is_hit && ft < fb;
            hm = __ballot_sync(FULL_MASK, is_hit);
            *fb_io = fb;
          }
          if (is_hit) {
            int pos = n + __popc(hm & below);
            if (pos < cap) m.keys[key_pos(pos)] = key;
          }
          n += __popc(hm);
        }
      }
      __syncwarp(); /* the stack and leaf offsets are rewritten next step */
      if (n > cap) break; /* the window is cut and traversed again */
    }
    __syncwarp();
  }
  return n;
}

/*
 * One bitonic sort of P keys in the shared buffer, the inner loop unrolled
 * (its shared-memory loads issue together).  Pair i of a step is (a, a + j),
 * a = i with a 0 bit inserted at log2(j); bit 4 of a and of a + j is the same
 * for every i = lane + 32t, so key_pos is a fixed xor per step and lane.
 */
template <int P>
__device__ static void bitonic_sort_shared(uint64_t *keys, int lane) {
  for (int k = 2; k <= P; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      int a0 = 2 * lane - (lane & (j - 1));
      int xa = key_pos(a0) ^ a0, xb = key_pos(a0 + j) ^ (a0 + j);
#pragma unroll
      for (int t = 0; t < (P / 2 + 31) / 32; ++t) {
        int i = lane + 32 * t;
        if (P / 2 >= 32 || i < P / 2) {
          int a = 2 * i - (i & (j - 1)), b = a + j;
          uint64_t x = keys[a ^ xa], y = keys[b ^ xb];
          if ((x > y) == ((a & k) == 0)) {
            keys[a ^ xa] = y;
            keys[b ^ xb] = x;
          }
        }
      }
      __syncwarp();
    }
  }
}

/* Sort the window's keys[0, n) (n <= KEYS): bitonic, padded to a power of two. */
template <int KEYS>
__device__ static void window_sort(uint64_t *keys, int n, int lane) {
  int p = 2;
  while (p < n) p <<= 1;
  for (int i = n + lane; i < p; i += 32) keys[key_pos(i)] = ~(uint64_t)0;
  __syncwarp();
  switch (p) {
    case 2: bitonic_sort_shared<2>(keys, lane); break;
    case 4: bitonic_sort_shared<4>(keys, lane); break;
    case 8: bitonic_sort_shared<8>(keys, lane); break;
    case 16: bitonic_sort_shared<16>(keys, lane); break;
    case 32: bitonic_sort_shared<32>(keys, lane); break;
    case 64: bitonic_sort_shared<64>(keys, lane); break;
    case 128: bitonic_sort_shared<128>(keys, lane); break;
    case 256: bitonic_sort_shared<256>(keys, lane); break;
    case 512: bitonic_sort_shared<KEYS >= 512 ? 512 : 2>(keys, lane); break;
    default: bitonic_sort_shared<KEYS >= 1024 ? 1024 : 2>(keys, lane); break;
  }
}

/*
 * Ordering a window's keys by buckets, not by a bitonic sort. Why: the bitonic
 * sort passes over the buffer 45 times at 512 keys (16 warp instructions per
 * hit, a quarter of the kernel); this takes about four. Each key goes to one
 * of WARP_BUCKETS buckets of equal width in float(t) across the window [fa,
 * fb) (a last window: its keys' range), a monotone map, so keys of different
 * buckets are already in key order. A histogram (16-bit counts packed two per
 * word in the traversal stack, which is empty once the window is traversed)
 * and a warp scan give each bucket its start; a second pass scatters the keys'
 * buffer positions to m.order by shared-memory atomics; lane L then insertion-
 * sorts its own buckets' run of m.order by the full key (runs hold ~16 keys;
 * only keys sharing a bucket move). The keys stay where they are; window_walk
 * reads keys[order[j]]. Returns 0 (nothing ordered) when a bucket or a lane's
 * run is too full for insertion (hits piled up at one distance): the caller
 * sorts the window instead.
 */
#define WARP_BUCKETS (2 * WARP_STACK)  /* 16-bit counters in the stack's words */
#define WARP_ORDER_MIN_KEYS 64         /* smaller windows: the bitonic sort (cheap at that size) */
#define WARP_BUCKET_MAX 32             /* a bucket above this many keys: sort instead */
#define WARP_RUN_MAX 128               /* a lane's run above this many keys: sort instead */

template <int KEYS>
__device__ static int window_order(struct warp_shared<KEYS> &m, int n, float fa, float fb,
                                   int lane) {
  static_assert(WARP_BUCKETS % 64 == 0 && KEYS <= 65535, "16-bit bucket counters");
  const uint64_t *keys = m.keys;
  uint32_t *hist = (uint32_t *)m.stack;
  /* the buckets span the window, whose keys have float(t) in [fa, fb); a last
     window (fb infinite) ends at its largest key */
  float t_lo = fa, t_hi = isfinite(fb) ? fb : keys_t_max(keys, n, lane);
  float scale = bucket_scale(t_lo, t_hi, WARP_BUCKETS);
  /* lane L's buckets [16L, 16L + 16): counts, then starts (exclusive scan) */
  uint32_t wv[WARP_BUCKETS / 64];
  int run = 0, start = bucket_counts<WARP_BUCKETS>(keys, n, t_lo, scale, hist, wv, &run, lane);
  int end = start + run, fullest = 0;
#pragma unroll
  for (int k = 0; k < WARP_BUCKETS / 64; ++k)
    fullest = max(fullest, max((int)(wv[k] & 0xffffu), (int)(wv[k] >> 16)));
  if (__any_sync(FULL_MASK, fullest > WARP_BUCKET_MAX || run > WARP_RUN_MAX)) return 0;
  int at = start;
#pragma unroll
  for (int k = 0; k < WARP_BUCKETS / 64; ++k) {
    int c0 = (int)(wv[k] & 0xffffu), c1 = (int)(wv[k] >> 16);
    hist[lane * (WARP_BUCKETS / 64) + k] = (uint32_t)at | ((uint32_t)(at + c0) << 16);
    at += c0 + c1;
  }
  __syncwarp();
  for (int i = lane; i < n; i += 32) {
    int p = key_pos(i), b = key_bucket(keys[p], t_lo, scale, WARP_BUCKETS), sh = 16 * (b & 1);
    uint32_t old = atomicAdd(&hist[b >> 1], 1u << sh);
    m.order[(old >> sh) & 0xffffu] = (uint16_t)p;
  }
  __syncwarp();
  /* lane L's run [start, end): keys of different buckets are in order already */
  for (int q = start + 1; q < end; ++q) {
    uint16_t v = m.order[q];
    uint64_t kv = keys[v];
    int r = q - 1;
    for (; r >= start; --r) {
      uint16_t u = m.order[r];
      if (!(keys[u] > kv)) break;
      m.order[r + 1] = u;
    }
    m.order[r + 1] = v;
  }
  __syncwarp();
  return 1;
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

/* CARRY: what a ray carries from window to window, struct sph_tau (hydrogen's optical
   depth) or struct sph_columns (with helium); window_walk is overloaded on it. */
template <int KEYS, int MIN_BLOCKS, typename CARRY>
__global__ void __launch_bounds__(TRACE_THREADS, MIN_BLOCKS)
    warp_rays_kernel(struct trace_scene s, struct trace_walk w, int64_t total_rays, int cap,
                     double aim_hits, unsigned long long *ctr) {
  __shared__ struct warp_shared<KEYS> shared[WARP_RAYS_PER_BLOCK];
  int lane = threadIdx.x & 31;
  struct warp_shared<KEYS> &m = shared[threadIdx.x / 32];
  double len = 4.0 * s.h_max_cm; /* window length; adapted to the hit density */
  unsigned long long my_hits = 0;
  unsigned my_windows = 0, my_cuts = 0, my_retries = 0;
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
    double ndot_ray = w.ndot[(int64_t)r / s.n_rays] / (double)s.n_rays_source;
    CARRY tau = {};
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
      float fb_asked = fb;
      int n = window_hits(s, ray, range, n_images, fa, &fb, cap, m, lane);
      if (fb != fb_asked) { /* the window was cut */
        last = 0;
        ++my_cuts;
      }
      double ulp = (double)nextafterf(fa, INFINITY) - (double)fa;
      double used = last ? fmax(t_out - (double)fa, ulp) : (double)fb - (double)fa;
      if (n > cap) {
        if (fb == nextafterf(fa, INFINITY)) { /* more hits at one float distance than fit */
          if (lane == 0) atomicExch(&ctr[CTR_TOO_DENSE], 1ull);
          break;
        }
        len = 0.4 * used * (double)cap / (double)n;
        allow_last = 0;
        ++my_retries;
        continue;
      }
      allow_last = 1;
      if (n > 0) {
        int ordered = n >= WARP_ORDER_MIN_KEYS && window_order<KEYS>(m, n, fa, fb, lane);
        if (!ordered) window_sort<KEYS>(m.keys, n, lane);
        tau = window_walk(s, w, ray, ndot_ray, tau, m.keys, ordered ? m.order : NULL, n, lane);
        __syncwarp();
      }
      my_hits += (unsigned long long)n;
      ++my_windows;
      /* aim at aim_hits: grow up to 4x after a sparse window, shrink at most 2x */
      double grow = aim_hits / (double)(n > 1 ? n : 1);
      len = used * fmin(4.0, fmax(0.5, grow));
      if (last) break;
      fa = fb;
    }
  }
  if (lane == 0 && my_hits) atomicAdd(&ctr[CTR_HITS], my_hits);
  if (lane == 0 && my_windows) {
    atomicAdd(&ctr[CTR_WINDOWS], (unsigned long long)my_windows);
    atomicAdd(&ctr[CTR_CUTS], (unsigned long long)my_cuts);
    atomicAdd(&ctr[CTR_RETRIES], (unsigned long long)my_retries);
  }
}

ionf_err sph_trace_warp_rays(const struct trace_scene *s, const struct trace_walk *w,
                             int64_t total_rays, const struct sph_trace_tuning *tuning,
                             cudaStream_t st, struct warp_rays_state *g, int64_t *hits,
                             int *too_dense, struct sph_trace_stats *stats) {
  *hits = 0;
  *too_dense = 0;
  IONF_CHECK(s->height <= WARP_RAYS_MAX_HEIGHT, IONF_ERR_INTERNAL,
             "GPU particle tracer: tree height %d exceeds the warp schedule's %d",
             (int)s->height, WARP_RAYS_MAX_HEIGHT);
  if (total_rays <= 0) return IONF_OK;
  /* the window buffer's hits (2 .. WARP_KEYS); small values force many windows in the tests */
  int cap = tuning->window_hits ? tuning->window_hits : SPH_TRACE_WINDOW_HITS_DEFAULT;
  IONF_CHECK(cap >= 2 && cap <= WARP_KEYS, IONF_ERR_CONFIG,
             "GPU particle tracer: tuning.window_hits = %d: give 2 .. %d (0: %d)",
             tuning->window_hits, WARP_KEYS, SPH_TRACE_WINDOW_HITS_DEFAULT);
  /* the hits a window aims at, as a fraction of the buffer (0.1 .. 2; above 1 windows
     are meant to overflow and be cut) */
  double aim = tuning->window_aim != 0.0 ? tuning->window_aim : SPH_TRACE_WINDOW_AIM_DEFAULT;
  IONF_CHECK(aim >= 0.1 && aim <= 2.0, IONF_ERR_CONFIG,
             "GPU particle tracer: tuning.window_aim = %g: give 0.1 .. 2 (0: %g)",
             tuning->window_aim, SPH_TRACE_WINDOW_AIM_DEFAULT);
  /* blocks per SM the compiler must fit (1, 6, 8: fewer registers, some spilled), for
     measuring occupancy against spills */
  int min_blocks = tuning->min_blocks ? tuning->min_blocks : SPH_TRACE_MIN_BLOCKS_DEFAULT;
  IONF_CHECK(min_blocks == 1 || min_blocks == 6 || min_blocks == 8, IONF_ERR_CONFIG,
             "GPU particle tracer: tuning.min_blocks = %d: give 1, 6 or 8 (0: %d)",
             tuning->min_blocks, SPH_TRACE_MIN_BLOCKS_DEFAULT);
  /* the smallest buffer that holds cap keys (less shared memory per warp) */
  int keys = cap <= 256 ? 256 : (cap <= 512 ? 512 : 1024);
  typedef void (*warp_kernel)(struct trace_scene, struct trace_walk, int64_t, int, double,
                              unsigned long long *);
  typedef struct sph_tau H;      /* hydrogen alone */
  typedef struct sph_columns HE; /* with helium */
  static const warp_kernel kernels[2][3][3] = {
      {{warp_rays_kernel<256, 1, H>, warp_rays_kernel<256, 6, H>, warp_rays_kernel<256, 8, H>},
       {warp_rays_kernel<512, 1, H>, warp_rays_kernel<512, 6, H>, warp_rays_kernel<512, 8, H>},
       {warp_rays_kernel<1024, 1, H>, warp_rays_kernel<1024, 6, H>, warp_rays_kernel<1024, 8, H>}},
      {{warp_rays_kernel<256, 1, HE>, warp_rays_kernel<256, 6, HE>, warp_rays_kernel<256, 8, HE>},
       {warp_rays_kernel<512, 1, HE>, warp_rays_kernel<512, 6, HE>, warp_rays_kernel<512, 8, HE>},
       {warp_rays_kernel<1024, 1, HE>, warp_rays_kernel<1024, 6, HE>,
        warp_rays_kernel<1024, 8, HE>}}};
  const int he = w->n_species == 3;
  warp_kernel kernel = kernels[he][keys == 256 ? 0 : (keys == 512 ? 1 : 2)]
                              [min_blocks == 1 ? 0 : (min_blocks == 6 ? 1 : 2)];
  keys = (keys * 10 + min_blocks) * 2 + he; /* the variant the block count was sized for */
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
  kernel<<<(unsigned int)blocks, TRACE_THREADS, 0, st>>>(*s, *w, total_rays, cap, aim * cap, ctr);
  TRACE_CUDA(cudaGetLastError(), "warp tracer launch");
  unsigned long long h[CTR_COUNT];
  TRACE_CUDA(cudaMemcpyAsync(h, ctr, sizeof h, cudaMemcpyDeviceToHost, st), "copy of the counters");
  TRACE_CUDA(cudaStreamSynchronize(st), "warp tracer");
  *hits = (int64_t)h[CTR_HITS];
  *too_dense = h[CTR_TOO_DENSE] != 0;
  stats->windows = (int64_t)h[CTR_WINDOWS];
  stats->window_cuts = (int64_t)h[CTR_CUTS];
  stats->window_retraversals = (int64_t)h[CTR_RETRIES];
  return IONF_OK;
}

void sph_trace_warp_rays_free(struct warp_rays_state *g) {
  dbuf_free(&g->counters);
  g->blocks = 0;
  g->keys = 0;
}

/**
 * @file sph_trace_gpu.h
 * @brief Internal to the CUDA particle tracer: what its two ray schedules
 *        share.  gpu/sph_trace.cu keeps the particles and the tree on the
 *        device and prepares a pass; it then runs one of
 *  - gpu/sph_trace_warp.cu: one warp per ray, hits gathered and sorted in
 *    shared memory window by window along the ray (the default);
 *  - gpu/sph_trace_thread.cu: one thread per ray, hits counted, written to
 *    global memory and sorted there by CUB (independent rays, grace's
 *    "individual" traversal; used for trees too deep for the warp's stack and
 *    with tuning.schedule THREAD, struct sph_trace_tuning).
 * Both walk each ray's hits in sph_hit_key order with the shared maths of
 * src/sph_trace_k.h, so they compute the CPU's function.
 */
#ifndef IONF_SPH_TRACE_GPU_H
#define IONF_SPH_TRACE_GPU_H

#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "core/error.h"
#include "rt/photo_k.h"
#include "particles/sph_periodic_k.h"
#include "particles/sph_trace.h"
#include "particles/sph_trace_k.h"
}

#define TRACE_THREADS 128

/* ---- errors and device buffers ------------------------------------------------------- */

ionf_err trace_cuda_fail(cudaError_t err, const char *what);

#define TRACE_CUDA(expr, what)                          \
  do {                                                  \
    cudaError_t trace_cuda_err_ = (expr);               \
    if (trace_cuda_err_ != cudaSuccess) {               \
      ionf_error_trace(__func__, __FILE__, __LINE__);   \
      return trace_cuda_fail(trace_cuda_err_, (what));  \
    }                                                   \
  } while (0)

/** A device buffer that grows. */
struct dbuf {
  void *p;
  size_t bytes;
};

/** At least `bytes` (contents not kept when it grows); IONF_ERR_GPU_MEM naming `what`. */
ionf_err dbuf_ensure(struct dbuf *b, size_t bytes, const char *what);
void dbuf_free(struct dbuf *b);

static inline unsigned int trace_blocks_for(int64_t n) {
  return (unsigned int)((n + TRACE_THREADS - 1) / TRACE_THREADS);
}

/* ---- one pass ------------------------------------------------------------------------ */

/**
 * The warp schedule's four-wide view of the binary tree: binary node i's
 * four slots hold its children, each inner child replaced by that child's
 * own two children (a slot per grandchild), so one traversal step goes two
 * levels down and tests four boxes, a lane each.  Slots with count > 0 are
 * leaves (particles [ref, ref + count) of the sorted order), count < 0 inner
 * nodes (ref: a binary node, whose slots come next), count 0 empty.  The
 * boxes are the binary tree's own, so the same particles are tested.
 */
struct __align__(16) bvh4_slot {
  float lo[3];                   /*!< x, y, z */
  float hi[3];
  int32_t ref;
  int32_t count;
};

/** What the traversal reads (device pointers). */
struct trace_scene {
  const double *xyzh;            /*!< per sorted slot: x, y, z, h [cm] */
  const struct bvh_node *nodes;
  const struct bvh4_slot *slots4; /*!< 4 per binary node (the warp schedule) */
  const struct bvh_leaf *leaves;
  int32_t root;
  int32_t n_leaves;
  int32_t height;                /*!< tree height (stack depth) */
  struct bvh_box root_box;
  const double *dirs;            /*!< n_rays x 3: the pass's share of the directions */
  const double *src_pos;         /*!< sources x 3 [cm] */
  int64_t n_rays;                /*!< per source, in this pass (its share) */
  int64_t n_rays_source;         /*!< every ray of a source: each carries Ndot / this */
  double r_max_cm;               /*!< <= 0: unlimited */
  double reach;                  /*!< r_max + h_max (INFINITY: unlimited) */
  double h_max_cm;
  const double *table;           /*!< kernel column table */
  int periodic;                  /*!< rays wrap: every image offset (src/sph_periodic_k.h) */
  double box_cm[3];              /*!< the periodic box */
};

/** What the walk of sorted hits reads and writes (device pointers). */
struct trace_walk {
  struct photo_table_view tv;    /*!< device copies of the rate tables */
  int heating;
  const double *ndot;            /*!< per source [1/s] */
  const double *n_hi;            /*!< per sorted slot: neutral atoms (hydrogen alone) */
  double *gamma;                 /*!< per sorted slot, accumulated (with helium: three
                                      species blocks of n) */
  double *heat;                  /*!< per sorted slot, accumulated (heating; idem) */
  /* with helium (n_species 3): the columns of three absorbers, the band tables */
  int n_species;                 /*!< 1 or 3 */
  int64_t n;                     /*!< particles: the distance between species blocks */
  struct bands_view bands;       /*!< device copies of the band tables */
  const struct sph_absorbers *absorbers; /*!< per sorted slot (n_species 3) */
};

__device__ static inline void trace_make_ray(const struct trace_scene &s, int64_t r,
                                             struct sph_ray *ray) {
  int64_t src = r / s.n_rays, k = r % s.n_rays;
  sph_ray_make(s.src_pos + 3 * src, s.dirs + 3 * k, s.r_max_cm, ray);
}

/* Ray r from the origin of image offset k (periodic scenes; k = 0 and no shift otherwise). */
__device__ static inline void trace_image_ray(const struct trace_scene &s, const struct sph_ray &ray,
                                              const struct sph_periodic_range &range, int64_t k,
                                              struct sph_ray *shifted) {
  if (!s.periodic) {
    *shifted = ray;
    return;
  }
  int m[3];
  double o[3];
  sph_periodic_offset(&range, k, m);
  sph_periodic_origin(ray.o, m, s.box_cm, o);
  sph_ray_make(o, ray.d, s.r_max_cm, shifted);
}

/* The image offsets of ray r (periodic scenes); returns how many (1 otherwise). */
__device__ static inline int64_t trace_image_range(const struct trace_scene &s,
                                                   const struct sph_ray &ray,
                                                   struct sph_periodic_range *range) {
  if (!s.periodic) return 1;
  return sph_periodic_ranges(ray.o, ray.d, s.reach, s.h_max_cm, s.box_cm, range);
}

/*
 * A sorted hit's column per atom: the sphere test again, from the image the hit
 * belongs to (sph_periodic_image_of), so the same doubles as when it was found.
 */
__device__ static inline double trace_hit_column(const struct trace_scene &s,
                                                 const struct sph_ray &ray, uint64_t key) {
  int32_t slot = sph_hit_key_slot(key);
  const double2 *q = (const double2 *)s.xyzh + 2 * (int64_t)slot;
  double2 a = __ldg(q), b = __ldg(q + 1);
  double c[3] = {a.x, a.y, b.x}, h = b.y, t = 0.0, q2 = 1.0;
  int inside = 0;
  if (s.periodic) {
    int m[3];
    double o[3];
    struct sph_ray shifted;
    sph_periodic_image_of(ray.o, ray.d, (double)sph_hit_key_t(key), c, s.box_cm, m);
    sph_periodic_origin(ray.o, m, s.box_cm, o);
    sph_ray_make(o, ray.d, s.r_max_cm, &shifted);
    sph_ray_sphere(&shifted, c, h, &t, &q2, &inside);
  } else {
    sph_ray_sphere(&ray, c, h, &t, &q2, &inside);
  }
  return sph_hit_column_per_atom(s.table, q2, h, inside);
}

/* ---- independent rays (gpu/sph_trace_thread.cu) ---------------------------------------- */

struct thread_rays_state {
  struct dbuf counts, offsets, rel, keys_a, keys_b, temp, gstack;
  int64_t hit_capacity;
  int64_t *offsets_host; /*!< pinned, TRACE_BATCH_RAYS + 1 */
};

/** The pass with one thread per ray; hit_capacity > 0: the hit buffers hold that many hits
    (tuning.hit_capacity), else they are sized from free memory on the first call. */
IONF_NODISCARD ionf_err sph_trace_thread_rays(const struct trace_scene *s,
                                              const struct trace_walk *w, int64_t total_rays,
                                              int64_t hit_capacity, cudaStream_t st,
                                              struct thread_rays_state *g, int64_t *hits);
void sph_trace_thread_rays_free(struct thread_rays_state *g);

/* ---- one warp per ray (gpu/sph_trace_warp.cu) ------------------------------------------ */

struct warp_rays_state {
  struct dbuf counters;          /*!< next ray, hits, failure flag */
  int blocks;                    /*!< persistent blocks (0: not sized yet) */
  int keys;                      /*!< the kernel variant they were sized for */
};

/** Largest tree height the warp schedule's shared-memory stack takes. */
#define WARP_RAYS_MAX_HEIGHT 126

/**
 * The pass with one warp per ray, its windows as `tuning` says (window_hits,
 * window_aim, min_blocks).  *too_dense = 1 (and nothing accumulated that the
 * caller must keep: it clears the rates and reruns with independent rays) when
 * some ray has more hits at one float distance than a window holds.  stats:
 * windows, window_cuts, window_retraversals.
 */
IONF_NODISCARD ionf_err sph_trace_warp_rays(const struct trace_scene *s,
                                            const struct trace_walk *w, int64_t total_rays,
                                            const struct sph_trace_tuning *tuning,
                                            cudaStream_t st, struct warp_rays_state *g,
                                            int64_t *hits, int *too_dense,
                                            struct sph_trace_stats *stats);
void sph_trace_warp_rays_free(struct warp_rays_state *g);

#endif /* IONF_SPH_TRACE_GPU_H */

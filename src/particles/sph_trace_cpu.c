/**
 * @file sph_trace_cpu.c
 * @brief The particle tracer on the CPU (OpenMP over rays); see sph_trace.h
 *        for the method and sph_trace_k.h for the shared per-ray maths.
 *
 * Each thread takes rays (source-major, HEALPix NESTED order within a
 * source), walks the tree depth-first (stack of tree->height + 1 entries:
 * popping one node and pushing its two children keeps at most one pending
 * sibling per level), collects the ray's hits in a private buffer that grows
 * as needed, sorts them by sph_hit_key (float t, then slot), and walks them accumulating
 * tau; the rates go to the particles with atomic adds (rays cross the same
 * particles rarely at once, so contention is low and no per-thread copies of
 * the N-particle arrays are needed).
 *
 * Periodic sets: one traversal per image offset of the box (sph_periodic_k.h),
 * all into the ray's one list.  A slot then appears once per image the ray
 * crosses, and the key's slot no longer makes keys unique when two images of
 * one particle have the same float t.  That needs both image centres within h
 * of nearly one point of the ray (|dt| < 6e-8 t), so a separation L <= 2 h +
 * |dt|: h >= L/2 (which the periodic neighbour search refuses, sph_neighbours.c)
 * or a ray ~2^24 box sides long (r_max is at most SPH_PERIODIC_MAX_R_BOXES
 * sides).  Even then only the order of those two hits would depend on the
 * traversal.
 */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/ionf_config.h"
#include "particles/sph_periodic_k.h"
#include "particles/sph_trace.h"
#include "particles/sph_trace_k.h"
#include "particles/sph_trace_prep.h"

struct hit {
  uint64_t key;  /* sph_hit_key(t, slot): the walk order (unique per ray, see below) */
  double col;    /* column per atom [cm^-2] */
};

/*
 * Sort of a ray's hits by key: insertion sort of runs of HIT_RUN, then
 * bottom-up merges through `tmp`.  Inline comparisons: 3-4x faster than
 * qsort with a comparator, which took 40% of a pass.
 */
#define HIT_RUN 16

static void hits_sort(struct hit *h, struct hit *tmp, int64_t n) {
  for (int64_t lo = 0; lo < n; lo += HIT_RUN) {
    int64_t hi = lo + HIT_RUN < n ? lo + HIT_RUN : n;
    for (int64_t i = lo + 1; i < hi; ++i) {
      struct hit x = h[i];
      int64_t j = i;
      while (j > lo && h[j - 1].key > x.key) {
        h[j] = h[j - 1];
        --j;
      }
      h[j] = x;
    }
  }
  struct hit *src = h, *dst = tmp;
  for (int64_t width = HIT_RUN; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, k = lo;
      if (mid == hi || src[mid - 1].key <= src[mid].key) { /* already in order */
        memcpy(dst + lo, src + lo, (size_t)(hi - lo) * sizeof *src);
        continue;
      }
      while (i < mid && j < hi) dst[k++] = src[j].key < src[i].key ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    struct hit *t = src;
    src = dst;
    dst = t;
  }
  if (src != h) memcpy(h, src, (size_t)n * sizeof *h);
}

struct hit_buf {
  struct hit *h, *tmp; /* hits; the sort's scratch */
  int64_t n, cap;
};

static int hit_push(struct hit_buf *b, uint64_t key, double col) {
  if (b->n == b->cap) {
    int64_t cap = b->cap ? 2 * b->cap : 1024;
    struct hit *h = realloc(b->h, (size_t)cap * sizeof *h);
    if (!h) return 0;
    b->h = h;
    struct hit *tmp = realloc(b->tmp, (size_t)cap * sizeof *tmp);
    if (!tmp) return 0;
    b->tmp = tmp;
    b->cap = cap;
  }
  struct hit *e = &b->h[b->n];
  e->key = key;
  e->col = col;
  ++b->n;
  return 1;
}

/* The particles of one leaf against the ray. */
static int leaf_hits(const struct bvh *tree, const struct sph_trace_prep *prep,
                     const struct sph_ray *ray, int32_t leaf, struct hit_buf *b) {
  const struct bvh_leaf *l = &tree->leaves[leaf];
  for (int32_t s = l->first; s < l->first + l->count; ++s) {
    const double *p = prep->xyzh + 4 * (int64_t)s;
    double t, q2;
    int inside;
    if (sph_ray_sphere(ray, p, p[3], &t, &q2, &inside) &&
        !hit_push(b, sph_hit_key(t, s), sph_hit_column_per_atom(prep->column_table, q2, p[3], inside)))
      return 0;
  }
  return 1;
}

/* The hits of one ray appended to b, in traversal order (left child first). 0: out of memory. */
static int ray_hits(const struct bvh *tree, const struct sph_trace_prep *prep,
                    const struct sph_ray *ray, double reach, int32_t *stack, struct hit_buf *b) {
  const struct bvh_box *rb = &tree->root_box;
  if (tree->n_leaves == 0 ||
      !sph_ray_box(ray, reach, rb->lo[0], rb->hi[0], rb->lo[1], rb->hi[1], rb->lo[2], rb->hi[2]))
    return 1;
  int sp = 0;
  stack[sp++] = tree->root;
  while (sp > 0) {
    int32_t ref = stack[--sp];
    if (bvh_ref_is_leaf(ref)) {
      if (!leaf_hits(tree, prep, ray, bvh_ref_leaf(ref), b)) return 0;
      continue;
    }
    const struct bvh_node *n = &tree->nodes[ref];
    int hit[2];
    sph_ray_node(ray, reach, n, hit);
    if (hit[1]) stack[sp++] = n->child[1];
    if (hit[0]) stack[sp++] = n->child[0];
  }
  return 1;
}

/*
 * All hits of the ray from `origin` along `dir`: one traversal, or in a periodic
 * box one per image offset (sph_periodic_k.h) with the origin shifted to
 * o - m L; offsets whose shifted root box the ray misses end at ray_hits' first
 * slab test.  0: out of memory.
 */
static int ray_all_hits(const struct bvh *tree, const struct sph_trace_prep *prep,
                        const double *origin, const double *dir, double r_max, double reach,
                        int32_t *stack, struct hit_buf *b) {
  b->n = 0;
  struct sph_ray ray;
  if (!prep->periodic) {
    sph_ray_make(origin, dir, r_max, &ray);
    return ray_hits(tree, prep, &ray, reach, stack, b);
  }
  struct sph_periodic_range range;
  int64_t count = sph_periodic_ranges(origin, dir, reach, prep->h_max_cm, prep->box_cm, &range);
  for (int64_t k = 0; k < count; ++k) {
    int m[3];
    double o[3];
    sph_periodic_offset(&range, k, m);
    sph_periodic_origin(origin, m, prep->box_cm, o);
    sph_ray_make(o, dir, r_max, &ray);
    if (!ray_hits(tree, prep, &ray, reach, stack, b)) return 0;
  }
  return 1;
}

/* Hydrogen alone: a ray's sorted hits walked with the optical depth (sph_hit_credit). */
static void walk_hydrogen(const struct photo_table_view *tab, const struct sph_trace_prep *prep,
                          const struct hit_buf *b, double ndot_ray, int heating, double *gamma,
                          double *heat) {
  struct sph_tau tau = {0.0, 0.0};
  for (int64_t j = 0; j < b->n; ++j) {
    const struct hit *e = &b->h[j];
    int32_t slot = sph_hit_key_slot(e->key);
    double dheat = 0.0;
    double g = sph_hit_credit(tab, ndot_ray, sph_tau_value(tau), prep->n_hi[slot], e->col,
                              heating ? &dheat : NULL);
    sph_tau_add(&tau, sph_hit_dtau(tab, prep->n_hi[slot], e->col));
#pragma omp atomic
    gamma[slot] += g;
    if (heating) {
#pragma omp atomic
      heat[slot] += dheat;
    }
  }
}

/* With helium: the hits walked with the three columns (sph_hit_credit_he); the rates of
   species s at s * n + slot. */
static void walk_helium(const struct bands_view *v, const struct sph_trace_prep *prep,
                        const struct hit_buf *b, double ndot_ray, int heating, double *gamma,
                        double *heat) {
  const int64_t n = prep->n_particles;
  struct sph_columns cols;
  memset(&cols, 0, sizeof cols);
  for (int64_t j = 0; j < b->n; ++j) {
    const struct hit *e = &b->h[j];
    int32_t slot = sph_hit_key_slot(e->key);
    const struct sph_absorbers *a = &prep->absorbers[slot];
    double col_in[BANDS_N_ABSORBERS], g[BANDS_N_ABSORBERS], dheat[BANDS_N_ABSORBERS];
    sph_columns_value(&cols, col_in);
    sph_hit_credit_he(v, ndot_ray, col_in, a, e->col, g, heating ? dheat : NULL);
    sph_columns_add(&cols, a, e->col);
    for (int s = 0; s < BANDS_N_ABSORBERS; ++s) {
#pragma omp atomic
      gamma[s * n + slot] += g[s];
      if (heating) {
#pragma omp atomic
        heat[s * n + slot] += dheat[s];
      }
    }
  }
}

/* Every ray of the pass (OpenMP over rays), rates per sorted slot into gamma / heat
   (ns blocks of n); 0: out of memory. */
static int trace_all_rays(const struct sph_trace_input *in, const struct sph_trace_prep *prep,
                          int heating, double *gamma, double *heat, int64_t *hits) {
  const struct bvh *tree = in->tree;
  const int helium = sph_trace_species(in) == 3;
  int64_t total_rays = in->sources.count * prep->n_rays;
  double reach = in->r_max_cm > 0.0 ? in->r_max_cm + prep->h_max_cm : INFINITY;
  int64_t total_hits = 0;
  int failed = 0;
#pragma omp parallel reduction(+ : total_hits) reduction(| : failed)
  {
    struct hit_buf b = {NULL, NULL, 0, 0};
    int32_t *stack = malloc(((size_t)tree->height + 2) * sizeof(int32_t));
    if (!stack) failed = 1;
#pragma omp for schedule(dynamic, 16)
    for (int64_t r = 0; r < total_rays; ++r) {
      if (failed) continue;
      int64_t src = r / prep->n_rays, k = r % prep->n_rays;
      if (!ray_all_hits(tree, prep, in->sources.pos_cm + 3 * src, prep->dirs + 3 * k,
                        in->r_max_cm, reach, stack, &b)) {
        failed = 1;
        continue;
      }
      total_hits += b.n;
      hits_sort(b.h, b.tmp, b.n);
      double ndot_ray = in->sources.ndot_per_s[src] / (double)prep->n_rays_source;
      if (helium)
        walk_helium(&in->bands, prep, &b, ndot_ray, heating, gamma, heat);
      else
        walk_hydrogen(&in->tables, prep, &b, ndot_ray, heating, gamma, heat);
    }
    free(stack);
    free(b.h);
    free(b.tmp);
  }
  *hits = total_hits;
  return !failed;
}

ionf_err sph_trace_cpu(const struct sph_trace_input *in, struct sph_trace_output *out,
                       struct sph_trace_stats *stats) {
  double t0 = omp_get_wtime();
  struct sph_trace_prep prep;
  IONF_CALL(sph_trace_prepare(in, out, SPH_PREP_DIRECTIONS | SPH_PREP_PARTICLES | SPH_PREP_SCANS, &prep));
  int64_t n = prep.n_particles;
  const int ns = sph_trace_species(in);
  int heating = in->heating && (ns == 3 ? in->bands.heating : in->tables.heating);
  size_t cells = (size_t)(n > 0 ? ns * n : 1);
  double *gamma = calloc(cells, sizeof(double));
  double *heat = heating ? calloc(cells, sizeof(double)) : NULL;
  if (!gamma || (heating && !heat)) {
    free(gamma);
    free(heat);
    sph_trace_prep_free(&prep);
    return ionf_error_set(IONF_ERR_MEM, "sph_trace_cpu: no memory for %lld particle rates",
                          (long long)n);
  }
  int64_t total_hits = 0;
  if (!trace_all_rays(in, &prep, heating, gamma, heat, &total_hits)) {
    free(gamma);
    free(heat);
    sph_trace_prep_free(&prep);
    return ionf_error_set(IONF_ERR_MEM, "sph_trace_cpu: no memory for a ray's hits");
  }
  /* back from sorted slots to particle order (overwrite, not accumulate) */
  const int32_t *order = in->tree->order;
  const int64_t stride = ns == 3 ? in->species_stride : 0;
  for (int s = 0; s < ns; ++s) {
    const double *gs = gamma + s * n, *hs = heating ? heat + s * n : NULL;
    double *go = out->gamma_hi_per_s + s * stride;
    double *ho = in->heating ? out->heating_erg_per_s + s * stride : NULL;
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < n; ++k) {
      go[order[k]] = gs[k];
      if (ho) ho[order[k]] = hs ? hs[k] : 0.0;
    }
  }
  free(gamma);
  free(heat);
  sph_trace_prep_free(&prep);
  if (stats) {
    memset(stats, 0, sizeof *stats);
    stats->rays = in->sources.count * prep.n_rays;
    stats->hits = total_hits;
    stats->seconds = omp_get_wtime() - t0;
  }
  return IONF_OK;
}

#if !IONF_HAVE_CUDA
/* CPU-only build: the CUDA path is not there (gpu/sph_trace.cu is not compiled). */
ionf_err sph_trace_cuda(const struct sph_trace_input *in, struct sph_trace_output *out,
                        struct sph_trace_stats *stats) {
  (void)in;
  (void)out;
  (void)stats;
  return ionf_error_set(IONF_ERR_UNSUPPORTED,
                        "sph_trace_cuda: this build has no CUDA (configure with -DIONFRONT_CUDA=ON)");
}

void sph_trace_cuda_release(void) {}

void sph_trace_cuda_pin_host(void *p, size_t bytes) {
  (void)p;
  (void)bytes;
}
#endif

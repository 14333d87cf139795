/**
 * @file sph_neighbours.c
 * @brief Neighbours of SPH particles through the BVH (CPU, OpenMP): a tree of
 *        the centres (zero radii), sphere queries by stack traversal, nearest
 *        periodic images.
 */
#include "particles/sph_neighbours.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "particles/bvh.h"
#include "core/constants.h"
#include "particles/sph_k.h"

#define SEARCH_PARALLEL_MIN 4096

/* ---- the search structure ------------------------------------------------------------ */

struct search {
  struct bvh tree;
  double *xyz; /* centres in tree order, n x 3 */
  int periodic;
  double box[3];
};

static void search_free(struct search *s) {
  bvh_free(&s->tree);
  free(s->xyz);
  memset(s, 0, sizeof *s);
}

static ionf_err search_build(const struct particle_set *p, struct search *s) {
  memset(s, 0, sizeof *s);
  IONF_CHECK(p->count >= 1, IONF_ERR_INPUT, "neighbour search: no particles");
  double *zero = ionf_calloc((size_t)p->count, sizeof *zero, "neighbour search radii");
  if (!zero) return IONF_ERR_MEM;
  struct bvh_scene scene;
  particles_scene(p, &scene);
  ionf_err rc = bvh_build_cpu(p->pos_cm, zero, p->count, &scene, BVH_MAX_LEAF_DEFAULT, &s->tree,
                              NULL);
  free(zero);
  IONF_CALL(rc);
  s->xyz = ionf_malloc(3 * (size_t)p->count * sizeof *s->xyz, "neighbour search centres");
  if (!s->xyz) {
    search_free(s);
    return IONF_ERR_MEM;
  }
#pragma omp parallel for schedule(static) if (p->count >= SEARCH_PARALLEL_MIN)
  for (int64_t k = 0; k < p->count; ++k)
    for (int a = 0; a < 3; ++a) s->xyz[3 * k + a] = p->pos_cm[3 * (int64_t)s->tree.order[k] + a];
  s->periodic = p->periodic && p->has_box;
  for (int a = 0; a < 3; ++a) s->box[a] = p->has_box ? p->box_size_cm[a] : 0.0;
  return IONF_OK;
}

/* Largest search radius the nearest-image rule allows (infinite without periods). */
static double search_radius_limit(const struct search *s) {
  if (!s->periodic) return INFINITY;
  double m = s->box[0];
  for (int a = 1; a < 3; ++a) m = s->box[a] < m ? s->box[a] : m;
  return 0.5 * m;
}

/* Hits of one query: squared distances and sorted slots. */
struct hits {
  double *d2;
  int32_t *slot;
  int64_t count, cap;
};

static int hits_push(struct hits *h, double d2, int32_t slot) {
  if (h->count == h->cap) {
    int64_t cap = h->cap ? 2 * h->cap : 256;
    double *d = realloc(h->d2, (size_t)cap * sizeof *d);
    if (d) h->d2 = d;
    int32_t *s = realloc(h->slot, (size_t)cap * sizeof *s);
    if (s) h->slot = s;
    if (!d || !s) return 0;
    h->cap = cap;
  }
  h->d2[h->count] = d2;
  h->slot[h->count] = slot;
  ++h->count;
  return 1;
}

static int leaf_scan(const struct search *s, int32_t leaf, const double *c, double r2,
                     struct hits *out) {
  const struct bvh_leaf *l = &s->tree.leaves[leaf];
  for (int32_t k = l->first; k < l->first + l->count; ++k) {
    double d2 = bvh_dist2(c, s->xyz + 3 * (int64_t)k);
    if (d2 < r2 && !hits_push(out, d2, k)) return 0;
  }
  return 1;
}

/* Centres closer than r to c (one image); stack holds height + 2 entries. */
static int query_one(const struct search *s, const double *c, double r, int32_t *stack,
                     struct hits *out) {
  const struct bvh *t = &s->tree;
  const double r2 = r * r;
  if (bvh_box_dist2(&t->root_box, c) >= r2) return 1;
  if (t->n_nodes == 0) return leaf_scan(s, 0, c, r2, out);
  int64_t top = 0;
  stack[top++] = t->root;
  while (top > 0) {
    const struct bvh_node *nd = &t->nodes[stack[--top]];
    for (int side = 0; side < 2; ++side) {
      struct bvh_box b;
      bvh_node_box(nd, side, &b);
      if (bvh_box_dist2(&b, c) >= r2) continue;
      int32_t child = nd->child[side];
      if (bvh_ref_is_leaf(child)) {
        if (!leaf_scan(s, bvh_ref_leaf(child), c, r2, out)) return 0;
      } else {
        stack[top++] = child;
      }
    }
  }
  return 1;
}

/* Centres closer than r to c, the nearest periodic images included (r below half the box). */
static int query(const struct search *s, const double *c, double r, int32_t *stack,
                 struct hits *out) {
  out->count = 0;
  if (!s->periodic) return query_one(s, c, r, stack, out);
  /* images of c whose sphere reaches into the box from the other side */
  double shifts[3][3];
  int n_shifts[3];
  for (int a = 0; a < 3; ++a) {
    n_shifts[a] = 0;
    shifts[a][n_shifts[a]++] = 0.0;
    if (c[a] - r < 0.0) shifts[a][n_shifts[a]++] = s->box[a];
    if (c[a] + r > s->box[a]) shifts[a][n_shifts[a]++] = -s->box[a];
  }
  for (int i = 0; i < n_shifts[0]; ++i)
    for (int j = 0; j < n_shifts[1]; ++j)
      for (int k = 0; k < n_shifts[2]; ++k) {
        double cc[3] = {c[0] + shifts[0][i], c[1] + shifts[1][j], c[2] + shifts[2][k]};
        if (!query_one(s, cc, r, stack, out)) return 0;
      }
  return 1;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* ---- smoothing lengths --------------------------------------------------------------- */

ionf_err sph_neighbours_smoothing_lengths(struct particle_set *p, int n_ngb) {
  IONF_CHECK(p, IONF_ERR_INTERNAL, "sph_neighbours_smoothing_lengths: NULL argument");
  IONF_CHECK(n_ngb >= 1, IONF_ERR_INPUT, "neighbour number %d: it must be at least 1", n_ngb);
  IONF_CHECK(p->count > n_ngb, IONF_ERR_INPUT,
             "%lld particles cannot give each particle %d neighbours", (long long)p->count,
             n_ngb);
  struct search s;
  IONF_CALL(search_build(p, &s));
  const double r_limit = search_radius_limit(&s);
  /* first guess: the radius of n_ngb + 1 particles at the mean number density */
  struct bvh_scene scene;
  particles_scene(p, &scene);
  double volume = 1.0, span = 0.0;
  for (int a = 0; a < 3; ++a) {
    double e = scene.hi[a] - scene.lo[a];
    volume *= e;
    span = e > span ? e : span;
  }
  double guess = volume > 0.0 ? cbrt(3.0 * (n_ngb + 1) * volume / (4.0 * IONF_PI * (double)p->count))
                              : span / cbrt((double)p->count);
  if (!(guess > 0.0)) guess = 1.0; /* every particle at one point: any radius works */

  int64_t failed = -1; /* the first particle (tree order) that could not be served */
  int no_memory = 0;
  const int64_t n = p->count;
#pragma omp parallel if (n >= SEARCH_PARALLEL_MIN)
  {
    struct hits hits;
    memset(&hits, 0, sizeof hits);
    int32_t *stack = malloc(((size_t)s.tree.height + 2) * sizeof *stack);
    double r = guess;
    int ok = stack != NULL;
#pragma omp for schedule(static)
    for (int64_t k = 0; k < n; ++k) {
      if (!ok) continue;
      const double *c = s.xyz + 3 * k;
      for (;;) {
        if (!query(&s, c, r, stack, &hits)) {
          ok = 0;
          break;
        }
        if (hits.count > n_ngb) break;
        r *= 1.5;
        if (r >= r_limit || r > 1e3 * guess * cbrt((double)n)) {
          ok = -1;
          break;
        }
      }
      if (ok == 1) {
        qsort(hits.d2, (size_t)hits.count, sizeof *hits.d2, cmp_double);
        double h = 0.5 * (sqrt(hits.d2[n_ngb - 1]) + sqrt(hits.d2[n_ngb]));
        p->h_cm[s.tree.order[k]] = h;
        /* the next particle (a neighbour in Morton order) starts from this size */
        r = 1.25 * sqrt(hits.d2[n_ngb]);
        if (!(r > 0.0)) r = guess;
        if (r >= r_limit) r = 0.999 * r_limit;
      } else {
#pragma omp critical(sph_neighbours_failure)
        {
          if (ok == 0) no_memory = 1;
          if (ok < 0 && (failed < 0 || k < failed)) failed = k;
        }
        ok = 1; /* try the others: report the first failure in tree order */
        r = guess;
      }
    }
    if (!stack) {
#pragma omp critical(sph_neighbours_failure)
      no_memory = 1;
    }
    free(stack);
    free(hits.d2);
    free(hits.slot);
  }
  int64_t bad = failed >= 0 ? s.tree.order[failed] : -1;
  search_free(&s);
  IONF_CHECK(!no_memory, IONF_ERR_MEM, "neighbour search: out of memory");
  IONF_CHECK(bad < 0, IONF_ERR_INPUT,
             "particle %lld has fewer than %d neighbours within half the periodic box; use "
             "more particles or a smaller neighbour number",
             (long long)bad, n_ngb);
  return IONF_OK;
}

/* A thread's scratch for queries: the hit list and the traversal stack (NULL when out of
   memory: the caller says so). */
struct scratch {
  struct hits hits;
  int32_t *stack;
};

static void scratch_init(struct scratch *q, const struct search *s) {
  memset(&q->hits, 0, sizeof q->hits);
  q->stack = malloc(((size_t)s->tree.height + 2) * sizeof *q->stack);
}

static void scratch_free(struct scratch *q) {
  free(q->stack);
  free(q->hits.d2);
  free(q->hits.slot);
}

/* ---- densities and counts ------------------------------------------------------------- */

/* For each particle: the hits within its own h; per-particle result by `what`. */
static ionf_err gather(const struct particle_set *p, double *density, int32_t *counts) {
  struct search s;
  IONF_CALL(search_build(p, &s));
  const double r_limit = search_radius_limit(&s);
  const int64_t n = p->count;
  int no_memory = 0;
  int64_t too_big = -1;
#pragma omp parallel if (n >= SEARCH_PARALLEL_MIN)
  {
    struct scratch q;
    scratch_init(&q, &s);
    struct hits *hits = &q.hits;
#pragma omp for schedule(static)
    for (int64_t k = 0; k < n; ++k) {
      int64_t i = s.tree.order[k];
      double h = p->h_cm[i];
      if (!q.stack || !(h < r_limit)) {
#pragma omp critical(sph_neighbours_gather)
        {
          if (!q.stack) no_memory = 1;
          else if (too_big < 0 || i < too_big) too_big = i;
        }
        continue;
      }
      if (!query(&s, s.xyz + 3 * k, h, q.stack, hits)) {
#pragma omp critical(sph_neighbours_gather)
        no_memory = 1;
        continue;
      }
      if (counts) counts[i] = (int32_t)hits->count;
      if (density) {
        double rho = 0.0;
        for (int64_t m = 0; m < hits->count; ++m)
          rho += p->mass_g[s.tree.order[hits->slot[m]]] * sph_kernel_w_r2(hits->d2[m], h);
        density[i] = rho;
      }
    }
    scratch_free(&q);
  }
  search_free(&s);
  IONF_CHECK(!no_memory, IONF_ERR_MEM, "neighbour search: out of memory");
  IONF_CHECK(too_big < 0, IONF_ERR_INPUT,
             "particle %lld has smoothing length %g cm, not below half the periodic box (%g cm)",
             (long long)too_big, too_big >= 0 ? p->h_cm[too_big] : 0.0, r_limit);
  return IONF_OK;
}

ionf_err sph_neighbours_densities(struct particle_set *p) {
  IONF_CHECK(p, IONF_ERR_INTERNAL, "sph_neighbours_densities: NULL argument");
  if (!p->density_g_cm3) {
    p->density_g_cm3 = ionf_calloc((size_t)p->count, sizeof(double), "particle densities");
    if (!p->density_g_cm3) return IONF_ERR_MEM;
  }
  IONF_CALL(gather(p, p->density_g_cm3, NULL));
  return IONF_OK;
}

ionf_err sph_neighbours_counts(const struct particle_set *p, int32_t *counts) {
  IONF_CHECK(p && counts, IONF_ERR_INTERNAL, "sph_neighbours_counts: NULL argument");
  IONF_CALL(gather(p, NULL, counts));
  return IONF_OK;
}

/* ---- repulsion ------------------------------------------------------------------------- */

static ionf_err repel_once(struct particle_set *p, double r_cut, double step, double *moved) {
  struct search s;
  IONF_CALL(search_build(p, &s));
  IONF_CHECK(r_cut < search_radius_limit(&s), IONF_ERR_INPUT,
             "repulsion radius %g cm is not below half the periodic box", r_cut);
  const int64_t n = p->count;
  int no_memory = 0;
#pragma omp parallel if (n >= SEARCH_PARALLEL_MIN)
  {
    struct scratch q;
    scratch_init(&q, &s);
    const struct hits *hits = &q.hits;
#pragma omp for schedule(static)
    for (int64_t k = 0; k < n; ++k) {
      int64_t i = s.tree.order[k];
      const double *c = s.xyz + 3 * k;
      double push[3] = {0.0, 0.0, 0.0};
      if (!q.stack || !query(&s, c, r_cut, q.stack, &q.hits)) {
#pragma omp critical(sph_neighbours_repel)
        no_memory = 1;
        continue;
      }
      for (int64_t m = 0; m < hits->count; ++m) {
        double d = sqrt(hits->d2[m]);
        if (!(d > 0.0)) continue; /* itself (or a twin: no direction to push) */
        const double *o = s.xyz + 3 * (int64_t)hits->slot[m];
        double w = (1.0 - d / r_cut) * (1.0 - d / r_cut) / d;
        for (int a = 0; a < 3; ++a) {
          double dx = c[a] - o[a];
          if (s.periodic) dx -= s.box[a] * nearbyint(dx / s.box[a]);
          push[a] += w * dx;
        }
      }
      double len = sqrt(push[0] * push[0] + push[1] * push[1] + push[2] * push[2]);
      double scale = len > 1.0 ? step / len : step; /* at most one step */
      for (int a = 0; a < 3; ++a) moved[3 * i + a] = scale * push[a];
    }
    scratch_free(&q);
  }
  search_free(&s);
  IONF_CHECK(!no_memory, IONF_ERR_MEM, "repulsion: out of memory");
#pragma omp parallel for schedule(static) if (n >= SEARCH_PARALLEL_MIN)
  for (int64_t i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) {
      double x = p->pos_cm[3 * i + a] + moved[3 * i + a], box = p->box_size_cm[a];
      if (p->has_box && p->periodic) {
        x -= box * floor(x / box);
        if (x >= box) x = 0.0; /* -tiny wraps to box in rounding */
      } else if (p->has_box) {
        x = x < 0.0 ? 0.0 : (x > box ? box : x);
      }
      p->pos_cm[3 * i + a] = x;
    }
  return IONF_OK;
}

ionf_err sph_neighbours_repel(struct particle_set *p, double r_cut_cm, double step_cm,
                              int iterations) {
  IONF_CHECK(p, IONF_ERR_INTERNAL, "sph_neighbours_repel: NULL argument");
  IONF_CHECK(r_cut_cm > 0.0 && step_cm > 0.0 && iterations >= 0, IONF_ERR_INPUT,
             "repulsion: radius %g cm, step %g cm, %d iterations; all must be positive",
             r_cut_cm, step_cm, iterations);
  double *moved = ionf_calloc(3 * (size_t)p->count, sizeof *moved, "repulsion displacements");
  if (!moved) return IONF_ERR_MEM;
  ionf_err rc = IONF_OK;
  for (int it = 0; it < iterations && rc == IONF_OK; ++it) rc = repel_once(p, r_cut_cm, step_cm, moved);
  free(moved);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

/**
 * @file partition.c
 * @brief Cost-balanced source partitioning.
 */
#include "engine/partition.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt/asora/asora_k.h"

int64_t partition_source_cost(const int32_t *src, int64_t n, int periodic, double r_max_cells) {
  int s[3] = {src[0], src[1], src[2]};
  struct asora_domain d;
  struct grid_box whole = grid_box_whole(n);
  asora_domain_make(s, n, periodic, &whole, r_max_cells, &d);
  if (r_max_cells <= 0.0) return asora_domain_box_cells(&d);
  /* lines of constant (di, dj): the dk inside both the sphere and the domain */
  int64_t cells = 0;
  for (int di = d.lo[0]; di <= d.hi[0]; ++di)
    for (int dj = d.lo[1]; dj <= d.hi[1]; ++dj) {
      double rest = d.r2_max_cells - (double)di * di - (double)dj * dj;
      if (rest < 0.0) continue;
      int reach = (int)floor(sqrt(rest));
      int lo = d.lo[2] > -reach ? d.lo[2] : -reach;
      int hi = d.hi[2] < reach ? d.hi[2] : reach;
      if (hi >= lo) cells += hi - lo + 1;
    }
  return cells;
}

struct costed {
  int64_t index;
  int64_t cost;
  int rank;
};

static int by_cost_desc(const void *a, const void *b) {
  const struct costed *x = a, *y = b;
  if (x->cost != y->cost) return x->cost > y->cost ? -1 : 1;
  return x->index < y->index ? -1 : (x->index > y->index);
}

static int by_rank_then_index(const void *a, const void *b) {
  const struct costed *x = a, *y = b;
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return x->index < y->index ? -1 : (x->index > y->index);
}

/* Each source's tracing cost into c[i].cost (c[i].index = i). */
static void partition_costs(const struct source_list *s, int64_t n, int periodic,
                            double r_max_cells, struct costed *c) {
  /* Sources away from every wall (or in a periodic box) share one cost. */
  int64_t interior = -1;
  for (int64_t i = 0; i < s->n; ++i) {
    const int32_t *p = s->ijk + 3 * i;
    int near_wall = 0;
    if (!periodic) {
      double reach = r_max_cells > 0.0 ? ceil(r_max_cells) : (double)n;
      for (int a = 0; a < 3; ++a)
        if ((double)p[a] < reach || (double)(n - 1 - p[a]) < reach) near_wall = 1;
    }
    if (near_wall || interior < 0) {
      c[i].cost = partition_source_cost(p, n, periodic, r_max_cells);
      if (!near_wall) interior = c[i].cost;
    } else {
      c[i].cost = interior;
    }
    c[i].index = i;
  }
}

/* Reorder s by c[].rank (then original order), fill first/count, the imbalance. */
static ionf_err partition_apply(struct source_list *s, struct costed *c, int n_ranks,
                                int64_t *first, int64_t *count, double *imbalance) {
  int64_t ns = s->n;
  int64_t *load = ionf_calloc((size_t)n_ranks, sizeof *load, "rank loads");
  int32_t *ijk = ionf_malloc(3 * sizeof(int32_t) * (size_t)(ns ? ns : 1), "sources");
  double *ndot = ionf_malloc(sizeof(double) * (size_t)(ns ? ns : 1), "sources");
  if (!load || !ijk || !ndot) {
    free(load); free(ijk); free(ndot);
    return IONF_ERR_MEM;
  }
  qsort(c, (size_t)ns, sizeof *c, by_rank_then_index);
  for (int r = 0; r < n_ranks; ++r) count[r] = 0;
  for (int64_t i = 0; i < ns; ++i) {
    memcpy(ijk + 3 * i, s->ijk + 3 * c[i].index, 3 * sizeof(int32_t));
    ndot[i] = s->ndot_per_s[c[i].index];
    count[c[i].rank]++;
    load[c[i].rank] += c[i].cost;
  }
  first[0] = 0;
  for (int r = 1; r < n_ranks; ++r) first[r] = first[r - 1] + count[r - 1];
  memcpy(s->ijk, ijk, 3 * sizeof(int32_t) * (size_t)ns);
  memcpy(s->ndot_per_s, ndot, sizeof(double) * (size_t)ns);
  int64_t max_load = 0, total = 0;
  for (int r = 0; r < n_ranks; ++r) {
    total += load[r];
    if (load[r] > max_load) max_load = load[r];
  }
  *imbalance = total > 0 ? (double)max_load * n_ranks / (double)total : 1.0;
  free(load); free(ijk); free(ndot);
  return IONF_OK;
}

ionf_err partition_sources(struct source_list *s, int64_t n, int periodic, double r_max_cells,
                           int n_ranks, int64_t *first, int64_t *count, double *imbalance) {
  int64_t ns = s->n;
  struct costed *c = ionf_malloc(sizeof *c * (size_t)(ns ? ns : 1), "source costs");
  int64_t *load = ionf_calloc((size_t)n_ranks, sizeof *load, "rank loads");
  if (!c || !load) {
    free(c); free(load);
    return IONF_ERR_MEM;
  }
  partition_costs(s, n, periodic, r_max_cells, c);
  qsort(c, (size_t)ns, sizeof *c, by_cost_desc);
  for (int64_t i = 0; i < ns; ++i) { /* to the least-loaded rank */
    int best = 0;
    for (int r = 1; r < n_ranks; ++r)
      if (load[r] < load[best]) best = r;
    c[i].rank = best;
    load[best] += c[i].cost;
  }
  free(load);
  ionf_err rc = partition_apply(s, c, n_ranks, first, count, imbalance);
  free(c);
  return rc;
}

ionf_err partition_sources_by_slab(struct source_list *s, int64_t n, int periodic,
                                   double r_max_cells, int n_ranks, int64_t *first,
                                   int64_t *count, double *imbalance) {
  int64_t ns = s->n;
  struct costed *c = ionf_malloc(sizeof *c * (size_t)(ns ? ns : 1), "source costs");
  if (!c) return IONF_ERR_MEM;
  partition_costs(s, n, periodic, r_max_cells, c);
  for (int64_t i = 0; i < ns; ++i) { /* the owner of the source's plane (comm_slab's) */
    int64_t plane = s->ijk[3 * i];
    int r = (int)((plane * n_ranks) / n);
    while (r > 0 && plane < n * r / n_ranks) --r;
    while (r < n_ranks - 1 && plane >= n * (r + 1) / n_ranks) ++r;
    c[i].rank = r;
  }
  ionf_err rc = partition_apply(s, c, n_ranks, first, count, imbalance);
  free(c);
  return rc;
}

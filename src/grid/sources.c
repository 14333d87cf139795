/**
 * @file sources.c
 * @brief Source lists: allocation, validation, merging of sources that share a cell.
 */
#include "grid/sources.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"

ionf_err sources_alloc(int64_t n, struct source_list *s) {
  memset(s, 0, sizeof *s);
  IONF_CHECK(n >= 0, IONF_ERR_INTERNAL, "sources_alloc: negative source count %lld",
             (long long)n);
  /* 3 int32 + 1 double per source; refuse counts whose byte size overflows size_t. */
  IONF_CHECK((uint64_t)n <= SIZE_MAX / (3 * sizeof(int32_t) + sizeof(double)), IONF_ERR_MEM,
             "could not allocate %lld sources: size overflows", (long long)n);
  s->ijk = ionf_malloc((size_t)n * 3 * sizeof(int32_t), "source positions");
  s->ndot_per_s = ionf_malloc((size_t)n * sizeof(double), "source photon rates");
  if (!s->ijk || !s->ndot_per_s) {
    sources_free(s);
    return IONF_ERR_MEM;
  }
  s->n = n;
  return IONF_OK;
}

ionf_err sources_from_positions(int64_t n, const double *pos_cm, const double *ndot_per_s,
                                struct source_list *s) {
  memset(s, 0, sizeof *s);
  size_t count = (size_t)(n > 0 ? n : 1);
  s->pos_cm = ionf_malloc(3 * sizeof(double) * count, "source positions");
  s->ndot_per_s = ionf_malloc(sizeof(double) * count, "source photon rates");
  if (!s->pos_cm || !s->ndot_per_s) {
    sources_free(s);
    return IONF_ERR_MEM;
  }
  if (n > 0) {
    memcpy(s->pos_cm, pos_cm, 3 * sizeof(double) * (size_t)n);
    memcpy(s->ndot_per_s, ndot_per_s, sizeof(double) * (size_t)n);
  }
  s->n = n;
  return IONF_OK;
}

void sources_free(struct source_list *s) {
  if (!s) return;
  free(s->ijk);
  free(s->ndot_per_s);
  free(s->pos_cm);
  memset(s, 0, sizeof *s);
}

ionf_err sources_validate(const struct source_list *s, int64_t n_cells_1d,
                          const char *origin) {
  if (!origin) origin = "sources";
  IONF_CHECK(n_cells_1d > 0, IONF_ERR_INTERNAL, "%s: grid size %lld is not positive", origin,
             (long long)n_cells_1d);
  IONF_CHECK(s->n >= 0 && (s->n == 0 || (s->ijk && s->ndot_per_s)), IONF_ERR_INTERNAL,
             "%s: malformed source list (n = %lld)", origin, (long long)s->n);
  for (int64_t q = 0; q < s->n; ++q) {
    const int32_t *p = s->ijk + 3 * q;
    int inside = 1;
    for (int d = 0; d < 3; ++d)
      if (p[d] < 0 || (int64_t)p[d] >= n_cells_1d) inside = 0;
    IONF_CHECK(inside, IONF_ERR_INPUT,
               "%s: source %lld at (%d, %d, %d) is outside the grid (cell indices must be "
               "in 0..%lld)",
               origin, (long long)q, (int)p[0], (int)p[1], (int)p[2],
               (long long)(n_cells_1d - 1));
    double ndot = s->ndot_per_s[q];
    IONF_CHECK(isfinite(ndot) && ndot > 0.0, IONF_ERR_INPUT,
               "%s: source %lld has Ndot = %g; must be finite and > 0", origin, (long long)q,
               ndot);
  }
  return IONF_OK;
}

/* Sort key: flat cell index, then the original position, which makes qsort stable. */
struct merge_key {
  int64_t cell;
  int64_t orig;
};

static int merge_key_cmp(const void *a, const void *b) {
  const struct merge_key *x = a, *y = b;
  if (x->cell != y->cell) return x->cell < y->cell ? -1 : 1;
  return (x->orig > y->orig) - (x->orig < y->orig);
}

ionf_err sources_merge_same_cell(struct source_list *s, int64_t n_cells_1d) {
  if (s->n <= 0) return IONF_OK;
  /* The flat index is only meaningful for cells inside the grid. */
  for (int64_t q = 0; q < s->n; ++q)
    for (int d = 0; d < 3; ++d)
      IONF_CHECK(s->ijk[3 * q + d] >= 0 && (int64_t)s->ijk[3 * q + d] < n_cells_1d,
                 IONF_ERR_INTERNAL,
                 "sources_merge_same_cell: source %lld is outside the %lld^3 grid (call "
                 "sources_validate first)",
                 (long long)q, (long long)n_cells_1d);

  struct merge_key *keys = ionf_malloc((size_t)s->n * sizeof *keys, "source merge keys");
  if (!keys) return IONF_ERR_MEM;
  for (int64_t q = 0; q < s->n; ++q) {
    const int32_t *p = s->ijk + 3 * q;
    keys[q].cell = grid_index(n_cells_1d, p[0], p[1], p[2]);
    keys[q].orig = q;
  }
  qsort(keys, (size_t)s->n, sizeof *keys, merge_key_cmp);

  /* Build the merged list in new arrays: in place would overwrite unread entries. */
  struct source_list merged;
  ionf_err rc = sources_alloc(s->n, &merged);
  if (rc != IONF_OK) {
    free(keys);
    return rc;
  }
  int64_t m = -1;
  for (int64_t q = 0; q < s->n; ++q) {
    int64_t o = keys[q].orig;
    if (m < 0 || keys[q].cell != keys[q - 1].cell) {
      ++m;
      memcpy(merged.ijk + 3 * m, s->ijk + 3 * o, 3 * sizeof(int32_t));
      merged.ndot_per_s[m] = 0.0;
    }
    /* Summed in the original order of the sources, so the result is reproducible. */
    merged.ndot_per_s[m] += s->ndot_per_s[o];
  }
  merged.n = m + 1;
  free(keys);
  sources_free(s);
  *s = merged;
  return IONF_OK;
}

double sources_total_ndot(const struct source_list *s) {
  double sum = 0.0;
  for (int64_t q = 0; q < s->n; ++q) sum += s->ndot_per_s[q];
  return sum;
}

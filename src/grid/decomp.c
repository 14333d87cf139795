/**
 * @file decomp.c
 * @brief Slabs of i-planes with halos: each rank's box and the halo exchange lists.
 */
#include "grid/decomp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/comm.h"

static int64_t decomp_halo(int64_t n, double r_max_cells) {
  if (!(r_max_cells > 0.0)) return n; /* no photon radius: every plane */
  double h = ceil(r_max_cells);
  return h >= (double)n ? n : (int64_t)h;
}

/* The box along x of `rank`: lo, extent (the other axes are whole). */
static void decomp_x_range(int64_t n, int periodic, int64_t halo, int rank, int ranks,
                           int64_t *lo, int64_t *extent) {
  int64_t first, count;
  comm_slab(n, rank, ranks, &first, &count);
  int64_t a = first - halo, b = first + count + halo; /* [a, b) */
  if (periodic) {
    if (b - a >= n) { /* all the way round: the whole axis */
      a = 0;
      b = n;
    }
  } else {
    if (a < 0) a = 0;
    if (b > n) b = n;
  }
  *lo = a;
  *extent = b - a;
}

struct grid_box decomp_box_of(enum decomp_kind kind, int64_t n, int periodic, double r_max_cells,
                              int rank, int ranks) {
  struct grid_box b = grid_box_whole(n);
  if (kind != DECOMP_SLABS || ranks <= 1) return b;
  int64_t halo = decomp_halo(n, r_max_cells);
  decomp_x_range(n, periodic, halo, rank, ranks, &b.lo[0], &b.extent[0]);
  b.halo = b.extent[0] == n ? 0 : halo;
  return b;
}

int64_t decomp_max_box_cells(enum decomp_kind kind, int64_t n, int periodic, double r_max_cells,
                             int ranks) {
  int64_t most = 0;
  for (int r = 0; r < (kind == DECOMP_SLABS ? ranks : 1); ++r) {
    struct grid_box b = decomp_box_of(kind, n, periodic, r_max_cells, r, ranks);
    if (grid_box_cells(&b) > most) most = grid_box_cells(&b);
  }
  return most;
}

const char *decomp_kind_name(enum decomp_kind kind) {
  return kind == DECOMP_SLABS ? "slabs" : "replicated";
}

/* The owner of global plane g (comm_slab's inverse). */
static int decomp_owner(int64_t n, int ranks, int64_t g) {
  int r = (int)((g * ranks) / n); /* a guess, then the exact slab */
  int64_t first, count;
  for (;;) {
    comm_slab(n, r, ranks, &first, &count);
    if (g < first) --r;
    else if (g >= first + count) ++r;
    else return r;
  }
}

/* Rank q's halo planes as ranges (peer = their owner), appended to *out (grown). */
static ionf_err decomp_recv_of(int64_t n, int periodic, int64_t halo, int q, int ranks,
                               struct decomp_range **out, int *n_out, int *cap) {
  int64_t lo, extent, first, count;
  decomp_x_range(n, periodic, halo, q, ranks, &lo, &extent);
  comm_slab(n, q, ranks, &first, &count);
  for (int64_t b = 0; b < extent; ++b) {
    int64_t u = lo + b;
    int64_t g = periodic ? ((u % n) + n) % n : u;
    if (g >= first && g < first + count && u == g) continue; /* owned */
    int owner = decomp_owner(n, ranks, g);
    int64_t o_lo, o_ext, o_first, o_count;
    decomp_x_range(n, periodic, halo, owner, ranks, &o_lo, &o_ext);
    comm_slab(n, owner, ranks, &o_first, &o_count);
    int64_t peer_plane = g - o_lo; /* the owned plane's index in the owner's box */
    struct decomp_range *last = *n_out > 0 ? &(*out)[*n_out - 1] : NULL;
    if (last && last->peer == owner && last->plane + last->planes == b &&
        last->peer_plane + last->planes == peer_plane) {
      last->planes++;
      continue;
    }
    if (*n_out == *cap) {
      int grown = *cap ? 2 * *cap : 8;
      struct decomp_range *p = realloc(*out, sizeof *p * (size_t)grown);
      IONF_CHECK(p, IONF_ERR_MEM, "out of memory for the halo exchange lists");
      *out = p;
      *cap = grown;
    }
    (*out)[(*n_out)++] = (struct decomp_range){owner, b, peer_plane, 1};
  }
  return IONF_OK;
}

ionf_err decomp_make(enum decomp_kind kind, int64_t n, int periodic, double r_max_cells, int rank,
                     int ranks, struct decomp *d) {
  memset(d, 0, sizeof *d);
  d->kind = ranks > 1 ? kind : DECOMP_REPLICATED;
  d->rank = rank;
  d->ranks = ranks;
  d->n = n;
  d->plane_cells = n * n;
  d->box = decomp_box_of(d->kind, n, periodic, r_max_cells, rank, ranks);
  if (d->kind == DECOMP_REPLICATED) {
    d->own_first = 0;
    d->own_count = n;
    return IONF_OK;
  }
  IONF_CHECK(n >= ranks, IONF_ERR_CONFIG,
             "grid.decomposition = slabs: %d ranks for %lld planes (grid.N); every rank needs "
             "at least one",
             ranks, (long long)n);
  d->halo = decomp_halo(n, r_max_cells);
  comm_slab(n, rank, ranks, &d->own_first, &d->own_count);
  d->own_offset = d->own_first - d->box.lo[0];
  int cap = 0;
  IONF_CALL(decomp_recv_of(n, periodic, d->halo, rank, ranks, &d->recv, &d->n_recv, &cap));
  /* what this rank sends: every other rank's ranges whose owner it is, in their order */
  struct decomp_range *all = NULL;
  int n_all = 0, cap_all = 0, cap_send = 0;
  ionf_err rc = IONF_OK;
  for (int q = 0; q < ranks && rc == IONF_OK; ++q) {
    if (q == rank) continue;
    n_all = 0;
    rc = decomp_recv_of(n, periodic, d->halo, q, ranks, &all, &n_all, &cap_all);
    for (int m = 0; m < n_all && rc == IONF_OK; ++m) {
      if (all[m].peer != rank) continue;
      if (d->n_send == cap_send) {
        cap_send = cap_send ? 2 * cap_send : 8;
        struct decomp_range *p = realloc(d->send, sizeof *p * (size_t)cap_send);
        if (!p) {
          rc = ionf_error_set(IONF_ERR_MEM, "out of memory for the halo exchange lists");
          break;
        }
        d->send = p;
      }
      d->send[d->n_send++] = (struct decomp_range){q, all[m].peer_plane, all[m].plane, all[m].planes};
    }
  }
  free(all);
  if (rc != IONF_OK) decomp_free(d);
  return rc;
}

int decomp_exchanges(const struct decomp *d) {
  return d->kind == DECOMP_SLABS && d->ranks > 1;
}

void decomp_free(struct decomp *d) {
  if (!d) return;
  free(d->recv);
  free(d->send);
  d->recv = d->send = NULL;
  d->n_recv = d->n_send = 0;
}

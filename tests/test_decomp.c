/**
 * @file test_decomp.c
 * @brief The slab decomposition (grid/decomp.h): owned planes tile the grid, every box
 *        holds its slab and a halo of ceil(R_max) (or the whole axis), every halo plane
 *        is filled from the rank that owns the same global plane, and the send lists
 *        mirror the receive lists pair by pair, in order.
 */
#include <stdlib.h>

#include "grid/decomp.h"
#include "test_util.h"

/* Global plane of box plane b of a box starting at lo (periodic: wrapped). */
static int64_t global_plane(int64_t lo, int64_t b, int64_t n, int periodic) {
  int64_t u = lo + b;
  return periodic ? ((u % n) + n) % n : u;
}

static void check(int64_t n, int periodic, double r_max, int ranks) {
  struct decomp *d = calloc((size_t)ranks, sizeof *d);
  int *owner = malloc(sizeof(int) * (size_t)n);
  for (int64_t g = 0; g < n; ++g) owner[g] = -1;
  for (int r = 0; r < ranks; ++r) {
    EXPECT(decomp_make(DECOMP_SLABS, n, periodic, r_max, r, ranks, &d[r]) == IONF_OK,
           "decomp_make n %lld rank %d", (long long)n, r);
    for (int64_t g = d[r].own_first; g < d[r].own_first + d[r].own_count; ++g) {
      EXPECT(owner[g] == -1, "plane %lld owned twice", (long long)g);
      owner[g] = r;
    }
    const struct grid_box *b = &d[r].box;
    EXPECT(b->extent[1] == n && b->extent[2] == n && b->lo[1] == 0 && b->lo[2] == 0,
           "the box spans y and z whole");
    EXPECT(b->extent[0] <= n, "extent %lld <= n", (long long)b->extent[0]);
    /* the owned planes sit in the box at own_offset */
    EXPECT(global_plane(b->lo[0], d[r].own_offset, n, periodic) == d[r].own_first,
           "own_offset");
    /* every plane within the halo of the slab is in the box (or the box is the axis) */
    int64_t h = (int64_t)ceil(r_max);
    if (b->extent[0] < n)
      EXPECT(b->lo[0] <= d[r].own_first - (periodic ? h : (d[r].own_first < h ? d[r].own_first : h)),
             "halo below: lo %lld own %lld h %lld", (long long)b->lo[0], (long long)d[r].own_first,
             (long long)h);
  }
  for (int64_t g = 0; g < n; ++g) EXPECT(owner[g] >= 0, "plane %lld owned by nobody", (long long)g);
  for (int r = 0; r < ranks; ++r) {
    const struct decomp *a = &d[r];
    int64_t halo_planes = 0;
    for (int m = 0; m < a->n_recv; ++m) {
      const struct decomp_range *q = &a->recv[m];
      halo_planes += q->planes;
      const struct decomp *o = &d[q->peer];
      for (int64_t p = 0; p < q->planes; ++p) {
        int64_t g = global_plane(a->box.lo[0], q->plane + p, n, periodic);
        int64_t go = global_plane(o->box.lo[0], q->peer_plane + p, n, periodic);
        EXPECT(g == go, "rank %d halo plane %lld is global %lld, its source %lld", r,
               (long long)(q->plane + p), (long long)g, (long long)go);
        EXPECT(owner[g] == q->peer, "filled by its owner");
        int64_t local = q->peer_plane + p - o->own_offset;
        EXPECT(local >= 0 && local < o->own_count, "from an owned plane of the peer");
      }
    }
    EXPECT(halo_planes == a->box.extent[0] - a->own_count, "rank %d: %lld halo planes of %lld",
           r, (long long)halo_planes, (long long)(a->box.extent[0] - a->own_count));
    /* the send lists: in each peer's recv order */
    for (int q = 0; q < ranks; ++q) {
      int ms = 0;
      for (int m = 0; m < d[q].n_recv; ++m) {
        if (d[q].recv[m].peer != r) continue;
        while (ms < a->n_send && a->send[ms].peer != q) ++ms;
        EXPECT(ms < a->n_send, "rank %d sends rank %d's range %d", r, q, m);
        if (ms >= a->n_send) break;
        EXPECT(a->send[ms].plane == d[q].recv[m].peer_plane &&
                   a->send[ms].peer_plane == d[q].recv[m].plane &&
                   a->send[ms].planes == d[q].recv[m].planes,
               "send mirrors recv");
        ++ms;
      }
    }
  }
  for (int r = 0; r < ranks; ++r) decomp_free(&d[r]);
  free(d);
  free(owner);
}

int main(void) {
  const int64_t sizes[] = {7, 16, 24, 33};
  const double radii[] = {1.0, 2.0, 2.5, 5.0, 8.0, 12.0, 40.0};
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s)
    for (size_t r = 0; r < sizeof radii / sizeof *radii; ++r)
      for (int periodic = 0; periodic <= 1; ++periodic)
        for (int ranks = 2; ranks <= 5; ++ranks)
          if (ranks <= sizes[s]) check(sizes[s], periodic, radii[r], ranks);
  /* replicated: the whole grid, nothing to exchange */
  struct decomp d;
  EXPECT(decomp_make(DECOMP_REPLICATED, 16, 1, 3.0, 1, 4, &d) == IONF_OK, "replicated");
  EXPECT(grid_box_is_whole(&d.box, 16) && !decomp_exchanges(&d) && d.own_count == 16, "whole");
  decomp_free(&d);
  /* more ranks than planes: refused */
  EXPECT(decomp_make(DECOMP_SLABS, 3, 1, 1.0, 0, 4, &d) == IONF_ERR_CONFIG, "3 planes, 4 ranks");
  ionf_error_clear();
  /* 4 ranks, 1024^3, R_max = 30: 256 + 60 planes each */
  EXPECT(decomp_max_box_cells(DECOMP_SLABS, 1024, 1, 30.0, 4) == (int64_t)316 * 1024 * 1024,
         "1024^3 / 4 + halo");
  return test_failures ? 1 : 0;
}

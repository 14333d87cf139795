/**
 * @file decomp.h
 * @brief How the grid is split among ranks (grid.decomposition): every rank holds the
 *        whole grid (replicated), or a slab of i-planes plus a halo of ceil(R_max)
 *        planes on each side (slabs), and which halo planes are images of which
 *        rank's owned planes.
 *
 * Slabs are runs of whole i-planes, so in the C-order layout of grid/grid.h a slab, a
 * halo and every range exchanged are contiguous blocks of cells.  Rank r owns the
 * planes comm_slab gives it ([own_first, own_first + own_count), the same rows the
 * snapshot writer writes); its box along x is [own_first - halo, own_first + own_count
 * + halo), clipped to [0, n) on a non-periodic grid, and the whole axis when that
 * would reach all the way round a periodic one.  A photon from an owned source ends
 * within R_max, so the box holds every cell any of the rank's sources reaches.
 *
 * The exchange lists are the same on every rank (each computes all of them): `recv`
 * names this rank's halo planes and the planes of their owner that hold the same
 * cells; `send` the reverse (this rank's owned planes that others hold as halo), in
 * the order the peer's `recv` lists them, so that messages between a pair match in
 * order.  Pure geometry: no MPI here (engine/engine_halo.c moves the data).
 */
#ifndef IONF_DECOMP_H
#define IONF_DECOMP_H

#include <stdint.h>

#include "core/error.h"
#include "grid/grid.h"

enum decomp_kind {
  DECOMP_REPLICATED = 0, /*!< every rank holds the whole grid */
  DECOMP_SLABS = 1       /*!< slabs of i-planes plus a halo */
};

/** Planes of this rank's box that hold the same cells as planes of a peer's box. */
struct decomp_range {
  int peer;           /*!< the other rank */
  int64_t plane;      /*!< first plane, in this rank's box (0 = the box's first plane) */
  int64_t peer_plane; /*!< the same cells' first plane in the peer's box */
  int64_t planes;     /*!< how many */
};

struct decomp {
  enum decomp_kind kind;
  int rank, ranks;
  int64_t n;                /*!< cells per side of the grid */
  int64_t halo;             /*!< halo planes asked for on each side (ceil(R_max)) */
  int64_t own_first;        /*!< the first i-plane this rank owns (global) */
  int64_t own_count;        /*!< planes it owns */
  int64_t own_offset;       /*!< the first owned plane's index in the box */
  int64_t plane_cells;      /*!< cells of one plane, n^2 */
  struct grid_box box;      /*!< the cells this rank holds */
  int n_recv, n_send;
  struct decomp_range *recv; /*!< halo planes <- the owner's planes (peer = owner) */
  struct decomp_range *send; /*!< owned planes -> a peer's halo planes */
};

/**
 * The decomposition of an n^3 grid (periodic or not) for `rank` of `ranks`, with a halo
 * of ceil(r_max_cells) planes (r_max_cells <= 0: no photon radius, so the box is the
 * whole grid).  DECOMP_REPLICATED: the whole grid, no exchange.
 */
IONF_NODISCARD ionf_err decomp_make(enum decomp_kind kind, int64_t n, int periodic,
                                    double r_max_cells, int rank, int ranks, struct decomp *d);
void decomp_free(struct decomp *d);

/** Whether the decomposition exchanges halos (a slab box that is not the whole grid
    on some rank).  1 for slabs on more than one rank. */
int decomp_exchanges(const struct decomp *d);

/** The box rank `rank` of `ranks` holds (what decomp_make would give it). */
struct grid_box decomp_box_of(enum decomp_kind kind, int64_t n, int periodic, double r_max_cells,
                              int rank, int ranks);

/** The most cells any rank's box holds (memory per rank). */
int64_t decomp_max_box_cells(enum decomp_kind kind, int64_t n, int periodic, double r_max_cells,
                             int ranks);

/** "replicated" or "slabs". */
const char *decomp_kind_name(enum decomp_kind kind);

#endif

/**
 * @file engine_halo.c
 * @brief A grid split into slabs (grid/decomp.h): halos filled from their owners,
 *        rates traced into halo cells returned to their owners, chemistry on the owned
 *        cells.  The engine's step calls these instead of the replicated reductions.
 *
 * Why rates go back rather than sources being traced twice: a source near a slab's
 * face is traced once, by its owner, over its own box (slab + halo); the rates its
 * photons leave in halo cells are added to the owners' cells.  Tracing every source
 * within R_max of a face on both sides instead would cost 2 R_max / slab of extra
 * tracing (23% for 1024^3 on 4 ranks, R_max = 30) against moving 2 R_max planes of
 * rates, a few milliseconds over NVLink.
 *
 * Data move as contiguous runs of whole planes.  Where the backend can move them in
 * its own memory (the CUDA backend's NCCL send/receive) it does; otherwise through the
 * host: download, MPI point-to-point (comm_exchange), upload.  Sums are made in a fixed
 * order (the owner's own rate, then each peer's in the order of the exchange lists),
 * so a run repeats bit for bit.
 */
#include "engine/engine_halo.h"
#include "engine/engine_reduce.h"

#include <stdlib.h>
#include <string.h>

#include "mpi/comm.h"

/* The host arrays of the fields in `mask` and their blocks (species). */
static int halo_fields(struct engine *e, unsigned mask, double **out, int *blocks) {
  int n = 0;
  for (unsigned bit = 1; bit <= FIELD_HEAT; bit <<= 1)
    if (mask & bit) {
      double *a = backend_field_array(&e->fields, bit);
      if (!a) continue;
      blocks[n] = backend_field_per_species(bit) ? e->fields.n_species : 1;
      out[n++] = a;
    }
  return n;
}

/* Move the planes of `ranges` (this rank's box) of the fields in mask between backend
   and host (to_host 1: download). */
static ionf_err halo_move(struct engine *e, unsigned mask, const struct decomp_range *r, int n,
                          int to_host) {
  struct backend *be = e->backend;
  const int64_t pc = e->decomp.plane_cells;
  for (int m = 0; m < n; ++m) {
    int64_t first = r[m].plane * pc, count = r[m].planes * pc;
    IONF_CALL(to_host ? be->ops.download(be, mask, first, count)
                      : be->ops.upload(be, mask, first, count));
  }
  return IONF_OK;
}

/* Messages for `ranges` of every field block: peer and this rank's planes (or, with
   scratch, consecutive pieces of it). */
static int halo_messages(struct engine *e, double **arrays, const int *blocks, int n_arrays,
                         const struct decomp_range *r, int n, double *scratch,
                         struct comm_message *out) {
  const int64_t pc = e->decomp.plane_cells, cells = e->fields.cells;
  int k = 0;
  int64_t used = 0;
  for (int f = 0; f < n_arrays; ++f)
    for (int b = 0; b < blocks[f]; ++b)
      for (int m = 0; m < n; ++m) {
        int64_t count = r[m].planes * pc;
        double *at = scratch ? scratch + used : arrays[f] + b * cells + r[m].plane * pc;
        out[k++] = (struct comm_message){r[m].peer, at, count};
        used += count;
      }
  return k;
}

static int64_t halo_planes(const struct decomp_range *r, int n) {
  int64_t p = 0;
  for (int m = 0; m < n; ++m) p += r[m].planes;
  return p;
}

/* Halo planes := the owners' planes, through the host. */
static ionf_err host_fill(struct engine *e, unsigned mask) {
  const struct decomp *d = &e->decomp;
  double *arrays[8];
  int blocks[8];
  int n_arrays = halo_fields(e, mask, arrays, blocks);
  int per = n_arrays * IONF_MAX_SPECIES;
  struct comm_message *msg = malloc(sizeof *msg * (size_t)(per * (d->n_send + d->n_recv) + 1));
  IONF_CHECK(msg, IONF_ERR_MEM, "rank %d: out of memory for the halo messages", comm_rank());
  IONF_CALL(halo_move(e, mask, d->send, d->n_send, 1));
  int ns = halo_messages(e, arrays, blocks, n_arrays, d->send, d->n_send, NULL, msg);
  int nr = halo_messages(e, arrays, blocks, n_arrays, d->recv, d->n_recv, NULL, msg + ns);
  ionf_err rc = comm_exchange(msg, ns, msg + ns, nr);
  free(msg);
  IONF_CALL(rc);
  return halo_move(e, mask, d->recv, d->n_recv, 0);
}

/* Owned planes += the peers' halo copies of them, through the host. */
static ionf_err host_return(struct engine *e, unsigned mask) {
  const struct decomp *d = &e->decomp;
  double *arrays[8];
  int blocks[8];
  int n_arrays = halo_fields(e, mask, arrays, blocks), n_blocks = 0;
  for (int f = 0; f < n_arrays; ++f) n_blocks += blocks[f];
  const int64_t pc = d->plane_cells, cells = e->fields.cells;
  int per = n_arrays * IONF_MAX_SPECIES;
  struct comm_message *msg = malloc(sizeof *msg * (size_t)(per * (d->n_send + d->n_recv) + 1));
  double *scratch = malloc(sizeof(double) * (size_t)(halo_planes(d->send, d->n_send) * pc * n_blocks + 1));
  if (!msg || !scratch) {
    free(msg);
    free(scratch);
    return ionf_error_set(IONF_ERR_MEM, "rank %d: out of memory for the returned halo rates",
                          comm_rank());
  }
  /* my halo planes' rates go to their owners; theirs for my planes into scratch */
  ionf_err rc = halo_move(e, mask, d->recv, d->n_recv, 1);
  if (rc == IONF_OK) rc = halo_move(e, mask, d->send, d->n_send, 1);
  int ns = halo_messages(e, arrays, blocks, n_arrays, d->recv, d->n_recv, NULL, msg);
  int nr = halo_messages(e, arrays, blocks, n_arrays, d->send, d->n_send, scratch, msg + ns);
  if (rc == IONF_OK) rc = comm_exchange(msg, ns, msg + ns, nr);
  if (rc == IONF_OK) { /* added in the order of the lists: the same sum every run */
    const double *from = scratch;
    for (int f = 0; f < n_arrays; ++f)
      for (int b = 0; b < blocks[f]; ++b)
        for (int m = 0; m < d->n_send; ++m) {
          double *to = arrays[f] + b * cells + d->send[m].plane * pc;
          int64_t count = d->send[m].planes * pc;
          for (int64_t c = 0; c < count; ++c) to[c] += from[c];
          from += count;
        }
  }
  free(msg);
  free(scratch);
  IONF_CALL(rc);
  return halo_move(e, mask, d->send, d->n_send, 0);
}

/* Fill (add 0) or return (add 1): in the backend's memory when it can, else through the
   host; timed as the reduction. */
static ionf_err halo_exchange(struct engine *e, unsigned mask, int add) {
  if (!decomp_exchanges(&e->decomp)) return IONF_OK;
  double t0 = ionf_wtime();
  struct backend *be = e->backend;
  ionf_err rc = be->ops.halo ? be->ops.halo(be, &e->decomp, mask, add)
                : add        ? host_return(e, mask)
                             : host_fill(e, mask);
  e->timers.reduce_s += ionf_wtime() - t0;
  return rc;
}

ionf_err engine_halo_fill(struct engine *e, unsigned mask) { return halo_exchange(e, mask, 0); }

ionf_err engine_halo_return(struct engine *e, unsigned mask) { return halo_exchange(e, mask, 1); }

ionf_err engine_halo_update(struct engine *e, double dt_s, struct chem_pass_result *cr) {
  const struct decomp *d = &e->decomp;
  int thermal = e->fields.heating_erg_per_s != NULL;
  IONF_CALL(engine_halo_return(e, FIELD_GAMMA | (thermal ? FIELD_HEAT : 0u)));
  IONF_CALL(engine_chemistry_pass(e, dt_s, d->own_offset * d->plane_cells,
                                  d->own_count * d->plane_cells, cr));
  double t0 = ionf_wtime();
  IONF_CALL(engine_sum_chem_results(cr));
  e->timers.reduce_s += ionf_wtime() - t0;
  /* the next pass traces through the halo's new averages */
  return engine_halo_fill(e, FIELD_X_AV | (thermal ? FIELD_T_AV : 0u));
}

ionf_err engine_halo_end_state(struct engine *e) {
  return engine_halo_fill(e, FIELD_X_END | (e->fields.temperature_end_k ? FIELD_T_END : 0u));
}

/**
 * @file engine_reduce.c
 * @brief The ranks' rates summed and the chemistry pass, by mpi.reduction.
 */
#include "engine/engine_reduce.h"

#include <string.h>

#include "engine/engine_halo.h"
#include "engine/particle_reduce.h"
#include "mpi/comm.h"

/* The convergence sums of a chemistry pass as 6 doubles (to send them), and back. */
static void chem_sums_pack(const struct chem_pass_result *cr, double sums[6]) {
  sums[0] = (double)cr->unconverged_cells;
  sums[1] = (double)cr->cells_at_max_iter;
  sums[2] = cr->sum_x_end;
  sums[3] = cr->sum_x_neutral_end;
  sums[4] = cr->sum_x_end_mass;
  sums[5] = cr->sum_t_end;
}

static void chem_sums_unpack(const double sums[6], struct chem_pass_result *cr) {
  cr->unconverged_cells = (int64_t)sums[0];
  cr->cells_at_max_iter = (int64_t)sums[1];
  cr->sum_x_end = sums[2];
  cr->sum_x_neutral_end = sums[3];
  cr->sum_x_end_mass = sums[4];
  cr->sum_t_end = sums[5];
}

ionf_err engine_sum_chem_results(struct chem_pass_result *cr) {
  double sums[6];
  chem_sums_pack(cr, sums);
  IONF_CALL(comm_allreduce_sum(sums, 6));
  chem_sums_unpack(sums, cr);
  return IONF_OK;
}

/* Rank r's slab of the cells: [first, first + count). */
static void slab_of(const struct engine *e, int r, int64_t *first, int64_t *count) {
  comm_slab(e->slab_units, r, comm_size(), first, count);
  *first *= e->slab_unit_cells;
  *count *= e->slab_unit_cells;
}

/* Every rank's slab of `field` to every rank (an all-gather by broadcasts). */
static ionf_err share_slabs(const struct engine *e, double *field) {
  for (int r = 0; r < comm_size(); ++r) {
    int64_t first, count;
    slab_of(e, r, &first, &count);
    IONF_CALL(comm_bcast(field + first, count, r));
  }
  return IONF_OK;
}

/* The host arrays of the fields in `mask` (bits of enum backend_field), in bit order,
   and how many blocks each holds (the run's species for the per-species ones). */
static int host_fields(struct engine *e, unsigned mask, double **out, int *blocks) {
  int n = 0;
  for (unsigned bit = 1; bit <= FIELD_HEAT; bit <<= 1)
    if (mask & bit) {
      blocks[n] = backend_field_per_species(bit) ? e->fields.n_species : 1;
      out[n++] = backend_field_array(&e->fields, bit);
    }
  return n;
}

ionf_err engine_chemistry_pass(struct engine *e, double dt_s, int64_t first, int64_t count,
                          struct chem_pass_result *cr) {
  const struct fields *w = &e->backend->work;
  int thermal = w->temperature_av_k != NULL;
  struct chem_input in = {.n_cells = count,
                          .dt_s = dt_s,
                          .params = e->chem_now,
                          .n_h_cm3 = w->n_h_cm3 + first,
                          .temperature_k = w->temperature_k + first,
                          .gamma_per_s = w->gamma_per_s + first,
                          .x_ion = w->x_ion + first,
                          .heating_erg_per_s = thermal ? w->heating_erg_per_s + first : NULL,
                          .species_stride = w->cells,
                          .n_species = w->n_species,
                          .he = e->chem_he_now};
  struct chem_state state = {w->x_ion_av + first, w->x_ion_end + first,
                             thermal ? w->temperature_av_k + first : NULL,
                             thermal ? w->temperature_end_k + first : NULL};
  double c0 = ionf_wtime();
  chem_solver_set_clumping(e->chem_solver, &e->clumping_now);
  IONF_CALL(e->chem_solver->ops.pass(e->chem_solver, &in, &state, cr));
  e->timers.chemistry_s += ionf_wtime() - c0;
  return IONF_OK;
}

/* reduce: the sum on rank 0, chemistry there, x_av (T_av) and the sums broadcast */
static ionf_err update_on_rank0(struct engine *e, double dt_s, unsigned rate_bits,
                                unsigned avg_bits, struct chem_pass_result *cr) {
  struct backend *be = e->backend;
  int64_t cells = e->fields.cells;
  double *rates[2], *avgs[2], sums[6];
  int rate_blocks[2], avg_blocks[2];
  int n_rates = host_fields(e, rate_bits, rates, rate_blocks);
  int n_avgs = host_fields(e, avg_bits, avgs, avg_blocks);
  for (int f = 0; f < n_rates; ++f) IONF_CALL(comm_reduce_sum(rates[f], cells * rate_blocks[f], 0));
  if (comm_rank() == 0) {
    IONF_CALL(be->ops.upload(be, rate_bits, 0, cells));
    IONF_CALL(engine_chemistry_pass(e, dt_s, 0, cells, cr));
    IONF_CALL(be->ops.download(be, avg_bits, 0, cells));
    chem_sums_pack(cr, sums);
  }
  for (int f = 0; f < n_avgs; ++f) IONF_CALL(comm_bcast(avgs[f], cells * avg_blocks[f], 0));
  IONF_CALL(comm_bcast(sums, 6, 0));
  if (comm_rank() != 0) IONF_CALL(be->ops.upload(be, avg_bits, 0, cells));
  chem_sums_unpack(sums, cr);
  return IONF_OK;
}

/* scatter: each slab's sum to its owner, chemistry on the slab, the slabs gathered */
static ionf_err update_by_slabs(struct engine *e, double dt_s, unsigned rate_bits,
                                unsigned avg_bits, struct chem_pass_result *cr) {
  struct backend *be = e->backend;
  int64_t cells = e->fields.cells, first, count;
  double *rates[2], *avgs[2];
  int rate_blocks[2], avg_blocks[2];
  int n_rates = host_fields(e, rate_bits, rates, rate_blocks);
  int n_avgs = host_fields(e, avg_bits, avgs, avg_blocks);
  for (int f = 0; f < n_rates; ++f)
    for (int b = 0; b < rate_blocks[f]; ++b)
      for (int r = 0; r < comm_size(); ++r) {
        slab_of(e, r, &first, &count);
        IONF_CALL(comm_reduce_sum(rates[f] + b * cells + first, count, r));
      }
  slab_of(e, comm_rank(), &first, &count);
  IONF_CALL(be->ops.upload(be, rate_bits, first, count));
  IONF_CALL(engine_chemistry_pass(e, dt_s, first, count, cr));
  IONF_CALL(be->ops.download(be, avg_bits, first, count));
  IONF_CALL(engine_sum_chem_results(cr));
  for (int f = 0; f < n_avgs; ++f)
    for (int b = 0; b < avg_blocks[f]; ++b) IONF_CALL(share_slabs(e, avgs[f] + b * cells));
  return be->ops.upload(be, avg_bits, 0, cells);
}

ionf_err engine_sum_rates_and_update(struct engine *e, double dt_s, struct chem_pass_result *cr) {
  struct backend *be = e->backend;
  int64_t cells = e->fields.cells;
  int thermal = e->fields.heating_erg_per_s != NULL;
  /* the rates summed over ranks, and the averages every rank needs for tracing */
  unsigned rate_bits = FIELD_GAMMA | (thermal ? FIELD_HEAT : 0u);
  unsigned avg_bits = FIELD_X_AV | (thermal ? FIELD_T_AV : 0u);
  double t0 = ionf_wtime(), chem0 = e->timers.chemistry_s;
  if (comm_size() == 1) return engine_chemistry_pass(e, dt_s, 0, cells, cr);
  if (decomp_exchanges(&e->decomp)) return engine_halo_update(e, dt_s, cr);
  if (e->kind == ENGINE_PARTICLES && e->reduction == REDUCTION_SCATTER) /* by blocks of particles */
    return particle_reduce_update(e, dt_s, cr);
  if (e->reduction == REDUCTION_NCCL) { /* in GPU memory, no host copy */
    IONF_CALL(be->ops.sum_rates(be));
    e->timers.reduce_s += ionf_wtime() - t0;
    return engine_chemistry_pass(e, dt_s, 0, cells, cr);
  }
  IONF_CALL(be->ops.download(be, rate_bits, 0, cells)); /* host staging */
  switch (e->reduction) {
    case REDUCTION_AUTO:
    case REDUCTION_NCCL:
    case REDUCTION_ALLREDUCE: {
      double *rates[2];
      int rate_blocks[2];
      int n_rates = host_fields(e, rate_bits, rates, rate_blocks);
      for (int f = 0; f < n_rates; ++f)
        IONF_CALL(comm_allreduce_sum(rates[f], cells * rate_blocks[f]));
      IONF_CALL(be->ops.upload(be, rate_bits, 0, cells));
      IONF_CALL(engine_chemistry_pass(e, dt_s, 0, cells, cr));
      break;
    }
    case REDUCTION_REDUCE:
      IONF_CALL(update_on_rank0(e, dt_s, rate_bits, avg_bits, cr));
      break;
    case REDUCTION_SCATTER:
      IONF_CALL(update_by_slabs(e, dt_s, rate_bits, avg_bits, cr));
      break;
  }
  e->timers.reduce_s += ionf_wtime() - t0 - (e->timers.chemistry_s - chem0);
  return IONF_OK;
}

ionf_err engine_share_end_state(struct engine *e) {
  struct backend *be = e->backend;
  int p = comm_size();
  if (decomp_exchanges(&e->decomp)) return engine_halo_end_state(e);
  if (p == 1 || e->reduction == REDUCTION_ALLREDUCE || e->reduction == REDUCTION_NCCL)
    return IONF_OK;
  if (e->kind == ENGINE_PARTICLES && e->reduction == REDUCTION_SCATTER)
    return particle_reduce_share_end(e);
  double t0 = ionf_wtime();
  int64_t cells = e->fields.cells;
  unsigned end_bits = FIELD_X_END | (e->fields.temperature_end_k ? FIELD_T_END : 0u);
  double *ends[2];
  int end_blocks[2];
  int n_ends = host_fields(e, end_bits, ends, end_blocks);
  if (e->reduction == REDUCTION_REDUCE) {
    if (comm_rank() == 0) IONF_CALL(be->ops.download(be, end_bits, 0, cells));
    for (int f = 0; f < n_ends; ++f) IONF_CALL(comm_bcast(ends[f], cells * end_blocks[f], 0));
  } else {
    int64_t first, count;
    slab_of(e, comm_rank(), &first, &count);
    IONF_CALL(be->ops.download(be, end_bits, first, count));
    for (int f = 0; f < n_ends; ++f)
      for (int b = 0; b < end_blocks[f]; ++b) IONF_CALL(share_slabs(e, ends[f] + b * cells));
  }
  IONF_CALL(be->ops.upload(be, end_bits, 0, cells));
  e->timers.reduce_s += ionf_wtime() - t0;
  return IONF_OK;
}

ionf_err engine_complete_rates(struct engine *e) {
  int64_t cells = e->fields.cells;
  if (decomp_exchanges(&e->decomp)) return IONF_OK; /* whole on the owned cells, all written */
  if (comm_size() > 1 && e->kind == ENGINE_PARTICLES && e->reduction == REDUCTION_SCATTER)
    return particle_reduce_complete_rates(e);
  if (comm_size() > 1 && e->reduction == REDUCTION_REDUCE)
    IONF_CALL(comm_bcast(e->fields.gamma_per_s, cells * e->fields.n_species, 0));
  if (comm_size() > 1 && e->reduction == REDUCTION_SCATTER)
    for (int s = 0; s < e->fields.n_species; ++s)
      IONF_CALL(share_slabs(e, fields_species(e->fields.gamma_per_s, cells, s)));
  return IONF_OK;
}

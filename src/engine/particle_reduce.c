/**
 * @file particle_reduce.c
 * @brief A particle run's rates summed by blocks of particles, its chemistry split
 *        among the ranks, and the blocks' results gathered (mpi.reduction scatter).
 *
 * The particle fields live on the host (the CPU backend), whichever tracer and
 * chemistry run: the CUDA tracer copies x_HII in and the rates out each pass, and the
 * staged CUDA chemistry (chem_solver_create_cuda(0, NULL)) copies the block it is given
 * (pointers offset by the block's first particle, species `cells` apart) through the
 * GPU.  So the sums and the gathers are MPI calls on host arrays (mpi/comm_blocks.h),
 * and each rank's chemistry reads and writes only its own block.  Every particle's
 * chemistry is the same per-particle update as on one rank, given the same summed
 * rates; the rates' sum over ranks rounds differently from one rank's single pass
 * (1e-12 relative, tests/cli_particles_split.sh).
 */
#include "engine/particle_reduce.h"
#include "engine/engine_reduce.h"

#include "mpi/comm.h"
#include "mpi/comm_blocks.h"

/* this rank's block of the particles */
static void own_block(const struct engine *e, int64_t *first, int64_t *count) {
  comm_slab(e->fields.cells, comm_rank(), comm_size(), first, count);
}

/* every species block of `field` (n_species blocks of `cells`): summed onto the owners
   (gather 0) or gathered from them (gather 1) */
static ionf_err blocks_of_field(const struct engine *e, double *field, int gather) {
  const int64_t n = e->fields.cells;
  for (int s = 0; s < e->fields.n_species; ++s) {
    double *block = fields_species(field, n, s);
    IONF_CALL(gather ? comm_blocks_allgather(block, n) : comm_blocks_reduce_sum(block, n));
  }
  return IONF_OK;
}

ionf_err particle_reduce_update(struct engine *e, double dt_s, struct chem_pass_result *cr) {
  struct backend *be = e->backend;
  struct fields *f = &e->fields;
  const int thermal = f->heating_erg_per_s != NULL;
  const unsigned rate_bits = FIELD_GAMMA | (thermal ? FIELD_HEAT : 0u);
  int64_t first, count;
  own_block(e, &first, &count);
  double t0 = ionf_wtime(), chem0 = e->timers.chemistry_s;
  IONF_CALL(be->ops.download(be, rate_bits, 0, f->cells)); /* (the host's own: nothing moves) */
  IONF_CALL(blocks_of_field(e, f->gamma_per_s, 0));
  if (thermal) IONF_CALL(blocks_of_field(e, f->heating_erg_per_s, 0));
  IONF_CALL(be->ops.upload(be, rate_bits, first, count));
  IONF_CALL(engine_chemistry_pass(e, dt_s, first, count, cr));
  IONF_CALL(be->ops.download(be, FIELD_X_AV, first, count));
  IONF_CALL(engine_sum_chem_results(cr));
  IONF_CALL(blocks_of_field(e, f->x_ion_av, 1));
  IONF_CALL(be->ops.upload(be, FIELD_X_AV, 0, f->cells));
  e->timers.reduce_s += ionf_wtime() - t0 - (e->timers.chemistry_s - chem0);
  return IONF_OK;
}

ionf_err particle_reduce_share_end(struct engine *e) {
  struct backend *be = e->backend;
  struct fields *f = &e->fields;
  const unsigned end_bits = FIELD_X_END | (f->temperature_end_k ? FIELD_T_END : 0u);
  int64_t first, count;
  own_block(e, &first, &count);
  double t0 = ionf_wtime();
  IONF_CALL(be->ops.download(be, end_bits, first, count));
  IONF_CALL(blocks_of_field(e, f->x_ion_end, 1));
  if (f->temperature_end_k) IONF_CALL(comm_blocks_allgather(f->temperature_end_k, f->cells));
  IONF_CALL(be->ops.upload(be, end_bits, 0, f->cells));
  e->timers.reduce_s += ionf_wtime() - t0;
  return IONF_OK;
}

ionf_err particle_reduce_complete_rates(struct engine *e) {
  return blocks_of_field(e, e->fields.gamma_per_s, 1);
}

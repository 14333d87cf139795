/**
 * @file particle_reduce.c
 * @brief A particle run's rates summed by blocks of particles, its chemistry split
 *        among the ranks, and the blocks' results gathered (mpi.reduction scatter).
 *
 * The particle fields live on the host (the CPU backend), whichever tracer and
 * chemistry run: the CUDA tracer copies x_HII in and the rates out each pass, and the
 * staged CUDA chemistry (chem_solver_create_cuda(0, NULL)) copies the block it is given
 * (pointers offset by the block's first particle, species `cells` apart) through the
 * GPU.  So the sums and the gathers take host arrays: MPI calls (mpi/comm_blocks.h), or,
 * with the CUDA tracer and mpi.reduction auto or nccl, the same calls through the GPUs
 * (gpu/mpi/nccl_sum.h: the arrays staged in device memory, one ncclReduceScatter or
 * ncclAllGather over NVLink instead of MPI's host copies); each rank's chemistry reads
 * and writes only its own block.  Every particle's
 * chemistry is the same per-particle update as on one rank, given the same summed
 * rates; the rates' sum over ranks rounds differently from one rank's single pass
 * (1e-12 relative, tests/cli_particles_split.sh).
 */
#include "engine/particle_reduce.h"
#include "engine/engine_reduce.h"

#include <stdio.h>

#include "core/ionf_config.h"
#include "mpi/comm.h"
#include "mpi/comm_blocks.h"
#if IONF_HAVE_CUDA
#include "gpu/mpi/nccl_sum.h"
#endif

/* this rank's block of the particles */
static void own_block(const struct engine *e, int64_t *first, int64_t *count) {
  comm_slab(e->fields.cells, comm_rank(), comm_size(), first, count);
}

/* one array's blocks summed onto their owners (gather 0) or gathered from them (gather 1):
   through the GPUs when the set-up made NCCL, else by MPI on the host */
static ionf_err blocks_collective(const struct engine *e, double *buf, int64_t n, int gather) {
#if IONF_HAVE_CUDA
  struct nccl_sum *ns = e->particles->nccl;
  if (ns) return gather ? nccl_sum_blocks_allgather(ns, buf, n) : nccl_sum_blocks_reduce(ns, buf, n);
#endif
  return gather ? comm_blocks_allgather(buf, n) : comm_blocks_reduce_sum(buf, n);
}

/* every species block of `field` (n_species blocks of `cells`): summed onto the owners
   (gather 0) or gathered from them (gather 1) */
static ionf_err blocks_of_field(const struct engine *e, double *field, int gather) {
  const int64_t n = e->fields.cells;
  for (int s = 0; s < e->fields.n_species; ++s) {
    double *block = fields_species(field, n, s);
    IONF_CALL(blocks_collective(e, block, n, gather));
  }
  return IONF_OK;
}

ionf_err particle_reduce_setup(struct engine *e, int tracer_on_gpu) {
  struct engine_particles *ep = e->particles;
  enum reduction_mode asked = e->cfg->reduction;
  int want = comm_size() > 1 && e->reduction == REDUCTION_SCATTER && tracer_on_gpu &&
             (asked == REDUCTION_AUTO || asked == REDUCTION_NCCL);
  int any_not = 0; /* nccl_sum_create is collective: every rank or none */
  IONF_CALL(comm_max_int(!want, &any_not));
  if (comm_size() == 1 || e->reduction != REDUCTION_SCATTER) return IONF_OK;
  char why[160] = "the tracer runs on the host";
#if IONF_HAVE_CUDA
  if (!any_not) {
    IONF_CALL(nccl_sum_create(&ep->nccl, why, sizeof why));
    if (ep->nccl && !nccl_sum_has_blocks(ep->nccl)) {
      snprintf(why, sizeof why, "this NCCL has no ncclReduceScatter or ncclAllGather");
      nccl_sum_destroy(ep->nccl);
      ep->nccl = NULL;
    }
    if (ep->nccl) { /* NCCL connects its peers at the first collective: here, not in a pass
                       (measured: 0.2-0.3 s on 4 H200s, benchmarks/RESULTS.md) */
      double warm[64] = {0};
      int64_t n = comm_size() < 64 ? comm_size() : 64;
      IONF_CALL(nccl_sum_blocks_reduce(ep->nccl, warm, n));
      IONF_CALL(nccl_sum_blocks_allgather(ep->nccl, warm, n));
    }
  }
#else
  snprintf(why, sizeof why, "built without CUDA");
#endif
  if (!ep->nccl && asked == REDUCTION_NCCL && comm_rank() == 0)
    ionf_warning("mpi.reduction = nccl, but NCCL is not usable here (%s); the particles' blocks "
                 "are summed through the host (MPI)", any_not ? "some rank's tracer runs on the host" : why);
  return IONF_OK;
}

void particle_reduce_destroy(struct engine *e) {
#if IONF_HAVE_CUDA
  nccl_sum_destroy(e->particles->nccl);
#endif
  e->particles->nccl = NULL;
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
  if (f->temperature_end_k) IONF_CALL(blocks_collective(e, f->temperature_end_k, f->cells, 1));
  IONF_CALL(be->ops.upload(be, end_bits, 0, f->cells));
  e->timers.reduce_s += ionf_wtime() - t0;
  return IONF_OK;
}

ionf_err particle_reduce_complete_rates(struct engine *e) {
  return blocks_of_field(e, e->fields.gamma_per_s, 1);
}

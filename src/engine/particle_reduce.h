/**
 * @file particle_reduce.h
 * @brief A particle run on several ranks with its chemistry split among them
 *        (mpi.reduction scatter, what 'auto' picks for particles): each rank owns a
 *        contiguous block of particles (comm_slab over the particle count) (internal to
 *        src/engine; engine_reduce.c hands particle runs in that mode here).
 */
#ifndef IONF_PARTICLE_REDUCE_H
#define IONF_PARTICLE_REDUCE_H

#include "engine/engine.h"

/**
 * The ranks' rates (Gamma per species, and the heating rates when the temperature
 * evolves) summed onto each block's owner (a reduce-scatter), one chemistry pass over
 * this rank's block, then every block's x_av to every rank (an all-gather), so that
 * every rank traces the next pass with the whole x_av; the convergence sums summed.
 * T_av is not gathered: a block's T_av is read only by its own chemistry, and x_end and
 * T_end are gathered once at the step's end (particle_reduce_share_end).  Collective.
 */
IONF_NODISCARD ionf_err particle_reduce_update(struct engine *e, double dt_s,
                                               struct chem_pass_result *cr);
/** At a step's end: every block's x_end (and T_end) to every rank.  Collective. */
IONF_NODISCARD ionf_err particle_reduce_share_end(struct engine *e);
/**
 * After the reduction is chosen: on several ranks in the split (e->reduction scatter)
 * with the CUDA tracer on every rank and mpi.reduction auto or nccl, an NCCL
 * communicator for the block sums through the GPUs (e->particles->nccl; NULL, with a
 * warning where nccl was asked for, when it cannot be made: then MPI on the host).
 * Collective.
 */
IONF_NODISCARD ionf_err particle_reduce_setup(struct engine *e, int tracer_on_gpu);
/** Frees what particle_reduce_setup made. */
void particle_reduce_destroy(struct engine *e);
/** Gamma of every block to every rank (after a step each rank holds its own block's sum
    only): before the host fields are read.  Collective. */
IONF_NODISCARD ionf_err particle_reduce_complete_rates(struct engine *e);

#endif

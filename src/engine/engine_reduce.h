/**
 * @file engine_reduce.h
 * @brief The sum of the ranks' rates and the chemistry pass that follows, in the
 *        configured way (mpi.reduction), for either kind of domain (internal to
 *        src/engine).
 */
#ifndef IONF_ENGINE_REDUCE_H
#define IONF_ENGINE_REDUCE_H

#include "engine/engine.h"

/**
 * Sum the ranks' rates and run one chemistry pass; the convergence sums end up the
 * same on every rank:
 *  - scatter: each rank gets the summed rates of its slab (a reduce to each slab's
 *    owner), updates its slab, and the slabs of x_av are broadcast back (an all-gather);
 *  - reduce: rank 0 gets the whole sum, updates every cell, broadcasts x_av;
 *  - allreduce: every rank gets the whole sum and updates every cell;
 *  - nccl: the same, summed in GPU memory by NCCL (no host copies).
 * Collective.
 */
IONF_NODISCARD ionf_err engine_sum_rates_and_update(struct engine *e, double dt_s,
                                                    struct chem_pass_result *cr);
/** The convergence sums of a chemistry pass over a part of the cells (unconverged cells,
    sums of x_end, 1 - x_end, x_end n_H, T_end) summed over all ranks, in place.  Collective. */
IONF_NODISCARD ionf_err engine_sum_chem_results(struct chem_pass_result *cr);
/** At the end of a step every rank needs the new x (and T): send them from where they
    were computed.  Collective. */
IONF_NODISCARD ionf_err engine_share_end_state(struct engine *e);
/** After a download of the rates: make them whole on every rank where the reduction
    left each rank with a part (reduce, scatter).  Collective. */
IONF_NODISCARD ionf_err engine_complete_rates(struct engine *e);

#endif

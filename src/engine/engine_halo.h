/**
 * @file engine_halo.h
 * @brief The steps of a grid split into slabs (grid.decomposition: slabs): halos
 *        filled from the owners, halo rates returned to them, chemistry on the owned
 *        cells (internal to src/engine).  Each is nothing on a replicated grid.
 */
#ifndef IONF_ENGINE_HALO_H
#define IONF_ENGINE_HALO_H

#include "engine/engine.h"

/** Every rank's halo planes of the working fields in `mask` (bits of enum backend_field)
    := their owners' values.  Collective among neighbours. */
IONF_NODISCARD ionf_err engine_halo_fill(struct engine *e, unsigned mask);
/** The owners' cells of the working fields in `mask` += what every rank holding them as
    halo traced there.  Collective among neighbours. */
IONF_NODISCARD ionf_err engine_halo_return(struct engine *e, unsigned mask);
/** engine_sum_rates_and_update of a split grid: halo rates returned, chemistry on the
    owned cells, convergence sums over all ranks, halo averages filled.  Collective. */
IONF_NODISCARD ionf_err engine_halo_update(struct engine *e, double dt_s,
                                           struct chem_pass_result *cr);
/** engine_share_end_state of a split grid: the halos' x_end (and T_end).  Collective. */
IONF_NODISCARD ionf_err engine_halo_end_state(struct engine *e);

#endif

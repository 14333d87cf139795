/**
 * @file api_internal.h
 * @brief What the `ionfront` command line reads of an API engine beyond the public
 *        header (its start-up log and run summary), and what the API's files share
 *        (api.c, api_cosmology.c): not installed, not stable.
 */
#ifndef IONF_API_INTERNAL_H
#define IONF_API_INTERNAL_H

#include "config/config_file.h"
#include "config/sph_config.h"
#include "engine/engine.h"
#include "ionfront.h"

/** The start of every public call: the internal error record cleared. */
void api_begin(void);
/** The end of every public call: a failure's message kept for ionf_last_error_message
    (the engine's and the calling thread's); returns the public status of rc. */
ionf_status api_end(ionf_engine *e, ionf_err rc);
/** IONF_OK for a live handle, else IONF_ERR_USAGE saying why. */
IONF_NODISCARD ionf_err api_check_engine(const ionf_engine *e);
/** The engine behind an API handle, grid or particles (NULL if not a live handle). */
struct engine *api_engine_core(ionf_engine *e);
/** A particle run's config (NULL for a grid run). */
const struct sph_config *api_engine_sph_config(const ionf_engine *e);
/** Its validated config (a particle run's base config). */
const struct ionf_config *api_engine_config(const ionf_engine *e);
/** The engine of a config text read already (the command line reads a config once: it may
    be a pipe), as ionf_engine_create_from_file.  Collective. */
IONF_NODISCARD ionf_err api_engine_create_from_config(const struct config_file *f,
                                                      const char *const *overrides,
                                                      int n_overrides, int mpi_comm,
                                                      ionf_engine **out);
/** A new handle (engine or thermal solver) may use `mpi_comm`: the one of the handles alive
    (IONF_ERR_UNSUPPORTED otherwise); the library attached to it. */
IONF_NODISCARD ionf_err api_comm_claim(int mpi_comm);
/** A handle on `mpi_comm` was made / destroyed (ionf_finalize refuses while any lives). */
void api_handle_born(int mpi_comm);
void api_handle_gone(void);
/** ionf_engine_run with the run's report (snapshots, I-front records, timings). */
IONF_NODISCARD ionf_err api_engine_run_report(ionf_engine *e, struct engine_report *report);

#endif

/**
 * @file api_internal.h
 * @brief What the `ionfront` command line reads of an API engine beyond the public
 *        header (its start-up log and run summary): not installed, not stable.
 */
#ifndef IONF_API_INTERNAL_H
#define IONF_API_INTERNAL_H

#include "config/sph_config.h"
#include "engine/engine.h"
#include "ionfront.h"

/** The engine behind an API handle, grid or particles (NULL if not a live handle). */
struct engine *api_engine_core(ionf_engine *e);
/** A particle run's config (NULL for a grid run). */
const struct sph_config *api_engine_sph_config(const ionf_engine *e);
/** Its validated config (a particle run's base config). */
const struct ionf_config *api_engine_config(const ionf_engine *e);
/** ionf_engine_run with the run's report (snapshots, I-front records, timings). */
IONF_NODISCARD ionf_err api_engine_run_report(ionf_engine *e, struct engine_report *report);

#endif

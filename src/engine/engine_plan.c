/**
 * @file engine_plan.c
 * @brief A grid run's inputs checked and its plan made, without the run (--dry-run).
 */
#define _POSIX_C_SOURCE 200809L /* access */

#include "engine/engine_plan.h"
#include "grid/decomp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cosmo/cosmology.h"
#include "engine/engine.h"
#include "engine/partition.h"
#include "engine/sequence.h"
#include "io/io_density.h"
#include "io/io_sources.h"
#include "mpi/comm.h"

void engine_plan_steps(const struct ionf_config *cfg, int64_t *n_steps, double *min_s,
                       double *max_s) {
  const double t_tiny = 1e-9 * cfg->dt_s;
  *n_steps = 0;
  *min_s = *max_s = 0.0;
  for (double t = 0.0; t < cfg->t_end_s - t_tiny; ++*n_steps) {
    double dt = engine_next_step_length(cfg, t, t_tiny);
    if (*n_steps == 0 || dt < *min_s) *min_s = dt;
    if (dt > *max_s) *max_s = dt;
    t += dt;
  }
}

/* 1 when the run's synthetic: section would make `path` first (it is missing). */
static int plan_made_by_synthetic(const struct ionf_config *cfg, const char *path) {
  return cfg->synthetic.kind != SYNTHETIC_NONE && access(path, F_OK) != 0;
}

/* The point sources at the start as the run has them: read, validated, merged per cell. */
static ionf_err plan_sources(const struct ionf_config *cfg, struct source_list *s) {
  const char *origin = cfg->config_name;
  if (cfg->source_file[0]) {
    IONF_CALL(io_sources_read_grid(cfg->source_file, cfg->source_format, cfg->n_cells_1d, s));
    origin = cfg->source_file;
  } else {
    IONF_CALL(sources_alloc(cfg->n_sources_inline, s));
    memcpy(s->ijk, cfg->source_ijk, 3 * sizeof(int32_t) * (size_t)cfg->n_sources_inline);
    memcpy(s->ndot_per_s, cfg->source_ndot_per_s, sizeof(double) * (size_t)cfg->n_sources_inline);
  }
  ionf_err rc = sources_validate(s, cfg->n_cells_1d, origin);
  if (rc == IONF_OK) rc = sources_merge_same_cell(s, cfg->n_cells_1d);
  return rc;
}

/* A sequence's inputs, every redshift's, as the run checks them at its start. */
static ionf_err plan_sequence(const struct ionf_config *cfg) {
  struct engine *e = ionf_calloc(1, sizeof *e, "the plan's engine stand-in");
  IONF_CHECK(e, IONF_ERR_MEM, "out of memory");
  e->cfg = cfg;
  e->grid.n = cfg->n_cells_1d;
  if (cfg->cosmological)
    e->cosmo = cosmology_flat(cfg->hubble_h, cfg->omega_m, cfg->omega_b, cfg->t_cmb0_k);
  ionf_err rc = sequence_check_inputs(e, NULL);
  free(e);
  return rc;
}

/* This rank's part: the inputs, the sources and their sharing. */
static ionf_err plan_local(const struct ionf_config *cfg, struct engine_plan *plan) {
  const struct sequence_config *seq = &cfg->sequence;
  if (seq->n_redshifts > 0) {
    char first[IONF_PATH_MAX + 64] = "";
    if (seq->density_pattern[0])
      config_sequence_file_name(seq->density_pattern, seq->redshifts[0], first, sizeof first);
    plan->synthetic_pending = first[0] && plan_made_by_synthetic(cfg, first);
    if (!plan->synthetic_pending) IONF_CALL(plan_sequence(cfg));
  } else if (cfg->n_h_cm3.from_file) {
    if (plan_made_by_synthetic(cfg, cfg->n_h_cm3.file)) plan->synthetic_pending = 1;
    else IONF_CALL(io_density_check(cfg->n_h_cm3.file, cfg->n_h_cm3.dataset, cfg->n_cells_1d));
  }
  plan->n_sources = seq->halo_pattern[0] ? -1 : 0;
  if (seq->halo_pattern[0] || (cfg->source_file[0] && plan_made_by_synthetic(cfg, cfg->source_file))) {
    plan->synthetic_pending |= !seq->halo_pattern[0];
    return IONF_OK;
  }
  struct source_list s = {0};
  ionf_err rc = plan_sources(cfg, &s);
  int64_t *first = ionf_calloc((size_t)plan->n_ranks, sizeof *first, "the plan");
  if (rc == IONF_OK && !first) rc = ionf_error_set(IONF_ERR_MEM, "out of memory");
  if (rc == IONF_OK) {
    plan->n_sources = s.n;
    for (int64_t i = 0; i < s.n; ++i) plan->ndot_total_per_s += s.ndot_per_s[i];
    /* as the run shares them: by cost, or by the slab that owns each source's cell */
    rc = (plan->memory.decomposition == DECOMP_SLABS ? partition_sources_by_slab
                                                     : partition_sources)(
        &s, cfg->n_cells_1d, cfg->periodic, cfg->r_max_cells, plan->n_ranks, first,
        plan->rank_sources, &plan->source_imbalance);
  }
  free(first);
  sources_free(&s);
  return rc;
}

ionf_err engine_plan_grid(const struct ionf_config *cfg, struct engine_plan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->n_ranks = comm_size();
  plan->rank_sources = ionf_calloc((size_t)plan->n_ranks, sizeof *plan->rank_sources, "the plan");
  IONF_CHECK(plan->rank_sources, IONF_ERR_MEM, "out of memory");
  engine_plan_steps(cfg, &plan->n_steps, &plan->step_min_s, &plan->step_max_s);
  /* the memory as the run checks it before allocating, and so how the grid is split
     (collective) */
  ionf_err rc = engine_memory_check_grid(cfg, &plan->memory), any = IONF_OK;
  /* every rank checks (a sequence shares its redshifts among them); all agree */
  if (rc == IONF_OK) {
    rc = plan_local(cfg, plan);
    IONF_CALL(comm_agree(rc, &any));
    if (rc == IONF_OK && any != IONF_OK)
      rc = ionf_error_set(IONF_ERR_PEER, "another rank found a problem with the inputs");
  }
  if (rc == IONF_OK)
    engine_memory_available(&plan->host_available_bytes, &plan->gpu_available_bytes);
  if (rc != IONF_OK) {
    engine_plan_free(plan);
    ionf_error_trace(__func__, __FILE__, __LINE__);
  }
  return rc;
}

void engine_plan_free(struct engine_plan *plan) {
  if (!plan) return;
  free(plan->rank_sources);
  plan->rank_sources = NULL;
}

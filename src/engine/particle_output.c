/**
 * @file particle_output.c
 * @brief A particle run's snapshots, checkpoints and restarts.
 */
#define _POSIX_C_SOURCE 200809L
#include "engine/particle_output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "io/sph_checkpoint.h"
#include "io/sph_snapshot.h"
#include "mpi/comm.h"

/* The particle set for messages: its file, or the generator's settings. */
static void particles_origin(const struct sph_config *cfg, char *buf, size_t size) {
  static const char *const kinds[] = {"none", "lattice", "glass", "density_file"};
  if (cfg->generate == SPH_GENERATE_NONE)
    snprintf(buf, size, "%s", cfg->file);
  else if (cfg->generate == SPH_GENERATE_DENSITY_FILE)
    snprintf(buf, size, "particles.generate: density_file %s, seed %llu", cfg->gen_density_file,
             (unsigned long long)cfg->gen_seed);
  else
    snprintf(buf, size, "particles.generate: %s, count_1d %lld, seed %llu", kinds[cfg->generate],
             (long long)cfg->count_1d, (unsigned long long)cfg->gen_seed);
}

/* What a checkpoint of this run records to be checked on a restart; `origin` holds
   the text meta->origin points at. */
static void checkpoint_meta(struct engine *e, int next_index, struct sph_checkpoint_meta *m,
                            char *origin, size_t origin_size) {
  struct engine_particles *ep = e->particles;
  if (!ep->identity[0]) sph_checkpoint_identity(&ep->set, ep->identity);
  memset(m, 0, sizeof *m);
  particles_origin(ep->cfg, origin, origin_size);
  m->next_index = next_index;
  m->particle_count = ep->set.count;
  memcpy(m->identity, ep->identity, sizeof m->identity);
  m->origin = origin;
  m->rays_per_source = ep->n_rays;
  m->r_max_cm = ep->cfg->r_max_cm;
  m->hydrogen_mass_fraction = ep->cfg->hydrogen_mass_fraction;
  m->isothermal = e->fields.heating_erg_per_s == NULL;
  m->n_species = e->fields.n_species;
}

/* Rank 0 writes `path` (a snapshot, or a checkpoint when ck); every rank learns the outcome. */
static ionf_err write_state(struct engine *e, const char *path, const struct sph_checkpoint_meta *ck) {
  /* the rates whole on rank 0 (split chemistry: each rank holds its block's sum) */
  IONF_CALL(engine_sync_to_host(e));
  ionf_err rc = IONF_OK;
  if (comm_rank() == 0) {
    struct sph_snapshot_view v;
    memset(&v, 0, sizeof v);
    v.particles = &e->particles->set;
    v.x_hii = fields_species(e->fields.x_ion, e->fields.cells, SPECIES_HI);
    v.gamma_hi_per_s = fields_species(e->fields.gamma_per_s, e->fields.cells, SPECIES_HI);
    v.n_species = e->fields.n_species;
    v.species_stride = e->fields.cells;
    v.temperature_k = e->fields.temperature_k;
    v.n_h_cm3 = e->fields.n_h_cm3;
    v.time_s = e->time_s;
    v.step = e->step;
    v.deposit_n = ck ? 0 : e->particles->cfg->output_grid; /* a checkpoint needs the particles only */
    v.effective_yaml = e->cfg->effective_yaml;
    v.checkpoint = ck;
    rc = sph_snapshot_write(path, &v);
  }
  ionf_err any;
  IONF_CALL(comm_agree(rc, &any));
  IONF_CALL(rc);
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "rank 0 failed to write '%s'", path);
  return IONF_OK;
}

ionf_err particle_write_output(struct engine *e, int index, struct engine_report *report) {
  char path[IONF_PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/snapshot_%04d.h5", e->cfg->output_dir, index);
  IONF_CALL(write_state(e, path, NULL));
  size_t len = strlen(path);
  if (len >= sizeof report->last_snapshot) len = sizeof report->last_snapshot - 1;
  memcpy(report->last_snapshot, path, len);
  report->last_snapshot[len] = '\0';
  return IONF_OK;
}

ionf_err particle_write_checkpoint(struct engine *e, int next_index, char *path_out,
                                   size_t path_out_size) {
  char path[IONF_PATH_MAX + 32], origin[IONF_PATH_MAX + 128];
  snprintf(path, sizeof path, "%s/checkpoint.h5", e->cfg->output_dir);
  struct sph_checkpoint_meta m;
  checkpoint_meta(e, next_index, &m, origin, sizeof origin);
  IONF_CALL(write_state(e, path, &m));
  if (path_out) snprintf(path_out, path_out_size, "%s", path);
  return IONF_OK;
}

ionf_err particle_restart(struct engine *e, const char *path) {
  char origin[IONF_PATH_MAX + 128];
  struct sph_checkpoint_meta want;
  checkpoint_meta(e, 0, &want, origin, sizeof origin);
  int64_t n = e->particles->set.count;
  const int ns = e->fields.n_species;
  /* every rank reads the whole state (it is replicated); the outcome is agreed on:
     x_ion's species blocks, then T */
  double *x = ionf_malloc((size_t)(ns + 1) * sizeof(double) * (size_t)n, "the checkpoint's state");
  ionf_err rc = x ? IONF_OK : IONF_ERR_MEM;
  struct sph_checkpoint_state st;
  memset(&st, 0, sizeof st);
  if (rc == IONF_OK) rc = sph_checkpoint_read(path, &want, x, x + ns * n, &st);
  const double t_end = e->cfg->t_end_s;
  if (rc == IONF_OK && !(st.time_s < t_end - 1e-9 * e->cfg->dt_s) &&
      !engine_output_missed_at(e->cfg, st.time_s, st.next_index))
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "checkpoint '%s' is at %.6g Myr, already at time.t_end (%.6g Myr)", path,
                        st.time_s / IONF_MYR_S, t_end / IONF_MYR_S);
  ionf_err any;
  ionf_err agreed = comm_agree(rc, &any);
  if (rc == IONF_OK) rc = agreed;
  if (rc == IONF_OK && any != IONF_OK)
    rc = ionf_error_set(IONF_ERR_PEER, "another rank failed to read checkpoint '%s'", path);
  if (rc != IONF_OK) {
    free(x);
    return rc;
  }
  size_t bytes = sizeof(double) * (size_t)n;
  struct fields *f = &e->fields;
  memcpy(f->x_ion, x, (size_t)ns * bytes);
  memcpy(f->x_ion_av, x, (size_t)ns * bytes);
  memcpy(f->x_ion_end, x, (size_t)ns * bytes);
  memcpy(f->temperature_k, x + ns * n, bytes);
  if (f->temperature_av_k) {
    memcpy(f->temperature_av_k, x + ns * n, bytes);
    memcpy(f->temperature_end_k, x + ns * n, bytes);
  }
  free(x);
  e->time_s = st.time_s;
  e->step = st.step;
  e->next_snapshot_index = st.next_index;
  return IONF_OK;
}

/**
 * @file grid_output.c
 * @brief A grid run's snapshots, sidecars, checkpoints, restarts and I-front record.
 */
#define _POSIX_C_SOURCE 200809L
#include "engine/grid_output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chem/species.h"
#include "core/constants.h"
#include "cosmo/tb21.h"
#include "engine/sequence.h"
#include "grid/ifront.h"
#include "io/checkpoint.h"
#include "io/export_c2ray.h"
#include "io/io_density.h"
#include "io/snapshot.h"
#include "io/vtkhdf.h"
#include "io/xdmf.h"
#include "mpi/comm.h"

/* Beside a snapshot: its VTKHDF and XDMF descriptions and, if asked, C2-Ray's binaries. */
static ionf_err write_sidecars(const struct engine *e, const char *snapshot) {
  const struct ionf_config *cfg = e->cfg;
  int64_t cells = e->fields.cells;
  if (cfg->write_xdmf || cfg->write_vtkhdf) {
    /* the snapshot's datasets: x_<ion> and Gamma_<species> of every species, then the rest */
    char names[2 * IONF_MAX_SPECIES][32];
    const char *datasets[2 * IONF_MAX_SPECIES + 3];
    int n_sets = 0, ns = e->fields.n_species;
    for (int s = 0; s < ns; ++s)
      snprintf(names[s], sizeof names[s], "x_%s", species_names_of(s)->ion_name);
    for (int s = 0; s < ns; ++s)
      snprintf(names[ns + s], sizeof names[0], "Gamma_%s", species_names_of(s)->name);
    for (int q = 0; q < 2 * ns; ++q) datasets[n_sets++] = names[q];
    datasets[n_sets++] = "n_H";
    datasets[n_sets++] = "T";
    if (e->fields.dtb_mk) datasets[n_sets++] = "dTb";
    const double box_kpc = cfg->box_size_cm / IONF_KPC_CM, t_myr = e->time_s / IONF_MYR_S;
    if (cfg->write_vtkhdf)
      IONF_CALL(vtkhdf_write_sidecar(snapshot, e->grid.n, box_kpc, "kpc", t_myr, datasets, n_sets));
    if (cfg->write_xdmf)
      IONF_CALL(xdmf_write_sidecar(snapshot, e->grid.n, box_kpc, "kpc", t_myr, datasets, n_sets));
  }
  if (cfg->write_c2ray_binary) {
    char path[IONF_PATH_MAX + 64];
    double t_myr = e->time_s / IONF_MYR_S, z = engine_redshift(e);
    for (int s = 0; s < e->fields.n_species; ++s) {
      const struct species_names *sn = species_names_of(s);
      export_c2ray_name(path, sizeof path, cfg->output_dir, sn->c2ray_xfrac_stem, z, t_myr);
      IONF_CALL(export_c2ray_write(path, e->grid.n, fields_species(e->fields.x_ion, cells, s), 0));
      export_c2ray_name(path, sizeof path, cfg->output_dir, sn->c2ray_rates_stem, z, t_myr);
      IONF_CALL(export_c2ray_write(path, e->grid.n,
                                   fields_species(e->fields.gamma_per_s, cells, s), 1));
    }
    export_c2ray_name(path, sizeof path, cfg->output_dir, "Temper3D", z, t_myr);
    IONF_CALL(export_c2ray_write(path, e->grid.n, e->fields.temperature_k, 1));
  }
  return IONF_OK;
}

/* What every snapshot and checkpoint records beside the fields; `in` receives the
   production run's inputs (meta->inputs points at it then). */
static struct snapshot_meta snapshot_meta_now(const struct engine *e, int index,
                                              struct snapshot_inputs *in) {
  struct snapshot_meta meta;
  memset(&meta, 0, sizeof meta);
  meta.index = index;
  meta.step = e->step;
  meta.time_s = e->time_s;
  meta.redshift = engine_redshift(e);
  meta.density_redshift = e->z_density;
  meta.sum_n_h_cm3 = e->sum_n_h_cm3;
  meta.mc_seed = e->mc_on ? (int64_t)e->mc.seed : -1;
  meta.mc_packets_per_source = e->mc_on ? e->mc.packets_per_source : 0;
  meta.gamma_rel_err = e->mc_on ? e->gamma_rel_err : NULL;
  if (e->cfg->sequence.n_redshifts > 0 && e->seq_interval >= 0) {
    in->redshift = e->cfg->sequence.redshifts[e->seq_interval];
    in->density_file = e->seq_density_file;
    in->halo_file = e->seq_halo_file;
    in->n_sources = e->sources.n;
    in->ndot_total_per_s = e->ndot_total_per_s;
    in->suppressed_cells = e->seq_suppressed_cells;
    in->n_suppressed_cells = e->seq_n_suppressed;
    meta.inputs = in;
  }
  return meta;
}

/* The sub-grid models' values of the step that ended now (snapshot.h). */
static struct snapshot_subgrid snapshot_subgrid_now(const struct engine *e) {
  struct snapshot_subgrid sub = {0.0, 0.0};
  if (e->cfg->mean_free_path.kind != MFP_NONE) sub.r_max_cells = e->r_max_cells;
  if (e->clumping_now.model == CHEM_CLUMPING_UNIFORM) sub.clumping_factor = e->clumping_now.factor;
  return sub;
}

/* What a snapshot records of the run: where it goes, the box, the config. */
static struct snapshot_run snapshot_run_of(const struct engine *e) {
  struct snapshot_run run = {e->cfg->output_dir, e->cfg->box_size_cm, e->cfg->effective_yaml,
                             e->cfg->config_name};
  return run;
}

/* cosmological runs with output.dTb: the 21-cm brightness of the current state */
static ionf_err derive_dtb(struct engine *e) {
  int64_t cells = e->fields.cells;
  if (!e->fields.dtb_mk) {
    e->fields.dtb_mk = ionf_malloc(sizeof(double) * (size_t)cells, "dTb");
    if (!e->fields.dtb_mk) return IONF_ERR_MEM;
  }
  tb21_field(cells, fields_species(e->fields.x_ion, cells, SPECIES_HI), e->fields.n_h_cm3,
             e->cfg->omega_m, e->cfg->omega_b, e->cfg->hubble_h, engine_redshift(e),
             e->fields.dtb_mk);
  return IONF_OK;
}

static ionf_err front_radius(struct engine *e, double *r_cm);

ionf_err grid_write_output(struct engine *e, int index, struct engine_report *report) {
  ionf_err rc = engine_sync_to_host(e);
  if (rc == IONF_OK && e->cfg->write_dtb && e->cfg->cosmological) rc = derive_dtb(e);
  ionf_err any; /* no rank goes on to the collective write while another failed */
  IONF_CALL(comm_agree(rc, &any));
  IONF_CALL(rc);
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "another rank failed to prepare a snapshot");
  /* collective over the ranks: each writes its slab */
  struct snapshot_inputs inputs;
  struct snapshot_meta meta = snapshot_meta_now(e, index, &inputs);
  const struct snapshot_run run = snapshot_run_of(e);
  const struct snapshot_subgrid sub = snapshot_subgrid_now(e);
  IONF_CALL(snapshot_write_subgrid(&run, &e->grid, &e->fields, &meta, &sub,
                                   report->last_snapshot, sizeof report->last_snapshot));
  rc = comm_rank() == 0 ? write_sidecars(e, report->last_snapshot) : IONF_OK;
  IONF_CALL(comm_agree(rc, &any));
  IONF_CALL(rc);
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "rank 0 failed to write the files beside a snapshot");
  if (index > 0 && engine_has_analytic_front(e) &&
      report->n_ifront < (int)(sizeof report->ifront / sizeof report->ifront[0])) {
    struct ifront_record *r = &report->ifront[report->n_ifront++];
    r->time_s = e->time_s;
    IONF_CALL(front_radius(e, &r->r_numeric_cm));
    r->r_analytic_cm = engine_analytic_front_cm(e, e->time_s);
  }
  return IONF_OK;
}

ionf_err grid_write_checkpoint(struct engine *e, int next_index, char *path, size_t size) {
  IONF_CALL(engine_sync_to_host(e));
  struct snapshot_inputs inputs;
  struct snapshot_meta meta = snapshot_meta_now(e, next_index, &inputs);
  meta.checkpoint = 1;
  meta.next_index = next_index;
  const struct snapshot_run run = snapshot_run_of(e);
  return snapshot_write(&run, &e->grid, &e->fields, &meta, path, size);
}

/* Low-mass haloes on: the cells the checkpoint's interval suppressed them in, for the
   next sequence_load (the cells' x_HII has moved on since the interval began). */
static ionf_err restart_suppressed(struct engine *e, const char *path) {
  int64_t *cells = NULL, count = -1;
  IONF_CALL(checkpoint_read_suppressed_cells(path, e->grid.n, &cells, &count));
  IONF_CHECK(count >= 0, IONF_ERR_INPUT,
             "checkpoint '%s' has no dataset 'low_mass_suppressed_cells': it was not written by "
             "a run with sequence.halos.f_gamma_low_mass > 0, so which cells' low-mass haloes "
             "its interval left out is unknown",
             path);
  free(e->seq_suppressed_cells);
  e->seq_suppressed_cells = cells;
  e->seq_n_suppressed = count;
  e->seq_suppressed_given = 1;
  return IONF_OK;
}

ionf_err grid_restart(struct engine *e, const char *path) {
  struct checkpoint_state st;
  IONF_CALL(checkpoint_read(path, e->grid.n, &e->grid.box, e->fields.n_species, e->fields.x_ion,
                            e->fields.temperature_k, &st));
  IONF_CHECK(st.time_s < e->cfg->t_end_s ||
                 engine_output_missed_at(e->cfg, st.time_s, st.next_index),
             IONF_ERR_INPUT,
             "checkpoint '%s' is at %.6g Myr, already at time.t_end (%.6g Myr)", path,
             st.time_s / IONF_MYR_S, e->cfg->t_end_s / IONF_MYR_S);
  int64_t cells = e->fields.cells;
  const struct sequence_config *seq = &e->cfg->sequence;
  if (seq->n_redshifts > 0) { /* the halos of the interval the checkpoint's last step was in */
    IONF_CHECK(st.density_redshift >= 0.0, IONF_ERR_INPUT,
               "checkpoint '%s' has no attribute 'density_redshift' (written by an older "
               "ionfront?); a production run cannot continue from it",
               path);
    int interval = sequence_interval_ending_at(seq, st.time_s, 1e-9 * e->cfg->dt_s);
    if (interval != e->seq_interval) {
      if (seq->halo_model.f_gamma_low_mass > 0.0) IONF_CALL(restart_suppressed(e, path));
      IONF_CALL(sequence_load(e, interval, 0));
    }
  }
  if (e->cfg->cosmological && st.density_redshift >= 0.0) {
    /* n_H as diluted up to the checkpoint, bit for bit (re-diluting would round
       differently); older checkpoints lack it and the density is diluted from z_initial */
    IONF_CALL(io_field_read_box(path, "/Grid/n_H", e->grid.n, &e->grid.box, "n_H", "densities", e->fields.n_h_cm3));
    IONF_CALL(e->backend->ops.upload(e->backend, FIELD_N_H, 0, cells));
    e->z_density = st.density_redshift;
    e->sum_n_h_cm3 = st.sum_n_h_cm3;
  }
  const size_t species_bytes = sizeof(double) * (size_t)cells * (size_t)e->fields.n_species;
  memcpy(e->fields.x_ion_av, e->fields.x_ion, species_bytes);
  memcpy(e->fields.x_ion_end, e->fields.x_ion, species_bytes);
  IONF_CALL(e->backend->ops.upload(e->backend, FIELD_X | FIELD_X_AV | FIELD_X_END | FIELD_T, 0,
                                   cells));
  if (e->mc_on) { /* the same packets as the interrupted run: same seed, same count */
    IONF_CHECK(st.mc_seed == (int64_t)e->mc.seed, IONF_ERR_INPUT,
               "checkpoint '%s' was written with montecarlo.seed = %lld, this run has %lld: "
               "a restart must keep the seed (or start afresh)",
               path, (long long)st.mc_seed, (long long)e->mc.seed);
    if (st.mc_packets_per_source > 0) e->mc.packets_per_source = st.mc_packets_per_source;
  }
  e->time_s = st.time_s;
  e->step = st.step;
  e->next_snapshot_index = st.next_index;
  return IONF_OK;
}

/* DIR/ifront.csv: the measured and analytic front after every step (one
   source in a uniform medium), so a smooth r_I(t) needs no extra snapshots. */
ionf_err grid_front_csv_open(struct engine *e, FILE **out) {
  *out = NULL;
  if (comm_rank() != 0 || !engine_has_single_source_front(e)) return IONF_OK;
  char path[IONF_PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/ifront.csv", e->cfg->output_dir);
  FILE *exists = e->restarted ? fopen(path, "r") : NULL;
  if (exists) { /* a restart continues the file from the checkpoint's time */
    fclose(exists);
    IONF_CALL(csv_keep_rows_upto(path, e->time_s / IONF_MYR_S + 1e-9));
    *out = fopen(path, "a");
    IONF_CHECK(*out, IONF_ERR_IO, "cannot write '%s'", path);
    return IONF_OK;
  }
  *out = fopen(path, "w");
  IONF_CHECK(*out, IONF_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
  if (fputs("time_Myr,r_numeric_kpc,r_analytic_kpc,ratio\n", *out) < 0 || fflush(*out) != 0) {
    int err = errno;
    fclose(*out);
    *out = NULL;
    return ionf_error_set(IONF_ERR_IO, "cannot write '%s': %s", path, strerror(err));
  }
  return IONF_OK;
}

/* x_HII on the line of cells through the source along x, the whole line on rank 0 (a
   split grid: each rank's owned planes of it, summed there: collective then). */
static ionf_err front_line(struct engine *e, double *line) {
  const struct decomp *d = &e->decomp;
  const struct grid_box *b = &e->grid.box;
  const int32_t *src = e->sources.ijk;
  int64_t n = e->grid.n, stride = b->extent[1] * b->extent[2];
  if (!decomp_exchanges(d)) {
    int64_t first = (int64_t)SPECIES_HI * e->fields.cells + grid_box_index(b, 0, src[1], src[2]);
    return e->backend->ops.read_strided(e->backend, FIELD_X, first, stride, n, line);
  }
  for (int64_t i = 0; i < n; ++i) line[i] = 0.0;
  int64_t first = (int64_t)SPECIES_HI * e->fields.cells +
                  grid_box_index(b, d->own_first, src[1], src[2]);
  IONF_CALL(e->backend->ops.read_strided(e->backend, FIELD_X, first, stride, d->own_count,
                                         line + d->own_first));
  return comm_reduce_sum(line, n, 0);
}

/* The front's radius along x from the source [cm], on rank 0 (collective on a split grid). */
static ionf_err front_radius(struct engine *e, double *r_cm) {
  double *line = ionf_malloc(sizeof(double) * (size_t)e->grid.n, "an x line");
  if (!line) return IONF_ERR_MEM;
  ionf_err rc = front_line(e, line);
  struct grid g = engine_grid_now(e);
  if (rc == IONF_OK) *r_cm = ifront_radius_along_line_cm(&g, line, e->sources.ijk[0]);
  free(line);
  return rc;
}

ionf_err grid_front_csv_row(struct engine *e, FILE *f) {
  if (!f && !decomp_exchanges(&e->decomp)) return IONF_OK;
  if (!engine_has_single_source_front(e)) return IONF_OK;
  /* the line of cells through the source along x is all the measurement needs */
  double r = -1.0;
  IONF_CALL(front_radius(e, &r));
  if (!f) return IONF_OK;
  /* no analytic solution once the temperature evolves: those columns are nan */
  double a = engine_has_analytic_front(e) ? engine_analytic_front_cm(e, e->time_s) : NAN;
  int bad = fprintf(f, "%.6f,%.6f,%.6f,%.6f\n", e->time_s / IONF_MYR_S,
                    r >= 0 ? r / IONF_KPC_CM : -1.0, a / IONF_KPC_CM, r >= 0 ? r / a : -1.0) < 0;
  bad = fflush(f) != 0 || bad;
  IONF_CHECK(!bad, IONF_ERR_IO, "cannot write '%s/ifront.csv': %s", e->cfg->output_dir,
             strerror(errno));
  return IONF_OK;
}

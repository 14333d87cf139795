/**
 * @file sequence.c
 * @brief Production runs: file names, intervals and steps of the redshift list,
 *        the up-front check of every input, and loading an interval's inputs.
 */
#include "engine/sequence.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/comm.h"
#include "core/constants.h"
#include "engine/engine.h"
#include "engine/sequence_read.h"
#include "grid/grid.h"
#include "grid/halo_model.h"

int sequence_interval_at(const struct sequence_config *seq, double t_s, double t_tiny) {
  int i = 0;
  while (i + 2 < seq->n_redshifts && seq->times_s[i + 1] <= t_s + t_tiny) ++i;
  return i;
}

int sequence_interval_ending_at(const struct sequence_config *seq, double t_s, double t_tiny) {
  int i = 0;
  while (i + 2 < seq->n_redshifts && seq->times_s[i + 1] + t_tiny < t_s) ++i;
  return i;
}

double sequence_step_s(const struct sequence_config *seq, int i) {
  return (seq->times_s[i + 1] - seq->times_s[i]) / (double)seq->steps[i];
}

/* Put the key and the redshift in front of the recorded message. */
static ionf_err with_context(ionf_err rc, const char *key, double z) {
  if (rc == IONF_OK) return rc;
  char text[2048];
  snprintf(text, sizeof text, "%s", ionf_error_message());
  ionf_error_clear();
  return ionf_error_set(rc, "%s at z = %g: %s", key, z, text);
}

/* Whether low-mass haloes are on (f_gamma_low_mass > 0): their cells' ionization decides. */
static int low_mass_on(const struct engine *e) {
  return e->cfg->sequence.halo_model.f_gamma_low_mass > 0.0;
}

/*
 * C2-Ray's suppression of low-mass haloes: flag[q] = 1 when halo q's cell is ionized beyond
 * HALO_MODEL_LOW_MASS_X_SUPPRESS now.  Each cell is judged by the rank that owns it (a slab's
 * owner; rank 0 when every rank holds the whole grid), from the working x_HII (downloaded),
 * and the flags summed over ranks, so that every rank has the same.  Collective: a rank whose
 * download failed still joins the sum, then returns its error.
 */
static ionf_err low_mass_suppression(struct engine *e, const struct halo_cells *h,
                                     unsigned char *flag) {
  struct backend *be = e->backend;
  ionf_err rc = be->ops.download(be, FIELD_X, 0, e->fields.cells);
  double *judged = ionf_calloc(h->n > 0 ? (size_t)h->n : 1, sizeof *judged, "suppression flags");
  IONF_CHECK(judged, IONF_ERR_MEM, "out of memory");
  const struct decomp *d = &e->decomp;
  int slabs = decomp_exchanges(d);
  for (int64_t q = 0; rc == IONF_OK && q < h->n && (slabs || comm_rank() == 0); ++q) {
    const int32_t *c = h->ijk + 3 * q;
    if (slabs && (c[0] < d->own_first || c[0] >= d->own_first + d->own_count)) continue;
    double x = e->fields.x_ion[grid_box_index(&e->grid.box, c[0], c[1], c[2])]; /* H II */
    judged[q] = halo_model_low_mass_suppressed(x) ? 1.0 : 0.0;
  }
  ionf_err sum = comm_size() > 1 ? comm_allreduce_sum(judged, h->n) : IONF_OK;
  if (rc == IONF_OK) rc = sum;
  for (int64_t q = 0; rc == IONF_OK && q < h->n; ++q) flag[q] = judged[q] > 0.5;
  free(judged);
  return rc;
}

/* Halos as merged, checked sources; `flag` (NULL: none) marks suppressed low-mass ones. */
static ionf_err halos_to_sources(const struct engine *e, const char *path, double z,
                                 const struct halo_cells *h, const unsigned char *flag,
                                 struct source_list *out, int64_t *n_suppressed) {
  const struct sequence_config *seq = &e->cfg->sequence;
  double t_s = halo_model_lifetime_s(&seq->halo_model, &e->cosmo, z);
  memset(out, 0, sizeof *out);
  ionf_err rc = halo_model_check(&seq->halo_model, &e->cosmo, "sequence.halos");
  if (rc == IONF_OK)
    rc = halo_model_sources(&seq->halo_model, &e->cosmo, t_s, h, flag, e->grid.n, out,
                            n_suppressed);
  if (rc == IONF_OK) rc = sources_validate(out, e->grid.n, path);
  if (rc != IONF_OK) sources_free(out);
  return with_context(rc, "sequence.halos", z);
}

static int cmp_int64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* A restart: the flags from its checkpoint's list of suppressed cells (the same on every
   rank), so that the interval's sources are those the interrupted run had. */
static void flags_from_list(const struct engine *e, const struct halo_cells *h,
                            unsigned char *flag) {
  for (int64_t q = 0; q < h->n; ++q) {
    const int32_t *c = h->ijk + 3 * q;
    int64_t key = grid_index(e->grid.n, c[0], c[1], c[2]);
    flag[q] = e->seq_n_suppressed > 0 &&
              bsearch(&key, e->seq_suppressed_cells, (size_t)e->seq_n_suppressed,
                      sizeof key, cmp_int64) != NULL;
  }
}

/* The cells whose low-mass haloes the flags leave out, ascending and once each, into the
   engine (snapshots and checkpoints record them). */
static ionf_err record_suppressed(struct engine *e, const struct halo_cells *h,
                                  const unsigned char *flag) {
  int64_t count = 0;
  for (int64_t q = 0; q < h->n; ++q) count += flag[q] && h->mass_low_msun[q] > 0.0;
  int64_t *cells = ionf_malloc(count > 0 ? (size_t)count * sizeof *cells : 1, "suppressed cells");
  IONF_CHECK(cells, IONF_ERR_MEM, "out of memory");
  int64_t k = 0;
  for (int64_t q = 0; q < h->n; ++q)
    if (flag[q] && h->mass_low_msun[q] > 0.0)
      cells[k++] = grid_index(e->grid.n, h->ijk[3 * q], h->ijk[3 * q + 1], h->ijk[3 * q + 2]);
  qsort(cells, (size_t)count, sizeof *cells, cmp_int64);
  int64_t unique = 0;
  for (int64_t q = 0; q < count; ++q)
    if (unique == 0 || cells[q] != cells[unique - 1]) cells[unique++] = cells[q];
  free(e->seq_suppressed_cells);
  e->seq_suppressed_cells = cells;
  e->seq_n_suppressed = unique;
  return IONF_OK;
}

/* Low-mass haloes on: the halos as sources once the ranks agreed on their cells' state
   (judged now, or a restart's list). */
static ionf_err halos_with_suppression(struct engine *e, const char *path, double z,
                                       const struct halo_cells *h, struct source_list *out) {
  unsigned char *flag = ionf_malloc(h->n > 0 ? (size_t)h->n : 1, "suppression flags");
  IONF_CHECK(flag, IONF_ERR_MEM, "out of memory");
  ionf_err rc = IONF_OK;
  if (e->seq_suppressed_given)
    flags_from_list(e, h, flag);
  else
    rc = low_mass_suppression(e, h, flag);
  e->seq_suppressed_given = 0;
  int64_t records;
  if (rc == IONF_OK) rc = halos_to_sources(e, path, z, h, flag, out, &records);
  if (rc == IONF_OK) rc = record_suppressed(e, h, flag);
  free(flag);
  return rc;
}

/* The inputs of redshift i, checked without keeping them; *n_sources gets the number of
   sources its catalogue makes (0 without one). */
static ionf_err check_one(const struct engine *e, int i, double *n_sources) {
  const struct sequence_config *seq = &e->cfg->sequence;
  char path[IONF_PATH_MAX + 64];
  double z = seq->redshifts[i];
  if (seq->density_pattern[0]) {
    config_sequence_file_name(seq->density_pattern, z, path, sizeof path);
    IONF_CALL(with_context(sequence_read_density(e, path, z, NULL, NULL), "sequence.density",
                           z));
  }
  if (seq->halo_pattern[0]) {
    struct source_list halos;
    struct halo_cells h;
    int64_t suppressed;
    config_sequence_file_name(seq->halo_pattern, z, path, sizeof path);
    IONF_CALL(with_context(sequence_read_halos(e, path, z, &h), "sequence.halos", z));
    ionf_err rc = halos_to_sources(e, path, z, &h, NULL, &halos, &suppressed);
    halo_cells_free(&h);
    IONF_CALL(rc);
    *n_sources = (double)halos.n;
    sources_free(&halos);
  }
  return IONF_OK;
}

ionf_err sequence_check_inputs(const struct engine *e, double *sources_by_interval) {
  const struct sequence_config *seq = &e->cfg->sequence;
  int inputs = seq->n_redshifts - 1; /* the last redshift only ends the run */
  if (sources_by_interval)
    for (int i = 0; i < inputs; ++i) sources_by_interval[i] = 0.0;
  if (!seq->density_pattern[0] && !seq->halo_pattern[0]) return IONF_OK;
  /* the ranks take turns; each keeps the message of its first bad redshift */
  ionf_err mine = IONF_OK;
  int first_bad = inputs;
  double n_bad = 0.0;
  char first_text[2048] = "";
  for (int i = comm_rank(); i < inputs; i += comm_size()) {
    double n_sources = 0.0;
    ionf_err rc = check_one(e, i, &n_sources);
    if (sources_by_interval) sources_by_interval[i] = n_sources;
    if (rc == IONF_OK) continue;
    n_bad += 1.0;
    if (mine == IONF_OK) {
      mine = rc;
      first_bad = i;
      snprintf(first_text, sizeof first_text, "%s", ionf_error_message());
    }
    ionf_error_clear(); /* the next file's message must not see this one */
  }
  if (mine != IONF_OK) ionf_error_set(mine, "%s", first_text);
  ionf_err shared;
  IONF_CALL(comm_share_error(mine, first_bad, &shared));
  IONF_CALL(comm_allreduce_sum(&n_bad, 1));
  if (shared == IONF_OK && sources_by_interval && inputs > 0)
    IONF_CALL(comm_allreduce_sum(sources_by_interval, inputs)); /* each rank held its own */
  if (shared == IONF_OK) return IONF_OK;
  if (n_bad > 1.0) {
    char text[2048];
    snprintf(text, sizeof text, "%s", ionf_error_message());
    ionf_error_clear();
    ionf_error_set(shared, "%s (inputs of %.0f of the %d redshifts have problems; this is the first)",
                   text, n_bad, inputs);
  }
  ionf_error_trace(__func__, __FILE__, __LINE__);
  return shared;
}

/* The ranks agree on `rc` (collective); on a failure nothing is replaced and every rank
   returns (rank 0 the message, the others IONF_ERR_PEER). */
static ionf_err load_agree(struct engine *e, ionf_err rc, struct source_list *halos,
                           struct halo_cells *h) {
  ionf_err shared;
  IONF_CALL(comm_share_error(rc, 0, &shared));
  if (shared == IONF_OK) return IONF_OK;
  sources_free(halos);
  halo_cells_free(h);
  e->mid_step = 0; /* nothing replaced yet: the state is the last step's, on every rank */
  ionf_error_trace(__func__, __FILE__, __LINE__);
  /* one rank (0) reports what every rank saw */
  return comm_size() > 1 && comm_rank() != 0 ? IONF_ERR_PEER : shared;
}

/* The line that announces interval i's inputs (rank 0). */
static void load_message(const struct engine *e, int i, int with_density,
                         const char *density_file, const char *halo_file) {
  const struct sequence_config *seq = &e->cfg->sequence;
  char what[2 * IONF_PATH_MAX + 256] = "";
  size_t used = 0;
  if (density_file[0] && with_density)
    used += (size_t)snprintf(what + used, sizeof what - used, "; density %s (mean n_H %.4g cm^-3)",
                             density_file, e->sum_n_h_cm3 / (double)e->global_cells);
  else if (density_file[0])
    used += (size_t)snprintf(what + used, sizeof what - used,
                             "; density %s (n_H as in the checkpoint)", density_file);
  if (halo_file[0] && used < sizeof what)
    used += (size_t)snprintf(what + used, sizeof what - used, "; halos %s", halo_file);
  if (halo_file[0] && low_mass_on(e) && used < sizeof what)
    used += (size_t)snprintf(what + used, sizeof what - used,
                             "; low-mass haloes suppressed in %lld ionized cell(s)%s",
                             (long long)e->seq_n_suppressed,
                             with_density ? "" : " (as the checkpoint's run had them)");
  if (used < sizeof what && comm_size() > 1 && halo_file[0])
    snprintf(what + used, sizeof what - used, "; largest rank share / mean = %.3f",
             e->source_imbalance);
  ionf_message0("z = %.4f (interval %d of %d, %lld step(s) of %.4g Myr): %lld source(s), %.4g "
                "photons/s%s",
                seq->redshifts[i], i + 1, seq->n_redshifts - 1, (long long)seq->steps[i],
                sequence_step_s(seq, i) / IONF_MYR_S, (long long)e->sources.n,
                e->ndot_total_per_s, what);
}

ionf_err sequence_load(struct engine *e, int i, int with_density) {
  const struct sequence_config *seq = &e->cfg->sequence;
  double z = seq->redshifts[i];
  char density_file[IONF_PATH_MAX + 64] = "", halo_file[IONF_PATH_MAX + 64] = "";
  int64_t cells = e->fields.cells;
  struct source_list halos = {0};
  struct halo_cells h = {0};
  int64_t suppressed = 0;
  ionf_err rc = IONF_OK;
  /* every rank reads (as at start-up); n_H is replaced only if all succeed */
  if (seq->density_pattern[0]) {
    config_sequence_file_name(seq->density_pattern, z, density_file, sizeof density_file);
    if (with_density)
      rc = with_context(
          sequence_read_density(e, density_file, z, &e->grid.box, e->fields.n_h_cm3),
          "sequence.density", z);
  }
  if (rc == IONF_OK && seq->halo_pattern[0]) {
    config_sequence_file_name(seq->halo_pattern, z, halo_file, sizeof halo_file);
    rc = with_context(sequence_read_halos(e, halo_file, z, &h), "sequence.halos", z);
    if (rc == IONF_OK && !low_mass_on(e))
      rc = halos_to_sources(e, halo_file, z, &h, NULL, &halos, &suppressed);
  }
  if (rc == IONF_OK && i > 0 && e->cfg->debug.fail_load_rank == comm_rank()) /* debug: test hook */
    rc = ionf_error_set(IONF_ERR_IO, "rank %d: reading the inputs of z = %g failed (injected fault)",
                        comm_rank(), z);
  IONF_CALL(load_agree(e, rc, &halos, &h));
  if (seq->halo_pattern[0] && low_mass_on(e)) /* every rank read its cells: judge them together */
    IONF_CALL(load_agree(e, halos_with_suppression(e, halo_file, z, &h, &halos), &halos, &h));
  halo_cells_free(&h);

  struct backend *be = e->backend;
  if (seq->density_pattern[0] && with_density) { /* the dilution goes on from z_i */
    IONF_CALL(engine_sum_n_h(e, &e->sum_n_h_cm3));
    e->z_density = z;
    e->uniform_density = 0;
    IONF_CALL(be->ops.upload(be, FIELD_N_H, 0, cells));
  }
  if (seq->halo_pattern[0]) {
    sources_free(&e->sources);
    e->sources = halos;
    IONF_CALL(engine_share_sources(e)); /* and to the tracers */
  }
  e->seq_interval = i;
  snprintf(e->seq_density_file, sizeof e->seq_density_file, "%s", density_file);
  snprintf(e->seq_halo_file, sizeof e->seq_halo_file, "%s", halo_file);
  load_message(e, i, with_density, density_file, halo_file);
  return IONF_OK;
}

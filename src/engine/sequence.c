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

/* A halo catalogue of the sequence as merged, checked sources. */
static ionf_err read_halos(const struct engine *e, const char *path, double z,
                           struct source_list *out) {
  return with_context(sequence_read_halos(e, path, z, out), "sequence.halos", z);
}

/* The inputs of redshift i, checked without keeping them. */
static ionf_err check_one(const struct engine *e, int i) {
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
    config_sequence_file_name(seq->halo_pattern, z, path, sizeof path);
    IONF_CALL(read_halos(e, path, z, &halos));
    sources_free(&halos);
  }
  return IONF_OK;
}

ionf_err sequence_check_inputs(const struct engine *e) {
  const struct sequence_config *seq = &e->cfg->sequence;
  int inputs = seq->n_redshifts - 1; /* the last redshift only ends the run */
  if (!seq->density_pattern[0] && !seq->halo_pattern[0]) return IONF_OK;
  /* the ranks take turns; each keeps the message of its first bad redshift */
  ionf_err mine = IONF_OK;
  int first_bad = inputs;
  double n_bad = 0.0;
  char first_text[2048] = "";
  for (int i = comm_rank(); i < inputs; i += comm_size()) {
    ionf_err rc = check_one(e, i);
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

ionf_err sequence_load(struct engine *e, int i, int with_density) {
  const struct sequence_config *seq = &e->cfg->sequence;
  double z = seq->redshifts[i];
  char density_file[IONF_PATH_MAX + 64] = "", halo_file[IONF_PATH_MAX + 64] = "";
  int64_t cells = e->fields.cells;
  struct source_list halos = {0};
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
    rc = read_halos(e, halo_file, z, &halos);
  }
  if (rc == IONF_OK && i > 0 && e->cfg->debug.fail_load_rank == comm_rank()) /* debug: test hook */
    rc = ionf_error_set(IONF_ERR_IO, "rank %d: reading the inputs of z = %g failed (injected fault)",
                        comm_rank(), z);
  ionf_err shared;
  IONF_CALL(comm_share_error(rc, 0, &shared));
  if (shared != IONF_OK) {
    sources_free(&halos);
    e->mid_step = 0; /* nothing replaced yet: the state is the last step's, on every rank */
    ionf_error_trace(__func__, __FILE__, __LINE__);
    /* one rank (0) reports what every rank saw */
    return comm_size() > 1 && comm_rank() != 0 ? IONF_ERR_PEER : shared;
  }

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
  if (used < sizeof what && comm_size() > 1 && halo_file[0])
    snprintf(what + used, sizeof what - used, "; largest rank share / mean = %.3f",
             e->source_imbalance);
  ionf_message0("z = %.4f (interval %d of %d, %lld step(s) of %.4g Myr): %lld source(s), %.4g "
                "photons/s%s",
                z, i + 1, seq->n_redshifts - 1, (long long)seq->steps[i],
                sequence_step_s(seq, i) / IONF_MYR_S, (long long)e->sources.n,
                e->ndot_total_per_s, what);
  return IONF_OK;
}

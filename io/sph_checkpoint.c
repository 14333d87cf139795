/**
 * @file sph_checkpoint.c
 * @brief Particle-run checkpoints: the identity of a particle set, the checkpoint's
 *        root attributes, and reading a checkpoint back with its checks.
 */
#define _POSIX_C_SOURCE 200809L

#include "io/sph_checkpoint.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "core/path.h"
#include "io/h5_util.h"

/* FNV-1a, one 64-bit word at a time (the bits of each double). */
static uint64_t fnv_words(uint64_t hash, const double *v, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    uint64_t w;
    memcpy(&w, &v[i], sizeof w);
    hash ^= w;
    hash *= UINT64_C(0x100000001b3);
  }
  return hash;
}

void sph_checkpoint_identity(const struct particle_set *p, char out[17]) {
  uint64_t hash = UINT64_C(0xcbf29ce484222325);
  hash = fnv_words(hash, p->pos_cm, 3 * p->count);
  hash = fnv_words(hash, p->h_cm, p->count);
  hash = fnv_words(hash, p->mass_g, p->count);
  if (p->density_g_cm3) hash = fnv_words(hash, p->density_g_cm3, p->count);
  snprintf(out, 17, "%016" PRIx64, hash);
}

int sph_checkpoint_write_attrs(hid_t file, const struct sph_checkpoint_meta *m, double time_s,
                               int64_t step) {
  return h5_util_attr_put_int64(file, "checkpoint", 1) &&
         h5_util_attr_put_string(file, "checkpoint_kind", "particles") &&
         h5_util_attr_put_double(file, "time_s", time_s) &&
         h5_util_attr_put_int64(file, "step", step) &&
         h5_util_attr_put_int64(file, "next_snapshot_index", m->next_index) &&
         h5_util_attr_put_int64(file, "particle_count", m->particle_count) &&
         h5_util_attr_put_string(file, "particles_identity", m->identity) &&
         h5_util_attr_put_string(file, "particles_origin", m->origin) &&
         h5_util_attr_put_int64(file, "rays_per_source", m->rays_per_source) &&
         h5_util_attr_put_double(file, "r_max_cm", m->r_max_cm) &&
         h5_util_attr_put_double(file, "hydrogen_mass_fraction", m->hydrogen_mass_fraction) &&
         h5_util_attr_put_int64(file, "isothermal", m->isothermal ? 1 : 0) &&
         (m->n_species <= 1 || h5_util_attr_put_int64(file, "n_species", m->n_species));
}

/* A scalar numeric attribute of the root group, converted to `type`. */
static ionf_err read_attr(hid_t file, const char *path, const char *name, hid_t type, void *out) {
  if (H5Aexists(file, name) <= 0)
    return ionf_error_set(IONF_ERR_INPUT,
                          "particle checkpoint '%s' lacks the attribute '%s' (damaged, or not "
                          "written by ionfront?)",
                          path, name);
  return h5_util_attr_get(file, path, name, type, out);
}

/* /PartType0/NAME: exactly n float64 values. */
static ionf_err read_column(hid_t file, const char *path, const char *name, int64_t n,
                            double *out) {
  char full[64];
  snprintf(full, sizeof full, "/PartType0/%s", name);
  IONF_CHECK(h5_util_path_exists(file, full), IONF_ERR_INPUT,
             "particle checkpoint '%s' has no dataset %s", path, full);
  hid_t dset = H5Dopen2(file, full, H5P_DEFAULT);
  hid_t space = dset >= 0 ? H5Dget_space(dset) : -1;
  hssize_t count = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
  if (space >= 0) H5Sclose(space);
  int ok = dset >= 0 && count == n &&
           H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0;
  if (dset >= 0) H5Dclose(dset);
  IONF_CHECK(ok, IONF_ERR_INPUT,
             "particle checkpoint '%s': cannot read %s (%lld values, expected %lld)", path, full,
             (long long)count, (long long)n);
  return IONF_OK;
}

/* The checks and reads on an open file. */
static ionf_err read_open(hid_t file, const char *path, const struct sph_checkpoint_meta *want,
                          double *x_hii, double *temperature_k, struct sph_checkpoint_state *st) {
  IONF_CHECK(H5Aexists(file, "checkpoint") > 0, IONF_ERR_INPUT,
             "'%s' is not an ionfront checkpoint: no attribute 'checkpoint' (a snapshot? "
             "checkpoints are DIR/checkpoint.h5)",
             path);
  char kind[32] = "";
  h5_util_attr_get_string(file, "checkpoint_kind", kind, sizeof kind);
  if (strcmp(kind, "particles") != 0 || !h5_util_path_exists(file, "/PartType0")) {
    int64_t grid_n = 0;
    if (H5Aexists(file, "N") > 0) IONF_CALL(read_attr(file, path, "N", H5T_NATIVE_INT64, &grid_n));
    return ionf_error_set(IONF_ERR_INPUT,
                          "'%s' is the checkpoint of a grid run (grid.N = %lld); this config is a "
                          "particle run: restart it from its own DIR/checkpoint.h5",
                          path, (long long)grid_n);
  }
  int64_t count = 0, rays = 0, isothermal = 0, next = 0;
  double r_max = 0.0, x_h = 0.0;
  char identity[32] = "", origin[IONF_PATH_MAX + 128] = "";
  IONF_CALL(read_attr(file, path, "particle_count", H5T_NATIVE_INT64, &count));
  h5_util_attr_get_string(file, "particles_identity", identity, sizeof identity);
  h5_util_attr_get_string(file, "particles_origin", origin, sizeof origin);
  IONF_CHECK(count == want->particle_count, IONF_ERR_INPUT,
             "checkpoint '%s' holds %lld particles (%s); this run has %lld (%s): a restart needs "
             "the same particles",
             path, (long long)count, origin, (long long)want->particle_count, want->origin);
  IONF_CHECK(!strcmp(identity, want->identity), IONF_ERR_INPUT,
             "checkpoint '%s' was written for other particles: %lld particles (%s) with identity "
             "%s; this run's %lld particles (%s) have identity %s (positions, h, masses or "
             "densities differ)",
             path, (long long)count, origin, identity[0] ? identity : "(none)",
             (long long)want->particle_count, want->origin, want->identity);
  IONF_CALL(read_attr(file, path, "rays_per_source", H5T_NATIVE_INT64, &rays));
  IONF_CALL(read_attr(file, path, "r_max_cm", H5T_NATIVE_DOUBLE, &r_max));
  IONF_CALL(read_attr(file, path, "hydrogen_mass_fraction", H5T_NATIVE_DOUBLE, &x_h));
  IONF_CALL(read_attr(file, path, "isothermal", H5T_NATIVE_INT64, &isothermal));
  IONF_CHECK(rays == want->rays_per_source, IONF_ERR_INPUT,
             "checkpoint '%s' was written with %lld rays per source "
             "(particles.rays_per_source); this run has %lld: a restart must keep them",
             path, (long long)rays, (long long)want->rays_per_source);
  IONF_CHECK(r_max == want->r_max_cm, IONF_ERR_INPUT,
             "checkpoint '%s' was written with raytracing.R_max = %.9g kpc; this run has "
             "%.9g kpc: a restart must keep it",
             path, r_max / IONF_KPC_CM, want->r_max_cm / IONF_KPC_CM);
  IONF_CHECK(x_h == want->hydrogen_mass_fraction, IONF_ERR_INPUT,
             "checkpoint '%s' was written with particles.hydrogen_mass_fraction = %.9g; this "
             "run has %.9g: a restart must keep it",
             path, x_h, want->hydrogen_mass_fraction);
  IONF_CHECK((isothermal != 0) == (want->isothermal != 0), IONF_ERR_INPUT,
             "checkpoint '%s' was written with material.isothermal = %s; this run has %s: a "
             "restart must keep it",
             path, isothermal ? "true" : "false", want->isothermal ? "true" : "false");
  int64_t species = 1; /* written with helium only */
  if (H5Aexists(file, "n_species") > 0)
    IONF_CALL(read_attr(file, path, "n_species", H5T_NATIVE_INT64, &species));
  const int want_species = want->n_species > 1 ? want->n_species : 1;
  IONF_CHECK(species == want_species, IONF_ERR_INPUT,
             "checkpoint '%s' was written with %s; this run has %s (material.abundance_He, "
             "spectrum.type): a restart must keep them",
             path, species > 1 ? "hydrogen and helium" : "hydrogen alone",
             want_species > 1 ? "hydrogen and helium" : "hydrogen alone");
  IONF_CALL(read_attr(file, path, "time_s", H5T_NATIVE_DOUBLE, &st->time_s));
  IONF_CALL(read_attr(file, path, "step", H5T_NATIVE_INT64, &st->step));
  IONF_CALL(read_attr(file, path, "next_snapshot_index", H5T_NATIVE_INT64, &next));
  IONF_CHECK(st->step >= 0 && next >= 1 && next <= 9999 && st->time_s >= 0.0, IONF_ERR_INPUT,
             "particle checkpoint '%s': step %lld, next_snapshot_index %lld, time_s %g are not "
             "a run's counters",
             path, (long long)st->step, (long long)next, st->time_s);
  st->next_index = (int)next;
  IONF_CALL(read_column(file, path, "IonizedFraction", count, x_hii));
  IONF_CALL(read_column(file, path, "Temperature", count, temperature_k));
  if (want_species > 1) { /* helium's fractions, by the snapshot's names */
    IONF_CALL(read_column(file, path, "x_HeII", count, x_hii + count));
    IONF_CALL(read_column(file, path, "x_HeIII", count, x_hii + 2 * count));
  }
  return IONF_OK;
}

ionf_err sph_checkpoint_read(const char *path, const struct sph_checkpoint_meta *expect,
                             double *x_hii, double *temperature_k,
                             struct sph_checkpoint_state *state) {
  struct h5_util_quiet quiet;
  hid_t file;
  IONF_CALL(h5_util_open_read(path, "checkpoint", &quiet, &file));
  memset(state, 0, sizeof *state);
  ionf_err rc = read_open(file, path, expect, x_hii, temperature_k, state);
  h5_util_close_read(file, &quiet);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

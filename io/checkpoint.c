/**
 * @file checkpoint.c
 * @brief Reading a checkpoint back.
 */
#define _POSIX_C_SOURCE 200809L
#include "io/checkpoint.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/h5_util.h"
#include "io/io_density.h"
#include "fields/fields.h"
#include "grid/grid.h"
#include "chem/species.h"

/* A scalar attribute of the root group, converted to `type`. */
static ionf_err read_attr(hid_t file, const char *path, const char *name, hid_t type, void *out) {
  if (H5Aexists(file, name) <= 0)
    return ionf_error_set(IONF_ERR_INPUT, "'%s' is not an ionfront checkpoint: no attribute '%s'",
                          path, name);
  return h5_util_attr_get(file, path, name, type, out);
}

ionf_err checkpoint_read(const char *path, int64_t n, const struct grid_box *box, int n_species,
                         double *x_ion, double *temperature_k, struct checkpoint_state *state) {
  struct h5_util_quiet quiet;
  hid_t file;
  IONF_CALL(h5_util_open_read(path, "checkpoint", &quiet, &file));
  int64_t is_checkpoint = 0, grid_n = 0, next = 0;
  ionf_err rc = read_attr(file, path, "checkpoint", H5T_NATIVE_INT64, &is_checkpoint);
  if (rc == IONF_OK && h5_util_path_exists(file, "/PartType0")) { /* io/sph_checkpoint.h */
    int64_t count = -1;
    if (H5Aexists(file, "particle_count") > 0)
      rc = read_attr(file, path, "particle_count", H5T_NATIVE_INT64, &count);
    if (rc == IONF_OK)
      rc = ionf_error_set(IONF_ERR_INPUT,
                          "'%s' is the checkpoint of a particle run (%lld particles); this config "
                          "is a grid run (grid.N = %lld): restart it from its own DIR/checkpoint.h5",
                          path, (long long)count, (long long)n);
  }
  if (rc == IONF_OK) rc = read_attr(file, path, "N", H5T_NATIVE_INT64, &grid_n);
  if (rc == IONF_OK) rc = read_attr(file, path, "time_s", H5T_NATIVE_DOUBLE, &state->time_s);
  if (rc == IONF_OK) rc = read_attr(file, path, "step", H5T_NATIVE_INT64, &state->step);
  if (rc == IONF_OK) rc = read_attr(file, path, "next_snapshot_index", H5T_NATIVE_INT64, &next);
  /* expanding runs: where the density stands, to continue its dilution exactly */
  state->density_redshift = -1.0;
  state->sum_n_h_cm3 = 0.0;
  if (rc == IONF_OK && H5Aexists(file, "density_redshift") > 0) {
    rc = read_attr(file, path, "density_redshift", H5T_NATIVE_DOUBLE, &state->density_redshift);
    if (rc == IONF_OK)
      rc = read_attr(file, path, "sum_n_H_cm3", H5T_NATIVE_DOUBLE, &state->sum_n_h_cm3);
  }
  state->mc_seed = -1;
  state->mc_packets_per_source = 0;
  if (rc == IONF_OK && H5Aexists(file, "montecarlo_seed") > 0) {
    rc = read_attr(file, path, "montecarlo_seed", H5T_NATIVE_INT64, &state->mc_seed);
    if (rc == IONF_OK)
      rc = read_attr(file, path, "montecarlo_packets_per_source", H5T_NATIVE_INT64,
                     &state->mc_packets_per_source);
  }
  h5_util_close_read(file, &quiet);
  IONF_CALL(rc);
  IONF_CHECK(is_checkpoint == 1, IONF_ERR_INPUT, "'%s' is not an ionfront checkpoint", path);
  IONF_CHECK(grid_n == n, IONF_ERR_INPUT,
             "checkpoint '%s' holds a %lld^3 grid; this run's grid.N is %lld", path,
             (long long)grid_n, (long long)n);
  state->next_index = (int)next;
  for (int s = 0; s < n_species; ++s) { /* /Grid/x_HII, ... */
    char dataset[48], name[40];
    snprintf(name, sizeof name, "x_%s", species_names_of(s)->ion_name);
    snprintf(dataset, sizeof dataset, "/Grid/%s", name);
    IONF_CALL(io_field_read_box(path, dataset, n, box, name, "ionized fractions",
                                fields_species(x_ion, grid_box_cells(box), s)));
  }
  IONF_CALL(io_field_read_box(path, "/Grid/T", n, box, "T", "temperatures", temperature_k));
  return IONF_OK;
}

/* A string attribute of `obj`, malloc'd (NULL when it cannot be read). */
/* The list's dataset, checked; *cells malloc'd. */
static ionf_err read_suppressed(hid_t file, const char *path, int64_t n, int64_t **cells,
                                int64_t *count) {
  const char *name = "/low_mass_suppressed_cells";
  hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
  IONF_CHECK(dset >= 0, IONF_ERR_IO, "cannot open dataset '%s' of checkpoint '%s'", name, path);
  hid_t space = H5Dget_space(dset);
  hsize_t dims[1] = {0};
  int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  if (rank == 1) H5Sget_simple_extent_dims(space, dims, NULL);
  if (space >= 0) H5Sclose(space);
  ionf_err rc = IONF_OK;
  if (rank != 1)
    rc = ionf_error_set(IONF_ERR_INPUT, "checkpoint '%s': dataset '%s' is not a list", path, name);
  int64_t *buf = NULL;
  if (rc == IONF_OK) {
    buf = ionf_malloc(dims[0] > 0 ? (size_t)dims[0] * sizeof *buf : 1, "suppressed cells");
    if (!buf) rc = IONF_ERR_MEM;
  }
  if (rc == IONF_OK && dims[0] > 0 &&
      H5Dread(dset, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
    rc = ionf_error_set(IONF_ERR_IO, "cannot read dataset '%s' of checkpoint '%s'", name, path);
  H5Dclose(dset);
  for (hsize_t q = 0; rc == IONF_OK && q < dims[0]; ++q)
    if (buf[q] < 0 || buf[q] >= n * n * n)
      rc = ionf_error_set(IONF_ERR_INPUT,
                          "checkpoint '%s': dataset '%s' holds cell %lld, outside the %lld^3 grid",
                          path, name, (long long)buf[q], (long long)n);
  if (rc != IONF_OK) {
    free(buf);
    return rc;
  }
  *cells = buf;
  *count = (int64_t)dims[0];
  return IONF_OK;
}

ionf_err checkpoint_read_suppressed_cells(const char *path, int64_t n, int64_t **cells,
                                          int64_t *count) {
  *cells = NULL;
  *count = -1;
  struct h5_util_quiet quiet;
  hid_t file;
  IONF_CALL(h5_util_open_read(path, "checkpoint", &quiet, &file));
  ionf_err rc = IONF_OK;
  if (h5_util_path_exists(file, "/low_mass_suppressed_cells"))
    rc = read_suppressed(file, path, n, cells, count);
  h5_util_close_read(file, &quiet);
  return rc;
}

static char *checkpoint_string_attr(hid_t obj, const char *name) {
  hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
  if (attr < 0) return NULL;
  hid_t ftype = H5Aget_type(attr);
  char *out = NULL;
  if (ftype >= 0 && H5Tget_class(ftype) == H5T_STRING) {
    hid_t mtype = H5Tcopy(ftype); /* the file's character set: no conversion */
    if (H5Tis_variable_str(ftype) > 0) {
      char *v = NULL;
      if (H5Aread(attr, mtype, &v) >= 0 && v) out = strdup(v);
      if (v) H5free_memory(v);
    } else {
      size_t len = H5Tget_size(ftype);
      out = calloc(len + 1, 1);
      H5Tset_size(mtype, len + 1);
      H5Tset_strpad(mtype, H5T_STR_NULLTERM);
      if (out && H5Aread(attr, mtype, out) < 0) {
        free(out);
        out = NULL;
      }
    }
    H5Tclose(mtype);
  }
  if (ftype >= 0) H5Tclose(ftype);
  H5Aclose(attr);
  return out;
}

ionf_err checkpoint_read_config(const char *path, char **yaml) {
  *yaml = NULL;
  struct h5_util_quiet quiet;
  hid_t file;
  IONF_CALL(h5_util_open_read(path, "checkpoint", &quiet, &file));
  int found = 0;
  if (H5Aexists(file, "config") > 0) { /* a grid run's */
    found = 1;
    *yaml = checkpoint_string_attr(file, "config");
  } else if (h5_util_path_exists(file, "/Header")) { /* a particle run's */
    hid_t header = H5Gopen2(file, "/Header", H5P_DEFAULT);
    if (header >= 0 && H5Aexists(header, "config") > 0) {
      found = 1;
      *yaml = checkpoint_string_attr(header, "config");
    }
    if (header >= 0) H5Gclose(header);
  }
  h5_util_close_read(file, &quiet);
  IONF_CHECK(!found || *yaml, IONF_ERR_INPUT,
             "checkpoint '%s': cannot read its stored configuration (attribute 'config')", path);
  return IONF_OK;
}

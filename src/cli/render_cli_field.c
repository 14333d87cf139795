/**
 * @file render_cli_field.c
 * @brief `ionfront render`: a field of a snapshot (grid, or SPH particles binned onto
 *        a grid) and its colour scale.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/render_cli_internal.h"

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/h5_util.h"
#include "io/io_particles.h"
#include "render/render.h"

static const char *const grid_fields[] = {"x_HII", "Gamma_HI", "T", "n_H", "dTb"};

static const char *particle_dataset(const char *field) {
  if (!strcmp(field, "x_HII")) return "IonizedFraction";
  if (!strcmp(field, "Gamma_HI")) return "PhotoionizationRate";
  if (!strcmp(field, "T")) return "Temperature";
  return field;
}

/* /Grid/<field> of an ionfront snapshot (any sign: dTb may be negative). */
static ionf_err read_grid_field(hid_t file, const char *path, const char *field,
                                struct render_field *out) {
  int known = 0;
  for (size_t f = 0; f < sizeof grid_fields / sizeof *grid_fields; ++f)
    known |= !strcmp(field, grid_fields[f]);
  IONF_CHECK(known, IONF_ERR_USAGE,
             "render: unknown field '%s' (x_HII, Gamma_HI, T, n_H, dTb)", field);
  IONF_CHECK(h5_util_path_exists(file, "/Grid"), IONF_ERR_INPUT,
             "'%s' is neither an ionfront snapshot (no /Grid) nor a particle file (no /PartType0)",
             path);
  char name[96];
  snprintf(name, sizeof name, "/Grid/%s", field);
  if (!h5_util_path_exists(file, name)) {
    char have[128] = "";
    for (size_t f = 0; f < sizeof grid_fields / sizeof *grid_fields; ++f) {
      char other[96];
      snprintf(other, sizeof other, "/Grid/%s", grid_fields[f]);
      if (h5_util_path_exists(file, other))
        snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s", have[0] ? ", " : "",
                 grid_fields[f]);
    }
    return ionf_error_set(IONF_ERR_INPUT, "snapshot '%s' has no field '%s' (it has %s)", path,
                          field, have);
  }
  hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
  hid_t space = dset >= 0 ? H5Dget_space(dset) : -1;
  hsize_t dims[3] = {0, 0, 0};
  int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  if (rank == 3) H5Sget_simple_extent_dims(space, dims, NULL);
  if (space >= 0) H5Sclose(space);
  if (rank != 3 || dims[0] != dims[1] || dims[0] != dims[2] || dims[0] == 0) {
    if (dset >= 0) H5Dclose(dset);
    return ionf_error_set(IONF_ERR_INPUT, "snapshot '%s': '%s' is not an N x N x N grid", path,
                          name);
  }
  out->n = (int)dims[0];
  size_t cells = (size_t)dims[0] * dims[1] * dims[2];
  out->v = malloc(cells * sizeof *out->v);
  if (!out->v) {
    H5Dclose(dset);
    return ionf_error_set(IONF_ERR_MEM, "out of memory reading '%s' of '%s'", name, path);
  }
  herr_t rc = H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out->v);
  if (!h5_util_attr_get_string(dset, "units", out->units, sizeof out->units)) out->units[0] = 0;
  H5Dclose(dset);
  IONF_CHECK(rc >= 0, IONF_ERR_IO, "cannot read '%s' of snapshot '%s'", name, path);
  const hid_t real = H5T_NATIVE_DOUBLE;
  IONF_CHECK(h5_util_attr_try_get(file, "box_size_cm", real, &out->box_cm) && out->box_cm > 0.0,
             IONF_ERR_INPUT, "snapshot '%s' has no positive attribute 'box_size_cm'", path);
  if (!h5_util_attr_try_get(file, "time_s", real, &out->time_s)) out->time_s = -1.0;
  if (!h5_util_attr_try_get(file, "redshift", real, &out->redshift)) out->redshift = -1.0;
  return IONF_OK;
}

/* PartType0/<field> of a particle file, binned onto an n^3 grid over the box. */
static ionf_err read_particle_field(hid_t file, const char *path, const char *field,
                                    const struct render_options *o, int use_gpu, int quiet,
                                    struct render_field *out) {
  const char *ds = particle_dataset(field);
  char name[128];
  snprintf(name, sizeof name, "/PartType0/%s", ds);
  hid_t dset;
  hsize_t dims[2] = {0, 0};
  IONF_CALL(h5_util_open_table(file, path, "particle file", name, 1, 0, &dset, dims));
  struct particle_set p;
  memset(&p, 0, sizeof p);
  struct io_particles_options po;
  io_particles_default_options(&po);
  ionf_err rc = io_particles_read(path, &po, &p);
  double *value = NULL, *pos = NULL, *sum_wv = NULL, *sum_w = NULL;
  if (rc == IONF_OK && (int64_t)dims[0] != p.count)
    rc = ionf_error_set(IONF_ERR_INPUT, "particle file '%s': '%s' has %lld values for %lld particles",
                        path, name, (long long)dims[0], (long long)p.count);
  const int n = o->grid_n;
  const size_t cells = (size_t)n * n * n;
  if (rc == IONF_OK) {
    value = malloc((size_t)p.count * sizeof *value + 8);
    pos = malloc((size_t)p.count * 3 * sizeof *pos + 8);
    sum_wv = malloc(cells * sizeof *sum_wv);
    sum_w = malloc(cells * sizeof *sum_w);
    out->v = malloc(cells * sizeof *out->v);
    if (!value || !pos || !sum_wv || !sum_w || !out->v)
      rc = ionf_error_set(IONF_ERR_MEM, "out of memory binning '%s' onto %d^3 cells", path, n);
  }
  if (rc == IONF_OK && p.count > 0 &&
      H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, value) < 0)
    rc = ionf_error_set(IONF_ERR_IO, "cannot read '%s' of particle file '%s'", name, path);
  if (rc == IONF_OK && !h5_util_attr_get_string(dset, "units", out->units, sizeof out->units))
    out->units[0] = 0;
  H5Dclose(dset);
  if (rc == IONF_OK) {
    /* the box, or the particles' bounding cube when the file has none */
    double lo[3] = {0, 0, 0}, side = 0.0;
    if (p.has_box) {
      side = fmax(p.box_size_cm[0], fmax(p.box_size_cm[1], p.box_size_cm[2]));
    } else if (p.count > 0) {
      double hi[3];
      for (int d = 0; d < 3; ++d) lo[d] = hi[d] = p.pos_cm[d];
      for (int64_t q = 0; q < p.count; ++q)
        for (int d = 0; d < 3; ++d)
          lo[d] = fmin(lo[d], p.pos_cm[3 * q + d]), hi[d] = fmax(hi[d], p.pos_cm[3 * q + d]);
      for (int d = 0; d < 3; ++d) side = fmax(side, hi[d] - lo[d]);
      side *= 1.0 + 1e-9;
    }
    if (!(side > 0.0)) rc = ionf_error_set(IONF_ERR_INPUT, "particle file '%s': no extent to bin", path);
    for (int64_t q = 0; rc == IONF_OK && q < 3 * p.count; ++q)
      pos[q] = (p.pos_cm[q] - lo[q % 3]) / side * n;
    out->box_cm = side;
  }
  struct render_bin_input in = {pos, p.mass_g, value, p.count, n, o->n_smooth, p.periodic};
  if (rc == IONF_OK) {
    int64_t outside = 0;
    rc = use_gpu ? render_bin_cuda(&in, sum_wv, sum_w, &outside) : IONF_ERR_UNSUPPORTED;
    if (rc == IONF_ERR_UNSUPPORTED) {
      if (use_gpu) ionf_warning("%s: binning on the CPU instead", ionf_error_message());
      ionf_error_clear();
      rc = render_bin_cpu(&in, sum_wv, sum_w, &outside);
    }
    if (rc == IONF_OK) {
      int64_t empty = render_bin_average_fill(sum_wv, sum_w, n, p.periodic, out->v);
      if (!quiet)
        ionf_message("%s: %lld particles onto %d^3 cells (stencil %d), %lld cells empty and "
                     "filled from their neighbours", path, (long long)p.count, n, o->n_smooth,
                     (long long)empty);
    }
  }
  out->n = n;
  out->time_s = -1.0;
  out->redshift = p.redshift > 0.0 ? p.redshift : -1.0;
  out->particles = 1;
  particles_free(&p);
  free(value), free(pos), free(sum_wv), free(sum_w);
  return rc;
}

ionf_err render_cli_field_read(const char *path, const struct render_options *o, int use_gpu,
                           int quiet, struct render_field *out) {
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "%s", o->field);
  FILE *probe = fopen(path, "rb");
  IONF_CHECK(probe, IONF_ERR_IO, "cannot open snapshot '%s': no such file or not readable", path);
  fclose(probe);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  IONF_CHECK(file >= 0, IONF_ERR_INPUT, "cannot open snapshot '%s': not an HDF5 file", path);
  ionf_err rc = h5_util_path_exists(file, "/PartType0")
                    ? read_particle_field(file, path, o->field, o, use_gpu, quiet, out)
                    : read_grid_field(file, path, o->field, out);
  H5Fclose(file);
  return rc;
}

/* ---- scaling ------------------------------------------------------------------------------ */

void render_cli_field_stats(const struct render_field *f, struct field_stats *st) {
  const size_t cells = (size_t)f->n * f->n * f->n;
  st->lo = INFINITY, st->hi = -INFINITY, st->lo_pos = INFINITY;
  for (size_t c = 0; c < cells; ++c) {
    double v = f->v[c];
    if (!isfinite(v)) continue;
    st->lo = fmin(st->lo, v), st->hi = fmax(st->hi, v);
    if (v > 0.0) st->lo_pos = fmin(st->lo_pos, v);
  }
}

ionf_err render_cli_field_scale(const struct field_stats *st, const char *name,
                             const struct render_options *o, struct render_scale *sc) {
  const double lo = st->lo, hi = st->hi, lo_pos = st->lo_pos;
  IONF_CHECK(hi >= lo, IONF_ERR_INPUT, "field '%s' has no finite value", name);
  sc->log = o->scale >= 0 ? o->scale : (lo >= 0.0 && hi > 0.0 && hi >= 100.0 * lo_pos);
  if (o->has_range) {
    sc->vmin = o->range_lo, sc->vmax = o->range_hi;
    IONF_CHECK(!sc->log || sc->vmin > 0.0, IONF_ERR_USAGE,
               "render: --range %g,%g: a log scale needs MIN > 0", sc->vmin, sc->vmax);
    return IONF_OK;
  }
  if (sc->log) {
    IONF_CHECK(hi > 0.0, IONF_ERR_INPUT,
               "field '%s' has no positive value for a log scale (use --linear)", name);
    sc->vmin = lo_pos, sc->vmax = hi;
  } else {
    sc->vmin = lo, sc->vmax = hi;
  }
  if (!(sc->vmax > sc->vmin)) { /* a constant field */
    double pad = sc->log ? 0.0 : (sc->vmax != 0.0 ? 0.5 * fabs(sc->vmax) : 1.0);
    if (sc->log) sc->vmin /= 10.0, sc->vmax *= 10.0;
    else sc->vmin -= pad, sc->vmax += pad;
  }
  return IONF_OK;
}

/* The value as a fraction of the colour map, clamped to [0, 1]. */
double render_cli_field_normalised(const struct render_scale *sc, double v) {
  double s;
  if (sc->log) s = v > 0.0 ? log10(v / sc->vmin) / log10(sc->vmax / sc->vmin) : 0.0;
  else s = (v - sc->vmin) / (sc->vmax - sc->vmin);
  return s > 0.0 ? (s < 1.0 ? s : 1.0) : 0.0; /* NaN -> 0 */
}

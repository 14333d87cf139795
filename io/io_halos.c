/**
 * @file io_halos.c
 * @brief Halo catalogues (HDF5, ionfront or pyC²Ray layout) as point sources.
 */
#include "io/io_halos.h"

#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "io/h5_util.h"

/* The two layouts: dataset names and how positions are given. */
struct halo_layout {
  const char *pos_name;
  const char *mass_name;
  int cell_indices_1based; /* pyC²Ray: 1-based cell indices; ionfront: physical positions */
};

static const struct halo_layout layout_ionfront = {"/halos/position", "/halos/mass", 0};
static const struct halo_layout layout_pyc2ray = {"/sources_positions", "/sources_mass", 1};

/* ---- Eq. 20 ---------------------------------------------------------------------- */

double io_halos_ndot_per_s(double mass_msun, double f_gamma, double t_source_s,
                           const struct cosmology *c) {
  return f_gamma * (mass_msun * IONF_M_SUN_G) * c->omega_b /
         (c->omega_m * IONF_PROTON_MASS_G * t_source_s);
}

/* ---- file names ------------------------------------------------------------------- */

/* 1 when `pattern` holds exactly one floating conversion (%[flags][width][.prec]{f,F,e,E,g,G,a,A},
 * no '*' and no length modifier) besides any number of "%%". */
static int series_pattern_ok(const char *pattern) {
  int conversions = 0;
  for (const char *p = pattern; *p; ++p) {
    if (*p != '%') continue;
    ++p;
    if (*p == '%') continue;
    while (*p && strchr("-+ #0", *p)) ++p;
    while (*p >= '0' && *p <= '9') ++p;
    if (*p == '.') {
      ++p;
      while (*p >= '0' && *p <= '9') ++p;
    }
    if (!*p || !strchr("fFeEgGaA", *p)) return 0;
    ++conversions;
  }
  return conversions == 1;
}

void io_halos_series_name(char *buf, size_t size, const char *pattern, double redshift) {
  if (!buf || size == 0) return;
  if (!pattern || !series_pattern_ok(pattern)) { /* never hand printf a bad format */
    buf[0] = '\0';
    return;
  }
  snprintf(buf, size, pattern, redshift);
}

/* ---- HDF5 -------------------------------------------------------------------------- */


static ionf_err h5_read_doubles(hid_t dset, const char *path, const char *name, double *buf) {
  if (H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
    char detail[512];
    h5_util_error_text(detail, sizeof detail);
    return ionf_error_set(IONF_ERR_IO, "cannot read dataset '%s' from halo catalogue '%s': %s",
                          name, path, detail);
  }
  return IONF_OK;
}

/* ---- positions to cells ---------------------------------------------------------------- */

static const char axis_name[3] = {'x', 'y', 'z'};

/* A double as written by a user: the shortest of %.15g / %.17g that reads back exactly. */
static const char *halo_number_text(char *buf, size_t size, double v) {
  snprintf(buf, size, "%.15g", v);
  if (strtod(buf, NULL) != v) snprintf(buf, size, "%.17g", v);
  return buf;
}

/* Physical position p in [0, box] -> cell; box wraps to 0, rounding up to n stays in n - 1. */
ionf_err io_halos_cell_from_position(double p, double box_size, int64_t n, const char *path,
                                     const char *name, int64_t h, int d, int32_t *cell) {
  char pv[32], bv[32];
  IONF_CHECK(isfinite(p) && p >= 0.0 && p <= box_size, IONF_ERR_INPUT,
             "%s: dataset '%s': halo %lld has %c = %s, outside the box [0, %s]", path, name,
             (long long)h, axis_name[d], halo_number_text(pv, sizeof pv, p),
             halo_number_text(bv, sizeof bv, box_size));
  int64_t i = 0;
  if (p < box_size) {
    i = (int64_t)floor(p / box_size * (double)n);
    if (i >= n) i = n - 1;
  }
  *cell = (int32_t)i;
  return IONF_OK;
}

/* pyC²Ray: a 1-based cell index v (integral, 1..n) -> 0-based cell. */
static ionf_err halo_cell_from_index(double v, int64_t n, const char *path, const char *name,
                                     int64_t h, int d, int32_t *cell) {
  char vv[32];
  IONF_CHECK(isfinite(v) && v == floor(v) && v >= 1.0 && v <= (double)n, IONF_ERR_INPUT,
             "%s: dataset '%s': halo %lld has %c = %s; pyC2Ray source positions are "
             "1-based cell indices, integers in 1..%lld",
             path, name, (long long)h, axis_name[d], halo_number_text(vv, sizeof vv, v),
             (long long)n);
  *cell = (int32_t)((int64_t)v - 1);
  return IONF_OK;
}

/* Read, check and convert; the list is not merged yet. */
static ionf_err io_halos_read_file(hid_t file, const char *path, double box_size, int64_t n,
                                   double f_gamma, double t_source_s, const struct cosmology *c,
                                   struct source_list *out) {
  const struct halo_layout *lay;
  if (h5_util_path_exists(file, "/halos"))
    lay = &layout_ionfront;
  else if (h5_util_path_exists(file, layout_pyc2ray.pos_name) ||
           h5_util_path_exists(file, layout_pyc2ray.mass_name))
    lay = &layout_pyc2ray;
  else
    return ionf_error_set(IONF_ERR_INPUT,
                          "halo catalogue '%s' has neither '/halos/position' and '/halos/mass' "
                          "(ionfront layout) nor 'sources_positions' and 'sources_mass' (pyC2Ray "
                          "layout)",
                          path);

  hid_t dpos = H5I_INVALID_HID, dmass = H5I_INVALID_HID;
  hsize_t pdims[2] = {0, 0}, mdims[1] = {0};
  double *pos = NULL, *mass = NULL;
  ionf_err rc = h5_util_open_table(file, path, "halo catalogue", lay->pos_name, 2, 0, &dpos, pdims);
  if (rc == IONF_OK) rc = h5_util_open_table(file, path, "halo catalogue", lay->mass_name, 1, 0, &dmass, mdims);
  if (rc == IONF_OK && mdims[0] != pdims[0])
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "dataset '%s' in halo catalogue '%s' has shape (%llu); expected (%llu) "
                        "to match '%s' (%llu, 3)",
                        lay->mass_name, path, (unsigned long long)mdims[0],
                        (unsigned long long)pdims[0], lay->pos_name,
                        (unsigned long long)pdims[0]);
  int64_t n_halo = (int64_t)pdims[0];
  if (rc == IONF_OK && (uint64_t)pdims[0] > SIZE_MAX / (4 * sizeof(double)))
    rc = ionf_error_set(IONF_ERR_MEM, "halo catalogue '%s': %llu halos do not fit in memory",
                        path, (unsigned long long)pdims[0]);
  if (rc == IONF_OK) {
    pos = ionf_malloc((size_t)n_halo * 3 * sizeof(double), "halo positions");
    mass = ionf_malloc((size_t)n_halo * sizeof(double), "halo masses");
    if (!pos || !mass) rc = IONF_ERR_MEM;
  }
  if (rc == IONF_OK && n_halo > 0) rc = h5_read_doubles(dpos, path, lay->pos_name, pos);
  if (rc == IONF_OK && n_halo > 0) rc = h5_read_doubles(dmass, path, lay->mass_name, mass);
  if (dpos >= 0) H5Dclose(dpos);
  if (dmass >= 0) H5Dclose(dmass);

  /* Check every halo before allocating the list; count those that emit. */
  int64_t n_emit = 0;
  for (int64_t h = 0; rc == IONF_OK && h < n_halo; ++h) {
    if (!(isfinite(mass[h]) && mass[h] >= 0.0))
      rc = ionf_error_set(IONF_ERR_INPUT,
                          "%s: dataset '%s': halo %lld has mass %g Msun; must be finite and >= 0",
                          path, lay->mass_name, (long long)h, mass[h]);
    else if (mass[h] > 0.0)
      ++n_emit;
  }
  if (rc == IONF_OK) rc = sources_alloc(n_emit, out);
  int64_t q = 0;
  for (int64_t h = 0; rc == IONF_OK && h < n_halo; ++h) {
    int32_t cell[3];
    for (int d = 0; d < 3 && rc == IONF_OK; ++d)
      rc = lay->cell_indices_1based
               ? halo_cell_from_index(pos[3 * h + d], n, path, lay->pos_name, h, d, &cell[d])
               : io_halos_cell_from_position(pos[3 * h + d], box_size, n, path, lay->pos_name, h,
                                             d, &cell[d]);
    if (rc != IONF_OK || mass[h] == 0.0) continue;
    for (int d = 0; d < 3; ++d) out->ijk[3 * q + d] = cell[d];
    out->ndot_per_s[q] = io_halos_ndot_per_s(mass[h], f_gamma, t_source_s, c);
    ++q;
  }
  free(pos);
  free(mass);
  return rc;
}

/* ---- entry ---------------------------------------------------------------------------- */

ionf_err io_halos_read(const char *path, double box_size, int64_t n, double f_gamma,
                       double t_source_s, const struct cosmology *c, struct source_list *out) {
  IONF_CHECK(path && c && out, IONF_ERR_INTERNAL, "io_halos_read: NULL argument");
  memset(out, 0, sizeof *out);
  IONF_CHECK(isfinite(box_size) && box_size > 0.0, IONF_ERR_CONFIG,
             "halo catalogue '%s': box size %g must be finite and > 0", path, box_size);
  IONF_CHECK(n >= 1 && n <= INT32_MAX, IONF_ERR_CONFIG,
             "halo catalogue '%s': grid size %lld must be in 1..%d", path, (long long)n,
             (int)INT32_MAX);
  IONF_CHECK(isfinite(f_gamma) && f_gamma > 0.0, IONF_ERR_CONFIG,
             "halo catalogue '%s': f_gamma = %g; must be finite and > 0", path, f_gamma);
  IONF_CHECK(isfinite(t_source_s) && t_source_s > 0.0, IONF_ERR_CONFIG,
             "halo catalogue '%s': source lifetime t_s = %g s; must be finite and > 0", path,
             t_source_s);
  IONF_CALL(cosmology_validate(c, "cosmology for the halo catalogue"));
  IONF_CHECK(c->omega_b > 0.0, IONF_ERR_CONFIG,
             "halo catalogue '%s': omega_b = %g; halos emit nothing unless omega_b > 0", path,
             c->omega_b);

  struct h5_util_quiet quiet;
  hid_t file;
  IONF_CALL(h5_util_open_read(path, "halo catalogue", &quiet, &file));
  ionf_err rc = io_halos_read_file(file, path, box_size, n, f_gamma, t_source_s, c, out);
  h5_util_close_read(file, &quiet);
  if (rc == IONF_OK) rc = sources_merge_same_cell(out, n);
  if (rc != IONF_OK) {
    sources_free(out);
    ionf_error_trace(__func__, __FILE__, __LINE__);
  }
  return rc;
}

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
#include "core/path.h"
#include "io/h5_util.h"
#include "io/io_halos_c2ray.h"

/* The HDF5 layouts: dataset names and how positions are given. */
enum halo_positions {
  HALO_POS_PHYSICAL,    /* in [0, box] of the layout's length unit */
  HALO_POS_MPC_H,       /* comoving Mpc/h, divided by the file's attribute h */
  HALO_POS_CELL_INDEX   /* cell indices, 0- or 1-based */
};

struct halo_layout {
  const char *pos_name;
  const char *mass_name;
  enum halo_positions positions;
  int index_base; /* HALO_POS_CELL_INDEX: the first cell's index */
};

static const struct halo_layout layout_ionfront = {"/halos/position", "/halos/mass",
                                                   HALO_POS_PHYSICAL, 0};
static const struct halo_layout layout_pyc2ray_legacy = {"/sources_positions", "/sources_mass",
                                                         HALO_POS_CELL_INDEX, 1};

/* ---- Eq. 20 ---------------------------------------------------------------------- */

double io_halos_ndot_per_s(double mass_msun, double f_gamma, double t_source_s,
                           const struct cosmology *c) {
  struct halo_model m = halo_model_f_gamma(f_gamma, t_source_s);
  return halo_model_ndot_per_s(&m, c, mass_msun, t_source_s);
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

/* A cell index v of a list whose first cell is `base` (integral, base..base+n-1) -> cell. */
static ionf_err halo_cell_from_index(double v, int base, int64_t n, const char *path,
                                     const char *name, int64_t h, int d, int32_t *cell) {
  char vv[32];
  double lo = (double)base, hi = (double)(n - 1 + base);
  IONF_CHECK(isfinite(v) && v == floor(v) && v >= lo && v <= hi, IONF_ERR_INPUT,
             "%s: dataset '%s': halo %lld has %c = %s; the source positions are %d-based cell "
             "indices here, integers in %d..%lld%s",
             path, name, (long long)h, axis_name[d], halo_number_text(vv, sizeof vv, v), base,
             base, (long long)(n - 1 + base),
             base == 1 ? "" : " (sequence.halos.cell_index_base: 1 reads 1-based ones)");
  *cell = (int32_t)((int64_t)v - base);
  return IONF_OK;
}

/* Halo h's cell from its position row p (3 values) in the layout's terms. */
static ionf_err halo_cell(const struct halo_layout *lay, const struct io_halos_layout *spec,
                          double box, const double *p, const char *path, int64_t h,
                          int32_t *cell) {
  for (int d = 0; d < 3; ++d) {
    if (lay->positions == HALO_POS_CELL_INDEX)
      IONF_CALL(halo_cell_from_index(p[d], lay->index_base, spec->n, path, lay->pos_name, h, d,
                                     &cell[d]));
    else
      IONF_CALL(
          io_halos_cell_from_position(p[d], box, spec->n, path, lay->pos_name, h, d, &cell[d]));
  }
  return IONF_OK;
}

/* ---- reading ------------------------------------------------------------------------------ */

/* The datasets of `lay`: positions (n x 3) and masses (n) as doubles (malloc'd). */
static ionf_err halo_read_tables(hid_t file, const char *path, const struct halo_layout *lay,
                                 int64_t *n_halo, double **pos, double **mass) {
  hid_t dpos = H5I_INVALID_HID, dmass = H5I_INVALID_HID;
  hsize_t pdims[2] = {0, 0}, mdims[1] = {0};
  *pos = *mass = NULL;
  ionf_err rc = h5_util_open_table(file, path, "halo catalogue", lay->pos_name, 2, 0, &dpos, pdims);
  if (rc == IONF_OK) rc = h5_util_open_table(file, path, "halo catalogue", lay->mass_name, 1, 0, &dmass, mdims);
  if (rc == IONF_OK && mdims[0] != pdims[0])
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "dataset '%s' in halo catalogue '%s' has shape (%llu); expected (%llu) "
                        "to match '%s' (%llu, 3)",
                        lay->mass_name, path, (unsigned long long)mdims[0],
                        (unsigned long long)pdims[0], lay->pos_name,
                        (unsigned long long)pdims[0]);
  *n_halo = (int64_t)pdims[0];
  if (rc == IONF_OK && (uint64_t)pdims[0] > SIZE_MAX / (4 * sizeof(double)))
    rc = ionf_error_set(IONF_ERR_MEM, "halo catalogue '%s': %llu halos do not fit in memory",
                        path, (unsigned long long)pdims[0]);
  if (rc == IONF_OK) {
    size_t count = *n_halo > 0 ? (size_t)*n_halo : 1;
    *pos = ionf_malloc(count * 3 * sizeof(double), "halo positions");
    *mass = ionf_malloc(count * sizeof(double), "halo masses");
    if (!*pos || !*mass) rc = IONF_ERR_MEM;
  }
  if (rc == IONF_OK && *n_halo > 0) rc = h5_read_doubles(dpos, path, lay->pos_name, *pos);
  if (rc == IONF_OK && *n_halo > 0) rc = h5_read_doubles(dmass, path, lay->mass_name, *mass);
  if (dpos >= 0) H5Dclose(dpos);
  if (dmass >= 0) H5Dclose(dmass);
  return rc;
}

/* pyc2ray_hdf5 halo lists: the root attribute h (Mpc/h and Msun/h to Mpc and Msun). */
static ionf_err halo_read_h(hid_t file, const char *path, double *h) {
  IONF_CHECK(H5Aexists(file, "h") > 0, IONF_ERR_INPUT,
             "halo list '%s' has datasets 'pos' and 'mass' (pyC2Ray's halo list, positions in "
             "Mpc/h, masses in Msun/h) but no root attribute 'h' to convert them",
             path);
  IONF_CALL(h5_util_attr_get(file, path, "h", H5T_NATIVE_DOUBLE, h));
  IONF_CHECK(isfinite(*h) && *h > 0.0 && *h < 10.0, IONF_ERR_INPUT,
             "halo list '%s': root attribute h = %g; expected the Hubble parameter in (0, 10)",
             path, *h);
  return IONF_OK;
}

/* Which HDF5 layout a file of `spec`'s format holds. */
static ionf_err halo_pick_layout(hid_t file, const char *path, const struct io_halos_layout *spec,
                                 struct halo_layout *lay) {
  int cells = h5_util_path_exists(file, "/sources_positions") ||
              h5_util_path_exists(file, "/sources_mass");
  if (spec->format == HALO_FORMAT_IONFRONT) {
    if (h5_util_path_exists(file, "/halos")) *lay = layout_ionfront;
    else if (cells) *lay = layout_pyc2ray_legacy;
    else
      return ionf_error_set(IONF_ERR_INPUT,
                            "halo catalogue '%s' has neither '/halos/position' and '/halos/mass' "
                            "(ionfront layout) nor 'sources_positions' and 'sources_mass' "
                            "(pyC2Ray layout)",
                            path);
    return IONF_OK;
  }
  int halos = h5_util_path_exists(file, "/pos") || h5_util_path_exists(file, "/mass");
  IONF_CHECK(halos != cells, IONF_ERR_INPUT,
             "halo file '%s' (format pyc2ray_hdf5) has %s: expected either 'pos', 'mass' and "
             "the attribute 'h' (a halo list) or 'sources_positions' and 'sources_mass' (a "
             "source list)",
             path, halos ? "both a halo list and a source list" : "neither of pyC2Ray's layouts");
  if (halos) {
    struct halo_layout l = {"/pos", "/mass", HALO_POS_MPC_H, 0};
    *lay = l;
  } else {
    struct halo_layout l = {"/sources_positions", "/sources_mass", HALO_POS_CELL_INDEX,
                            spec->cell_index_base};
    *lay = l;
  }
  return IONF_OK;
}

/* Read, check and convert to cells. */
static ionf_err io_halos_read_file(hid_t file, const char *path, const struct io_halos_layout *spec,
                                   struct halo_cells *out) {
  struct halo_layout lay = layout_ionfront;
  double h = 1.0, box = spec->box_size;
  IONF_CALL(halo_pick_layout(file, path, spec, &lay));
  int64_t n_halo = 0;
  double *pos = NULL, *mass = NULL;
  ionf_err rc = halo_read_tables(file, path, &lay, &n_halo, &pos, &mass);
  if (rc == IONF_OK && lay.positions == HALO_POS_MPC_H) {
    rc = halo_read_h(file, path, &h);
    box = spec->box_mpc * h; /* the box in the file's Mpc/h */
  }
  for (int64_t q = 0; rc == IONF_OK && q < n_halo; ++q)
    if (!(isfinite(mass[q]) && mass[q] >= 0.0))
      rc = ionf_error_set(IONF_ERR_INPUT,
                          "%s: dataset '%s': halo %lld has mass %g %s; must be finite and >= 0",
                          path, lay.mass_name, (long long)q, mass[q],
                          lay.positions == HALO_POS_MPC_H ? "Msun/h" : "Msun");
  if (rc == IONF_OK) rc = halo_cells_alloc(n_halo, 0, out);
  for (int64_t q = 0; rc == IONF_OK && q < n_halo; ++q) {
    rc = halo_cell(&lay, spec, box, pos + 3 * q, path, q, out->ijk + 3 * q);
    out->mass_msun[q] = mass[q] / h; /* h = 1 but for Msun/h */
  }
  free(pos);
  free(mass);
  return rc;
}

/* ---- entries ---------------------------------------------------------------------------- */

static ionf_err io_halos_check_layout(const char *path, const struct io_halos_layout *lay) {
  IONF_CHECK(lay->format != HALO_FORMAT_21CMFAST, IONF_ERR_INTERNAL,
             "halo file '%s': format 21cmfast is read by io_21cmfast_halos_read_cells", path);
  IONF_CHECK(lay->n >= 1 && lay->n <= INT32_MAX, IONF_ERR_CONFIG,
             "halo catalogue '%s': grid size %lld must be in 1..%d", path, (long long)lay->n,
             (int)INT32_MAX);
  if (lay->format == HALO_FORMAT_IONFRONT)
    IONF_CHECK(isfinite(lay->box_size) && lay->box_size > 0.0, IONF_ERR_CONFIG,
               "halo catalogue '%s': box size %g must be finite and > 0", path, lay->box_size);
  if (lay->format == HALO_FORMAT_PYC2RAY_HDF5)
    IONF_CHECK(isfinite(lay->box_mpc) && lay->box_mpc > 0.0 &&
                   (lay->cell_index_base == 0 || lay->cell_index_base == 1),
               IONF_ERR_CONFIG, "halo file '%s': box %g Mpc (> 0) or cell index base %d (0 or 1) "
               "out of range", path, lay->box_mpc, lay->cell_index_base);
  if (lay->format == HALO_FORMAT_C2RAY)
    IONF_CHECK(isfinite(lay->mass_unit_msun) && lay->mass_unit_msun > 0.0, IONF_ERR_CONFIG,
               "source list '%s': mass unit %g Msun must be finite and > 0", path,
               lay->mass_unit_msun);
  return IONF_OK;
}

ionf_err io_halos_read_cells(const char *path, const struct io_halos_layout *lay,
                             struct halo_cells *out) {
  IONF_CHECK(path && lay && out, IONF_ERR_INTERNAL, "io_halos_read_cells: NULL argument");
  memset(out, 0, sizeof *out);
  IONF_CALL(io_halos_check_layout(path, lay));
  ionf_err rc;
  if (lay->format == HALO_FORMAT_C2RAY) {
    rc = io_halos_c2ray_read(path, lay->n, lay->mass_unit_msun, out);
  } else {
    struct h5_util_quiet quiet;
    hid_t file;
    IONF_CALL(h5_util_open_read(path, "halo catalogue", &quiet, &file));
    rc = io_halos_read_file(file, path, lay, out);
    h5_util_close_read(file, &quiet);
  }
  if (rc != IONF_OK) {
    halo_cells_free(out);
    ionf_error_trace(__func__, __FILE__, __LINE__);
  }
  return rc;
}

ionf_err io_halos_read(const char *path, double box_size, int64_t n, double f_gamma,
                       double t_source_s, const struct cosmology *c, struct source_list *out) {
  IONF_CHECK(path && c && out, IONF_ERR_INTERNAL, "io_halos_read: NULL argument");
  memset(out, 0, sizeof *out);
  struct io_halos_layout lay;
  memset(&lay, 0, sizeof lay);
  lay.format = HALO_FORMAT_IONFRONT;
  lay.n = n;
  lay.box_size = box_size;
  IONF_CALL(io_halos_check_layout(path, &lay));
  const struct halo_model m = halo_model_f_gamma(f_gamma, t_source_s);
  char origin[IONF_PATH_MAX + 32];
  snprintf(origin, sizeof origin, "halo catalogue '%s'", path);
  IONF_CALL(halo_model_check(&m, c, origin));
  struct halo_cells h;
  IONF_CALL(io_halos_read_cells(path, &lay, &h));
  ionf_err rc = halo_model_sources(&m, c, t_source_s, &h, NULL, n, out, NULL);
  halo_cells_free(&h);
  if (rc != IONF_OK) ionf_error_trace(__func__, __FILE__, __LINE__);
  return rc;
}

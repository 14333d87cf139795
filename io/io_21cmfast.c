/**
 * @file io_21cmfast.c
 * @brief py21cmfast 4 files (io_21cmfast.h): the attributes checked against the run, the
 *        overdensity read by box, the halos as masses by cell.
 */
#include "io/io_21cmfast.h"

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid/grid.h"
#include "io/h5_util.h"
#include "io/io_density.h"
#include "io/io_halos.h"

#define X21_KIND "21cmFAST file"
#define X21_BOX_TOL 1e-6      /* relative: BOX_LEN against grid.box_size */
#define X21_COSMO_TOL 1e-6    /* relative: hlittle, OMm, OMb against cosmology */
#define X21_REDSHIFT_TOL 1e-3 /* absolute: the struct's redshift against the sequence's */
#define X21_DEFAULT_CELL_MPC 1.5 /* py21cmfast 4: SimulationOptions' default cell */

/* What a file says about its run (the attributes the checks read). */
struct x21_run {
  double redshift, hii_dim, box_len_mpc, h, omega_m, omega_b, y_he;
  int has_y_he;
};

/* A scalar numeric attribute `name` of group `where` (an HDF5 path) of the open file:
   *found 0 when absent (an error only when `required`). */
static ionf_err x21_attr(hid_t fid, const char *file, const char *where, const char *name,
                         int required, double *v, int *found) {
  *found = 0;
  hid_t obj = H5Oopen(fid, where, H5P_DEFAULT);
  IONF_CHECK(obj >= 0, IONF_ERR_INPUT, "%s '%s' has no group '%s'", X21_KIND, file, where);
  htri_t there = H5Aexists(obj, name);
  ionf_err rc = IONF_OK;
  if (there <= 0) {
    if (required)
      rc = ionf_error_set(IONF_ERR_INPUT, "%s '%s': group '%s' has no attribute '%s'", X21_KIND,
                          file, where, name);
    H5Oclose(obj);
    return rc;
  }
  hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
  hid_t space = attr >= 0 ? H5Aget_space(attr) : H5I_INVALID_HID;
  hid_t type = attr >= 0 ? H5Aget_type(attr) : H5I_INVALID_HID;
  H5T_class_t cls = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
  hssize_t count = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
  if (count != 1 || (cls != H5T_FLOAT && cls != H5T_INTEGER))
    rc = ionf_error_set(IONF_ERR_INPUT, "%s '%s': attribute '%s' of '%s' is not one number",
                        X21_KIND, file, name, where);
  else if (H5Aread(attr, H5T_NATIVE_DOUBLE, v) < 0) {
    char detail[512];
    h5_util_error_text(detail, sizeof detail);
    rc = ionf_error_set(IONF_ERR_IO, "cannot read attribute '%s' of '%s' in %s '%s': %s", name,
                        where, X21_KIND, file, detail);
  }
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);
  if (attr >= 0) H5Aclose(attr);
  H5Oclose(obj);
  *found = rc == IONF_OK;
  return rc;
}

/* The run's attributes under /<grp> (grp: "PerturbedField", ...). */
static ionf_err x21_read_run(hid_t fid, const char *file, const char *grp, struct x21_run *r) {
  char sim[256], cos[256], where[128];
  int found = 0;
  snprintf(where, sizeof where, "/%s", grp);
  snprintf(sim, sizeof sim, "/%s/InputParameters/simulation_options", grp);
  snprintf(cos, sizeof cos, "/%s/InputParameters/cosmo_params", grp);
  IONF_CALL(x21_attr(fid, file, where, "redshift", 1, &r->redshift, &found));
  IONF_CALL(x21_attr(fid, file, sim, "HII_DIM", 1, &r->hii_dim, &found));
  double factor = 1.0, cell_mpc = X21_DEFAULT_CELL_MPC;
  IONF_CALL(x21_attr(fid, file, sim, "NON_CUBIC_FACTOR", 0, &factor, &found));
  IONF_CHECK(factor == 1.0, IONF_ERR_INPUT,
             "%s '%s': %s attribute NON_CUBIC_FACTOR = %g; ionfront's grid is a cube (1)",
             X21_KIND, file, sim, factor);
  IONF_CALL(x21_attr(fid, file, sim, "BOX_LEN", 0, &r->box_len_mpc, &found));
  if (!found) { /* py21cmfast's rule: HII_DIM cells of LOWRES_CELL_SIZE_MPC, to 1e-3 Mpc */
    IONF_CALL(x21_attr(fid, file, sim, "LOWRES_CELL_SIZE_MPC", 0, &cell_mpc, &found));
    r->box_len_mpc = round(r->hii_dim * cell_mpc * 1000.0) / 1000.0;
  }
  IONF_CALL(x21_attr(fid, file, cos, "hlittle", 1, &r->h, &found));
  IONF_CALL(x21_attr(fid, file, cos, "OMm", 1, &r->omega_m, &found));
  IONF_CALL(x21_attr(fid, file, cos, "OMb", 1, &r->omega_b, &found));
  IONF_CALL(x21_attr(fid, file, cos, "Y_He", 0, &r->y_he, &r->has_y_he));
  return IONF_OK;
}

/* A double as a user would write it: the shortest of %.15g / %.17g that reads back. */
static const char *x21_num(char *buf, size_t size, double v) {
  snprintf(buf, size, "%.15g", v);
  if (strtod(buf, NULL) != v) snprintf(buf, size, "%.17g", v);
  return buf;
}

/* One cosmological parameter against the run's. */
static ionf_err x21_same(const char *file, const char *grp, const char *attr, double got,
                         const char *key, double want) {
  char g[32], w[32];
  IONF_CHECK(fabs(got - want) <= X21_COSMO_TOL * fabs(want), IONF_ERR_INPUT,
             "%s '%s': /%s/InputParameters/cosmo_params attribute %s = %s, but %s = %s: "
             "set %s: %s (the cosmology the 21cmFAST run used)",
             X21_KIND, file, grp, attr, x21_num(g, sizeof g, got), key,
             x21_num(w, sizeof w, want), key, g);
  return IONF_OK;
}

/* The file's run against the expected one (the grid size only when `check_n`). */
static ionf_err x21_check_run(const char *file, const char *grp, const struct x21_run *r,
                              const struct io_21cmfast_expect *x, int check_n) {
  char g[32], w[32];
  IONF_CHECK(fabs(r->redshift - x->redshift) <= X21_REDSHIFT_TOL, IONF_ERR_INPUT,
             "%s '%s': attribute redshift of '/%s' is %s, but this file stands for z = %s "
             "in sequence.redshifts (a file of another redshift?)",
             X21_KIND, file, grp, x21_num(g, sizeof g, r->redshift),
             x21_num(w, sizeof w, x->redshift));
  IONF_CHECK(!check_n || r->hii_dim == (double)x->n, IONF_ERR_INPUT,
             "%s '%s': /%s/InputParameters/simulation_options attribute HII_DIM = %g, but "
             "grid.N = %lld (no resampling: run 21cmFAST with HII_DIM %lld or set grid.N: %g)",
             X21_KIND, file, grp, r->hii_dim, (long long)x->n, (long long)x->n, r->hii_dim);
  IONF_CHECK(fabs(r->box_len_mpc - x->box_mpc) <= X21_BOX_TOL * x->box_mpc, IONF_ERR_INPUT,
             "%s '%s': the box of its /%s/InputParameters/simulation_options (BOX_LEN, or "
             "HII_DIM x LOWRES_CELL_SIZE_MPC) is %s Mpc, but grid.box_size is %s Mpc "
             "(comoving): set grid.box_size: \"%s Mpc\"",
             X21_KIND, file, grp, x21_num(g, sizeof g, r->box_len_mpc),
             x21_num(w, sizeof w, x->box_mpc), g);
  IONF_CALL(x21_same(file, grp, "hlittle", r->h, "cosmology.h", x->cosmo->h));
  IONF_CALL(x21_same(file, grp, "OMm", r->omega_m, "cosmology.Omega_m", x->cosmo->omega_m));
  IONF_CALL(x21_same(file, grp, "OMb", r->omega_b, "cosmology.Omega_b", x->cosmo->omega_b));
  return IONF_OK;
}

/* Open the file, find the first of `groups` present, read and check its run. */
static ionf_err x21_open_run(const char *file, const char *const *groups, int n_groups,
                             const char *what, const struct io_21cmfast_expect *x, int check_n,
                             struct h5_util_quiet *quiet, hid_t *fid, const char **grp,
                             struct x21_run *r) {
  IONF_CALL(h5_util_open_read(file, X21_KIND, quiet, fid));
  *grp = NULL;
  for (int g = 0; g < n_groups && !*grp; ++g)
    if (h5_util_path_exists(*fid, groups[g])) *grp = groups[g];
  ionf_err rc = IONF_OK;
  if (!*grp)
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "%s '%s' has no group '/%s'%s%s%s: not a py21cmfast 4 %s file", X21_KIND,
                        file, groups[0], n_groups > 1 ? " or '/" : "",
                        n_groups > 1 ? groups[1] : "", n_groups > 1 ? "'" : "", what);
  if (rc == IONF_OK) rc = x21_read_run(*fid, file, *grp, r);
  if (rc == IONF_OK) rc = x21_check_run(file, *grp, r, x, check_n);
  if (rc != IONF_OK) h5_util_close_read(*fid, quiet);
  return rc;
}

ionf_err io_21cmfast_density_read_box(const char *file, const struct io_21cmfast_expect *x,
                                      const struct grid_box *box, double *out, double *y_he) {
  static const char *const groups[] = {"PerturbedField"};
  struct h5_util_quiet quiet;
  hid_t fid;
  const char *grp;
  struct x21_run r;
  IONF_CALL(x21_open_run(file, groups, 1, "PerturbedField", x, 1, &quiet, &fid, &grp, &r));
  h5_util_close_read(fid, &quiet);
  IONF_CHECK(r.has_y_he, IONF_ERR_INPUT,
             "%s '%s': /PerturbedField/InputParameters/cosmo_params has no attribute Y_He (the "
             "helium mass fraction that gives n_H = (1 - Y_He) rho_b / m_p)",
             X21_KIND, file);
  IONF_CHECK(r.y_he >= 0.0 && r.y_he < 1.0, IONF_ERR_INPUT,
             "%s '%s': /PerturbedField/InputParameters/cosmo_params attribute Y_He = %g; a "
             "mass fraction in [0, 1)",
             X21_KIND, file, r.y_he);
  *y_he = r.y_he;
  const char *dataset = "/PerturbedField/OutputFields/density";
  const struct grid_box whole = grid_box_whole(x->n);
  const struct grid_box *b = box ? box : &whole;
  IONF_CALL(io_field_read_box_any(file, dataset, x->n, b, out));
  if (!out) return IONF_OK;
  const int64_t *lo = b->lo, *ext = b->extent;
  int64_t c = 0;
  for (int64_t li = 0; li < ext[0]; ++li)
    for (int64_t lj = 0; lj < ext[1]; ++lj)
      for (int64_t lk = 0; lk < ext[2]; ++lk, ++c) {
        double rho = 1.0 + out[c];
        out[c] = rho;
        if (isfinite(rho) && rho >= 0.0) continue;
        int64_t g[3] = {lo[0] + li, lo[1] + lj, lo[2] + lk};
        for (int a = 0; a < 3; ++a) g[a] = ((g[a] % x->n) + x->n) % x->n;
        return ionf_error_set(IONF_ERR_INPUT,
                              "%s '%s': %s: cell (%lld, %lld, %lld) has overdensity %g; it must "
                              "be finite and >= -1",
                              X21_KIND, file, dataset, (long long)g[0], (long long)g[1],
                              (long long)g[2], rho - 1.0);
      }
  return IONF_OK;
}

/* The first `rows` rows of a table dataset (count 1 or 3 per row) as doubles. */
static ionf_err x21_read_rows(hid_t dset, const char *file, const char *name, hsize_t rows,
                              int per_row, double *buf) {
  if (rows == 0) return IONF_OK;
  hsize_t start[2] = {0, 0}, count[2] = {rows, (hsize_t)per_row};
  int rank = per_row == 1 ? 1 : 2;
  hid_t fspace = H5Dget_space(dset);
  hid_t mspace = H5Screate_simple(rank, count, NULL);
  int ok = fspace >= 0 && mspace >= 0 &&
           H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
           H5Dread(dset, H5T_NATIVE_DOUBLE, mspace, fspace, H5P_DEFAULT, buf) >= 0;
  char detail[512] = "";
  if (!ok) h5_util_error_text(detail, sizeof detail);
  if (mspace >= 0) H5Sclose(mspace);
  if (fspace >= 0) H5Sclose(fspace);
  IONF_CHECK(ok, IONF_ERR_IO, "cannot read dataset '%s' of %s '%s': %s", name, X21_KIND, file,
             detail);
  return IONF_OK;
}

/* The halos' masses and positions: `rows` of them (n_halos, or every row). */
static ionf_err x21_read_halo_arrays(hid_t fid, const char *file, const char *grp,
                                     int64_t *rows, double **mass, double **pos) {
  char fields[128], mname[192], pname[192];
  snprintf(fields, sizeof fields, "/%s/OutputFields", grp);
  snprintf(mname, sizeof mname, "%s/halo_masses", fields);
  snprintf(pname, sizeof pname, "%s/halo_coords", fields);
  hid_t dm = H5I_INVALID_HID, dp = H5I_INVALID_HID;
  hsize_t mdims[1] = {0}, pdims[2] = {0, 0};
  double n_halos = 0.0;
  int found = 0;
  ionf_err rc = h5_util_open_table(fid, file, X21_KIND, mname, 1, 0, &dm, mdims);
  if (rc == IONF_OK) rc = h5_util_open_table(fid, file, X21_KIND, pname, 2, 0, &dp, pdims);
  if (rc == IONF_OK) rc = x21_attr(fid, file, fields, "n_halos", 0, &n_halos, &found);
  hsize_t have = mdims[0] < pdims[0] ? mdims[0] : pdims[0];
  if (rc == IONF_OK && !found) n_halos = (double)have;
  if (rc == IONF_OK && !(n_halos >= 0.0 && n_halos <= (double)have))
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "%s '%s': attribute n_halos of '%s' is %.17g, but '%s' has %llu rows and "
                        "'%s' %llu",
                        X21_KIND, file, fields, n_halos, mname, (unsigned long long)mdims[0],
                        pname, (unsigned long long)pdims[0]);
  *rows = (int64_t)n_halos;
  if (rc == IONF_OK) {
    *mass = ionf_malloc((size_t)(*rows > 0 ? *rows : 1) * sizeof(double), "halo masses");
    *pos = ionf_malloc((size_t)(*rows > 0 ? *rows : 1) * 3 * sizeof(double), "halo positions");
    if (!*mass || !*pos) rc = IONF_ERR_MEM;
  }
  if (rc == IONF_OK) rc = x21_read_rows(dm, file, mname, (hsize_t)*rows, 1, *mass);
  if (rc == IONF_OK) rc = x21_read_rows(dp, file, pname, (hsize_t)*rows, 3, *pos);
  if (dm >= 0) H5Dclose(dm);
  if (dp >= 0) H5Dclose(dp);
  return rc;
}

/* Masses and positions to cells (the rules of io_21cmfast_halos_read_cells). */
static ionf_err x21_halo_cells(const char *file, const char *grp, const double *mass,
                               const double *pos, int64_t rows,
                               const struct io_21cmfast_expect *x, struct halo_cells *out) {
  char mname[192], pname[192];
  snprintf(mname, sizeof mname, "/%s/OutputFields/halo_masses", grp);
  snprintf(pname, sizeof pname, "/%s/OutputFields/halo_coords", grp);
  for (int64_t h = 0; h < rows; ++h)
    IONF_CHECK(isfinite(mass[h]) && mass[h] >= 0.0, IONF_ERR_INPUT,
               "%s '%s': dataset '%s': halo %lld has mass %g Msun; must be finite and >= 0",
               X21_KIND, file, mname, (long long)h, mass[h]);
  IONF_CALL(halo_cells_alloc(rows, 0, out));
  const double box = x->box_mpc;
  for (int64_t h = 0; h < rows; ++h) {
    for (int d = 0; d < 3; ++d) {
      double p = pos[3 * h + d];
      if (p > box && p <= box * (1.0 + X21_BOX_TOL)) p = box; /* float32 of a wrapped L */
      IONF_CALL(io_halos_cell_from_position(p, box, x->n, file, pname, h, d,
                                            &out->ijk[3 * h + d]));
    }
    out->mass_msun[h] = mass[h];
  }
  return IONF_OK;
}

ionf_err io_21cmfast_halos_read_cells(const char *file, const struct io_21cmfast_expect *x,
                                      struct halo_cells *out) {
  static const char *const groups[] = {"PerturbedHaloCatalog", "HaloCatalog"};
  IONF_CHECK(file && x && x->cosmo && out, IONF_ERR_INTERNAL,
             "io_21cmfast_halos_read_cells: NULL argument");
  memset(out, 0, sizeof *out);
  struct h5_util_quiet quiet;
  hid_t fid;
  const char *grp;
  struct x21_run r;
  IONF_CALL(x21_open_run(file, groups, 2, "halo catalogue", x, 0, &quiet, &fid, &grp, &r));
  double *mass = NULL, *pos = NULL;
  int64_t rows = 0;
  ionf_err rc = x21_read_halo_arrays(fid, file, grp, &rows, &mass, &pos);
  h5_util_close_read(fid, &quiet);
  if (rc == IONF_OK) rc = x21_halo_cells(file, grp, mass, pos, rows, x, out);
  free(mass);
  free(pos);
  if (rc != IONF_OK) halo_cells_free(out);
  return rc;
}

/**
 * @file test_halos_formats.c
 * @brief Halo files as masses by cell (io_halos_read_cells), in the formats of
 *        sequence.halos.format besides ionfront's own (test_halos.c):
 *  - c2ray: C2-Ray / CubeP3M text source lists read as Fortran list-directed input
 *    (count line with tools21cm's trailing "0.0", blank lines, a record wrapped over two
 *    lines, a sixth column, integral reals as cells, 1.0D+02 exponents, comments), masses
 *    times the mass unit; C2-Ray's M_grid for a 2 Mpc box and a 6144^3 mesh by hand;
 *  - pyc2ray_hdf5: a halo list (pos in Mpc/h, mass in Msun/h, attribute h) and a source
 *    list (sources_positions 0- or 1-based, sources_mass);
 *  - bad files: each message names the file, the line or halo, and the value.
 * Files go to a fresh temporary directory.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */

#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/constants.h"
#include "core/error.h"
#include "cosmo/cosmology.h"
#include "grid/halo_model.h"
#include "io/io_halos.h"
#include "io/io_halos_c2ray.h"
#include "test_util.h"

#define N 16
#define PATH_BUF 256

static char tmp_root[64];
static char made[40][PATH_BUF];
static int n_made = 0;

static const char *write_text(const char *name, const char *text) {
  snprintf(made[n_made], PATH_BUF, "%s/%s", tmp_root, name);
  FILE *f = fopen(made[n_made], "w");
  EXPECT(f != NULL, "cannot write %s", made[n_made]);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  return made[n_made++];
}

static struct io_halos_layout layout(enum halo_format format) {
  struct io_halos_layout lay;
  memset(&lay, 0, sizeof lay);
  lay.format = format;
  lay.n = N;
  lay.box_size = 2.0;
  lay.box_mpc = 2.0;
  lay.mass_unit_msun = 1.0;
  return lay;
}

static void expect_error(ionf_err rc, ionf_err code, const struct halo_cells *h, const char *what,
                         const char *frag1, const char *frag2) {
  const char *msg = ionf_error_message();
  EXPECT(rc == code, "%s: code %d, expected %d (%s)", what, (int)rc, (int)code, msg);
  EXPECT(!frag1 || strstr(msg, frag1), "%s: message '%s' lacks '%s'", what, msg, frag1);
  EXPECT(!frag2 || strstr(msg, frag2), "%s: message '%s' lacks '%s'", what, msg, frag2);
  EXPECT(h->n == 0 && !h->ijk && !h->mass_msun && !h->mass_low_msun,
         "%s: list not empty after failure", what);
  printf("  %s -> %s\n", what, msg);
  ionf_error_clear();
}

static void expect_cell(const struct halo_cells *h, int64_t q, int i, int j, int k, double m,
                        double m_low, const char *what) {
  EXPECT(h->ijk[3 * q] == i && h->ijk[3 * q + 1] == j && h->ijk[3 * q + 2] == k,
         "%s: cell (%d,%d,%d), expected (%d,%d,%d)", what, h->ijk[3 * q], h->ijk[3 * q + 1],
         h->ijk[3 * q + 2], i, j, k);
  EXPECT(h->mass_msun[q] == m, "%s: mass %.17g, expected %.17g", what, h->mass_msun[q], m);
  EXPECT(!h->mass_low_msun || h->mass_low_msun[q] == m_low, "%s: low mass %.17g, expected %.17g",
         what, h->mass_low_msun ? h->mass_low_msun[q] : -1.0, m_low);
}

static void test_c2ray_good(void) {
  const char *text = "4 0.0\n"                      /* tools21cm writes the count and 0.0 */
                     "1 1 1 100.0 50.0\n"
                     "\n"                           /* blank lines between records */
                     "16 8 4 2.5D+03 0.0  7.0\n"    /* a sixth column, a Fortran exponent */
                     "8.0 8 8 0\n"                  /* a record wrapped over two lines */
                     "   10.0   # the LMACH mass\n"
                     "2 3 4 1e-1 2e-1\n"
                     "\n";
  const char *path = write_text("9.000-coarsest_wsubgrid_sources.dat", text);
  struct io_halos_layout lay = layout(HALO_FORMAT_C2RAY);
  lay.mass_unit_msun = 2.0;
  struct halo_cells h;
  ionf_err rc = io_halos_read_cells(path, &lay, &h);
  EXPECT(rc == IONF_OK && h.n == 4 && h.mass_low_msun, "c2ray list: rc %d, n %lld: %s", (int)rc,
         (long long)h.n, ionf_error_message());
  if (rc == IONF_OK && h.n == 4) {
    expect_cell(&h, 0, 0, 0, 0, 200.0, 100.0, "c2ray record 1");
    expect_cell(&h, 1, 15, 7, 3, 5000.0, 0.0, "c2ray record 2 (D exponent, 6 columns)");
    expect_cell(&h, 2, 7, 7, 7, 0.0, 20.0, "c2ray record 3 (wrapped)");
    expect_cell(&h, 3, 1, 2, 3, 0.2, 0.4, "c2ray record 4");
  }
  halo_cells_free(&h);
  /* an empty list is fine */
  path = write_text("empty.dat", "0\n");
  rc = io_halos_read_cells(path, &lay, &h);
  EXPECT(rc == IONF_OK && h.n == 0, "empty c2ray list: %s", ionf_error_message());
  halo_cells_free(&h);
}

static void test_c2ray_bad(void) {
  printf("c2ray refusals:\n");
  struct io_halos_layout lay = layout(HALO_FORMAT_C2RAY);
  struct halo_cells h;
  const char *p;
  p = write_text("void.dat", "\n\n");
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "empty file", p, "empty");
  p = write_text("count.dat", "three\n1 1 1 1 1\n");
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "count not a number", p,
               "line 1");
  p = write_text("short.dat", "3\n1 1 1 1 1\n2 2 2 2 2\n");
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "fewer records than counted",
               p, "source 3 of the 3 announced on line 1");
  p = write_text("four_cols.dat", "2\n1 1 1 5\n2 2 2 5\n");
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "four columns", p,
               "M_LMACH");
  p = write_text("extra.dat", "1\n1 1 1 1 1\n2 2 2 2 2\n");
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "more records than counted",
               p, "line 3");
  p = write_text("word.dat", "2\n1 1 1 1 1\n2 2 x 2 2\n");
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "a word for k", p,
               "line 3: source 2: k = 'x'");
  p = write_text("zero.dat", "2\n1 1 1 1 1\n0 2 2 2 2\n");
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "cell 0 (0-based file)", p,
               "line 3: source 2 has i = 0");
  p = write_text("beyond.dat", "1\n1 17 1 1 1\n");
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "cell N + 1", p,
               "j = 17; cells are 1-based integers in 1..16");
  p = write_text("half.dat", "1\n1 2.5 1 1 1\n");
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "cell 2.5", p, "j = 2.5");
  p = write_text("negative.dat", "1\n1 2 1 -1 1\n");
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "negative mass", p,
               "M_HMACH = -1");
  p = write_text("nan.dat", "1\n1 2 1 1 nan\n");
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "NaN mass", p,
               "M_LMACH = 'nan' is not a number");
  p = write_text("huge.dat", "1000000000\n1 1 1 1 1\n");
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "a count the file cannot hold",
               p, "source 2 of the 1000000000 announced on line 1");
  char missing[PATH_BUF];
  snprintf(missing, sizeof missing, "%s/none.dat", tmp_root);
  expect_error(io_halos_read_cells(missing, &lay, &h), IONF_ERR_IO, &h, "missing file", missing,
               NULL);
}

/* C2-Ray's M_grid = Omega_m rho_crit,0 L^3 / n^3: 2 Mpc, 6144^3, h 0.7, Omega_m 0.27;
   Python: 0.27*3*(0.7e7/Mpc)**2/(8 pi G)*(2 Mpc)**3/6144**3/Msun = 1.2664947198947951 */
static void test_mass_unit(void) {
  struct cosmology c = cosmology_flat(0.7, 0.27, 0.043, 2.725);
  EXPECT_REL(io_halos_c2ray_mass_unit_msun(&c, 2.0 * IONF_MPC_CM, 6144), 1.2664947198947951,
             1e-13, "C2-Ray mass unit (M_grid) of a 2 Mpc box and a 6144^3 N-body mesh");
}

/* A float64 (or int32 when `as_int`) dataset of shape (n) or (n, 3). */
static void write_dataset(hid_t file, const char *name, int rank, hsize_t n, const double *data,
                          int as_int) {
  hsize_t dims[2] = {n, 3};
  hid_t space = H5Screate_simple(rank, dims, NULL);
  hid_t type = as_int ? H5T_NATIVE_INT32 : H5T_NATIVE_DOUBLE;
  hid_t dset = H5Dcreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  size_t count = (size_t)n * (rank == 2 ? 3u : 1u);
  int32_t ints[64];
  for (size_t q = 0; q < count && q < 64; ++q) ints[q] = (int32_t)data[q];
  if (count > 0)
    EXPECT(H5Dwrite(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, as_int ? (void *)ints : data) >= 0,
           "H5Dwrite %s", name);
  H5Dclose(dset);
  H5Sclose(space);
}

/* pyC2Ray's halo list: pos [Mpc/h], mass [Msun/h], attribute h (h < 0: none). */
static const char *write_halo_list(const char *name, hsize_t n, const double *pos,
                                   const double *mass, double h) {
  snprintf(made[n_made], PATH_BUF, "%s/%s", tmp_root, name);
  hid_t f = H5Fcreate(made[n_made], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  write_dataset(f, "pos", 2, n, pos, 0);
  write_dataset(f, "mass", 1, n, mass, 0);
  if (h >= 0.0) {
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(f, "h", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_DOUBLE, &h);
    H5Aclose(a);
    H5Sclose(space);
  }
  H5Fclose(f);
  return made[n_made++];
}

static void test_pyc2ray_hdf5(void) {
  struct io_halos_layout lay = layout(HALO_FORMAT_PYC2RAY_HDF5);
  struct halo_cells h;
  /* box 2 Mpc = 1.4 Mpc/h at h = 0.7; cells of 0.0875 Mpc/h: 0.1 -> 1, 1.3 -> 14, 0 -> 0,
     1.4 (the far face) wraps to 0 */
  const double pos[] = {0.1, 1.3, 0.0, 1.4, 0.7, 0.35};
  const double mass[] = {7e9, 1.4e10};
  const char *p = write_halo_list("halos.hdf5", 2, pos, mass, 0.7);
  ionf_err rc = io_halos_read_cells(p, &lay, &h);
  EXPECT(rc == IONF_OK && h.n == 2 && !h.mass_low_msun, "pyC2Ray halo list: %s",
         ionf_error_message());
  if (rc == IONF_OK && h.n == 2) {
    expect_cell(&h, 0, 1, 14, 0, 7e9 / 0.7, 0.0, "pyC2Ray halo 0 (Msun/h -> Msun)");
    expect_cell(&h, 1, 0, 8, 4, 1.4e10 / 0.7, 0.0, "pyC2Ray halo 1");
  }
  halo_cells_free(&h);
  /* a source list: cells 0-based by default, 1-based on request */
  snprintf(made[n_made], PATH_BUF, "%s/sources.hdf5", tmp_root);
  hid_t f = H5Fcreate(made[n_made], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const double cells[] = {0, 1, 15, 15, 1, 0};
  write_dataset(f, "sources_positions", 2, 2, cells, 1);
  write_dataset(f, "sources_mass", 1, 2, mass, 0);
  H5Fclose(f);
  p = made[n_made++];
  rc = io_halos_read_cells(p, &lay, &h);
  EXPECT(rc == IONF_OK && h.n == 2, "pyC2Ray source list: %s", ionf_error_message());
  if (rc == IONF_OK && h.n == 2) {
    expect_cell(&h, 0, 0, 1, 15, 7e9, 0.0, "pyC2Ray source 0 (0-based)");
    expect_cell(&h, 1, 15, 1, 0, 1.4e10, 0.0, "pyC2Ray source 1 (0-based)");
  }
  halo_cells_free(&h);
  printf("pyc2ray_hdf5 refusals:\n");
  lay.cell_index_base = 1;
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "0 in a 1-based list", p,
               "halo 0 has x = 0; the source positions are 1-based");
  lay.cell_index_base = 0;
  const double outside[] = {0.1, 1.3, 0.0, 1.5, 0.7, 0.35};
  p = write_halo_list("outside.hdf5", 2, outside, mass, 0.7);
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "halo beyond the box", p,
               "halo 1 has x = 1.5, outside the box [0, 1.4");
  p = write_halo_list("no_h.hdf5", 2, pos, mass, -1.0);
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "no attribute h", p,
               "no root attribute 'h'");
  snprintf(made[n_made], PATH_BUF, "%s/neither.hdf5", tmp_root);
  f = H5Fcreate(made[n_made], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  write_dataset(f, "halos_mass", 1, 2, mass, 0);
  H5Fclose(f);
  p = made[n_made++];
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "no pyC2Ray datasets", p,
               "neither of pyC2Ray's layouts");
  snprintf(made[n_made], PATH_BUF, "%s/no_mass.hdf5", tmp_root);
  f = H5Fcreate(made[n_made], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  write_dataset(f, "sources_positions", 2, 2, cells, 1);
  H5Fclose(f);
  p = made[n_made++];
  expect_error(io_halos_read_cells(p, &lay, &h), IONF_ERR_INPUT, &h, "sources_mass missing", p,
               "sources_mass");
}

int main(void) {
  snprintf(tmp_root, sizeof tmp_root, "/tmp/ionf_halo_formats_XXXXXX");
  if (!mkdtemp(tmp_root)) {
    perror("mkdtemp");
    return 1;
  }
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  test_c2ray_good();
  test_c2ray_bad();
  test_mass_unit();
  test_pyc2ray_hdf5();
  for (int q = 0; q < n_made; ++q) unlink(made[q]);
  rmdir(tmp_root);
  TEST_RETURN();
}

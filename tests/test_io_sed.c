/**
 * @file test_io_sed.c
 * @brief Tabulated spectra (io/io_sed.c, rt/sed.c): text and HDF5 files read back,
 *        log-log interpolation, and every bad file refused with its name, line and value.
 */
#define _POSIX_C_SOURCE 200809L
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/io_sed.h"
#include "test_util.h"

static char dir[64];

static void write_text(const char *name, const char *text, char *path, size_t size) {
  snprintf(path, size, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* The read must fail with `code` and a message holding `needle`. */
static void refused(const char *name, const char *text, ionf_err code, const char *needle) {
  char path[160];
  write_text(name, text, path, sizeof path);
  struct sed s;
  ionf_error_clear();
  ionf_err rc = io_sed_read(path, &s);
  EXPECT(rc == code && strstr(ionf_error_message(), needle) && strstr(ionf_error_message(), name),
         "%s: got %d '%s', want %d with '%s'", name, rc, ionf_error_message(), code, needle);
  printf("refused %s: %s\n", name, ionf_error_message());
  ionf_error_clear();
  unlink(path);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/ionf_test_io_sed_XXXXXX");
  if (!mkdtemp(dir)) return 1;
  char path[160];
  write_text("qso.txt", "# E [eV]  photons/s/eV\n10 1e3\n 100\t10 # two decades\n\n1000 0.1\n",
             path, sizeof path);
  struct sed s;
  EXPECT(io_sed_read(path, &s) == IONF_OK, "text: %s", ionf_error_message());
  EXPECT(s.n == 3 && s.energy_ev[1] == 100.0 && s.photons[2] == 0.1, "text values");
  /* a power law of slope -2 in log-log: exact between the points; 0 outside */
  EXPECT(fabs(sed_photons_at(&s, 31.6227766016838) / 100.0 - 1.0) < 1e-12, "log-log: %g",
         sed_photons_at(&s, 31.6227766016838));
  EXPECT(sed_photons_at(&s, 9.0) == 0.0 && sed_photons_at(&s, 1001.0) == 0.0, "outside");
  sed_free(&s);
  unlink(path);

  /* HDF5 */
  snprintf(path, sizeof path, "%s/sed.h5", dir);
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  double e[4] = {13.0, 20.0, 60.0, 500.0}, p[4] = {1.0, 0.5, 0.1, 0.001};
  hsize_t n = 4;
  hid_t space = H5Screate_simple(1, &n, NULL);
  const char *names[2] = {"energy_eV", "photons_per_s_per_eV"};
  double *data[2] = {e, p};
  for (int d = 0; d < 2; ++d) {
    hid_t set = H5Dcreate2(f, names[d], H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data[d]);
    H5Dclose(set);
  }
  H5Sclose(space);
  H5Fclose(f);
  EXPECT(io_sed_read(path, &s) == IONF_OK && s.n == 4 && s.photons[3] == 0.001, "HDF5: %s",
         ionf_error_message());
  sed_free(&s);
  unlink(path);
  /* HDF5 without the photon rates, and with rates of another length: refused, named */
  for (int k = 0; k < 2; ++k) {
    f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    for (int d = 0; d < 2 - (k == 0); ++d) {
      hsize_t nd = d == 1 ? 3 : 4;
      hid_t sp = H5Screate_simple(1, &nd, NULL);
      hid_t set = H5Dcreate2(f, names[d], H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data[d]);
      H5Dclose(set);
      H5Sclose(sp);
    }
    H5Fclose(f);
    ionf_error_clear();
    EXPECT(io_sed_read(path, &s) == IONF_ERR_INPUT &&
               strstr(ionf_error_message(), k == 0 ? "photons_per_s_per_eV" : "3"),
           "HDF5 case %d: %s", k, ionf_error_message());
    printf("refused HDF5 case %d: %s\n", k, ionf_error_message());
    ionf_error_clear();
    unlink(path);
  }

  refused("one.txt", "20 1\n", IONF_ERR_INPUT, "1 point");
  refused("down.txt", "20 1\n15 1\n", IONF_ERR_INPUT, "point 2: energy 15");
  refused("neg.txt", "20 1\n30 -1\n", IONF_ERR_INPUT, "point 2: -1 photons");
  refused("col.txt", "20 1\n30\n", IONF_ERR_INPUT, "line 2");
  refused("three.txt", "20 1 5\n", IONF_ERR_INPUT, "more than two columns");
  refused("word.txt", "twenty 1\n", IONF_ERR_INPUT, "line 1");
  refused("soft.txt", "1 1\n13 1\n", IONF_ERR_INPUT, "no photons above 13.598 eV");
  refused("nan.txt", "20 nan\n30 1\n", IONF_ERR_INPUT, "point 1: nan photons");
  ionf_error_clear();
  EXPECT(io_sed_read("/nonexistent/sed.txt", &s) == IONF_ERR_IO &&
             strstr(ionf_error_message(), "/nonexistent/sed.txt"),
         "missing file: %s", ionf_error_message());
  ionf_error_clear();
  EXPECT(rmdir(dir) == 0, "temporary directory not empty");
  TEST_RETURN();
}

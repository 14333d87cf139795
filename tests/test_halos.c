/**
 * @file test_halos.c
 * @brief Halo catalogues as sources: cells, merging, Eq. 20 rates, both layouts,
 *        error messages, and series file names.  Files go to a fresh temporary directory.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */

#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cosmo/cosmology.h"
#include "core/error.h"
#include "io/io_halos.h"
#include "grid/sources.h"
#include "test_util.h"

#define N 8
#define BOX 10.0 /* any length unit: positions use the same */
#define PATH_BUF 256

static char tmp_root[64];
static char made[16][PATH_BUF];
static int n_made = 0;

static const char *tmp_path(const char *name) {
  snprintf(made[n_made], PATH_BUF, "%s/%s", tmp_root, name);
  return made[n_made++];
}

/* Write a float64 (or int32 when `as_int`) dataset of shape (n) or (n, 3), creating groups. */
static void write_dataset(hid_t file, const char *name, int rank, hsize_t n, const double *data,
                          int as_int) {
  hsize_t dims[2] = {n, 3};
  hid_t space = H5Screate_simple(rank, dims, NULL);
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  hid_t type = as_int ? H5T_NATIVE_INT32 : H5T_NATIVE_DOUBLE;
  hid_t dset = H5Dcreate2(file, name, type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  EXPECT(dset >= 0, "H5Dcreate2 %s", name);
  size_t count = (size_t)n * (rank == 2 ? 3u : 1u);
  if (count > 0) {
    herr_t rc;
    if (as_int) {
      int32_t *ints = malloc(count * sizeof *ints);
      for (size_t q = 0; q < count; ++q) ints[q] = (int32_t)data[q];
      rc = H5Dwrite(dset, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, ints);
      free(ints);
    } else {
      rc = H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    }
    EXPECT(rc >= 0, "H5Dwrite %s", name);
  }
  H5Dclose(dset);
  H5Pclose(lcpl);
  H5Sclose(space);
}

/* A catalogue in the ionfront layout; mass_name NULL leaves the masses out. */
static const char *write_catalogue(const char *name, hsize_t n_pos, const double *pos,
                                   hsize_t n_mass, const double *mass, const char *mass_name) {
  const char *path = tmp_path(name);
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  EXPECT(f >= 0, "H5Fcreate %s", path);
  write_dataset(f, "/halos/position", 2, n_pos, pos, 0);
  if (mass_name) write_dataset(f, mass_name, 1, n_mass, mass, 0);
  H5Fclose(f);
  return path;
}

/* Eq. 20, written out: Ndot = f_γ M Ω_b / (Ω_m m_p t_s), M in grams. */
static double eq20(double m_msun, double f_gamma, double t_s, double om, double ob) {
  return f_gamma * m_msun * 1.98847e33 * ob / (om * 1.67262192369e-24 * t_s);
}

/* Expect failure `code` with a message holding `frag1` and `frag2`, and an empty list. */
static void expect_error(ionf_err rc, ionf_err code, const struct source_list *s, const char *what,
                         const char *frag1, const char *frag2) {
  const char *msg = ionf_error_message();
  EXPECT(rc == code, "%s: code %d, expected %d (%s)", what, (int)rc, (int)code, msg);
  EXPECT(!frag1 || strstr(msg, frag1), "%s: message '%s' lacks '%s'", what, msg, frag1);
  EXPECT(!frag2 || strstr(msg, frag2), "%s: message '%s' lacks '%s'", what, msg, frag2);
  EXPECT(s->n == 0 && !s->ijk && !s->ndot_per_s, "%s: list not empty after failure", what);
  printf("  %s -> %s: %s\n", what, ionf_error_name(rc), msg);
  ionf_error_clear();
}

int main(void) {
  snprintf(tmp_root, sizeof tmp_root, "/tmp/ionf_halos_XXXXXX");
  if (!mkdtemp(tmp_root)) {
    perror("mkdtemp");
    return 1;
  }
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  struct cosmology c = cosmology_flat(0.7, 0.27, 0.044, 2.725);
  const double f_gamma = 30.0, t_s = 10.0 * 3.15576e13; /* 10 Myr */
  struct source_list s;

  /* ---- three halos, two in one cell, one on the box edge (wraps to cell 0) ---------- */
  {
    /* cells: (1.0, 2.0, 3.0) -> (0, 1, 2); (1.2, 2.4, 3.6) -> (0, 1, 2);
     *        (10.0, 9.99, 0.0) -> x = box wraps to 0, 9.99 -> 7, 0 -> 0: (0, 7, 0) */
    const double pos[] = {1.0, 2.0, 3.0, 1.2, 2.4, 3.6, 10.0, 9.99, 0.0};
    const double mass[] = {1.0e10, 2.0e10, 5.0e9};
    const char *path = write_catalogue("halos_z8.636.h5", 3, pos, 3, mass, "/halos/mass");
    ionf_err rc = io_halos_read(path, BOX, N, f_gamma, t_s, &c, &s);
    EXPECT(rc == IONF_OK, "io_halos_read: %s", ionf_error_message());
    EXPECT(s.n == 2, "merged list has %lld sources, expected 2", (long long)s.n);
    if (rc == IONF_OK && s.n == 2) {
      /* Ordered by flat cell index: (0,1,2) = 10 before (0,7,0) = 56. */
      const int32_t want[6] = {0, 1, 2, 0, 7, 0};
      for (int q = 0; q < 6; ++q)
        EXPECT(s.ijk[q] == want[q], "ijk[%d] = %d, expected %d", q, (int)s.ijk[q], (int)want[q]);
      EXPECT_REL(s.ndot_per_s[0], eq20(3.0e10, f_gamma, t_s, 0.27, 0.044), 1e-14,
                 "merged Ndot of the two halos in cell (0,1,2)");
      EXPECT_REL(s.ndot_per_s[1], eq20(5.0e9, f_gamma, t_s, 0.27, 0.044), 1e-14,
                 "Ndot of the halo in cell (0,7,0)");
      EXPECT(sources_validate(&s, N, path) == IONF_OK, "validate: %s", ionf_error_message());
      printf("3 halos -> %lld sources: (%d,%d,%d) Ndot %.6e, (%d,%d,%d) Ndot %.6e [1/s]\n",
             (long long)s.n, s.ijk[0], s.ijk[1], s.ijk[2], s.ndot_per_s[0], s.ijk[3], s.ijk[4],
             s.ijk[5], s.ndot_per_s[1]);
    }
    EXPECT_REL(io_halos_ndot_per_s(1e10, f_gamma, t_s, &c), eq20(1e10, f_gamma, t_s, 0.27, 0.044),
               1e-14, "io_halos_ndot_per_s");
    sources_free(&s);
  }

  /* ---- a position just below the box edge stays in the last cell; zero mass is skipped -- */
  {
    const double pos[] = {nextafter(BOX, 0.0), 0.0, 5.0, 3.0, 3.0, 3.0};
    const double mass[] = {1.0e9, 0.0};
    const char *path = write_catalogue("edge.h5", 2, pos, 2, mass, "/halos/mass");
    ionf_err rc = io_halos_read(path, BOX, N, f_gamma, t_s, &c, &s);
    EXPECT(rc == IONF_OK, "edge catalogue: %s", ionf_error_message());
    EXPECT(s.n == 1 && s.ijk[0] == N - 1 && s.ijk[1] == 0 && s.ijk[2] == 4,
           "edge halo in (%d,%d,%d), n = %lld; expected (7,0,4) and the massless halo skipped",
           s.n ? s.ijk[0] : -1, s.n ? s.ijk[1] : -1, s.n ? s.ijk[2] : -1, (long long)s.n);
    sources_free(&s);
  }

  /* ---- an empty catalogue is an empty list ------------------------------------------ */
  {
    const char *path = write_catalogue("empty.h5", 0, NULL, 0, NULL, "/halos/mass");
    ionf_err rc = io_halos_read(path, BOX, N, f_gamma, t_s, &c, &s);
    EXPECT(rc == IONF_OK && s.n == 0, "empty catalogue: rc %d n %lld %s", (int)rc,
           (long long)s.n, ionf_error_message());
    sources_free(&s);
  }

  /* ---- pyC²Ray layout: 1-based integer cell indices ---------------------------------- */
  {
    const char *path = tmp_path("pyc2ray.hdf5");
    const double pos[] = {1, 2, 3, 1, 2, 3, 8, 8, 8};
    const double mass[] = {4.0e9, 6.0e9, 1.0e11};
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    write_dataset(f, "sources_positions", 2, 3, pos, 1);
    write_dataset(f, "sources_mass", 1, 3, mass, 0);
    H5Fclose(f);
    ionf_err rc = io_halos_read(path, BOX, N, f_gamma, t_s, &c, &s);
    EXPECT(rc == IONF_OK, "pyC2Ray layout: %s", ionf_error_message());
    EXPECT(s.n == 2, "pyC2Ray layout: %lld sources, expected 2", (long long)s.n);
    if (rc == IONF_OK && s.n == 2) {
      const int32_t want[6] = {0, 1, 2, 7, 7, 7};
      for (int q = 0; q < 6; ++q)
        EXPECT(s.ijk[q] == want[q], "pyC2Ray ijk[%d] = %d, expected %d", q, (int)s.ijk[q],
               (int)want[q]);
      EXPECT_REL(s.ndot_per_s[0], eq20(1.0e10, f_gamma, t_s, 0.27, 0.044), 1e-14,
                 "pyC2Ray merged Ndot");
      EXPECT_REL(s.ndot_per_s[1], eq20(1.0e11, f_gamma, t_s, 0.27, 0.044), 1e-14,
                 "pyC2Ray Ndot");
    }
    sources_free(&s);

    /* A 0 index (a 0-based file) is refused, naming the file, dataset and halo. */
    const char *path0 = tmp_path("pyc2ray_0based.hdf5");
    const double pos0[] = {1, 2, 3, 0, 2, 3};
    f = H5Fcreate(path0, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    write_dataset(f, "sources_positions", 2, 2, pos0, 1);
    write_dataset(f, "sources_mass", 1, 2, mass, 0);
    H5Fclose(f);
    rc = io_halos_read(path0, BOX, N, f_gamma, t_s, &c, &s);
    expect_error(rc, IONF_ERR_INPUT, &s, "pyC2Ray index 0", path0, "halo 1");
  }

  /* ---- errors ---------------------------------------------------------------------- */
  printf("error messages:\n");
  {
    const double pos[] = {1.0, 2.0, 3.0, 1.2, 2.4, 3.6, 5.0, 5.0, 5.0};
    const double nan_mass[] = {1.0e10, NAN, 5.0e9};
    const double neg_mass[] = {1.0e10, 2.0e10, -5.0e9};
    const double ok_mass[] = {1.0e10, 2.0e10, 5.0e9};
    const double outside[] = {1.0, 2.0, 3.0, 1.2, 2.4, 3.6, 5.0, 10.5, 5.0};
    const double negative_pos[] = {1.0, 2.0, 3.0, -0.1, 2.4, 3.6, 5.0, 5.0, 5.0};
    ionf_err rc;
    const char *p;

    p = write_catalogue("no_mass.h5", 3, pos, 3, ok_mass, NULL);
    rc = io_halos_read(p, BOX, N, f_gamma, t_s, &c, &s);
    expect_error(rc, IONF_ERR_INPUT, &s, "missing dataset", p, "/halos/mass");

    p = write_catalogue("nan_mass.h5", 3, pos, 3, nan_mass, "/halos/mass");
    rc = io_halos_read(p, BOX, N, f_gamma, t_s, &c, &s);
    expect_error(rc, IONF_ERR_INPUT, &s, "NaN mass", p, "halo 1");
    rc = io_halos_read(p, BOX, N, f_gamma, t_s, &c, &s);
    EXPECT(strstr(ionf_error_message(), "/halos/mass"), "NaN mass message lacks the dataset: %s",
           ionf_error_message());
    ionf_error_clear();

    p = write_catalogue("neg_mass.h5", 3, pos, 3, neg_mass, "/halos/mass");
    rc = io_halos_read(p, BOX, N, f_gamma, t_s, &c, &s);
    expect_error(rc, IONF_ERR_INPUT, &s, "negative mass", p, "halo 2");

    p = write_catalogue("outside.h5", 3, outside, 3, ok_mass, "/halos/mass");
    rc = io_halos_read(p, BOX, N, f_gamma, t_s, &c, &s);
    expect_error(rc, IONF_ERR_INPUT, &s, "position outside the box", p, "halo 2 has y = 10.5");

    p = write_catalogue("negative_pos.h5", 3, negative_pos, 3, ok_mass, "/halos/mass");
    rc = io_halos_read(p, BOX, N, f_gamma, t_s, &c, &s);
    expect_error(rc, IONF_ERR_INPUT, &s, "negative position", p, "/halos/position");

    p = write_catalogue("short_mass.h5", 3, pos, 2, ok_mass, "/halos/mass");
    rc = io_halos_read(p, BOX, N, f_gamma, t_s, &c, &s);
    expect_error(rc, IONF_ERR_INPUT, &s, "shape mismatch", p, "(2)");

    p = tmp_path("does_not_exist.h5");
    rc = io_halos_read(p, BOX, N, f_gamma, t_s, &c, &s);
    expect_error(rc, IONF_ERR_IO, &s, "missing file", p, NULL);

    p = tmp_path("other.h5");
    hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    write_dataset(f, "/density", 1, 3, ok_mass, 0);
    H5Fclose(f);
    rc = io_halos_read(p, BOX, N, f_gamma, t_s, &c, &s);
    expect_error(rc, IONF_ERR_INPUT, &s, "no halo datasets", p, "sources_positions");

    p = made[0]; /* the good catalogue, with bad arguments */
    rc = io_halos_read(p, -1.0, N, f_gamma, t_s, &c, &s);
    expect_error(rc, IONF_ERR_CONFIG, &s, "negative box size", p, "box size");
    rc = io_halos_read(p, BOX, N, f_gamma, 0.0, &c, &s);
    expect_error(rc, IONF_ERR_CONFIG, &s, "zero source lifetime", p, "t_s");
  }

  /* ---- series names ----------------------------------------------------------------- */
  {
    char buf[64];
    io_halos_series_name(buf, sizeof buf, "halos_z%.3f.h5", 8.636);
    EXPECT(strcmp(buf, "halos_z8.636.h5") == 0, "series name '%s'", buf);
    io_halos_series_name(buf, sizeof buf, "dir/%08.2f_%%.h5", 10.11);
    EXPECT(strcmp(buf, "dir/00010.11_%.h5") == 0, "series name with %%%% '%s'", buf);
    io_halos_series_name(buf, 8, "halos_z%.3f.h5", 8.636);
    EXPECT(strcmp(buf, "halos_z") == 0, "truncated series name '%s'", buf);
    io_halos_series_name(buf, sizeof buf, "halos_%s.h5", 8.636);
    EXPECT(buf[0] == '\0', "pattern with %%s gave '%s', expected empty", buf);
    io_halos_series_name(buf, sizeof buf, "halos_%.3f_%.3f.h5", 8.636);
    EXPECT(buf[0] == '\0', "pattern with two conversions gave '%s', expected empty", buf);
    io_halos_series_name(buf, sizeof buf, "halos.h5", 8.636);
    EXPECT(buf[0] == '\0', "pattern without a conversion gave '%s', expected empty", buf);
  }

  for (int q = 0; q < n_made; ++q) unlink(made[q]);
  rmdir(tmp_root);
  TEST_RETURN();
}

/**
 * @file test_clumping_model.c
 * @brief The sub-grid clumping models (chem/clumping.h, clumping_k.h): a cell's C for
 *        each model (none 1, a uniform factor, the density fit a x^2 + b x + c with
 *        x = n / <n> or pyC2Ray's 1 + n / <n>, clipped below at 1, NaN-safe); the
 *        redshift model C0 exp(c1 z + c2 z^2) + 1 against values worked out by hand; the
 *        density table's linear interpolation in z (at rows, between them, beyond its
 *        ends); a step's parameters (a fixed z, no gas); the built-in fits (pyC2Ray's
 *        numbers, the nearest cell size); and the table file reader (pyC2Ray's layout,
 *        sorted, and its refusals naming the key and the file).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chem/clumping.h"
#include "io/io_clumping.h"
#include "test_util.h"

static void test_cell_factor(void) {
  struct chem_clumping k;
  memset(&k, 0, sizeof k);
  EXPECT(chem_clumping_factor(&k, 3.0) == 1.0, "none: C = 1");
  k.model = CHEM_CLUMPING_UNIFORM;
  k.factor = 5.0;
  EXPECT(chem_clumping_factor(&k, 3.0) == 5.0 && chem_clumping_factor(&k, 0.0) == 5.0,
         "uniform: C = factor in every cell");
  /* C = 2 x^2 + 3 x - 1 with x = n / 0.5 */
  k.model = CHEM_CLUMPING_DENSITY;
  k.a = 2.0, k.b = 3.0, k.c = -1.0, k.x_offset = 0.0, k.mean_n_h_cm3 = 0.5;
  EXPECT(chem_clumping_factor(&k, 1.0) == 2.0 * 4.0 + 3.0 * 2.0 - 1.0, "density at x = 2: %g",
         chem_clumping_factor(&k, 1.0));
  EXPECT(chem_clumping_factor(&k, 0.5) == 4.0, "density at x = 1 (mean density): %g",
         chem_clumping_factor(&k, 0.5));
  /* pyC2Ray's x = 1 + n / <n>: at the mean density x = 2 */
  k.x_offset = 1.0;
  EXPECT(chem_clumping_factor(&k, 0.5) == 13.0, "1 + n/mean at the mean: %g",
         chem_clumping_factor(&k, 0.5));
  /* below 1: clipped (x = 0.1: 0.02 + 0.3 - 1 < 1) */
  k.x_offset = 0.0;
  EXPECT(chem_clumping_factor(&k, 0.05) == 1.0, "clipped at 1: %g", chem_clumping_factor(&k, 0.05));
  k.a = NAN;
  EXPECT(chem_clumping_factor(&k, 1.0) == 1.0, "a NaN fit gives 1: %g", chem_clumping_factor(&k, 1.0));
}

static void test_redshift_formula(void) {
  /* Bianco et al. 2021's fit for 1.012 Mpc cells: 263.12 exp(-0.39739 z + 0.0052779 z^2) + 1,
     worked out independently (double precision, Python's math.exp) */
  EXPECT_REL(clumping_redshift_factor(263.12, -0.39739, 0.0052779, 9.0), 12.286531383729159,
             1e-14, "C(9)");
  EXPECT_REL(clumping_redshift_factor(263.12, -0.39739, 0.0052779, 7.5), 18.97653105479614, 1e-14,
             "C(7.5)");
  EXPECT(clumping_redshift_factor(0.0, -0.4, 0.005, 8.0) == 1.0, "C0 = 0: C = 1");
}

static void test_table_interpolation(void) {
  struct clumping_table t;
  memset(&t, 0, sizeof t);
  t.n_rows = 3;
  const double z[3] = {7.0, 8.0, 10.0}, a[3] = {1.0, 2.0, 6.0}, b[3] = {10.0, 20.0, 0.0},
               c[3] = {-1.0, -3.0, 1.0};
  for (int i = 0; i < 3; ++i) t.z[i] = z[i], t.a[i] = a[i], t.b[i] = b[i], t.c[i] = c[i];
  double abc[3];
  clumping_table_at(&t, 8.0, abc);
  EXPECT(abc[0] == 2.0 && abc[1] == 20.0 && abc[2] == -3.0, "at a row: %g %g %g", abc[0], abc[1],
         abc[2]);
  clumping_table_at(&t, 7.25, abc); /* a quarter of the way from 7 to 8 */
  EXPECT_REL(abc[0], 1.25, 1e-15, "a at z = 7.25");
  EXPECT_REL(abc[1], 12.5, 1e-15, "b at z = 7.25");
  EXPECT_REL(abc[2], -1.5, 1e-15, "c at z = 7.25");
  clumping_table_at(&t, 9.5, abc); /* three quarters from 8 to 10 */
  EXPECT_REL(abc[0], 5.0, 1e-15, "a at z = 9.5");
  EXPECT_REL(abc[1], 5.0, 1e-15, "b at z = 9.5");
  EXPECT(abc[2] == 0.0, "c at z = 9.5: %g", abc[2]);
  clumping_table_at(&t, 3.0, abc);
  EXPECT(abc[0] == 1.0 && abc[1] == 10.0 && abc[2] == -1.0, "below the table: the first row");
  clumping_table_at(&t, 50.0, abc);
  EXPECT(abc[0] == 6.0 && abc[1] == 0.0 && abc[2] == 1.0, "above the table: the last row");
}

static void test_model_step(void) {
  struct clumping_model m;
  memset(&m, 0, sizeof m);
  m.z_fixed = -1.0;
  struct chem_clumping k = clumping_model_step(&m, 8.0, 1e-4);
  EXPECT(k.model == CHEM_CLUMPING_NONE && chem_clumping_factor(&k, 1.0) == 1.0, "none");
  m.kind = CLUMPING_CONSTANT;
  m.value = 5.0;
  k = clumping_model_step(&m, 8.0, 1e-4);
  EXPECT(k.model == CHEM_CLUMPING_UNIFORM && k.factor == 5.0, "constant");
  m.kind = CLUMPING_REDSHIFT;
  m.c0 = 263.12, m.c1 = -0.39739, m.c2 = 0.0052779;
  k = clumping_model_step(&m, 7.5, 1e-4);
  EXPECT_REL(k.factor, 18.97653105479614, 1e-14, "redshift model at the step's z");
  m.z_fixed = 9.0; /* a run without a redshift: the model's z */
  k = clumping_model_step(&m, 7.5, 1e-4);
  EXPECT_REL(k.factor, 12.286531383729159, 1e-14, "redshift model at its fixed z");
  m.z_fixed = -1.0;
  m.kind = CLUMPING_DENSITY;
  m.table.n_rows = 2;
  m.table.z[0] = 6.0, m.table.z[1] = 8.0;
  m.table.a[0] = 1.0, m.table.a[1] = 3.0;
  m.table.b[0] = 2.0, m.table.b[1] = 4.0;
  m.table.c[0] = 0.0, m.table.c[1] = -2.0;
  m.x_plus_one = 1;
  k = clumping_model_step(&m, 7.0, 2e-4);
  EXPECT(k.model == CHEM_CLUMPING_DENSITY && k.a == 2.0 && k.b == 3.0 && k.c == -1.0 &&
             k.x_offset == 1.0 && k.mean_n_h_cm3 == 2e-4,
         "density: a %g b %g c %g offset %g mean %g", k.a, k.b, k.c, k.x_offset, k.mean_n_h_cm3);
  /* at the mean density x = 2: 2*4 + 3*2 - 1 */
  EXPECT(chem_clumping_factor(&k, 2e-4) == 13.0, "density C at the mean: %g",
         chem_clumping_factor(&k, 2e-4));
  k = clumping_model_step(&m, 7.0, 0.0);
  EXPECT(k.model == CHEM_CLUMPING_UNIFORM && k.factor == 1.0, "no gas: C = 1");
}

static void test_builtin_fits(void) {
  EXPECT(clumping_fits_count() == 5, "5 built-in fits, got %d", clumping_fits_count());
  const double sizes[5] = {2.094, 2.024, 1.518, 1.162, 1.012};
  for (int i = 0; i < 5 && i < clumping_fits_count(); ++i)
    EXPECT(clumping_fits_cell_mpc(i) == sizes[i], "fit %d: %g Mpc", i, clumping_fits_cell_mpc(i));
  EXPECT(clumping_fits_nearest(0.3) == 4 && clumping_fits_nearest(1.3) == 3 &&
             clumping_fits_nearest(1.6) == 2 && clumping_fits_nearest(2.03) == 1 &&
             clumping_fits_nearest(5.0) == 0,
         "nearest fits");
  /* pyC2Ray's par_redshift_1.012Mpc.txt: c2 5.2779e-03, c1 -3.9739e-01, C0 2.6312e+02 */
  double c0, c1, c2;
  clumping_fits_redshift(4, &c0, &c1, &c2);
  EXPECT(c0 == 263.12 && c1 == -0.39739 && c2 == 0.0052779, "1.012: %g %g %g", c0, c1, c2);
  clumping_fits_redshift(0, &c0, &c1, &c2);
  EXPECT(c0 == 392.62 && c1 == -0.43031 && c2 == 0.0061262, "2.094: %g %g %g", c0, c1, c2);
  /* par_density_1.012Mpc.txt, rows z = 7.305 (its last) and 43.619 (its first) */
  struct clumping_table *t = malloc(sizeof *t);
  clumping_fits_table(4, t);
  EXPECT(t->n_rows == 60, "60 rows, got %d", t->n_rows);
  EXPECT(t->z[0] == 7.305 && t->a[0] == 0.86521 && t->b[0] == 25.852 && t->c[0] == -6.4476,
         "1.012 at z = 7.305: %g %g %g %g", t->z[0], t->a[0], t->b[0], t->c[0]);
  EXPECT(t->z[59] == 43.619 && t->a[59] == -0.014036 && t->b[59] == 0.11555 &&
             t->c[59] == 0.96622,
         "1.012 at z = 43.619");
  int sorted = 1;
  for (int i = 1; i < t->n_rows; ++i) sorted &= t->z[i] > t->z[i - 1];
  EXPECT(sorted, "the built-in rows increase in z");
  free(t);
}

/* Write `text` to a fresh file; returns its name (static buffer). */
static const char *write_file(const char *text) {
  static char path[64];
  snprintf(path, sizeof path, "clumping_table_%d.txt", (int)getpid());
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  return path;
}

static void expect_table_error(const char *text, const char *needle) {
  struct clumping_table *t = malloc(sizeof *t);
  const char *path = write_file(text);
  ionf_error_clear();
  ionf_err rc = io_clumping_read_table(path, "run.yml: chemistry.clumping.table", t);
  const char *msg = ionf_error_message();
  EXPECT(rc == IONF_ERR_INPUT && strstr(msg, needle) &&
             strstr(msg, "chemistry.clumping.table") && strstr(msg, path),
         "want an input error naming the key, the file and '%s'; got %d '%s'", needle, rc, msg);
  ionf_error_clear();
  remove(path);
  free(t);
}

static void test_table_reader(void) {
  struct clumping_table *t = malloc(sizeof *t);
  const char *path = write_file("# z\ta\tb\tc\terr_a\terr_b\terr_c\n"
                                "9.026\t2.5311e+00\t1.0927e+01\t-1.6329e+00\t3.8e-01\t8.8e-01\t4.8e-01\n"
                                "\n"
                                "7.305\t8.6521e-01\t2.5852e+01\t-6.4476e+00\t5.2e-01\t1.2e+00\t7.1e-01\n"
                                "8.064 1.2974 18.420 -3.8218   # a comment after the columns\n");
  EXPECT(io_clumping_read_table(path, "key", t) == IONF_OK, "read: %s", ionf_error_message());
  EXPECT(t->n_rows == 3 && t->z[0] == 7.305 && t->z[1] == 8.064 && t->z[2] == 9.026,
         "3 rows sorted by z: %d", t->n_rows);
  EXPECT(t->a[0] == 0.86521 && t->b[1] == 18.42 && t->c[2] == -1.6329, "the columns a, b, c");
  remove(path);
  ionf_error_clear();
  EXPECT(io_clumping_read_table("no_such_clumping_table.txt", "run.yml: chemistry.clumping.table",
                                t) == IONF_ERR_IO &&
             strstr(ionf_error_message(), "chemistry.clumping.table") &&
             strstr(ionf_error_message(), "no_such_clumping_table.txt"),
         "a missing file: %s", ionf_error_message());
  ionf_error_clear();
  free(t);
  expect_table_error("7.0 1 2 3\n", "at least 2");
  expect_table_error("7.0 1 2\n8.0 1 2 3\n", "column 4");
  expect_table_error("7.0 1 2 3\n8.0 1 x 3\n", "column 3");
  expect_table_error("7.0 1 2 3\n7.0 2 3 4\n", "twice");
  expect_table_error("-1 1 2 3\n8.0 1 2 3\n", "negative");
}

int main(void) {
  test_cell_factor();
  test_redshift_formula();
  test_table_interpolation();
  test_model_step();
  test_builtin_fits();
  test_table_reader();
  TEST_RETURN();
}

/**
 * @file test_config_source_lengths.c
 * @brief Point sources by length (issue 20): YAML positions take lengths from the box
 *        corner ([3.3 kpc, 3.3 kpc, 0], ['3 kpc', ...]) as well as 0-based cell indices;
 *        messages say which convention: a text source file's cells are 1-based as in the
 *        file (named with its line), an HDF5 file's 0-based, YAML's 0-based.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "core/error.h"
#include "io/io_sources.h"
#include "io/synth_files.h"
#include "test_util.h"

#define HEAD                                                                               \
  "grid: {N: 64, box_size: 6.6 kpc}\n"                                                      \
  "material: {n_H: 1.0e-3, temperature: 1.0e4, x_HII_initial: 1.2e-3}\n"                   \
  "time: {dt: 10 Myr, t_end: 20 Myr}\n"

static ionf_err load(const char *position, struct ionf_config *cfg) {
  char text[1024];
  snprintf(text, sizeof text, HEAD "sources: [{position: %s, Ndot: 5.0e48}]\n", position);
  return config_load_text(text, "lengths.yaml", NULL, 0, cfg);
}

static void expect_cell(const char *position, int i, int j, int k) {
  struct ionf_config cfg;
  ionf_err rc = load(position, &cfg);
  EXPECT(rc == IONF_OK, "position %s: %s", position, ionf_error_message());
  if (rc != IONF_OK) {
    ionf_error_clear();
    return;
  }
  EXPECT(cfg.n_sources_inline == 1 && cfg.source_ijk[0] == i && cfg.source_ijk[1] == j &&
             cfg.source_ijk[2] == k,
         "position %s: cell (%d, %d, %d), expected (%d, %d, %d)", position, cfg.source_ijk[0],
         cfg.source_ijk[1], cfg.source_ijk[2], i, j, k);
  config_free(&cfg);
}

static void expect_refused(const char *position, const char *want1, const char *want2) {
  struct ionf_config cfg;
  ionf_err rc = load(position, &cfg);
  const char *msg = ionf_error_message();
  EXPECT(rc == IONF_ERR_CONFIG, "position %s: code %d (%s)", position, (int)rc, msg);
  EXPECT(strstr(msg, want1) != NULL, "position %s: message lacks '%s': %s", position, want1, msg);
  if (want2)
    EXPECT(strstr(msg, want2) != NULL, "position %s: message lacks '%s': %s", position, want2,
           msg);
  if (rc == IONF_OK) config_free(&cfg);
  ionf_error_clear();
}

static void test_yaml(void) {
  /* cells of 6.6 kpc / 64 = 0.103125 kpc */
  expect_cell("[3, 5, 7]", 3, 5, 7);
  expect_cell("[3.3 kpc, 3.3 kpc, 0]", 32, 32, 0);          /* on a face: the upper cell */
  expect_cell("['3 kpc', '3 kpc', '3 kpc']", 29, 29, 29);   /* 3 / 0.103125 = 29.09 */
  expect_cell("[0.05 kpc, 100 pc, 6.6 kpc]", 0, 0, 63);     /* the far face: the last cell */
  expect_cell("[0.0066 Mpc, 1 kpc, 63]", 63, 9, 63);
  expect_refused("[7 kpc, 0, 0]", "sources[0].position", "outside the box");
  expect_refused("[64, 0, 0]", "outside the 64^3 grid", "0-based");
  expect_refused("[1.5, 0, 0]", "must be integers", "unit");
  expect_refused("[3 parsec-ish, 0, 0]", "sources[0].position[0]", NULL);
}

static void test_files(void) {
  char dir[] = "/tmp/ionf_srclen_XXXXXX";
  if (!mkdtemp(dir)) {
    EXPECT(0, "mkdtemp");
    return;
  }
  char text[256], h5[256];
  snprintf(text, sizeof text, "%s/s.txt", dir);
  snprintf(h5, sizeof h5, "%s/s.h5", dir);
  FILE *f = fopen(text, "w");
  EXPECT(f != NULL, "cannot write %s", text);
  if (!f) return;
  fputs("# two sources\n2\n1 1 1 1e48\n0 5 2 1e48\n", f);
  fclose(f);
  struct source_list s;
  ionf_err rc = io_sources_read_grid(text, SOURCE_FORMAT_AUTO, 64, &s);
  const char *msg = ionf_error_message();
  EXPECT(rc == IONF_ERR_INPUT, "text file with cell 0: code %d", (int)rc);
  char want[512];
  snprintf(want, sizeof want,
           "source file '%s' line 4: cell (0, 5, 2) (1-based as in the file) is outside the "
           "64^3 grid",
           text);
  EXPECT(strstr(msg, want) != NULL, "text message: %s\n  wanted: %s", msg, want);
  ionf_error_clear();
  /* 64 is inside (1-based), 65 is not */
  f = fopen(text, "w");
  if (f) {
    fputs("1\n64 64 64 1e48\n", f);
    fclose(f);
  }
  rc = io_sources_read_grid(text, SOURCE_FORMAT_TEXT, 64, &s);
  EXPECT(rc == IONF_OK && s.n == 1 && s.ijk[0] == 63, "cell 64 (1-based) is the last: %s",
         ionf_error_message());
  if (rc == IONF_OK) sources_free(&s);
  ionf_error_clear();

  int32_t ijk[3] = {64, 0, 0};
  double ndot = 1e48, mass = 1e9;
  rc = synth_files_write_sources(h5, SOURCE_FORMAT_HDF5, 1, ijk, &ndot, &mass, "test", "test");
  EXPECT(rc == IONF_OK, "write %s: %s", h5, ionf_error_message());
  if (rc == IONF_OK) {
    rc = io_sources_read_grid(h5, SOURCE_FORMAT_AUTO, 64, &s);
    msg = ionf_error_message();
    EXPECT(rc == IONF_ERR_INPUT, "HDF5 file with cell 64: code %d", (int)rc);
    EXPECT(strstr(msg, "cell (64, 0, 0) (0-based") && strstr(msg, "outside the 64^3 grid") &&
               strstr(msg, h5),
           "HDF5 message: %s", msg);
    if (rc == IONF_OK) sources_free(&s);
  }
  ionf_error_clear();
  remove(text);
  remove(h5);
  rmdir(dir);
}

int main(void) {
  test_yaml();
  test_files();
  TEST_RETURN();
}

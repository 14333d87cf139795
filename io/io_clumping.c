/**
 * @file io_clumping.c
 * @brief A density clumping model's table from a text file (io_clumping.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "io/io_clumping.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line's z, a, b, c into row (the line has comments cut and is not blank). */
static ionf_err io_clumping_row(const char *key, const char *path, long line_no, char *p,
                                double row[4]) {
  static const char *const names[4] = {"z", "a", "b", "c"};
  for (int k = 0; k < 4; ++k) {
    char *end = NULL;
    errno = 0;
    row[k] = strtod(p, &end);
    IONF_CHECK(end != p && errno == 0 && isfinite(row[k]), IONF_ERR_INPUT,
               "%s: '%s' line %ld: column %d (%s) is not a finite number ('%.40s'); each row "
               "is z a b c of C = a x^2 + b x + c",
               key, path, line_no, k + 1, names[k], p);
    p = end;
  }
  for (; *p; ++p) /* more columns (pyC2Ray's errors) are allowed, if they are numbers */
    IONF_CHECK(strchr(" \t\r\n+-.0123456789eE", *p), IONF_ERR_INPUT,
               "%s: '%s' line %ld: '%.40s' after z a b c is not a number", key, path, line_no, p);
  IONF_CHECK(row[0] >= 0.0, IONF_ERR_INPUT, "%s: '%s' line %ld: redshift %g is negative", key,
             path, line_no, row[0]);
  return IONF_OK;
}

static ionf_err io_clumping_read_rows(FILE *f, const char *key, const char *path,
                                      struct clumping_table *out) {
  char line[4096];
  long line_no = 0;
  while (fgets(line, sizeof line, f)) {
    ++line_no;
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    char *p = line;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') ++p;
    if (!*p) continue;
    IONF_CHECK(out->n_rows < CLUMPING_TABLE_MAX_ROWS, IONF_ERR_INPUT,
               "%s: '%s' has more than %d rows", key, path, CLUMPING_TABLE_MAX_ROWS);
    double row[4];
    IONF_CALL(io_clumping_row(key, path, line_no, p, row));
    /* insert in order of z */
    int i = out->n_rows;
    while (i > 0 && out->z[i - 1] > row[0]) {
      out->z[i] = out->z[i - 1], out->a[i] = out->a[i - 1];
      out->b[i] = out->b[i - 1], out->c[i] = out->c[i - 1];
      --i;
    }
    IONF_CHECK(i == 0 || out->z[i - 1] != row[0], IONF_ERR_INPUT,
               "%s: '%s' line %ld: redshift %g is given twice", key, path, line_no, row[0]);
    out->z[i] = row[0], out->a[i] = row[1], out->b[i] = row[2], out->c[i] = row[3];
    ++out->n_rows;
  }
  IONF_CHECK(!ferror(f), IONF_ERR_IO, "%s: cannot read '%s'", key, path);
  IONF_CHECK(out->n_rows >= 2, IONF_ERR_INPUT,
             "%s: '%s' has %d row(s) of z a b c; at least 2 are needed to interpolate in z", key,
             path, out->n_rows);
  return IONF_OK;
}

ionf_err io_clumping_read_table(const char *path, const char *key, struct clumping_table *out) {
  out->n_rows = 0;
  FILE *f = fopen(path, "r");
  IONF_CHECK(f, IONF_ERR_IO, "%s: cannot open '%s': %s", key, path, strerror(errno));
  ionf_err rc = io_clumping_read_rows(f, key, path, out);
  fclose(f);
  if (rc != IONF_OK) out->n_rows = 0;
  return rc;
}

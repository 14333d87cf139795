/**
 * @file units.c
 * @brief "6.6 kpc", "500 Myr", bare numbers -> CGS.
 */
#include "core/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"

struct units_def {
  const char *name;
  double factor; /* cm or s per unit */
};

static const struct units_def units_length[] = {
    {"cm", 1.0},           {"m", IONF_M_CM},      {"km", IONF_KM_CM},
    {"au", IONF_AU_CM},    {"AU", IONF_AU_CM},    {"ly", IONF_LY_CM},
    {"pc", IONF_PC_CM},    {"kpc", IONF_KPC_CM},  {"Mpc", IONF_MPC_CM},
    {"Gpc", 1.0e3 * IONF_MPC_CM},
};
static const struct units_def units_time[] = {
    {"s", 1.0},
    {"yr", IONF_YR_S},
    {"kyr", 1.0e3 * IONF_YR_S},
    {"Myr", IONF_MYR_S},
    {"Gyr", 1.0e3 * IONF_MYR_S},
};

static int units_is_digit(char c) { return c >= '0' && c <= '9'; }
static int units_is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Length of the decimal number at the start of `s` (0 if none). Scanned by
 * hand because strtod also takes hex, "inf", "nan" and locale forms. */
static size_t units_scan_number(const char *s) {
  size_t i = 0, digits = 0;
  if (s[i] == '+' || s[i] == '-') ++i;
  while (units_is_digit(s[i])) ++i, ++digits;
  if (s[i] == '.') {
    ++i;
    while (units_is_digit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return 0;
  if (s[i] == 'e' || s[i] == 'E') {
    size_t j = i + 1;
    if (s[j] == '+' || s[j] == '-') ++j;
    if (units_is_digit(s[j])) {
      while (units_is_digit(s[j])) ++j;
      i = j;
    }
  }
  return i;
}

/* strtod on exactly `len` characters; 0 when the result is not finite. */
static int units_convert(const char *s, size_t len, double *out) {
  char buf[128];
  if (len >= sizeof buf) return 0;
  memcpy(buf, s, len);
  buf[len] = '\0';
  double v = strtod(buf, NULL);
  if (!isfinite(v)) return 0;
  *out = v;
  return 1;
}

int units_parse_number(const char *text, double *out) {
  if (!text) return 0;
  while (units_is_space(*text)) ++text;
  size_t len = units_scan_number(text);
  if (len == 0) return 0;
  const char *rest = text + len;
  while (units_is_space(*rest)) ++rest;
  if (*rest != '\0') return 0;
  return units_convert(text, len, out);
}

ionf_err units_parse(const char *text, enum unit_dim dim, double default_unit_cgs,
                     double cell_cm, const char *key, double *out_cgs) {
  const char *what = dim == UNIT_LENGTH ? "length" : "time";
  const char *example = dim == UNIT_LENGTH ? "6.6 kpc" : "10 Myr";
  const struct units_def *table = dim == UNIT_LENGTH ? units_length : units_time;
  size_t n_table = dim == UNIT_LENGTH ? sizeof units_length / sizeof units_length[0]
                                      : sizeof units_time / sizeof units_time[0];
  const char *list = dim == UNIT_LENGTH
                         ? (cell_cm > 0 ? "cm, m, km, au, ly, pc, kpc, Mpc, Gpc, cells"
                                        : "cm, m, km, au, ly, pc, kpc, Mpc, Gpc")
                         : "s, yr, kyr, Myr, Gyr";
  IONF_CHECK(text, IONF_ERR_CONFIG, "%s: no value given (expected a %s like '%s')", key, what,
             example);

  const char *s = text;
  while (units_is_space(*s)) ++s;
  size_t num_len = units_scan_number(s);
  IONF_CHECK(num_len > 0, IONF_ERR_CONFIG,
             "%s: cannot read '%s' as a %s (expected a number and an optional unit, like '%s')",
             key, text, what, example);
  double value = 0.0;
  IONF_CHECK(units_convert(s, num_len, &value), IONF_ERR_CONFIG,
             "%s: '%s' is not a finite number", key, text);

  /* The unit is the rest, trimmed; it may follow the number directly ("6.6kpc"). */
  const char *unit = s + num_len;
  while (units_is_space(*unit)) ++unit;
  size_t unit_len = strlen(unit);
  while (unit_len > 0 && units_is_space(unit[unit_len - 1])) --unit_len;
  for (size_t i = 0; i < unit_len; ++i)
    IONF_CHECK(!units_is_space(unit[i]), IONF_ERR_CONFIG,
               "%s: cannot read '%s' as a %s (expected a number and an optional unit, like '%s')",
               key, text, what, example);

  double factor = default_unit_cgs;
  if (unit_len > 0) {
    int found = 0;
    for (size_t i = 0; i < n_table && !found; ++i) {
      if (strlen(table[i].name) == unit_len && strncmp(table[i].name, unit, unit_len) == 0) {
        factor = table[i].factor;
        found = 1;
      }
    }
    int is_cells = dim == UNIT_LENGTH && ((unit_len == 5 && strncmp(unit, "cells", 5) == 0) ||
                                          (unit_len == 4 && strncmp(unit, "cell", 4) == 0));
    if (is_cells) {
      IONF_CHECK(cell_cm > 0, IONF_ERR_CONFIG,
                 "%s: the unit 'cells' is not allowed here in '%s' (use %s)", key, text, list);
      factor = cell_cm;
      found = 1;
    }
    IONF_CHECK(found, IONF_ERR_CONFIG, "%s: unknown %s unit '%.*s' in '%s' (use %s)", key, what,
               (int)unit_len, unit, text, list);
  }
  double result = value * factor;
  IONF_CHECK(isfinite(result), IONF_ERR_CONFIG, "%s: '%s' is too large", key, text);
  *out_cgs = result;
  return IONF_OK;
}

/**
 * @file units.h
 * @brief Physical quantities given as "6.6 kpc", "500 Myr" or a bare number in
 *        the key's documented unit; results in CGS.
 */
#ifndef IONF_UNITS_H
#define IONF_UNITS_H

#include "core/error.h"

enum unit_dim {
  UNIT_LENGTH, /*!< cm, m, km, pc, kpc, Mpc, Gpc, au, ly; "cells" when allowed */
  UNIT_TIME    /*!< s, yr, kyr, Myr, Gyr */
};

/**
 * Parse `text` as a quantity of dimension `dim`.
 * @param default_unit_cgs  factor applied to a bare number (e.g. 3.0857e21 for kpc)
 * @param cell_cm           size of one cell in cm, or <= 0 when "cells" is not allowed
 * @param key               key path for messages ("grid.box_size")
 * @param out_cgs           result in cm or s
 * @return IONF_ERR_CONFIG naming key and value for a bad number or unknown unit.
 */
IONF_NODISCARD ionf_err units_parse(const char *text, enum unit_dim dim, double default_unit_cgs,
                                    double cell_cm, const char *key, double *out_cgs);

/**
 * Read `text` (blanks around it allowed) as one finite number in YAML/C
 * notation ("5e48", "-1.0e-3", ".5"); no unit, no hex, no "inf"/"nan".
 * Sets no error message: returns 1 and sets *out, or 0.
 */
int units_parse_number(const char *text, double *out);

#endif /* IONF_UNITS_H */

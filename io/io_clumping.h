/**
 * @file io_clumping.h
 * @brief Reading a density clumping model's table (chemistry.clumping.table; chem/clumping.h).
 *
 * Text, pyC2Ray's par_density_*.txt layout: lines starting with '#' are comments (so is
 * the rest of a line after '#'); every other non-blank line holds at least four numbers,
 * z a b c, and may go on with more (pyC2Ray's err_a err_b err_c), which are not used.
 * Rows in any order (pyC2Ray's decrease in z); at least two, no redshift twice, every
 * number finite, z >= 0; at most CLUMPING_TABLE_MAX_ROWS rows.
 */
#ifndef IONF_IO_CLUMPING_H
#define IONF_IO_CLUMPING_H

#include "chem/clumping.h"
#include "core/error.h"

/** Read `path` into *out (rows sorted by increasing z).  Messages start with `key` (the
    config key that named the file) and name the file, the line and the value:
    IONF_ERR_IO (cannot open or read), IONF_ERR_INPUT (its contents). */
IONF_NODISCARD ionf_err io_clumping_read_table(const char *path, const char *key,
                                               struct clumping_table *out);

#endif /* IONF_IO_CLUMPING_H */

/**
 * @file h5_util.h
 * @brief Small HDF5 helpers shared by the readers and writers.
 */
#ifndef IONF_H5_UTIL_H
#define IONF_H5_UTIL_H

#include <hdf5.h>
#include <stddef.h>

#include "error.h"

/**
 * The innermost reason on HDF5's error stack (e.g. "errno = 2, error message =
 * 'No such file or directory'"), for messages.  Call right after the failing
 * HDF5 call: the next API call clears the stack.
 */
void h5_util_error_text(char *buf, size_t size);

/** 1 when every group on the way to `name`, and `name` itself, exist as links. */
int h5_util_path_exists(hid_t file, const char *name);

/**
 * Open dataset `name` of a table file: numeric (integers only when
 * `integer_only`), shape (n) for want_rank 1 or (n, 3) for want_rank 2; dims
 * gets the shape.  Errors (IONF_ERR_INPUT) call the file "<kind> '<path>'",
 * e.g. "halo catalogue 'h.h5' has no dataset '/halos/mass'".
 */
IONF_NODISCARD ionf_err h5_util_open_table(hid_t file, const char *path, const char *kind,
                                           const char *name, int want_rank, int integer_only,
                                           hid_t *dset, hsize_t *dims);

#endif

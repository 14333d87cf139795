/**
 * @file h5_util.h
 * @brief Small HDF5 helpers shared by the readers and writers.
 */
#ifndef IONF_H5_UTIL_H
#define IONF_H5_UTIL_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/**
 * HDF5 prints its error stack on stderr when a call fails unless told not to; ionfront
 * reports failures itself (ionf messages with h5_util_error_text).  Every io/ function
 * that calls HDF5 does so between h5_util_quiet_begin, which saves the calling thread's
 * automatic error reporting and turns it off, and h5_util_quiet_end, which puts the
 * saved one back: a caller's HDF5 setting survives ionfront's reads and writes.
 * (H5Eset_auto2 may clear the error stack: take the reason before h5_util_quiet_end.)
 */
struct h5_util_quiet {
  H5E_auto2_t func; /* the caller's automatic reporting */
  void *data;
  int saved;        /* 1 when func / data were read */
};
void h5_util_quiet_begin(struct h5_util_quiet *q);
void h5_util_quiet_end(const struct h5_util_quiet *q);

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

/* ---- attributes ----------------------------------------------------------------
 * The one set of attribute helpers of ionfront's files.  The writers create
 * attribute `name` on `obj` (a file, group or dataset) and return 1, or 0 with the
 * reason left on HDF5's error stack for h5_util_error_text (so that they chain with
 * &&, and the caller words the error: "cannot write snapshot 'P': ...: <reason>").
 */

/** `count` values (count 0: a scalar) stored as `file_type` from memory of `mem_type`. */
int h5_util_attr_put(hid_t obj, const char *name, hid_t file_type, hid_t mem_type,
                     hsize_t count, const void *value);
/** A scalar float64 (little-endian IEEE). */
int h5_util_attr_put_double(hid_t obj, const char *name, double value);
/** A scalar int64 (little-endian). */
int h5_util_attr_put_int64(hid_t obj, const char *name, int64_t value);
/** A scalar int32 (little-endian; Gadget's header flags). */
int h5_util_attr_put_int32(hid_t obj, const char *name, int32_t value);
/** A scalar variable-length UTF-8 string (no 64 KiB limit; h5py reads str); NULL: "". */
int h5_util_attr_put_string(hid_t obj, const char *name, const char *value);

/** A whole dataset `name` in `group`: `rank` dims, stored as `file_type` from memory of
    `mem_type` (1, or 0 with HDF5's reason on its stack, as the attribute writers). */
int h5_util_put_dataset(hid_t group, const char *name, hid_t file_type, hid_t mem_type, int rank,
                        const hsize_t *dims, const void *data);

/**
 * Create PATH.tmp (written in full, then renamed over PATH by the caller, so that a
 * failed write never leaves half a file where a good one was) into tmp[tmp_size]
 * and *file, with HDF5's printing off (h5_util_quiet_begin(quiet)): the caller calls
 * h5_util_quiet_end(quiet) once it has closed the file.  IONF_ERR_IO naming `kind`,
 * `path` and HDF5's reason otherwise (the printing already back as it was).
 */
IONF_NODISCARD ionf_err h5_util_create_temp(const char *path, const char *kind, char *tmp,
                                            size_t tmp_size, struct h5_util_quiet *quiet,
                                            hid_t *file);

/**
 * Open `path` read-only into *file, with HDF5's printing off (h5_util_quiet_begin(quiet)):
 * fopen first, so that a missing or unreadable file is named with errno's plain words
 * ("cannot open KIND 'PATH': No such file or directory"), then H5Fopen (IONF_ERR_IO
 * "cannot open KIND 'PATH': not readable as HDF5 (<reason>)", the printing back).  The
 * caller ends with h5_util_close_read.
 */
IONF_NODISCARD ionf_err h5_util_open_read(const char *path, const char *kind,
                                          struct h5_util_quiet *quiet, hid_t *file);
/** H5Fclose(file), then HDF5's printing back as it was before h5_util_open_read. */
void h5_util_close_read(hid_t file, const struct h5_util_quiet *quiet);

/**
 * Close a file made by h5_util_create_temp and put HDF5's printing back.  `ok` 0 (a write
 * failed, its reason on HDF5's stack) or a failed close: IONF_ERR_IO "cannot write KIND
 * 'PATH': <HDF5's reason>".  The caller then lands the file with output_file_commit.
 */
IONF_NODISCARD ionf_err h5_util_close_temp(hid_t file, int ok, const struct h5_util_quiet *quiet,
                                           const char *kind, const char *path);

/**
 * Read attribute `name` of `obj` (which exists: callers check and word that
 * error themselves) into `out` as `mem_type`; IONF_ERR_IO naming `name`, `path`
 * and HDF5's reason when it cannot be read.
 */
IONF_NODISCARD ionf_err h5_util_attr_get(hid_t obj, const char *path, const char *name,
                                         hid_t mem_type, void *out);

/** An optional attribute: 1 when `name` exists on `obj` and was read into `out` as
    `mem_type`, else 0 (no message). */
int h5_util_attr_try_get(hid_t obj, const char *name, hid_t mem_type, void *out);

/** A string attribute of `obj` into buf (truncated); 1 when it exists and is a string. */
int h5_util_attr_get_string(hid_t obj, const char *name, char *buf, size_t size);

#endif

/**
 * @file h5_util.h
 * @brief Small HDF5 helpers shared by the readers and writers.
 */
#ifndef IONF_H5_UTIL_H
#define IONF_H5_UTIL_H

#include <stddef.h>

/**
 * The innermost reason on HDF5's error stack (e.g. "errno = 2, error message =
 * 'No such file or directory'"), for messages.  Call right after the failing
 * HDF5 call: the next API call clears the stack.
 */
void h5_util_error_text(char *buf, size_t size);

#endif

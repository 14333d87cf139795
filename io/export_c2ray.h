/**
 * @file export_c2ray.h
 * @brief The binary grid files C2-Ray writes (xfrac3D_*.bin, IonRates3D_*.bin,
 *        Temper3D_*.bin) and tools21cm reads (XfracFile, IonRateFile).
 *
 * Layout (a Fortran unformatted sequential file, as gfortran writes it, in the
 * machine's byte order, little-endian on x86-64 and ARM):
 *
 *   record 1: int32 marker 12 | int32 n | int32 n | int32 n | int32 marker 12
 *   record 2: int32 marker B | n^3 values | int32 marker B
 *
 * with B = n^3 * 8 (float64: xfrac) or n^3 * 4 (float32: IonRates, Temper) and
 * the values in Fortran order: x fastest, so element (i, j, k) of our C-order
 * array, index (i*n + j)*n + k, sits at position i + n*j + n*n*k.  tools21cm's
 * default mode skips the first 6 int32 (markers and dims) and reads the data in
 * Fortran order, which yields the same [i][j][k] array.
 *
 * Record markers are int32: a record longer than 2^31 - 1 bytes (n >= 646 in
 * float64, n >= 813 in float32) cannot be written without gfortran's
 * subrecords, which this writer does not produce (IONF_ERR_UNSUPPORTED).
 */
#ifndef IONF_EXPORT_C2RAY_H
#define IONF_EXPORT_C2RAY_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/**
 * Write the n^3 field (C order) to `path` as a C2-Ray grid file: float64 values
 * when as_float32 is 0, float32 (rounded to nearest) otherwise.  Written to
 * "<path>.tmp", then renamed; the temporary file is removed on failure.
 * Errors: IONF_ERR_INPUT (n <= 0, no field), IONF_ERR_UNSUPPORTED (record over
 * 2^31 - 1 bytes), IONF_ERR_IO (naming the path), IONF_ERR_MEM.
 */
IONF_NODISCARD ionf_err export_c2ray_write(const char *path, int64_t n,
                                           const double *field_c_order, int as_float32);

/**
 * Read a C2-Ray grid file written as float64 (as_float32 == 0) or float32
 * values, checking every record marker, that the grid is cubic and that nothing
 * follows the data.  On success *n_out is the grid size and *field_c_order_out
 * a malloc'd array of n^3 doubles in C order (the caller frees it); on failure
 * *field_c_order_out is NULL.  Errors: IONF_ERR_IO (cannot open or read),
 * IONF_ERR_INPUT (bad markers or size, wrong precision, trailing bytes),
 * IONF_ERR_UNSUPPORTED (big-endian files, subrecords, non-cubic grids),
 * IONF_ERR_MEM.  Every message names the file.
 */
IONF_NODISCARD ionf_err export_c2ray_read(const char *path, int64_t *n_out,
                                          double **field_c_order_out, int as_float32);

/**
 * The C2-Ray file name for a stem ("xfrac3D", "IonRates3D", "Temper3D"):
 * "DIR/STEM_<z>.bin" with z printed "%.3f" when redshift >= 0 (e.g.
 * "out/xfrac3D_8.636.bin"), else "DIR/STEM_t<time>Myr.bin" with the time in Myr
 * printed "%.3f".  An empty or NULL dir gives a name without a directory.  The
 * result is truncated (still terminated) when it does not fit in `size`.
 */
void export_c2ray_name(char *buf, size_t size, const char *dir, const char *stem,
                       double redshift, double time_myr);

#endif /* IONF_EXPORT_C2RAY_H */

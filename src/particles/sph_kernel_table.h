/**
 * @file sph_kernel_table.h
 * @brief The table of the kernel's column C(q2) (src/sph_k.h), built on the
 *        host by GSL quadrature of the cubic spline along a chord.
 */
#ifndef IONF_SPH_KERNEL_TABLE_H
#define IONF_SPH_KERNEL_TABLE_H

#include "core/error.h"

/**
 * C(q2) = int W(sqrt(q2 + s^2), 1) ds over the whole chord (h = 1), by GSL
 * adaptive quadrature (relative tolerance 1e-13, the integrand split at the
 * kernel's break r = 1/2): the reference the table is built from and tested
 * against.  0 for q2 >= 1.
 */
double sph_kernel_column_quad(double q2);

/**
 * Fill table[0 .. SPH_COLUMN_INTERVALS] with C(i / SPH_COLUMN_INTERVALS);
 * IONF_ERR_INTERNAL when a quadrature fails.
 */
IONF_NODISCARD ionf_err sph_kernel_table_fill(double *table);

/**
 * The same table, built once per process (sph_kernel_table_fill on first
 * use, 0.15 ms of quadrature) and copied to table: every tracer pass needs
 * it, and a run makes thousands of passes.  Safe to call from threads.
 */
IONF_NODISCARD ionf_err sph_kernel_table_copy(double *table);

#endif /* IONF_SPH_KERNEL_TABLE_H */

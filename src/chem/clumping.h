/**
 * @file clumping.h
 * @brief The sub-grid clumping models (chemistry.clumping): what a run's config says,
 *        reduced each step to the per-cell parameters of clumping_k.h.
 *
 *   constant  C = value;
 *   redshift  C(z) = C0 exp(c1 z + c2 z^2) + 1 (Bianco et al. 2021, MNRAS 504, 2443, their
 *             globally averaged model; pyC2Ray's Sinks.clumping_model: redshift);
 *   density   C = max(1, a x^2 + b x + c), x = n_H / <n_H> (or pyC2Ray's 1 + n_H / <n_H>),
 *             a, b, c interpolated linearly in z between the rows of a table (Bianco et al.
 *             2021's deterministic model; pyC2Ray's density model); outside the table's
 *             redshifts the nearest row's coefficients hold.
 * The built-in fits (clumping_fits.c) are Bianco et al. 2021's for five comoving cell
 * sizes, as pyC2Ray ships them (pyc2ray/tables/clumping).
 */
#ifndef IONF_CLUMPING_H
#define IONF_CLUMPING_H

#include "chem/clumping_k.h"

/** Rows a density model's table may hold (pyC2Ray's have 60). */
#define CLUMPING_TABLE_MAX_ROWS 512

enum clumping_kind { CLUMPING_NONE = 0, CLUMPING_CONSTANT, CLUMPING_REDSHIFT, CLUMPING_DENSITY };

/** The density model's table: a, b, c of C = a x^2 + b x + c at each redshift. */
struct clumping_table {
  int n_rows;                               /*!< >= 2, strictly increasing z */
  double z[CLUMPING_TABLE_MAX_ROWS];
  double a[CLUMPING_TABLE_MAX_ROWS], b[CLUMPING_TABLE_MAX_ROWS], c[CLUMPING_TABLE_MAX_ROWS];
};

/** A run's clumping model (a zeroed struct: none, C = 1). */
struct clumping_model {
  enum clumping_kind kind;
  double value;           /*!< constant: C (>= 1) */
  double c0, c1, c2;      /*!< redshift: C(z) = c0 exp(c1 z + c2 z^2) + 1 */
  double z_fixed;         /*!< >= 0: the models are evaluated at this z (runs without a
                               redshift); < 0: at each step's redshift */
  int x_plus_one;         /*!< density: x = 1 + n / <n> (pyC2Ray) instead of n / <n> */
  double fits_cell_mpc;   /*!< > 0: the built-in fits of this comoving cell size [Mpc] */
  struct clumping_table table; /*!< density: the fits (a file's or the built-in ones) */
};

/** C(z) = c0 exp(c1 z + c2 z^2) + 1. */
double clumping_redshift_factor(double c0, double c1, double c2, double z);

/** a, b, c at z: linear in z between the table's bracketing rows, the end rows' beyond. */
void clumping_table_at(const struct clumping_table *t, double z, double abc[3]);

/**
 * The per-cell parameters of a step at redshift z (m->z_fixed instead when >= 0) and the
 * grid's mean n_H: none, a uniform C (constant, redshift), or the density fit's a, b, c
 * (with a mean that is not > 0 the density model falls back to C = 1: no gas to clump).
 */
struct chem_clumping clumping_model_step(const struct clumping_model *m, double z,
                                         double mean_n_h_cm3);

/* ---- the built-in fits (clumping_fits.c) ---------------------------------------- */

/** Cell sizes of the built-in fits [comoving Mpc], as pyC2Ray lists them. */
int clumping_fits_count(void);
double clumping_fits_cell_mpc(int i);
/** The fits nearest to a comoving cell of cell_mpc [Mpc] (the first of equals). */
int clumping_fits_nearest(double cell_mpc);
/** Fit i's coefficients of the redshift model: c0, c1, c2. */
void clumping_fits_redshift(int i, double *c0, double *c1, double *c2);
/** Fit i's table of the density model. */
void clumping_fits_table(int i, struct clumping_table *t);

#endif /* IONF_CLUMPING_H */

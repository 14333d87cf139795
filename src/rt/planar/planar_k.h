/**
 * @file planar_k.h
 * @brief Plane-parallel sources: a uniform photon flux entering a non-periodic
 *        box through one face and travelling along the grid axis normal to it
 *        (shared host/device maths).
 *
 * Every column of cells normal to the face is one ray carrying
 * Ndot = F * (cell face area).  The column density accumulates cell by cell from
 * the face, and each cell gets the photon-conserving rate of photo_k.h with the
 * cell volume: the photons it absorbs, Ndot [thick(tau_in) - thick(tau_out)],
 * per absorber in it (each species in its own column).  So a column absorbs Ndot [1 - thick(tau_total)] in all, and
 * in a thin medium Gamma = F sigma0 thin(tau) (grey: F sigma0 e^-tau) in every cell.
 * Columns of one face share no cell, so a pass over them needs no atomics.
 */
#ifndef IONF_PLANAR_K_H
#define IONF_PLANAR_K_H

#include "core/ionf_hd.h"
#include "rt/photo_k.h"
#include "chem/species_k.h"

/** Faces: 2 * axis + 1 for the high side (x_low = 0, x_high = 1, ..., z_high = 5). */
#define PLANAR_N_FACES 6

/** One plane-parallel source. */
struct planar_source {
  int face;                /*!< the face the photons enter through, 0..5 (see above) */
  double flux_per_cm2_s;   /*!< photon flux through that face [photons s^-1 cm^-2] */
};

/**
 * Grid index of the s-th cell from the face (s = 0 touches it) of column
 * `column` (0 <= column < n^2).  The column's two in-plane indices are
 * (column / n, column % n) in axis order, so consecutive columns of the x and y
 * faces are consecutive k: neighbouring GPU threads touch neighbouring memory.
 */
IONF_HD IONF_INLINE long long planar_cell_index(long long n, int face, long long column,
                                                long long s) {
  long long u = column / n, v = column % n;
  long long a = (face % 2) ? n - 1 - s : s;
  if (face / 2 == 0) return (a * n + u) * n + v; /* along x: column (j, k) */
  if (face / 2 == 1) return (u * n + a) * n + v; /* along y: column (i, k) */
  return (u * n + v) * n + a;                    /* along z: column (i, j) */
}

/** What tracing the columns of one plane source needs (host or device pointers). */
struct planar_column_view {
  const double *n_h_cm3;          /*!< n^3 hydrogen densities */
  const double *x_ion_av;         /*!< [species][n^3] time-averaged ion fractions (species_k.h) */
  int n_species;                  /*!< species blocks (hydrogen: 1) */
  double abundance_he;            /*!< n_He / n_H */
  long long n;                    /*!< cells per side */
  double cell_cm;                 /*!< cell side [cm] */
  int face;
  double ndot_per_s;              /*!< photons entering one column: F * cell_cm^2 */
  struct photo_table_view tables;
};

/** Photons per second entering one column of a plane source [1/s]. */
IONF_HD IONF_INLINE double planar_column_ndot(double flux_per_cm2_s, double cell_cm) {
  return flux_per_cm2_s * cell_cm * cell_cm;
}

/** The column densities of every species along a column [cm^-2]. */
struct planar_columns {
  double cm2[IONF_MAX_SPECIES];
};

/**
 * One cell of a column, every species: column densities `in` [cm^-2] enter
 * cell c; add its photoionization rate to gamma[s][c] and, when `heat` is not
 * NULL and the tables heat, its photo-heating per absorber to heat[s][c]
 * (gamma and heat are [species][n^3]).  Behind an opaque column
 * (> PHOTO_MAX_COLUMN_CM2) nothing is added, as for point sources.  Returns
 * the column densities leaving the cell.
 */
IONF_HD IONF_INLINE struct planar_columns planar_cell_step(const struct planar_column_view *v,
                                                           long long c, struct planar_columns in,
                                                           double *gamma, double *heat) {
  double ds_cm = v->cell_cm;
  long long cells = v->n * v->n * v->n;
  double x_ion[IONF_MAX_SPECIES];
  for (int s = 0; s < v->n_species; ++s) x_ion[s] = v->x_ion_av[s * cells + c];
  struct planar_columns out = in;
  for (int s = 0; s < v->n_species; ++s) {
    double n_abs = species_absorber_density(s, v->n_h_cm3[c], x_ion, v->abundance_he);
    double col_in = in.cm2[s];
    double col_out = col_in + n_abs * ds_cm;
    if (col_in <= PHOTO_MAX_COLUMN_CM2) {
      double sigma0 = v->tables.sp[s].sigma0_cm2, h = 0.0;
      gamma[s * cells + c] += photo_rates(&v->tables, s, v->ndot_per_s, sigma0 * col_in,
                                          sigma0 * col_out, n_abs, ds_cm, ds_cm * ds_cm * ds_cm,
                                          heat ? &h : (double *)0);
      if (heat) heat[s * cells + c] += h;
    }
    out.cm2[s] = col_out;
  }
  return out;
}

/** Whether a column is still transparent to some of the n_species species (one at or
    below PHOTO_MAX_COLUMN_CM2). */
IONF_HD IONF_INLINE int planar_column_lit(struct planar_columns col, int n_species) {
  int lit = 0;
  for (int s = 0; s < n_species; ++s) lit = lit || col.cm2[s] <= PHOTO_MAX_COLUMN_CM2;
  return lit;
}

/**
 * Trace one column from the face (planar_cell_step cell after cell) until every
 * species' column is opaque.  Returns the HI column density through the whole
 * column [cm^-2] (up to where it turned opaque).
 */
IONF_HD IONF_INLINE double planar_trace_column(const struct planar_column_view *v,
                                               long long column, double *gamma, double *heat) {
  struct planar_columns col;
  for (int s = 0; s < IONF_MAX_SPECIES; ++s) col.cm2[s] = 0.0;
  for (long long s = 0; s < v->n && planar_column_lit(col, v->n_species); ++s)
    col = planar_cell_step(v, planar_cell_index(v->n, v->face, column, s), col, gamma, heat);
  return col.cm2[SPECIES_HI];
}

#endif /* IONF_PLANAR_K_H */

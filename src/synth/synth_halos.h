/**
 * @file synth_halos.h
 * @brief Synthetic halo catalogues on a density grid.
 *
 * (a) Iliev et al. (2006) Test 4's recipe: the K densest local maxima of ρ/ρ̄
 *     (each >= its 26 neighbours, periodic), taken densest first and kept when
 *     at least `min_separation` cells from every peak already kept (periodic
 *     Chebyshev distance); a peak's mass is the matter mass of the 3^3 cells
 *     around it.
 * (b) Extended Press-Schechter per cell (Bond et al. 1991; Lacey & Cole 1993):
 *     the mass fraction of a cell of linear overdensity δ (at z = 0) in haloes
 *     above M_min at redshift z,
 *
 *       f_coll = erfc[(δ_c − D(z) δ) / sqrt(2 (σ²(M_min) − σ²(M_cell)) D(z)²)],
 *
 *     δ_c = 1.686, clamped to [0, 1]; σ from synth_spectrum.h; M_cell the mean
 *     matter mass of a cell.  A cell whose collapsed mass f_coll M_cell ρ/ρ̄
 *     reaches min_source_mass becomes one halo of that mass, at a point inside
 *     the cell drawn from (seed, cell): the same cell keeps its point at every
 *     redshift.  Averaged over a Gaussian δ of variance σ²(M_cell) the formula
 *     gives the unconditional Press-Schechter fraction erfc(δ_c / (√2 σ(M_min) D)).
 */
#ifndef IONF_SYNTH_HALOS_H
#define IONF_SYNTH_HALOS_H

#include <stdint.h>

#include "core/error.h"
#include "synth/synth_spectrum.h"

/** Linear collapse threshold δ_c of spherical collapse (EdS value). */
#define SYNTH_HALOS_DELTA_C 1.686

/** Peaks of recipe (a). */
struct synth_peaks {
  int n;                 /*!< peaks found (<= the count asked for) */
  int32_t *ijk;          /*!< 3n 0-based cell indices, densest first (malloc'd) */
  double *rho_over_mean; /*!< ρ/ρ̄ of the peak cell */
  double *mass_msun;     /*!< matter mass of the 3^3 block around the peak [Msun] */
};

/**
 * Recipe (a) on an n^3 field of ρ/ρ̄; `cell_mass_msun` is the mean matter mass
 * of one cell.  Fewer than `count` peaks when the field has fewer (out->n says).
 */
IONF_NODISCARD ionf_err synth_halos_peaks(int64_t n, const double *rho_over_mean, int count,
                                          int min_separation_cells, double cell_mass_msun,
                                          struct synth_peaks *out);
void synth_halos_peaks_free(struct synth_peaks *p);

/** Conditional EPS collapsed fraction (above), clamped to [0, 1]. */
double synth_halos_fcoll_conditional(double delta_lin_z0, double growth, double sigma2_min,
                                     double sigma2_cell);

/** Unconditional Press-Schechter f_coll = erfc(δ_c / (√2 σ(M_min) D)). */
double synth_halos_fcoll_unconditional(double sigma_min, double growth);

/** A halo catalogue of recipe (b): comoving positions and masses. */
struct synth_halo_list {
  int64_t n;
  double *position_cmpc; /*!< 3n comoving Mpc, each in [0, box) (malloc'd) */
  double *mass_msun;     /*!< n collapsed masses [Msun] (malloc'd) */
};

/** What recipe (b) found (for reports and tests). */
struct synth_eps_stats {
  double fcoll_volume;       /*!< mean f_coll over cells */
  double fcoll_mass;         /*!< Σ f_coll M_cell ρ/ρ̄ / Σ M_cell ρ/ρ̄ */
  double fcoll_ps;           /*!< unconditional Press-Schechter f_coll */
  double collapsed_msun;     /*!< Σ f_coll M_cell ρ/ρ̄ over all cells */
  double in_halos_msun;      /*!< of which in cells above min_source_mass */
  double sigma_min, sigma_cell; /*!< σ(M_min), σ(M_cell) at z = 0 */
  double cell_mass_msun;     /*!< M_cell */
};

/** Inputs of recipe (b). */
struct synth_eps_request {
  int64_t n;                     /*!< cells per side */
  double box_cmpc;               /*!< comoving side [Mpc] */
  const double *delta_lin_z0;    /*!< linear δ at z = 0, n^3 */
  const double *rho_over_mean;   /*!< ρ/ρ̄ at z (the cells' mass), n^3 */
  double growth;                 /*!< D(z) */
  double min_halo_mass_msun;     /*!< M_min of f_coll */
  double min_source_mass_msun;   /*!< cells with less collapsed mass get no halo */
  uint64_t seed;                 /*!< positions inside the cells */
};

/**
 * Recipe (b).  Errors: M_min >= M_cell (the cells must be larger than the
 * smallest halo), masses not finite and > 0.
 */
IONF_NODISCARD ionf_err synth_halos_eps(const struct synth_eps_request *req,
                                        const struct synth_spectrum *s,
                                        struct synth_halo_list *out,
                                        struct synth_eps_stats *stats);
void synth_halos_list_free(struct synth_halo_list *h);

/** Mean matter mass of one cell of a comoving box [Msun]. */
double synth_halos_cell_mass_msun(const struct synth_spectrum *s, double box_cmpc, int64_t n);

#endif

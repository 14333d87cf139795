/**
 * @file halo_model.h
 * @brief Halo masses to ionizing photon rates: the one place of the per-halo maths
 *        (config sequence.halos and its `model:`), and a list of halo masses by cell
 *        turned into point sources.
 *
 * A halo of mass M [Msun] emits, over the source lifetime t_s,
 *
 *   Ndot = eff(M) M Ω_b / (Ω_m m_p t_s)                (M in grams)
 *   eff(M) = N_ion f_esc(M) g(M),     f_star(M) = g(M) Ω_b / Ω_m
 *
 * g is the stellar fraction in units of the cosmic baryon fraction, so eff is the number of
 * ionizing photons per halo baryon; with g = f_gamma, N_ion = 1 and f_esc = 1 this is
 * pyC²Ray's and C²-Ray's Eq. 20, Ndot = f_γ M Ω_b / (Ω_m m_p t_s), and the same bits as
 * before the models existed (eff is then exactly f_gamma).  pyC²Ray (pyc2ray/c2ray_fstar.py,
 * source_model.py) writes the same thing as Ndot = N_ion f_esc f_star M / (m_p t_s).
 *
 *  - f_star, f_gamma:  g = f_gamma (pyC²Ray fstar_kind 'fgamma' with f0 = f_gamma; pyC²Ray's
 *                      own code multiplies that fraction by M once more, a mass instead of a
 *                      fraction, flagged by its TODO: not reproduced);
 *  - f_star, dpl:      g = 2 f0 / ((M/M_p)^g1 + (M/M_p)^g2) × (1 + (M_t/M)^g3)^g4
 *                      (the double power law with small-mass suppression of pyC²Ray's
 *                      StellarToHaloRelation.stellar_to_halo_fraction; arXiv:2011.12308);
 *  - f_esc, constant:  f0;
 *  - f_esc, power:     clip(f0 (M/M_p)^alpha, 0, 1) (EscapeFraction.deterministic);
 *  - f_esc, power_obs: the same at the stellar mass f_star(M) M (pyC²Ray's 'power_obs');
 *  - t_s, constant:    t_source;
 *  - t_s, exponential: 1 / (alpha_h (1+z) H(z)) at the redshift of the halo file
 *                      (exponential accretion, M(z) ∝ exp(-alpha_h z): source_liftime);
 *                      H(z) is ionfront's flat matter + Λ (cosmo/cosmology.h).
 *
 * The low-mass class (C²-Ray's LMACH, pyC²Ray's Sources.fgamma_lm): a second mass per cell
 * (C²-Ray source lists) emits f_gamma_low_mass M_low Ω_b / (Ω_m m_p t_s), the same t_s, and
 * nothing in a cell whose ionized fraction exceeds HALO_MODEL_LOW_MASS_X_SUPPRESS when the
 * list is read (C²-Ray sourceprops.F90, suppression_criterion and the "Iliev et al" recipe
 * of mass_from_source_models; Iliev et al. 2007, MNRAS 376, 534; 2012, MNRAS 423, 2222).
 */
#ifndef IONF_HALO_MODEL_H
#define IONF_HALO_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "cosmo/cosmology.h"
#include "grid/sources.h"

/** Low-mass haloes in a cell with x_HII above this emit nothing (C²-Ray c2ray_parameters.f90
    StillNeutral = 0.1). */
#define HALO_MODEL_LOW_MASS_X_SUPPRESS 0.1

/** Stellar-to-halo mass relations (model.f_star.model). */
enum halo_fstar_model { HALO_FSTAR_F_GAMMA, HALO_FSTAR_DPL };
/** Escape fractions (model.f_esc.model). */
enum halo_fesc_model { HALO_FESC_CONSTANT, HALO_FESC_POWER, HALO_FESC_POWER_OBS };
/** Source lifetimes (model.accretion.model). */
enum halo_accretion_model { HALO_ACCRETION_CONSTANT, HALO_ACCRETION_EXPONENTIAL };

struct halo_model {
  enum halo_fstar_model f_star;
  double f_gamma;                  /*!< f_gamma: photons per halo baryon (sequence.halos.f_gamma) */
  double dpl_f0;                   /*!< dpl: amplitude f0 */
  double dpl_m_t_msun;             /*!< dpl: suppression mass M_t [Msun] */
  double dpl_m_p_msun;             /*!< dpl: pivot mass M_p [Msun] */
  double dpl_g1, dpl_g2;           /*!< dpl: slopes below and above M_p */
  double dpl_g3, dpl_g4;           /*!< dpl: suppression slopes */
  enum halo_fesc_model f_esc;
  double fesc_f0;                  /*!< f_esc: constant value or power-law amplitude */
  double fesc_m_p_msun;            /*!< power, power_obs: pivot mass [Msun] */
  double fesc_alpha;               /*!< power, power_obs: slope */
  double n_ion;                    /*!< ionizing photons per stellar baryon */
  enum halo_accretion_model accretion;
  double t_source_s;               /*!< constant: the source lifetime [s] */
  double alpha_h;                  /*!< exponential: the accretion rate parameter */
  double f_gamma_low_mass;         /*!< low-mass class: photons per baryon (0: none) */
};

/** Halo masses by cell, in the file's order (not merged): what the halo readers give. */
struct halo_cells {
  int64_t n;
  int32_t *ijk;          /*!< 3n 0-based cells */
  double *mass_msun;     /*!< n masses [Msun] (C²-Ray lists: the high-mass class) */
  double *mass_low_msun; /*!< n low-mass-class masses [Msun], or NULL (no such class) */
};

/** Room for n halos (uninitialised), with the low-mass column when `with_low_mass`. */
IONF_NODISCARD ionf_err halo_cells_alloc(int64_t n, int with_low_mass, struct halo_cells *h);
void halo_cells_free(struct halo_cells *h);

/** Today's model: g = f_gamma, N_ion 1, f_esc constant 1, t_s = t_source_s, no low mass. */
struct halo_model halo_model_f_gamma(double f_gamma, double t_source_s);

/**
 * Check the parameters (finite; f_gamma, N_ion, f0s, masses, t_source, alpha_h > 0;
 * f_esc constant <= 1; f_gamma_low_mass >= 0) and the cosmology (Ω_b > 0): IONF_ERR_CONFIG
 * naming `origin`, the parameter and its value.
 */
IONF_NODISCARD ionf_err halo_model_check(const struct halo_model *m, const struct cosmology *c,
                                         const char *origin);

/** g(M) = f_star(M) / (Ω_b/Ω_m) for a halo of mass_msun > 0. */
double halo_model_g(const struct halo_model *m, double mass_msun);
/** f_star(M) = g(M) Ω_b / Ω_m: the fraction of the halo's mass in stars. */
double halo_model_f_star(const struct halo_model *m, const struct cosmology *c, double mass_msun);
/** f_esc(M). */
double halo_model_f_esc(const struct halo_model *m, const struct cosmology *c, double mass_msun);
/** eff(M) = N_ion f_esc(M) g(M): ionizing photons per halo baryon. */
double halo_model_photons_per_baryon(const struct halo_model *m, const struct cosmology *c,
                                     double mass_msun);
/** The source lifetime t_s [s] for halos read at redshift z. */
double halo_model_lifetime_s(const struct halo_model *m, const struct cosmology *c, double z);
/** Ndot [1/s] of a halo of mass_msun > 0 (high-mass class) with lifetime t_s. */
double halo_model_ndot_per_s(const struct halo_model *m, const struct cosmology *c,
                             double mass_msun, double t_s);
/** Ndot [1/s] of low-mass haloes of mass_msun in a cell that is not suppressed. */
double halo_model_low_mass_ndot_per_s(const struct halo_model *m, const struct cosmology *c,
                                      double mass_msun, double t_s);
/** Whether low-mass haloes in a cell of ionized fraction x_hii are suppressed (x > 0.1). */
int halo_model_low_mass_suppressed(double x_hii);

/** One line describing the model ("f_star f_gamma 20, f_esc 1, N_ion 1, t_s 10 Myr"). */
void halo_model_describe(const struct halo_model *m, char *buf, size_t size);

/**
 * The halos as point sources: each halo's Ndot (high-mass class, plus its low-mass class
 * unless `suppressed` (NULL: none is) marks it), halos that emit nothing dropped, merged per
 * cell (sources_merge_same_cell: ordered by cell, summed in the list's order).  Cells must
 * lie in the n_cells_1d^3 grid.  *n_suppressed (may be NULL): cells whose low-mass haloes
 * were suppressed.
 */
IONF_NODISCARD ionf_err halo_model_sources(const struct halo_model *m, const struct cosmology *c,
                                           double t_s, const struct halo_cells *h,
                                           const unsigned char *suppressed, int64_t n_cells_1d,
                                           struct source_list *out, int64_t *n_suppressed);

#endif

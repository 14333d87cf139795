/**
 * @file atomic_k.h
 * @brief Atomic data of hydrogen and helium: photoionization cross-sections,
 *        recombination (radiative and dielectronic), collisional ionization and
 *        the cooling rates of H + He gas (shared host/device maths, CGS).
 *
 * Sources (fits, not tables, so that host and device evaluate the same formula):
 * - cross-sections: Verner, Ferland, Korista & Yakovlev 1996, ApJ 465, 487, Table 1
 *   (ground states of H I, He I, He II), valid from threshold to 50 keV;
 * - radiative recombination, case A and B, and collisional ionization: Hui & Gnedin
 *   1997, MNRAS 292, 27, Appendix A (fits to Ferland et al. 1992 and Voronov 1997,
 *   better than 2 per cent from 1 K to 1e9 K);
 * - He II dielectronic recombination: Aldrovandi & Pequignot 1973 as in Cen 1992,
 *   ApJS 78, 341 (and Hui & Gnedin);
 * - cooling: Hui & Gnedin 1997 (recombination, case A or B), Cen 1992
 *   (collisional ionization and excitation, with its (1 + sqrt(T/1e5))^-1 factor;
 *   dielectronic recombination), free-free with Gaunt factor 1.3 (as chem_k.h).
 *
 * The ions are named by what recombines: HII -> HI, HeII -> HeI, HeIII -> HeII.
 */
#ifndef IONF_ATOMIC_K_H
#define IONF_ATOMIC_K_H

#include <math.h>

#include "core/constants.h"
#include "core/ionf_hd.h"

/** The three absorbers whose data this file holds. */
enum atomic_ion { ATOMIC_HI = 0, ATOMIC_HEI = 1, ATOMIC_HEII = 2, ATOMIC_N_IONS = 3 };

/** Ionization threshold [eV] of an absorber (C2-Ray's values, core/constants.h). */
IONF_HD IONF_INLINE double atomic_threshold_ev(int ion) {
  return ion == ATOMIC_HI ? IONF_E_HI_EV : ion == ATOMIC_HEI ? IONF_E_HEI_EV : IONF_E_HEII_EV;
}

/**
 * Photoionization cross-section [cm^2] of an absorber's ground state at photon
 * energy e_ev (Verner et al. 1996): x = E/E0 - y0, y = sqrt(x^2 + y1^2),
 * sigma = sigma0 [(x - 1)^2 + yw^2] y^(P/2 - 5.5) (1 + sqrt(y/ya))^-P; 0 below the
 * threshold.  At threshold: 6.35e-18 (HI), 7.43e-18 (HeI), 1.59e-18 (HeII).
 */
IONF_HD IONF_INLINE double atomic_sigma_cm2(int ion, double e_ev) {
  /* E0 [eV], sigma0 [Mb], ya, P, yw, y0, y1 of Verner et al. 1996, Table 1 */
  double e0, s0, ya, p, yw, y0, y1;
  if (ion == ATOMIC_HI) {
    e0 = 4.298e-1; s0 = 5.475e4; ya = 3.288e1; p = 2.963; yw = 0.0; y0 = 0.0; y1 = 0.0;
  } else if (ion == ATOMIC_HEI) {
    e0 = 1.361e1; s0 = 9.492e2; ya = 1.469; p = 3.188; yw = 2.039; y0 = 4.434e-1; y1 = 2.136;
  } else {
    e0 = 1.720; s0 = 1.369e4; ya = 3.288e1; p = 2.963; yw = 0.0; y0 = 0.0; y1 = 0.0;
  }
  if (!(e_ev >= atomic_threshold_ev(ion))) return 0.0;
  double x = e_ev / e0 - y0;
  double y = sqrt(x * x + y1 * y1);
  double f = ((x - 1.0) * (x - 1.0) + yw * yw) * pow(y, 0.5 * p - 5.5) * pow(1.0 + sqrt(y / ya), -p);
  return s0 * 1.0e-18 * f;
}

/* Hui & Gnedin's variable lambda = 2 T_ion / T. */
IONF_HD IONF_INLINE double atomic_lambda(double t_ion_k, double t_k) { return 2.0 * t_ion_k / t_k; }

/* The hydrogenic radiative recombination fit of Hui & Gnedin (HII; HeIII with Z = 2). */
IONF_HD IONF_INLINE double atomic_hydrogenic_alpha(double lambda, int case_b) {
  return case_b ? 2.753e-14 * pow(lambda, 1.5) / pow(1.0 + pow(lambda / 2.740, 0.407), 2.242)
                : 1.269e-13 * pow(lambda, 1.503) / pow(1.0 + pow(lambda / 0.522, 0.470), 1.923);
}

/** Radiative recombination HII -> HI [cm^3 s^-1], case A (case_b 0) or B. */
IONF_HD IONF_INLINE double atomic_alpha_hii(double t_k, int case_b) {
  return atomic_hydrogenic_alpha(atomic_lambda(IONF_T_HI_K, t_k), case_b);
}

/** Radiative recombination HeII -> HeI [cm^3 s^-1], case A or B (without dielectronic). */
IONF_HD IONF_INLINE double atomic_alpha_heii(double t_k, int case_b) {
  double l = atomic_lambda(IONF_T_HEI_K, t_k);
  return case_b ? 1.26e-14 * pow(l, 0.750) : 3.0e-14 * pow(l, 0.654);
}

/** Radiative recombination HeIII -> HeII [cm^3 s^-1], case A or B (hydrogenic, Z = 2). */
IONF_HD IONF_INLINE double atomic_alpha_heiii(double t_k, int case_b) {
  return 2.0 * atomic_hydrogenic_alpha(atomic_lambda(IONF_T_HEII_K, t_k), case_b);
}

/** Dielectronic recombination HeII -> HeI [cm^3 s^-1] (Aldrovandi & Pequignot 1973). */
IONF_HD IONF_INLINE double atomic_alpha_heii_dielectronic(double t_k) {
  return 1.9e-3 * pow(t_k, -1.5) * exp(-4.7e5 / t_k) * (1.0 + 0.3 * exp(-9.4e4 / t_k));
}

/**
 * Radiative recombination HeIII -> HeII straight to n = 2 [cm^3 s^-1]: each gives a
 * Balmer-continuum photon above 13.6 eV.  3.4e-13 (T/1e4 K)^-0.6, C2-Ray's helium
 * version's extrapolation of Osterbrock's case B minus case C (Friedrich et al. 2012),
 * kept at or below case B (which holds every recombination to n >= 2): above ~1.1e6 K
 * the power law would pass it.
 */
IONF_HD IONF_INLINE double atomic_alpha_heiii_n2(double t_k) {
  const double n2 = 3.4e-13 * pow(t_k / 1.0e4, -0.6), b = atomic_alpha_heiii(t_k, 1);
  return n2 < b ? n2 : b;
}

/**
 * The fraction of HeIII -> HeII case-B recombinations whose cascade ends in the 2S level
 * and so in two-photon decay (the rest end in 2P and give the 40.8 eV Lyman alpha):
 * 0.285 (T/1e4 K)^0.119, C2-Ray's helium version's fit to Hummer & Seaton 1964's table 5
 * (Friedrich et al. 2012), at most 1.
 */
IONF_HD IONF_INLINE double atomic_heiii_two_photon_fraction(double t_k) {
  const double v = 0.285 * pow(t_k / 1.0e4, 0.119);
  return v < 1.0 ? v : 1.0;
}

/** Collisional ionization coefficient [cm^3 s^-1] of HI, HeI or HeII (Hui & Gnedin 1997). */
IONF_HD IONF_INLINE double atomic_collisional(int ion, double t_k) {
  double t_ion, a, b, c, d, e;
  if (ion == ATOMIC_HI) {
    t_ion = IONF_T_HI_K; a = 21.11; b = 1.089; c = 0.354; d = 0.874; e = 1.101;
  } else if (ion == ATOMIC_HEI) {
    t_ion = IONF_T_HEI_K; a = 32.38; b = 1.146; c = 0.416; d = 0.987; e = 1.056;
  } else {
    t_ion = IONF_T_HEII_K; a = 19.95; b = 1.089; c = 0.553; d = 0.735; e = 1.275;
  }
  double l = atomic_lambda(t_ion, t_k);
  return a * pow(t_k, -1.5) * exp(-0.5 * l) * pow(l, -b) / pow(1.0 + pow(l / c, d), e);
}

/** The number densities [cm^-3] a cooling rate needs. */
struct atomic_densities {
  double n_e, n_hi, n_hii, n_hei, n_heii, n_heiii;
};

/**
 * Cooling of H + He gas [erg s^-1 cm^-3], without Compton and expansion (chem_k.h
 * adds those): recombination of HII, HeII (radiative and dielectronic) and HeIII,
 * collisional ionization of HI, HeI, HeII and excitation of HI and HeII, and
 * free-free emission of every ion.  case_b picks the recombination case (the
 * photons of case B's ground-state recombinations stay in the gas).
 */
IONF_HD IONF_INLINE double atomic_cooling(const struct atomic_densities *d, double t_k, int case_b) {
  const double kt = IONF_K_B_ERG_PER_K * t_k, sqrt_t = sqrt(t_k);
  const double shield = 1.0 / (1.0 + sqrt(t_k / 1e5));
  double l_h = atomic_lambda(IONF_T_HI_K, t_k), l_he2 = atomic_lambda(IONF_T_HEII_K, t_k);
  /* recombination (Hui & Gnedin, Appendix A): HeIII is hydrogenic, 8x HII's at lambda_HeII;
     HeII's carries k T per recombination */
  double rec_hii = case_b ? 3.435e-30 * t_k * pow(l_h, 1.970) / pow(1.0 + pow(l_h / 2.250, 0.376), 3.720)
                          : 1.778e-29 * t_k * pow(l_h, 1.965) / pow(1.0 + pow(l_h / 0.541, 0.502), 2.697);
  double rec_heii = kt * atomic_alpha_heii(t_k, case_b);
  double rec_heiii = case_b ? 8.0 * 3.435e-30 * t_k * pow(l_he2, 1.970) / pow(1.0 + pow(l_he2 / 2.250, 0.376), 3.720)
                            : 8.0 * 1.778e-29 * t_k * pow(l_he2, 1.965) / pow(1.0 + pow(l_he2 / 0.541, 0.502), 2.697);
  /* dielectronic: Cen's 1.24e-13 T^-1.5 ... = 40.7 eV (6.526e-11 erg) per recombination */
  double diel = 6.526e-11 * atomic_alpha_heii_dielectronic(t_k);
  /* collisional ionization: the threshold energy per ionization */
  double ci = IONF_K_B_ERG_PER_K * (IONF_T_HI_K * d->n_hi * atomic_collisional(ATOMIC_HI, t_k) +
                                    IONF_T_HEI_K * d->n_hei * atomic_collisional(ATOMIC_HEI, t_k) +
                                    IONF_T_HEII_K * d->n_heii * atomic_collisional(ATOMIC_HEII, t_k));
  /* collisional excitation (Cen 1992) */
  double ce = d->n_hi * 7.5e-19 * shield * exp(-118348.0 / t_k) +
              d->n_heii * 5.54e-17 * pow(t_k, -0.397) * shield * exp(-473638.0 / t_k);
  double brems = 1.42e-27 * 1.3 * sqrt_t * (d->n_hii + d->n_heii + 4.0 * d->n_heiii);
  return d->n_e * (d->n_hii * rec_hii + d->n_heii * (rec_heii + diel) + d->n_heiii * rec_heiii +
                   ce + brems) + d->n_e * ci;
}

#endif /* IONF_ATOMIC_K_H */

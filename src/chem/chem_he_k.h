/**
 * @file chem_he_k.h
 * @brief The time-averaged implicit ionization update of hydrogen and helium in one
 *        cell (shared host/device maths): C2-Ray's method extended to helium as in
 *        Friedrich, Mellema, Iliev & Shapiro 2012 (MNRAS 421, 2232).
 *
 * With the photoionization rates, n_e, T and the rate coefficients held over the
 * step, each element's fractions obey a linear system with an exact solution:
 *
 *   hydrogen:  dx/dt = (1 - x) a_H + s_H - x r_H,     a_H = Gamma_HI + n_e C_HI,
 *                                                     r_H = n_e alpha_HII
 *   helium:    dy1/dt = y0 a0 - y1 (a1 + r1) + y2 r2,  y0 = 1 - y1 - y2,
 *              dy2/dt = y1 a1 - y2 r2,                 a0 = Gamma_HeI + n_e C_HeI,
 *                                                     a1 = Gamma_HeII + n_e C_HeII,
 *                                                     r1 = n_e (alpha_HeII + alpha_diel),
 *                                                     r2 = n_e alpha_HeIII
 *
 * (x = x_HII, y1 = x_HeII, y2 = x_HeIII).  Helium's 2x2 system is solved by its
 * eigenvalues (real and negative: a birth-death chain), end values and time
 * averages both exact; the time averages set n_e = n_H (x + A_He (y1 + 2 y2) + abu_c),
 * which is iterated, as C2-Ray does for hydrogen.
 *
 * On the spot (case B): the photons of recombinations to the ground state stay in
 * the cell.  Case B alone assumes each is re-absorbed by the ion's own element;
 * here they are shared among the absorbers in proportion to n sigma at the photon's
 * energy (the threshold): the share taken by another absorber ionizes it, and only
 * the share taken by the recombining element is left out of its recombinations.
 *   He II -> He I ground (24.6 eV): HI and HeI;
 *   He III -> He II ground (54.4 eV): HI, HeI and HeII.
 * Case B's He II -> He I recombinations to excited states: their cascades end with a
 * photon above 13.6 eV (He I 21.2 and 19.8 eV lines, the two-photon continuum) in a
 * fraction p = 0.96 of them (Osterbrock & Ferland 2006, Sec. 2.4, the low-density
 * limit); below 24.6 eV only HI absorbs them, so each ionizes hydrogen on the spot.
 * Case B's He III -> He II recombinations (Friedrich et al. 2012, Sec. 3.1.2, as C2-Ray's
 * helium version): every one passes through He II's n = 2.
 *   - Those straight to n = 2 (atomic_alpha_heiii_n2) give a Balmer-continuum photon
 *     above 13.6 eV (below 24.6 eV at these temperatures): hydrogen takes it.
 *   - A fraction v(T) (atomic_heiii_two_photon_fraction) leaves n = 2 by two-photon
 *     decay: l = 1.425 photons above 13.6 eV, m = 0.737 of them above 24.6 eV (Flower &
 *     Perinotto 1980); hydrogen takes those below 24.6 eV, and those above are shared
 *     between HI and HeI as the 24.6 eV photons are.
 *   - The rest give He II's Lyman alpha (40.8 eV).  A fraction f = 10 x_HI, kept in
 *     [0.01, 1], ionizes HI or HeI on the spot (C2-Ray's estimate: in ionized gas most
 *     scatter until destroyed or lost), shared by n sigma at 40.8 eV.
 * He III's recombinations stay real recombinations: these photons ionize other atoms.
 * Their energy above the thresholds, like that of every on-the-spot photon, heats nothing.
 */
#ifndef IONF_CHEM_HE_K_H
#define IONF_CHEM_HE_K_H

#include <math.h>

#include "chem/atomic_k.h"
#include "chem/clumping_k.h"
#include "core/ionf_hd.h"

#define CHEM_HE_X_FLOOR 1e-14     /* smallest ion fraction kept */
#define CHEM_HE_NE_TOLERANCE 1e-6 /* n_e iteration: relative change of n_e */
#define CHEM_HE_MAX_ITERATIONS 400
#define CHEM_HE_HEI_CASCADE_P 0.96 /* He I excited-state recombinations that end in a photon
                                      ionizing HI (Osterbrock & Ferland 2006) */
#define CHEM_HE_TWO_PHOTON_ABOVE_HI 1.425  /* He II two-photon decay: photons above 13.6 eV */
#define CHEM_HE_TWO_PHOTON_ABOVE_HEI 0.737 /* ... of which above 24.6 eV (Flower & Perinotto 1980) */
#define CHEM_HE_HEII_LYA_EV 40.812         /* He II Lyman alpha: 3/4 of 54.416 eV */
#define CHEM_HE_LYA_ABSORBED_PER_XHI 10.0  /* its fraction ionizing on the spot: 10 x_HI, */
#define CHEM_HE_LYA_ABSORBED_MIN 0.01      /* ... in [0.01, 1] (C2-Ray's helium version) */

/** What the update needs besides the cell's state and rates. */
struct chem_he_params {
  double abundance_he;   /*!< n_He / n_H */
  double abu_c;          /*!< electron floor per H nucleus (carbon) */
  int case_b;            /*!< 1: case B for every ion, ground-state photons on the spot */
  int collisional;       /*!< collisional ionization of HI, HeI, HeII */
  double alpha_hii_b_1e4_cm3_s; /*!< hydrogen's case B at 1e4 K (chemistry.alpha_B) */
  double alpha_hii_b_power;     /*!< ... and its power of T / 1e4 K */
  double t_cmb_k;        /*!< CMB temperature for Compton cooling [K]; 0: none */
  double hubble_per_s;   /*!< expansion rate for adiabatic cooling [1/s]; 0: static */
};

/** Ion fractions: x_HII of hydrogen, x_HeII and x_HeIII of helium. */
struct chem_he_state {
  double x_hii, x_heii, x_heiii;
};

/** Photoionization rates per absorber [s^-1]. */
struct chem_he_rates {
  double gamma_hi, gamma_hei, gamma_heii;
};

/** The rate coefficients at one temperature [cm^3 s^-1]. */
struct chem_he_coefficients {
  double alpha_hii, alpha_heii, alpha_heiii;  /*!< of the chosen case; HeII with dielectronic */
  double ground_heii, ground_heiii;           /*!< case A - case B: ground-state recombinations */
  double excited_heii;                        /*!< case B: He II -> He I to excited states */
  double excited_heiii;                       /*!< case B: He III -> He II to excited states */
  double n2_heiii;                            /*!< case B: He III -> He II straight to n = 2 */
  double two_photon_heiii;                    /*!< fraction of excited_heiii ending in 2S */
  double col_hi, col_hei, col_heii;
};

/** Coefficients at t_k.  Hydrogen's case B is the configured power law (as in a
    hydrogen-only run); the rest Hui & Gnedin 1997 (atomic_k.h). */
IONF_HD IONF_INLINE struct chem_he_coefficients chem_he_coefficients_at(const struct chem_he_params *p,
                                                                    double t_k) {
  struct chem_he_coefficients c;
  double hii_b = p->alpha_hii_b_1e4_cm3_s * pow(t_k / 1.0e4, p->alpha_hii_b_power);
  double hii_a = atomic_alpha_hii(t_k, 0);
  double heii_b = atomic_alpha_heii(t_k, 1), heii_a = atomic_alpha_heii(t_k, 0);
  double heiii_b = atomic_alpha_heiii(t_k, 1), heiii_a = atomic_alpha_heiii(t_k, 0);
  double diel = atomic_alpha_heii_dielectronic(t_k);
  c.alpha_hii = p->case_b ? hii_b : hii_a;
  c.alpha_heii = (p->case_b ? heii_b : heii_a) + diel;
  c.alpha_heiii = p->case_b ? heiii_b : heiii_a;
  c.ground_heii = p->case_b && heii_a > heii_b ? heii_a - heii_b : 0.0;
  c.ground_heiii = p->case_b && heiii_a > heiii_b ? heiii_a - heiii_b : 0.0;
  c.excited_heii = p->case_b ? heii_b : 0.0;
  c.excited_heiii = p->case_b ? heiii_b : 0.0;
  c.n2_heiii = p->case_b ? atomic_alpha_heiii_n2(t_k) : 0.0;
  c.two_photon_heiii = atomic_heiii_two_photon_fraction(t_k);
  c.col_hi = p->collisional ? atomic_collisional(ATOMIC_HI, t_k) : 0.0;
  c.col_hei = p->collisional ? atomic_collisional(ATOMIC_HEI, t_k) : 0.0;
  c.col_heii = p->collisional ? atomic_collisional(ATOMIC_HEII, t_k) : 0.0;
  return c;
}

/**
 * The coefficients at t_k with a cell's clumping factor C (clumping_k.h): every
 * recombination, to excited states and to the ground state, of hydrogen and of helium
 * (dielectronic too), times C, as C2-Ray's helium doric does; collisional ionization is
 * not clumped.  C = 1 changes no bit.
 */
IONF_HD IONF_INLINE struct chem_he_coefficients chem_he_coefficients_clumped(
    const struct chem_he_params *p, double t_k, double clumping) {
  struct chem_he_coefficients c = chem_he_coefficients_at(p, t_k);
  c.alpha_hii *= clumping;
  c.alpha_heii *= clumping;
  c.alpha_heiii *= clumping;
  c.ground_heii *= clumping;
  c.ground_heiii *= clumping;
  c.excited_heii *= clumping;
  c.excited_heiii *= clumping;
  c.n2_heiii *= clumping;
  return c;
}

/** (e^z - 1) / z, 1 at z = 0, accurate for small |z| (the time average of e^(lambda t)). */
IONF_HD IONF_INLINE double chem_he_phi1(double z) {
  if (fabs(z) < 1e-5) return 1.0 + z * (0.5 + z / 6.0);
  return expm1(z) / z;
}

/** d/dz of chem_he_phi1. */
IONF_HD IONF_INLINE double chem_he_phi1_prime(double z) {
  if (fabs(z) < 1e-3) return 0.5 + z * (1.0 / 3.0 + z / 8.0);
  return (z * exp(z) - expm1(z)) / (z * z);
}

/** Electron density [cm^-3] of a cell from its (time-averaged) ion fractions. */
IONF_HD IONF_INLINE double chem_he_electron_density(const struct chem_he_params *p, double n_h_cm3,
                                                    const struct chem_he_state *s) {
  return n_h_cm3 * (s->x_hii + p->abundance_he * (s->x_heii + 2.0 * s->x_heiii) + p->abu_c);
}

/**
 * dx/dt = (a + s) - (a + r) x over dt from x0: returns the end value, *x_av the time
 * average (both kept in [floor, 1]).
 */
IONF_HD IONF_INLINE double chem_he_hydrogen(double x0, double a, double s, double r, double dt_s,
                                            double *x_av) {
  double delta = a + r;
  double x_eq = delta > 0.0 ? (a + s) / delta : x0;
  double z = -delta * dt_s;
  double x_end = x_eq + (x0 - x_eq) * exp(z);
  double xa = x_eq + (x0 - x_eq) * chem_he_phi1(z);
  xa = xa < CHEM_HE_X_FLOOR ? CHEM_HE_X_FLOOR : xa > 1.0 ? 1.0 : xa;
  *x_av = xa;
  return x_end < CHEM_HE_X_FLOOR ? CHEM_HE_X_FLOOR : x_end > 1.0 ? 1.0 : x_end;
}

/* Keep helium's fractions in range: each >= floor, y1 + y2 <= 1. */
IONF_HD IONF_INLINE void chem_he_clamp(double *y1, double *y2) {
  if (!(*y1 > CHEM_HE_X_FLOOR)) *y1 = CHEM_HE_X_FLOOR;
  if (!(*y2 > CHEM_HE_X_FLOOR)) *y2 = CHEM_HE_X_FLOOR;
  double sum = *y1 + *y2;
  if (sum > 1.0) {
    *y1 /= sum;
    *y2 /= sum;
  }
}

/**
 * Helium's linear system over dt from (y1_0, y2_0) with rates a0, a1 (ionization of
 * HeI, HeII) and r1, r2 (recombination of HeII, HeIII) [s^-1]: the end fractions in
 * y_end[2] and their time averages in y_av[2].  Putzer's form of the exponential of
 * the 2x2 matrix M, e^{Mt} = e^{l1 t} I + (M - l1 I) (e^{l1 t} - e^{l2 t})/(l1 - l2),
 * stays exact when the eigenvalues l1, l2 meet.
 */
IONF_HD IONF_INLINE void chem_he_helium(double y1_0, double y2_0, double a0, double a1, double r1,
                                        double r2, double dt_s, double y_end[2], double y_av[2]) {
  const double m11 = -(a0 + a1 + r1), m12 = r2 - a0, m21 = a1, m22 = -r2;
  const double det = m11 * m22 - m12 * m21; /* a0 r2 + r1 r2 + a0 a1 >= 0 */
  if (!(det > 0.0)) { /* nothing ionizes and nothing recombines */
    y_end[0] = y_av[0] = y1_0;
    y_end[1] = y_av[1] = y2_0;
    return;
  }
  const double e1 = a0 * r2 / det, e2 = a0 * a1 / det; /* equilibrium */
  const double d1 = y1_0 - e1, d2 = y2_0 - e2;
  const double half_tr = 0.5 * (m11 + m22);
  double disc = 0.25 * (m11 - m22) * (m11 - m22) + m12 * m21;
  disc = disc > 0.0 ? sqrt(disc) : 0.0;
  const double l1 = half_tr + disc, l2 = half_tr - disc; /* l2 <= l1 < 0 */
  const double z1 = l1 * dt_s, z2 = l2 * dt_s, g = (l1 - l2) * dt_s;
  /* end: exp(z1) I + (M - l1) dt (e^{z1} - e^{z2}) / g;  average: phi1(z1) I + (M - l1) dt D,
     D = (phi1(z1) - phi1(z2)) / (z1 - z2), the divided difference of phi1 */
  const double k_end = g > 1e-5 ? dt_s * (exp(z1) - exp(z2)) / g : dt_s * exp(z2) * chem_he_phi1(g);
  const double k_av = g > 1e-3 * (1.0 + fabs(z1)) ? dt_s * (chem_he_phi1(z1) - chem_he_phi1(z2)) / g
                                                  : dt_s * chem_he_phi1_prime(0.5 * (z1 + z2));
  const double p_end = exp(z1), p_av = chem_he_phi1(z1);
  const double n1 = (m11 - l1) * d1 + m12 * d2, n2 = m21 * d1 + (m22 - l1) * d2;
  y_end[0] = e1 + p_end * d1 + k_end * n1;
  y_end[1] = e2 + p_end * d2 + k_end * n2;
  y_av[0] = e1 + p_av * d1 + k_av * n1;
  y_av[1] = e2 + p_av * d2 + k_av * n2;
  chem_he_clamp(&y_end[0], &y_end[1]);
  chem_he_clamp(&y_av[0], &y_av[1]);
}

/** Result of one cell's update. */
struct chem_he_result {
  struct chem_he_state end;  /*!< at the end of the step */
  struct chem_he_state av;   /*!< time averages over the step */
  int iterations;
  int converged;
};

/**
 * One cell: the coupled update iterated on n_e from the time-averaged guess `guess`
 * (start-of-step values `s0` fixed), at temperature t_k, with rates `g` held over dt.
 * The on-the-spot shares (case B) use the averaged neutral densities of the previous
 * iteration.  With abundance_he = 0 helium stays as it is and hydrogen's update is
 * C2-Ray's (chem_k.h's) with these coefficients.  `clumping`, the cell's C, multiplies
 * the recombinations (chem_he_coefficients_clumped).
 */
IONF_HD IONF_INLINE struct chem_he_result chem_he_cell_update_clumped(
    const struct chem_he_params *p, double clumping, struct chem_he_state s0,
    struct chem_he_state guess, double n_h_cm3, double t_k, struct chem_he_rates g,
    double dt_s) {
  const struct chem_he_coefficients c = chem_he_coefficients_clumped(p, t_k, clumping);
  /* cross-sections at the two ground-state recombination energies */
  const double s_hi_24 = atomic_sigma_cm2(ATOMIC_HI, IONF_E_HEI_EV);
  const double s_hei_24 = atomic_sigma_cm2(ATOMIC_HEI, IONF_E_HEI_EV);
  const double s_hi_54 = atomic_sigma_cm2(ATOMIC_HI, IONF_E_HEII_EV);
  const double s_hei_54 = atomic_sigma_cm2(ATOMIC_HEI, IONF_E_HEII_EV);
  const double s_heii_54 = atomic_sigma_cm2(ATOMIC_HEII, IONF_E_HEII_EV);
  const double s_hi_41 = atomic_sigma_cm2(ATOMIC_HI, CHEM_HE_HEII_LYA_EV);
  const double s_hei_41 = atomic_sigma_cm2(ATOMIC_HEI, CHEM_HE_HEII_LYA_EV);
  const double a_he = p->abundance_he;
  struct chem_he_result r;
  r.av = guess;
  r.end = s0;
  r.converged = 0;
  double n_e = chem_he_electron_density(p, n_h_cm3, &r.av);
  for (r.iterations = 1; r.iterations <= CHEM_HE_MAX_ITERATIONS; ++r.iterations) {
    /* on-the-spot shares from the averaged state */
    const double n_hi = 1.0 - r.av.x_hii;               /* per H nucleus */
    const double n_hei = a_he * (1.0 - r.av.x_heii - r.av.x_heiii);
    const double n_heii = a_he * r.av.x_heii;
    const double t24 = n_hi * s_hi_24 + n_hei * s_hei_24;
    const double t54 = n_hi * s_hi_54 + n_hei * s_hei_54 + n_heii * s_heii_54;
    const double f24_h = t24 > 0.0 ? n_hi * s_hi_24 / t24 : 0.0;
    const double f54_h = t54 > 0.0 ? n_hi * s_hi_54 / t54 : 0.0;
    const double f54_he0 = t54 > 0.0 ? n_hei * s_hei_54 / t54 : 0.0;
    /* ground-state recombination photons per H nucleus per second, and where they go */
    const double q24 = n_e * c.ground_heii * a_he * r.av.x_heii;
    const double q54 = n_e * c.ground_heiii * a_he * r.av.x_heiii;
    /* He I's cascade photons (13.6 - 24.6 eV): hydrogen takes them all */
    const double q_cascade = CHEM_HE_HEI_CASCADE_P * n_e * c.excited_heii * a_he * r.av.x_heii;
    /* He III's case-B recombinations: Balmer continuum to H; two-photon and Lyman alpha
       photons to H and He I (per H nucleus per second) */
    const double t41 = n_hi * s_hi_41 + n_hei * s_hei_41;
    const double f41_h = t41 > 0.0 ? n_hi * s_hi_41 / t41 : 0.0;
    double lya = CHEM_HE_LYA_ABSORBED_PER_XHI * n_hi;
    lya = lya < CHEM_HE_LYA_ABSORBED_MIN ? CHEM_HE_LYA_ABSORBED_MIN : lya > 1.0 ? 1.0 : lya;
    const double q_heiii = n_e * c.excited_heiii * a_he * r.av.x_heiii;
    const double v2 = c.two_photon_heiii, lya_v = (1.0 - v2) * lya;
    const double q_heiii_h =
        q_heiii * (v2 * (CHEM_HE_TWO_PHOTON_ABOVE_HI - CHEM_HE_TWO_PHOTON_ABOVE_HEI +
                         CHEM_HE_TWO_PHOTON_ABOVE_HEI * f24_h) +
                   lya_v * f41_h) +
        n_e * c.n2_heiii * a_he * r.av.x_heiii;
    const double q_heiii_he0 =
        q_heiii * (v2 * CHEM_HE_TWO_PHOTON_ABOVE_HEI * (1.0 - f24_h) + lya_v * (1.0 - f41_h));
    const double src_h = f24_h * q24 + f54_h * q54 + q_cascade + q_heiii_h;
    /* helium: what other absorbers take is a real recombination; 54 eV photons taken by
       HeI ionize it, as do He III's excited-state photons it takes (a source of HeII, as a
       rate per HeI atom) */
    const double r1 = n_e * (c.alpha_heii + f24_h * c.ground_heii);
    const double r2 = n_e * (c.alpha_heiii + (1.0 - (t54 > 0.0 ? n_heii * s_heii_54 / t54 : 0.0)) * c.ground_heiii);
    const double y0_av = 1.0 - r.av.x_heii - r.av.x_heiii;
    const double a0 = g.gamma_hei + n_e * c.col_hei +
                      (y0_av > CHEM_HE_X_FLOOR && a_he > 0.0
                           ? (f54_he0 * q54 + q_heiii_he0) / (a_he * y0_av)
                           : 0.0);
    const double a1 = g.gamma_heii + n_e * c.col_heii;
    double x_av = r.av.x_hii;
    double x_end = chem_he_hydrogen(s0.x_hii, g.gamma_hi + n_e * c.col_hi, src_h, n_e * c.alpha_hii,
                                    dt_s, &x_av);
    double y_end[2] = {s0.x_heii, s0.x_heiii}, y_av[2] = {s0.x_heii, s0.x_heiii};
    if (a_he > 0.0) chem_he_helium(s0.x_heii, s0.x_heiii, a0, a1, r1, r2, dt_s, y_end, y_av);
    r.end.x_hii = x_end;
    r.end.x_heii = y_end[0];
    r.end.x_heiii = y_end[1];
    r.av.x_hii = x_av;
    r.av.x_heii = y_av[0];
    r.av.x_heiii = y_av[1];
    const double n_e_new = chem_he_electron_density(p, n_h_cm3, &r.av);
    const double change = fabs(n_e_new - n_e) / n_e_new;
    n_e = n_e_new;
    if (change < CHEM_HE_NE_TOLERANCE) {
      r.converged = 1;
      break;
    }
  }
  if (r.iterations > CHEM_HE_MAX_ITERATIONS) r.iterations = CHEM_HE_MAX_ITERATIONS;
  return r;
}

/** chem_he_cell_update_clumped without clumping (C = 1: the same bits). */
IONF_HD IONF_INLINE struct chem_he_result chem_he_cell_update(const struct chem_he_params *p,
                                                              struct chem_he_state s0,
                                                              struct chem_he_state guess,
                                                              double n_h_cm3, double t_k,
                                                              struct chem_he_rates g,
                                                              double dt_s) {
  return chem_he_cell_update_clumped(p, 1.0, s0, guess, n_h_cm3, t_k, g, dt_s);
}

/* ---- temperature --------------------------------------------------------------- */

#define CHEM_HE_T_FLOOR_K 1.0
#define CHEM_HE_MAX_THERMAL_SUBSTEPS 100000
#define CHEM_HE_THERMAL_STEP_FRACTION 0.05 /* each sub-step changes T by at most ~5% */
#define CHEM_HE_MIN_FRACTIONAL_T_CHANGE 1e-3
#define CHEM_HE_MAX_THERMAL_ITERATIONS 50

/** Particles per cm^3: nuclei and free electrons of H and He (not the carbon floor). */
IONF_HD IONF_INLINE double chem_he_n_tot(const struct chem_he_params *p, double n_h_cm3,
                                         const struct chem_he_state *s) {
  return n_h_cm3 * (1.0 + s->x_hii + p->abundance_he * (1.0 + s->x_heii + 2.0 * s->x_heiii));
}

/** Cooling [erg s^-1 cm^-3] of the cell in state `s` at t_k: atomic_cooling and Compton
    off the CMB (negative, heating, below T_CMB). */
IONF_HD IONF_INLINE double chem_he_cooling(const struct chem_he_params *p, double n_h_cm3,
                                           const struct chem_he_state *s, double t_k) {
  struct atomic_densities d;
  d.n_e = chem_he_electron_density(p, n_h_cm3, s);
  d.n_hi = n_h_cm3 * (1.0 - s->x_hii);
  d.n_hii = n_h_cm3 * s->x_hii;
  d.n_hei = n_h_cm3 * p->abundance_he * (1.0 - s->x_heii - s->x_heiii);
  d.n_heii = n_h_cm3 * p->abundance_he * s->x_heii;
  d.n_heiii = n_h_cm3 * p->abundance_he * s->x_heiii;
  double cool = atomic_cooling(&d, t_k, p->case_b);
  if (p->t_cmb_k > 0.0) {
    double t4 = p->t_cmb_k * p->t_cmb_k * p->t_cmb_k * p->t_cmb_k;
    cool += 1.017e-37 * t4 * (t_k - p->t_cmb_k) * d.n_e;
  }
  return cool;
}

/**
 * Temperature over dt with the ionization state held at its time average `av`:
 * (3/2) k n_tot dT/dt = sum_s n_s heat_s - Lambda(T) - (3/2) k n_tot 2 H T, explicit
 * sub-steps that change T by a few per cent at most (as chem_k.h's hydrogen update);
 * the end value rescaled from n_tot(av) to n_tot(end) at fixed thermal energy.
 * heat_erg_s[s]: photo-heating per absorber atom of HI, HeI, HeII [erg/s].
 */
IONF_HD IONF_INLINE double chem_he_thermal_update(const struct chem_he_params *p, double t0_k,
                                                  double n_h_cm3, const struct chem_he_state *av,
                                                  const struct chem_he_state *end,
                                                  const double heat_erg_s[3], double dt_s,
                                                  double *t_av_k) {
  const double a_he = p->abundance_he;
  const double n_tot = chem_he_n_tot(p, n_h_cm3, av);
  const double per_energy = 1.0 / (1.5 * IONF_K_B_ERG_PER_K * n_tot); /* K per erg/cm^3 */
  const double heat = per_energy * n_h_cm3 *
                      ((1.0 - av->x_hii) * heat_erg_s[0] +
                       a_he * (1.0 - av->x_heii - av->x_heiii) * heat_erg_s[1] +
                       a_he * av->x_heii * heat_erg_s[2]); /* K/s */
  double t = t0_k, elapsed = 0.0, integral = 0.0;
  for (int sub = 0; sub < CHEM_HE_MAX_THERMAL_SUBSTEPS && elapsed < dt_s; ++sub) {
    double cool = chem_he_cooling(p, n_h_cm3, av, t) * per_energy + 2.0 * p->hubble_per_s * t;
    double rate = heat - cool;
    double scale = fabs(heat) > fabs(cool) ? fabs(heat) : fabs(cool);
    double h = dt_s - elapsed;
    if (scale > 0.0 && CHEM_HE_THERMAL_STEP_FRACTION * t / scale < h)
      h = CHEM_HE_THERMAL_STEP_FRACTION * t / scale;
    if (sub == CHEM_HE_MAX_THERMAL_SUBSTEPS - 1) h = dt_s - elapsed;
    double t_next = t + h * rate;
    if (t_next < CHEM_HE_T_FLOOR_K) t_next = CHEM_HE_T_FLOOR_K;
    integral += 0.5 * (t + t_next) * h;
    t = t_next;
    elapsed += h;
  }
  *t_av_k = dt_s > 0.0 ? integral / dt_s : t0_k;
  double t_end = t * n_tot / chem_he_n_tot(p, n_h_cm3, end);
  return t_end > CHEM_HE_T_FLOOR_K ? t_end : CHEM_HE_T_FLOOR_K;
}

/** Result of one cell's update with its temperature. */
struct chem_he_thermal_result {
  struct chem_he_result ion;  /*!< the ionization update at the final average temperature */
  double t_end_k, t_av_k;
  int iterations;             /*!< ionization iterations in all */
};

/**
 * One cell with an evolving temperature: the ionization update at the time-averaged
 * temperature, then the temperature at the new time-averaged ionization, repeated until
 * the average temperature settles (C2-Ray's |dT/T| criterion, as chem_k.h).  `clumping`
 * multiplies the recombinations, not the cooling (C2-Ray's practice).
 */
IONF_HD IONF_INLINE struct chem_he_thermal_result chem_he_cell_update_thermal_clumped(
    const struct chem_he_params *p, double clumping, struct chem_he_state s0,
    struct chem_he_state guess, double t0_k, double t_av_guess, double n_h_cm3,
    struct chem_he_rates g, const double heat_erg_s[3], double dt_s) {
  struct chem_he_thermal_result r;
  double t_av = t_av_guess;
  r.iterations = 0;
  r.t_end_k = t0_k;
  for (int it = 0; it < CHEM_HE_MAX_THERMAL_ITERATIONS; ++it) {
    r.ion = chem_he_cell_update_clumped(p, clumping, s0, guess, n_h_cm3, t_av, g, dt_s);
    r.iterations += r.ion.iterations;
    guess = r.ion.av;
    double t_av_new;
    r.t_end_k = chem_he_thermal_update(p, t0_k, n_h_cm3, &r.ion.av, &r.ion.end, heat_erg_s, dt_s,
                                       &t_av_new);
    double change = fabs(t_av_new - t_av) / t_av_new;
    t_av = t_av_new;
    if (change < CHEM_HE_MIN_FRACTIONAL_T_CHANGE) break;
  }
  r.t_av_k = t_av;
  return r;
}

/** chem_he_cell_update_thermal_clumped without clumping (C = 1: the same bits). */
IONF_HD IONF_INLINE struct chem_he_thermal_result chem_he_cell_update_thermal(
    const struct chem_he_params *p, struct chem_he_state s0, struct chem_he_state guess,
    double t0_k, double t_av_guess, double n_h_cm3, struct chem_he_rates g,
    const double heat_erg_s[3], double dt_s) {
  return chem_he_cell_update_thermal_clumped(p, 1.0, s0, guess, t0_k, t_av_guess, n_h_cm3, g,
                                             heat_erg_s, dt_s);
}

/* ---- one cell of a pass ------------------------------------------------------- */

/** Whether a cell's averaged state still moved in this global pass: hydrogen's test of
    chem_k.h, and the same on helium's ionized fraction and its He III fraction. */
IONF_HD IONF_INLINE int chem_he_unconverged(const struct chem_he_state *old,
                                            const struct chem_he_state *now) {
  const double tol = 1e-3, neutral_min = 1e-8;
  const double dx = fabs(now->x_hii - old->x_hii);
  const double he_old = old->x_heii + old->x_heiii, he_now = now->x_heii + now->x_heiii;
  const double dhe = fabs(he_now - he_old), d3 = fabs(now->x_heiii - old->x_heiii);
  return (dx > tol && dx / (1.0 - old->x_hii) > tol && (1.0 - old->x_hii) > neutral_min) ||
         (dhe > tol && dhe / (1.0 - he_old) > tol && (1.0 - he_old) > neutral_min) ||
         (d3 > tol && d3 / (1.0 - old->x_heiii) > tol && (1.0 - old->x_heiii) > neutral_min);
}

/** Result of one cell of a pass. */
struct chem_he_pass_result {
  struct chem_he_state end;
  double t_end_k;
  int converged;
};

/**
 * One cell of a chemistry pass with helium (the CPU loop and the CUDA kernel run exactly
 * this, as chem_cell_pass for hydrogen): from the start-of-step state s0 and T t_k, with
 * the cell's current averages *av (and *t_av_k when `thermal`), which it replaces;
 * *unconverged when the cell still moved.  heat_erg_s may be NULL when not thermal.  The
 * recombinations are the cell's clumping factor (`clumping`, clumping_k.h) times the
 * coefficients.
 */
IONF_HD IONF_INLINE struct chem_he_pass_result chem_he_cell_pass_clumped(
    const struct chem_he_params *p, const struct chem_clumping *clumping, int thermal,
    double dt_s, struct chem_he_state s0, double n_h_cm3, double t_k, struct chem_he_rates g,
    const double *heat_erg_s, struct chem_he_state *av, double *t_av_k, int *unconverged) {
  struct chem_he_pass_result out;
  const struct chem_he_state old = *av;
  const double c = chem_clumping_factor(clumping, n_h_cm3);
  if (thermal) {
    const double t_av_old = *t_av_k;
    struct chem_he_thermal_result r = chem_he_cell_update_thermal_clumped(
        p, c, s0, old, t_k, t_av_old, n_h_cm3, g, heat_erg_s, dt_s);
    *av = r.ion.av;
    *t_av_k = r.t_av_k;
    out.end = r.ion.end;
    out.t_end_k = r.t_end_k;
    out.converged = r.ion.converged;
    *unconverged = chem_he_unconverged(&old, av) ||
                   fabs(r.t_av_k - t_av_old) > CHEM_HE_MIN_FRACTIONAL_T_CHANGE * r.t_av_k;
  } else {
    struct chem_he_result r = chem_he_cell_update_clumped(p, c, s0, old, n_h_cm3, t_k, g, dt_s);
    *av = r.av;
    out.end = r.end;
    out.t_end_k = t_k;
    out.converged = r.converged;
    *unconverged = chem_he_unconverged(&old, av);
  }
  return out;
}

/** chem_he_cell_pass_clumped without clumping (C = 1: the same bits). */
IONF_HD IONF_INLINE struct chem_he_pass_result chem_he_cell_pass(
    const struct chem_he_params *p, int thermal, double dt_s, struct chem_he_state s0,
    double n_h_cm3, double t_k, struct chem_he_rates g, const double *heat_erg_s,
    struct chem_he_state *av, double *t_av_k, int *unconverged) {
  struct chem_clumping none;
  none.model = CHEM_CLUMPING_NONE;
  none.factor = 1.0;
  none.a = none.b = none.c = none.x_offset = 0.0;
  none.mean_n_h_cm3 = 1.0;
  return chem_he_cell_pass_clumped(p, &none, thermal, dt_s, s0, n_h_cm3, t_k, g, heat_erg_s, av,
                                   t_av_k, unconverged);
}

#endif /* IONF_CHEM_HE_K_H */

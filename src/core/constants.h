/**
 * @file constants.h
 * @brief The one set of physical constants and unit factors of ionfront (CGS).
 *
 * Every value carries its unit in its name and its source in a comment.  Plain
 * #defines of double literals (or products of them), so that host C, CUDA device
 * code and constant folding see the same value everywhere; no other file defines
 * a physical constant.
 */
#ifndef IONF_CONSTANTS_H
#define IONF_CONSTANTS_H

#define IONF_PI 3.14159265358979323846

/* ---- lengths ---------------------------------------------------------------- */
#define IONF_M_CM 1.0e2   /* metre [cm] (SI) */
#define IONF_KM_CM 1.0e5  /* kilometre [cm] (SI) */
/* astronomical unit [cm]: exact by IAU 2012 Resolution B2 */
#define IONF_AU_CM 1.495978707e13
/* parsec [cm]: 648000/pi au, exact by IAU 2015 Resolution B2 */
#define IONF_PC_CM 3.0856775814913673e18
#define IONF_KPC_CM 3.0856775814913673e21  /* kiloparsec [cm] (10^3 pc) */
#define IONF_MPC_CM 3.0856775814913673e24  /* megaparsec [cm] (10^6 pc) */

/* ---- times -------------------------------------------------------------------- */
#define IONF_YR_S 3.15576e7    /* Julian year [s]: 365.25 d of 86400 s (IAU) */
#define IONF_MYR_S 3.15576e13  /* megayear [s] (10^6 Julian years) */
/* Julian light year [cm]: c times one Julian year (IAU) */
#define IONF_LY_CM (IONF_YR_S * IONF_C_CM_PER_S)

/* ---- fundamental constants (CODATA 2018; the exact ones are the 2019 SI's) ------ */
#define IONF_C_CM_PER_S 2.99792458e10        /* speed of light [cm/s] (exact) */
#define IONF_H_PLANCK_ERG_S 6.62607015e-27   /* Planck constant [erg s] (exact) */
#define IONF_K_B_ERG_PER_K 1.380649e-16      /* Boltzmann constant [erg/K] (exact) */
#define IONF_K_B_EV_PER_K 8.617333262e-5     /* Boltzmann constant [eV/K] (CODATA 2018) */
#define IONF_EV_ERG 1.602176634e-12          /* electron volt [erg] (exact) */
#define IONF_G_CM3_PER_G_S2 6.67430e-8       /* Newton's constant [cm^3 g^-1 s^-2] (CODATA 2018) */
#define IONF_PROTON_MASS_G 1.67262192369e-24 /* proton mass [g] (CODATA 2018) */
/* Stefan-Boltzmann constant [W m^-2 K^-4] (CODATA 2018; exact in the 2019 SI, truncated) */
#define IONF_STEFAN_BOLTZMANN_W_PER_M2_K4 5.670374419e-8

/* ---- astronomy ---------------------------------------------------------------- */
/* Solar mass [g]: 1.98847e30 kg, the IAU 2015 nominal GM_sun (Resolution B3) over
 * CODATA 2014's G (CODATA 2018's G would give 1.98841e33 g; this value is kept so
 * that halo source rates stay what they were). */
#define IONF_M_SUN_G 1.98847e33

/* ---- hydrogen and helium (C2-Ray's values) ------------------------------------ */
#define IONF_E_HI_EV 13.598       /* H ionization threshold [eV] (C2-Ray eth0) */
#define IONF_E_HEI_EV 24.587      /* He ionization threshold [eV] (C2-Ray ethe0) */
#define IONF_E_HEII_EV 54.416     /* He+ ionization threshold [eV] (C2-Ray ethe1) */
/* The ionization potentials as temperatures E/k [K] of Hui & Gnedin (1997), whose
 * rate fits take them: 157807, 285335, 631515 K (HI, HeI, HeII). */
#define IONF_T_HI_K 157807.0
#define IONF_T_HEI_K 285335.0
#define IONF_T_HEII_K 631515.0
#define IONF_SIGMA_HI_CM2 6.30e-18 /* H photoionization cross-section at threshold [cm^2]
                                      (C2-Ray sigma_HI_at_ion_freq) */

#endif /* IONF_CONSTANTS_H */

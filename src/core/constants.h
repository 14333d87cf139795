/**
 * @file constants.h
 * @brief Physical constants (CGS) and unit factors used across ionfront.
 */
#ifndef IONF_CONSTANTS_H
#define IONF_CONSTANTS_H

#define IONF_PC_CM 3.0856775814913673e18   /* parsec [cm] */
#define IONF_KPC_CM 3.0856775814913673e21  /* kiloparsec [cm] */
#define IONF_MPC_CM 3.0856775814913673e24  /* megaparsec [cm] */
#define IONF_YR_S 3.15576e7                /* Julian year [s] */
#define IONF_MYR_S 3.15576e13              /* megayear [s] */
#define IONF_PI 3.14159265358979323846
#define IONF_K_B_EV 8.617333262e-5         /* Boltzmann constant [eV/K] */
#define IONF_K_B_CGS 1.380649e-16          /* Boltzmann constant [erg/K] */
#define IONF_H_PLANCK_CGS 6.62607015e-27   /* Planck constant [erg s] */
#define IONF_EV_ERG 1.602176634e-12        /* electron volt [erg] */
#define IONF_C_CGS 2.99792458e10           /* speed of light [cm/s] */
#define IONF_E_HI_EV 13.598                /* H ionization threshold [eV] (C2-Ray eth0) */
#define IONF_E_HEII_EV 54.416              /* He+ ionization threshold [eV] (C2-Ray ethe1) */
#define IONF_SIGMA_HI_CM2 6.30e-18         /* H photoionization cross-section at threshold [cm^2] */

#endif /* IONF_CONSTANTS_H */

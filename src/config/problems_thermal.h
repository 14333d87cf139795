/**
 * @file problems_thermal.h
 * @brief The built-in thermal-radiation problems' YAML (problem: thermal; problems.c lists
 *        them): Silvestri & Pecnik 2019's verification cases (seed 003, Table 1).
 */
#ifndef IONF_PROBLEMS_THERMAL_H
#define IONF_PROBLEMS_THERMAL_H

/** Case 1: a grey 1 m slab (kappa 1/m), T linear from 500 to 1500 K, black walls. */
extern const char problems_thermal_slab[];
/** Case 3: a grey 1 m cube (kappa 0.5/m), the sin profile, cold black walls. */
extern const char problems_thermal_cube[];
/** A 1D H2O-CO2 slab (molar ratio 1) with the WSGG model, the parab1 profile. */
extern const char problems_thermal_wsgg[];

#endif /* IONF_PROBLEMS_THERMAL_H */

/**
 * @file synth_growth.h
 * @brief Linear growth factor D(z) of matter perturbations in flat ΛCDM.
 *
 * Exact for matter + Λ (Heath 1977), by quadrature with GSL rather than the
 * Carroll, Press & Turner (1992) fit, which is good to ~1% only:
 *
 *   D(a) ∝ (5 Ω_m / 2) E(a) ∫_0^a da' / (a' E(a'))^3,   E(a) = sqrt(Ω_m a^-3 + Ω_Λ),
 *
 * normalised to D(z = 0) = 1.  In the Einstein–de Sitter limit (Ω_m = 1) D = a.
 */
#ifndef IONF_SYNTH_GROWTH_H
#define IONF_SYNTH_GROWTH_H

#include "cosmo/cosmology.h"

/** D(z) / D(0) (NaN for z <= -1 or a failed quadrature). */
double synth_growth_factor(const struct cosmology *c, double z);

#endif

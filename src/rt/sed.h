/**
 * @file sed.h
 * @brief A tabulated source spectrum: photons per second per eV at given energies,
 *        interpolated linearly in log-log between them and zero outside.
 */
#ifndef IONF_SED_H
#define IONF_SED_H

#include <stdint.h>

struct sed {
  int64_t n;           /*!< points, energies strictly increasing */
  double *energy_ev;   /*!< [n] photon energies [eV] */
  double *photons;     /*!< [n] photons s^-1 eV^-1 (any normalisation) */
  char source[256];    /*!< where it came from, for messages */
};

/** Photons per eV at e_ev (log-log between points; 0 outside the table or at a zero). */
double sed_photons_at(const struct sed *s, double e_ev);
void sed_free(struct sed *s);

#endif /* IONF_SED_H */

/**
 * @file sph_snapshot.h
 * @brief Snapshots of a particle run: the input's Gadget layout
 *        (PartType0/Coordinates, SmoothingLength, Masses, Density) plus the
 *        state per particle, and optionally the state deposited on a grid.
 *
 * Written (physical CGS, through a temporary file renamed into place):
 *   /Header                      attributes Time [s], Time_Myr, Step, NumPart_Total,
 *                                BoxSize [cm], UnitLength_in_cm = UnitMass_in_g = 1,
 *                                length_unit "cm", time_unit "s", config (effective YAML)
 *   /PartType0/Coordinates       (n, 3) [cm]
 *   /PartType0/SmoothingLength   (n) kernel support radius [cm]
 *   /PartType0/Masses            (n) [g]
 *   /PartType0/Density           (n) SPH density [g cm^-3]
 *   /PartType0/HydrogenNumberDensity (n) n_H [cm^-3]
 *   /PartType0/IonizedFraction   (n) x_HII
 *   /PartType0/PhotoionizationRate (n) Gamma_HI [s^-1]
 *   /PartType0/Temperature       (n) [K]
 *   /PartType0/x_HeII, x_HeIII,  (n) with helium (n_species 3): helium's ion fractions and
 *   Gamma_HeI, Gamma_HeII        photoionization rates per absorber [s^-1] (the grid's
 *                                /Grid names, chem/species.h)
 *   /Grid/x_HII, /Grid/T         (N, N, N) when deposit_n = N > 0 (src/sph_deposit.h):
 *                                hydrogen-mass-weighted kernel averages over cells
 *                                (attribute box_size_cm); grid tools read these; with
 *                                helium also /Grid/x_HeII, /Grid/x_HeIII
 * A checkpoint (v->checkpoint) adds the root attributes of io/sph_checkpoint.h.
 * The temporary file PATH.tmp is synced before the rename.
 */
#ifndef IONF_SPH_SNAPSHOT_H
#define IONF_SPH_SNAPSHOT_H

#include <stdint.h>

#include "core/error.h"
#include "particles/particles.h"

struct sph_checkpoint_meta; /* io/sph_checkpoint.h */

struct sph_snapshot_view {
  const struct particle_set *particles;
  const double *x_hii, *gamma_hi_per_s, *temperature_k, *n_h_cm3;
  int n_species;                 /*!< 0 or 1: hydrogen; 3: x_hii and gamma_hi_per_s start
                                      three species blocks, species_stride apart */
  int64_t species_stride;
  double time_s;
  int64_t step;
  int64_t deposit_n;             /*!< 0: no /Grid */
  const char *effective_yaml;    /*!< may be NULL */
  const struct sph_checkpoint_meta *checkpoint; /*!< non-NULL: a checkpoint (its root
                                                     attributes, io/sph_checkpoint.h) */
};

IONF_NODISCARD ionf_err sph_snapshot_write(const char *path, const struct sph_snapshot_view *v);

/** What a snapshot holds (read back; malloc'd arrays, free with sph_snapshot_free). */
struct sph_snapshot_data {
  struct particle_set particles; /*!< positions, h, masses, densities */
  double *x_hii, *gamma_hi_per_s, *temperature_k, *n_h_cm3;
  double time_s;
  int64_t step;
};

IONF_NODISCARD ionf_err sph_snapshot_read(const char *path, struct sph_snapshot_data *out);
void sph_snapshot_free(struct sph_snapshot_data *d);

#endif /* IONF_SPH_SNAPSHOT_H */

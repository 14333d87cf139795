/**
 * @file io_particles.h
 * @brief SPH gas particles from HDF5 snapshots in the Gadget (2/3/4, Arepo)
 *        or SWIFT layout, and ionfront's writer of the same layout.
 *
 * Read: /PartType0/Coordinates (n, 3), the smoothing lengths
 * (/PartType0/SmoothingLength, Gadget: the kernel's support radius; or
 * /PartType0/SmoothingLengths, SWIFT: h = support / gamma_K, converted with
 * /HydroScheme's 'Kernel gamma'), /PartType0/Masses (or Header/MassTable[0]
 * for equal masses), optionally /PartType0/Density (or Densities); /Header's
 * NumPart_ThisFile, NumPart_Total(_HighWord), NumFilesPerSnapshot, BoxSize
 * (scalar or 3-vector; 0 or absent: an open set without a box), Redshift,
 * Time, HubbleParam, SWIFT's Scale-factor.
 *
 * Units: SWIFT's /Units group ('Unit length in cgs (U_L)', 'Unit mass in cgs
 * (U_M)'), else Gadget's UnitLength_in_cm / UnitMass_in_g in /Header or
 * /Parameters.  A file that names no units is refused unless the caller
 * passes them (options): Gadget's compiled-in default (1 kpc/h, 1e10 Msun/h)
 * is only a convention, and guessing wrong is a factor of 1000 for runs in
 * Mpc/h.
 *
 * Comoving, h-scaled values become physical CGS: SWIFT datasets carry their
 * 'a-scale exponent' and 'h-scale exponent' attributes (used when
 * /Cosmology's 'Cosmological run' is 1); Gadget values are comoving and in
 * units of 1/h (lengths x a/h, masses x 1/h, densities x h^2/a^3) when the
 * run integrated in comoving coordinates: /Parameters' ComovingIntegrationOn
 * when present, else Redshift > 0 (Gadget writes 0 otherwise), with a =
 * Header/Time, checked against the redshift.
 *
 * Every bad value is refused with IONF_ERR_INPUT naming the file, the dataset
 * or attribute, the particle index and the value (in the file's units).
 */
#ifndef IONF_IO_PARTICLES_H
#define IONF_IO_PARTICLES_H

#include "core/error.h"
#include "particles/particles.h"

struct io_particles_options {
  double hydrogen_mass_fraction; /*!< X_H for the hydrogen atoms per particle (default 1) */
  double unit_length_cm;         /*!< used only when the file names no units (0: refuse) */
  double unit_mass_g;            /*!< likewise */
  int comoving;                  /*!< -1: as the file says; 0: values are physical; 1: Gadget
                                      comoving h-scaled values */
  int periodic;                  /*!< -1: Header/Periodic when present, else periodic when
                                      there is a box; 0, 1: as given */
};

void io_particles_default_options(struct io_particles_options *o);

/** Read the gas particles of `path` into `out` (physical CGS). */
IONF_NODISCARD ionf_err io_particles_read(const char *path, const struct io_particles_options *o,
                                          struct particle_set *out);

/**
 * Write `p` to `path` in the Gadget layout (physical CGS: unit attributes 1,
 * ComovingIntegrationOn 0; the smoothing length is the support radius;
 * Density when the set has densities; ParticleIDs 1..n; Header/Periodic),
 * through a temporary file renamed into place.
 */
IONF_NODISCARD ionf_err io_particles_write(const char *path, const struct particle_set *p);

#endif /* IONF_IO_PARTICLES_H */

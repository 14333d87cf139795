/**
 * @file sph_checkpoint.h
 * @brief Checkpoints of particle runs: DIR/checkpoint.h5 is a particle snapshot
 *        (io/sph_snapshot.h: /Header, /PartType0/...) with root attributes that
 *        say what a restart needs and what it must not change.
 *
 * Root attributes (written by sph_checkpoint_write_attrs, read back here):
 *   checkpoint = 1 (int64), checkpoint_kind = "particles" (grid checkpoints have
 *   no PartType0 and are told apart by it), time_s, step, next_snapshot_index,
 *   particle_count, particles_identity (16 hex digits: FNV-1a over the 64-bit words
 *   of the positions, h, masses and densities: the same set, bit for bit),
 *   particles_origin (the file, or the generator's settings: for messages),
 *   rays_per_source (the effective count), r_max_cm, hydrogen_mass_fraction,
 *   isothermal (int64 0/1).
 * The state: /PartType0/IonizedFraction (x_HII: the particle state's only species
 * block) and /PartType0/Temperature.  Together with the config they continue the run
 * bit for bit (sph_engine_restart).
 */
#ifndef IONF_SPH_CHECKPOINT_H
#define IONF_SPH_CHECKPOINT_H

#include <hdf5.h>
#include <stdint.h>

#include "core/error.h"
#include "particles/particles.h"

/** What identifies the run a checkpoint belongs to (written; expected on reading). */
struct sph_checkpoint_meta {
  int next_index;                 /*!< NNNN of the next snapshot (written; ignored on reading) */
  int64_t particle_count;
  char identity[17];              /*!< sph_checkpoint_identity */
  const char *origin;             /*!< the particle file, or the generator's settings */
  int64_t rays_per_source;        /*!< the tracer's effective rays per source */
  double r_max_cm;                /*!< raytracing.R_max (0: unlimited) */
  double hydrogen_mass_fraction;  /*!< particles.hydrogen_mass_fraction */
  int isothermal;                 /*!< material.isothermal */
  int n_species;                  /*!< 1 (0: 1), or 3 with helium (attribute n_species,
                                       written only with helium) */
};

/** Restart state read from a checkpoint. */
struct sph_checkpoint_state {
  double time_s;
  int64_t step;
  int next_index;
};

/** 16 hex digits identifying the particle set (positions, h, masses, densities). */
void sph_checkpoint_identity(const struct particle_set *p, char out[17]);

/** The checkpoint's root attributes on an open file (time_s and step of the state).
    Returns 1, or 0 with the reason on HDF5's error stack (as the snapshot writer). */
int sph_checkpoint_write_attrs(hid_t file, const struct sph_checkpoint_meta *m, double time_s,
                               int64_t step);

/**
 * Read checkpoint `path` into x_hii and temperature_k (expect->particle_count each;
 * with helium x_hii holds three blocks: x_HII, x_HeII, x_HeIII) and *state.  Refused with a message naming the file and the mismatch: a missing or
 * non-HDF5 file (IONF_ERR_IO); not a checkpoint, a grid run's checkpoint, another
 * particle count or set, other rays per source, R_max, X_H, isothermal setting or species
 * (IONF_ERR_INPUT).
 */
IONF_NODISCARD ionf_err sph_checkpoint_read(const char *path, const struct sph_checkpoint_meta *expect,
                                            double *x_hii, double *temperature_k,
                                            struct sph_checkpoint_state *state);

#endif /* IONF_SPH_CHECKPOINT_H */

/**
 * @file synth.h
 * @brief Synthetic cosmological inputs as files: the Iliev et al. (2006) Test 4
 *        stand-in (a density grid and 16 peak sources) and the reionization (EoR)
 *        sequence of density grids and halo catalogues, one pair per redshift.
 *
 * Both draw one linear Gaussian random field at z = 0 (synth_density.h) and grow
 * it with D(z) (synth_growth.h); the density files hold the log-normal proper
 * n_H at their redshift, the haloes come from synth_halos.h, and synth_files.h
 * writes them.  Every file carries a signature of the parameters it was made
 * with (synth_files_signature reads it back).
 */
#ifndef IONF_SYNTH_H
#define IONF_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h" /* enum source_format */
#include "cosmo/cosmology.h"
#include "core/error.h"

/* ---- the EoR sequence ------------------------------------------------------------ */

/** The Gaussian random field both products grow from: n^3 cells of a comoving box,
    the Eisenstein & Hu no-wiggle spectrum of `cosmo` normalised to sigma_8 with slope n_s,
    the seed of its phases. */
struct synth_field {
  int64_t n;                    /*!< cells per side */
  double box_cmpc;              /*!< comoving side [Mpc] */
  struct cosmology cosmo;
  double sigma_8, n_s;
  uint64_t seed;
};

struct synth_eor_request {
  struct synth_field field;
  int n_redshifts; const double *redshifts;   /* descending, e.g. 20 ... 7 */
  double min_halo_mass_msun;    /* EPS collapse mass (e.g. 1e8) */
  double min_source_mass_msun;  /* cells with less collapsed mass get no halo */
  const char *density_pattern;  /* printf pattern with one double conversion, e.g. "dir/density_z%.3f.h5" */
  const char *halo_pattern;     /* e.g. "dir/halos_z%.3f.h5" (see io_halos_series_name) */
};

/**
 * One density file and one halo catalogue per redshift: the same linear field
 * grown with D(z).  Density: dataset `n_H`, proper hydrogen density [cm^-3] at
 * the file's redshift (root attribute `redshift`); haloes: `/halos/position`
 * (comoving Mpc in [0, box)) and `/halos/mass` [Msun], read with io_halos_read
 * (box_size = box_cmpc).  Errors name the parameter or file; files already
 * written stay (each is complete: written to a temporary name and renamed).
 */
IONF_NODISCARD ionf_err synth_write_eor_sequence(const struct synth_eor_request *req);

/** The signature the files of redshift z carry (synth_files.h): the field and the recipe. */
void synth_eor_signature(const struct synth_eor_request *req, double z, char *out, size_t cap);

/** What one redshift of the sequence holds (for the command line's report). */
struct synth_eor_step {
  double redshift, growth;       /*!< z and D(z) */
  double sigma_lin;              /*!< rms of the linear δ on the grid at z */
  double max_over_mean;          /*!< densest cell, ρ/ρ̄ */
  double fcoll_mass, fcoll_ps;   /*!< EPS collapsed fraction (mass-weighted) and unconditional PS */
  int64_t n_halos;               /*!< haloes written */
  double halo_mass_msun;         /*!< their total mass */
  char density_file[IONF_PATH_MAX], halo_file[IONF_PATH_MAX];
};

/** synth_write_eor_sequence, filling `steps` (n_redshifts entries) when not NULL. */
IONF_NODISCARD ionf_err synth_write_eor_sequence_steps(const struct synth_eor_request *req,
                                                       struct synth_eor_step *steps);

/* ---- Iliev et al. (2006) Test 4 stand-in ----------------------------------------------- */

struct synth_iliev4_request {
  struct synth_field field;     /*!< the paper: a box of 0.5/h comoving Mpc */
  double redshift;              /*!< of the density (the paper: 9) */
  int n_sources;                /*!< the densest peaks (16) */
  int min_separation_cells;     /*!< between peaks (4) */
  double f_gamma;               /*!< photons per baryon (250) */
  double t_source_s;            /*!< source lifetime in Ndot = f_γ M Ω_b / (Ω_m m_p t_s) (3 Myr) */
  const char *density_path, *density_dataset; /*!< NULL path: not written */
  const char *sources_path;     /*!< NULL: not written */
  enum source_format sources_format;
};

struct synth_iliev4_result {
  double mean_n_h_cm3;          /*!< mean proper n_H at the redshift */
  double sigma_lin;             /*!< rms linear δ of the grid at the redshift */
  double max_over_mean;         /*!< densest cell */
  int n_sources;
  double ndot_min, ndot_max, ndot_total; /*!< [1/s] */
};

/** The signatures the two files carry (the density's: the field; the sources': field and recipe). */
void synth_iliev4_signatures(const struct synth_iliev4_request *req, char *density_sig,
                             char *sources_sig, size_t cap);

/** Make the field and the peak sources; write the files whose paths are not NULL. */
IONF_NODISCARD ionf_err synth_write_iliev4(const struct synth_iliev4_request *req,
                                           struct synth_iliev4_result *result);

#endif

/**
 * @file sequence.h
 * @brief Production runs: the density grid and halo catalogue of each redshift of
 *        a list (config `sequence:`), read as the run advances.
 *
 * Interval i is [z_i, z_i+1] (run times times_s[i] .. times_s[i+1]); it takes
 * steps[i] equal steps with the density file of z_i (proper n_H at z_i, diluted
 * as (1+z)^3 from there by the engine's step) and the halo catalogue of z_i as its
 * sources.  The files of the last redshift, where the run ends, are not read.
 *
 * At an interval boundary (engine_step, before the step's dilution):
 *   every rank reads the density file into the host n_H and the catalogue into a
 *   new source list (merged per cell); the ranks agree on errors (the same
 *   message everywhere); n_H goes to the backend (upload), e->z_density = z_i,
 *   the sum of n_H is recomputed; the sources are shared among the ranks again
 *   (partition_sources) and handed to the backend (set_sources).  x_HII and T stay.
 */
#ifndef IONF_SEQUENCE_H
#define IONF_SEQUENCE_H

#include <stddef.h>

#include "config/config.h"
#include "core/error.h"

struct engine;

/** The interval a step starting at run time t_s lies in (0 .. n_redshifts - 2);
    within t_tiny of a boundary counts as the boundary. */
int sequence_interval_at(const struct sequence_config *seq, double t_s, double t_tiny);

/** The interval the step that ended at run time t_s > 0 lay in (for restarts). */
int sequence_interval_ending_at(const struct sequence_config *seq, double t_s, double t_tiny);

/** The length of the steps of interval i [s]. */
double sequence_step_s(const struct sequence_config *seq, int i);

/**
 * Check every input file before the first step, so that a run does not end hours
 * in on a missing one: each density file opens and is as its format needs (an HDF5
 * dataset of shape (N, N, N), a CubeP3M header and size, a 21cmFAST file's attributes:
 * sequence_read.h; its values are checked when read); each halo catalogue is read and
 * every halo checked.  The ranks share the files; all report the first bad one
 * (message naming the key, the redshift and the file).  sources_by_interval (NULL, or
 * n_redshifts - 1 values) gets the number of sources of each interval's catalogue (0
 * without halos), on every rank: the progress lines' ETA weighs the work left by them.
 * Collective.
 */
IONF_NODISCARD ionf_err sequence_check_inputs(const struct engine *e, double *sources_by_interval);

/**
 * Load interval i's inputs into the engine and its backend (above); with
 * `with_density` 0 only the halos (a restart takes n_H from the checkpoint).
 * Prints one line (rank 0).  Collective.
 */
IONF_NODISCARD ionf_err sequence_load(struct engine *e, int i, int with_density);

#endif

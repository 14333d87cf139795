/**
 * @file synth_inputs.h
 * @brief A run's synthetic: section: make the input files it names when they do
 *        not exist yet, before the engine reads them.
 *
 * For kind iliev4 the files are material.n_H.file (dataset material.n_H.dataset)
 * and sources.file (HDF5 or C2-Ray text by sources.format / the extension).  A file
 * that exists is kept: when it carries a signature (synth_files.h) that differs
 * from the config's parameters the run stops with a message (delete the file to
 * make it anew); one without a signature was not made by ionfront and is used as
 * it is.  A missing sources file next to an existing density is made from the
 * same field (same seed: the same bits).  For kind eor the files are the density
 * grids and halo catalogues sequence: names, at every listed redshift; when one is
 * missing, all are made (those that exist must carry this config's signature).
 * Prints one line saying what it did.
 * Call on one rank (engine_create: rank 0, then all ranks agree on the outcome).
 */
#ifndef IONF_SYNTH_INPUTS_H
#define IONF_SYNTH_INPUTS_H

#include "config/config.h"
#include "core/error.h"

/** Make the missing inputs of cfg's synthetic: section (nothing when there is none). */
IONF_NODISCARD ionf_err synth_inputs_make(const struct ionf_config *cfg);

#endif

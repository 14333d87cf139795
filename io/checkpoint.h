/**
 * @file checkpoint.h
 * @brief Reading the restart state from DIR/checkpoint.h5 (written by
 *        snapshot_write with meta.checkpoint = 1).
 */
#ifndef IONF_CHECKPOINT_H
#define IONF_CHECKPOINT_H

#include <stdint.h>

#include "core/error.h"

struct grid_box;

struct checkpoint_state {
  double time_s;          /*!< simulation time at the checkpoint */
  int64_t step;           /*!< steps taken */
  int next_index;         /*!< NNNN of the next snapshot */
  double density_redshift; /*!< the redshift n_H stands at; < 0 when not written (static runs) */
  double sum_n_h_cm3;     /*!< the engine's sum of n_H (with density_redshift) */
  int64_t mc_seed;        /*!< Monte Carlo runs: montecarlo.seed; -1 when not written */
  int64_t mc_packets_per_source; /*!< Monte Carlo runs: packets per source; 0 when not written */
};

/**
 * Read the ion fractions ([species][box cells]: /Grid/x_HII, ...) and T (box cells) over
 * `box` of the n^3 grid (grid/grid.h; grid_box_whole(n): the whole grid, the box in C
 * order, io_field_read_box) and the counters (density_redshift and sum_n_h_cm3 when the
 * checkpoint has them: expanding runs; /Grid/n_H is then read separately).  Errors name
 * the file: not a checkpoint, a grid of another size, missing datasets or attributes.
 */
IONF_NODISCARD ionf_err checkpoint_read(const char *path, int64_t n, const struct grid_box *box,
                                        int n_species, double *x_ion, double *temperature_k,
                                        struct checkpoint_state *state);

/**
 * The cells whose low-mass haloes the checkpoint's interval left out (dataset
 * /low_mass_suppressed_cells, io/snapshot.h), malloc'd into *cells (the caller frees) and
 * their number into *count; *count = -1 and *cells = NULL when the checkpoint has none
 * (written without low-mass haloes).  Each a flat cell index in [0, n^3).  IONF_ERR_IO /
 * IONF_ERR_INPUT naming the file when it cannot be read or holds another shape or a cell
 * outside the grid.
 */
IONF_NODISCARD ionf_err checkpoint_read_suppressed_cells(const char *path, int64_t n,
                                                         int64_t **cells, int64_t *count);

/**
 * The effective configuration of the run that wrote checkpoint `path` (the YAML text
 * of the root attribute 'config' of a grid checkpoint, or of /Header's of a particle
 * checkpoint), malloc'd into *yaml (the caller frees); *yaml = NULL when the file has
 * none (written by an older ionfront).  IONF_ERR_IO / IONF_ERR_INPUT naming the file
 * when it cannot be opened or the attribute read.
 */
IONF_NODISCARD ionf_err checkpoint_read_config(const char *path, char **yaml);

#endif

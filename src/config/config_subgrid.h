/**
 * @file config_subgrid.h
 * @brief The sub-grid models of a run's config as the run uses them (config_subgrid.c):
 *        each step's photon radius, and the start-up description of the models.
 */
#ifndef IONF_CONFIG_SUBGRID_H
#define IONF_CONFIG_SUBGRID_H

#include "config/config.h"

#define CONFIG_SUBGRID_LINE_MAX 512

/**
 * The photon radius of a step at redshift z [cells]: raytracing.R_max when no
 * raytracing.mean_free_path is given; else R(z) of the model (comoving, over the grid's
 * comoving cells), capped at a given raytracing.R_max, and never beyond cfg->r_max_cells,
 * the largest over the run's redshifts that the halos and buffers were sized for.
 */
double config_subgrid_r_max_cells(const struct ionf_config *cfg, double z);

/**
 * One line per sub-grid model the run has (chemistry.clumping, raytracing.mean_free_path):
 * the model, its parameters (where they came from) and its values over the run's
 * redshifts, for the start-up log and --dry-run.  Returns the number of lines (0..2).
 */
int config_subgrid_describe(const struct ionf_config *cfg, char lines[2][CONFIG_SUBGRID_LINE_MAX]);

#endif /* IONF_CONFIG_SUBGRID_H */

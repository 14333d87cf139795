/**
 * @file thermal_io.h
 * @brief The files of a thermal-radiation run (`problem: thermal`): its medium read from
 *        HDF5 (T and optionally the pressure and mole fractions, each a [nx][ny][nz] array of
 *        numbers), and its result, OUTDIR/thermal.h5, written whole or not at all:
 *
 *   /Thermal/T_K, /Thermal/Q_R, /Thermal/Q_R_sigma          [nx][ny][nz] doubles
 *   /Thermal/Walls/<face>/q_net, q_net_sigma                [n_u][n_v] doubles of the face
 *        (faces x_lo x_hi y_lo y_hi z_lo z_hi of the non-periodic axes only; (u, v) the
 *        face's two other axes in order: x faces [ny][nz], y faces [nx][nz], z faces [nx][ny])
 *   each dataset with "units" and "description"; Q_R > 0: net emission (cooling); q_net > 0:
 *   net flux into the wall (absorbed - emitted).  Root attributes: problem ("thermal"),
 *   cells [3], size_m [3], periodic [3], gas_model, kappa_per_m (grey), rays_per_element,
 *   seed, transmissivity_min, rays_traced, steps_traced, config (the effective YAML),
 *   config_name, ionfront_version, git, created.
 *
 * One process (no MPI): the run gathers the results to rank 0, which writes.
 */
#ifndef IONF_THERMAL_IO_H
#define IONF_THERMAL_IO_H

#include <stdint.h>

#include "core/error.h"
#include "thermal/thermal.h"

/** The file name of a thermal run's result in its output directory. */
#define THERMAL_IO_FILE_NAME "thermal.h5"

/**
 * Read the datasets names[f] (NULL or "": not read) of HDF5 file `path`, each a 3D array of
 * numbers of shape n[3], as doubles into out[f] (out[f] NULL: the dataset only checked:
 * --dry-run).  IONF_ERR_IO / IONF_ERR_INPUT naming the file, the dataset and the shape.
 */
IONF_NODISCARD ionf_err thermal_io_read(const char *path, const char *const *names, int n_names,
                                        const int64_t n[3], double *const *out);

/** What thermal_io_write writes: the whole grid's arrays and every wall patch. */
struct thermal_io_result {
  const struct thermal_setup *setup;
  const double *t_k, *q_w_per_m3, *q_sigma_w_per_m3;     /*!< [cells] */
  const double *wall_q_w_per_m2, *wall_q_sigma_w_per_m2; /*!< [thermal_wall_patches] */
  int64_t rays_traced, steps_traced;
  const char *gas_model;      /*!< "grey", "wsgg" */
  const char *config_yaml;    /*!< the effective config */
  const char *config_name;
  const char *const *face_names; /*!< [THERMAL_FACES]: "x_lo", ... */
};

/** Write `r` to `path` (a temporary name, synced, renamed; nothing left on failure). */
IONF_NODISCARD ionf_err thermal_io_write(const char *path, const struct thermal_io_result *r);

/** The patches of face `face` (0 on a periodic axis) and its two axes' counts. */
int64_t thermal_io_face_patches(const struct thermal_setup *s, int face, int64_t *n_u,
                                int64_t *n_v);

#endif /* IONF_THERMAL_IO_H */

/**
 * @file thermal.h
 * @brief Thermal radiation in non-scattering absorbing-emitting media (`problem: thermal`):
 *        the radiative source Q^R [W/m^3] of every cell and the net radiative heat flux
 *        into every wall patch [W/m^2], with their Monte Carlo standard errors, by
 *        emission-based reciprocal Monte Carlo (ERMC; Silvestri & Pecnik 2019, seed 003).
 *
 * The medium is a Cartesian grid of nx x ny x nz cells of size dx, dy, dz [m]; each axis
 * is periodic or closed by two grey walls (emissivity, temperature).  Each cell holds T,
 * the total pressure and the mole fractions of H2O and CO2.  The gas model
 * (thermal_gas_k.h) is grey (one absorption coefficient) or a weighted sum of grey gases
 * (WSGG: gas j of absorption coefficient kappa_j, emission weight a_j(T)).
 *
 * ERMC, in difference form (no division by a cold element's emission): from each element
 * i (a cell centre, or a wall patch centre) N rays leave, isotropic for a cell and
 * cosine-weighted for a wall patch; each ray picks a grey gas j (importance-sampled at the
 * domain's largest temperature T_max, the R_I correction of the seed's eq. 14 in its
 * weight) and walks the cells it crosses (3D DDA), every crossed element k taking the share
 * tau_{i->k} alpha_k of the ray; element i gets the sum over crossed elements of
 * tau alpha (I_b,j(T_i) - I_b,j(T_k)) times its emission factor
 * (4 pi kappa_j,i for a cell, pi eps_i for a wall patch).  Positive Q^R: net emission
 * (cooling), as the seed's eq. 10.  A ray ends when its transmissivity falls below the
 * tolerance; the rest of it is given to the last element crossed.
 *
 * Random numbers: Philox4x32-10 (core/philox_k.h), counter (element, ray, event,
 * element >> 32), key (seed, 0); event 0 draws the ray's direction and grey gas, event
 * e >= 1 the direction after its e-th (diffuse) wall reflection; elements are the cells
 * (C index) and then the wall patches (cells + patch): a result depends on the seed and
 * rays, never on ranks, threads or device.
 *
 * Wall patches draw their gas from a_j(T_max) alone (the transparent window included);
 * sort_gases = 1 replaces the draw by a stratified allocation (thermal_k.h).
 *
 * Both solvers compute the same function with the same per-ray maths (thermal_k.h):
 * thermal_solve_cpu (OpenMP over elements) and thermal_solve_cuda
 * (gpu/thermal/thermal_cuda.h; one thread per element, all its rays).
 */
#ifndef IONF_THERMAL_H
#define IONF_THERMAL_H

#include <stdint.h>

#include "core/error.h"

/** Faces of the box, in the order of the wall arrays: -x, +x, -y, +y, -z, +z. */
enum thermal_face {
  THERMAL_FACE_X_LO,
  THERMAL_FACE_X_HI,
  THERMAL_FACE_Y_LO,
  THERMAL_FACE_Y_HI,
  THERMAL_FACE_Z_LO,
  THERMAL_FACE_Z_HI,
  THERMAL_FACES
};

/** Gas models (thermal_gas_k.h). */
enum thermal_gas_model {
  THERMAL_GAS_GREY,          /*!< one absorption coefficient everywhere (kappa_per_m) */
  THERMAL_GAS_WSGG_BORDBAR14 /*!< Bordbar, Wecel & Hyppanen 2014, H2O-CO2 mixtures */
};

/** A grey wall closing a non-periodic axis. */
struct thermal_wall {
  double emissivity; /*!< 0..1; 1 = black (the ray ends there) */
  double t_k;        /*!< wall temperature [K] */
};

/** Multigrid ray marching (the seed's section 4.3): 0 levels = off. */
struct thermal_multigrid {
  int levels;          /*!< overlaid grids, each 2x coarser; 1 = the fine grid only */
  int steps_per_level; /*!< cell steps a ray takes on a level before the next coarser one */
};

/** Everything a solve needs besides the fields; the same on every rank. */
struct thermal_setup {
  int64_t n[3];                 /*!< cells per axis */
  double cell_m[3];             /*!< cell size per axis [m] */
  int periodic[3];              /*!< 1: the axis wraps (no walls on it) */
  struct thermal_wall wall[THERMAL_FACES]; /*!< used on non-periodic axes */
  int gas_model;                /*!< enum thermal_gas_model */
  double kappa_per_m;           /*!< THERMAL_GAS_GREY's absorption coefficient [1/m] */
  int64_t rays_per_element;     /*!< rays from every cell and wall patch */
  uint32_t seed;                /*!< Philox key */
  double transmissivity_min;    /*!< a ray ends below this (e.g. 1e-6) */
  struct thermal_multigrid multigrid;
  int sort_gases;               /*!< 1: rays of an element grouped by grey gas (band sorting) */
};

/** The medium, on the whole grid (every rank holds all of it: rays cross everything). */
struct thermal_fields {
  const double *t_k;    /*!< [nx][ny][nz] temperature [K] */
  const double *p_atm;  /*!< total pressure [atm]; NULL: 1 atm everywhere */
  const double *x_h2o;  /*!< H2O mole fraction; NULL: 0 (grey runs need neither) */
  const double *x_co2;  /*!< CO2 mole fraction; NULL: 0 */
};

/**
 * Which elements a solve computes: cells [cell_first, cell_first + cell_count) in C order,
 * and wall patches [wall_first, wall_first + wall_count) in thermal_wall_patch order
 * (thermal_k.h: the faces in enum order, each face's patches in C order of its two axes).
 * A rank computes its block of each (MPI over cells).
 */
struct thermal_range {
  int64_t cell_first, cell_count;
  int64_t wall_first, wall_count;
};

/** Results for the range's elements (caller-owned arrays of the range's sizes). */
struct thermal_result {
  double *q_w_per_m3;          /*!< [cell_count] radiative source, emitted - absorbed */
  double *q_sigma_w_per_m3;    /*!< [cell_count] its Monte Carlo standard error */
  double *wall_q_w_per_m2;     /*!< [wall_count] net flux into the wall (absorbed - emitted) */
  double *wall_q_sigma_w_per_m2; /*!< [wall_count] its standard error */
  int64_t rays_traced;         /*!< rays of this solve */
  int64_t steps_traced;        /*!< cell crossings of this solve */
};

/** Wall patches of a setup (faces of non-periodic axes only). */
int64_t thermal_wall_patches(const struct thermal_setup *s);

/** Checks a setup (sizes, walls, gas model, rays, tolerance); messages name the key. */
ionf_err thermal_setup_check(const struct thermal_setup *s);

/** The solve on the CPU (OpenMP over the range's elements). */
ionf_err thermal_solve_cpu(const struct thermal_setup *s, const struct thermal_fields *f,
                           const struct thermal_range *r, struct thermal_result *out);

#endif /* IONF_THERMAL_H */

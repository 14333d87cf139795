/**
 * @file config_thermal.h
 * @brief The configuration of a thermal-radiation run (`problem: thermal` at the top level
 *        of the YAML; src/thermal/thermal.h): typed, validated, with its effective YAML.
 *
 * A config whose top level has the key `problem` is a thermal run (its value must be
 * `thermal`); without it the config is an ionization run, read by config.c as before.
 * Sections and keys (units in the key names; docs/thermal.md is the user's guide):
 *
 *   problem:     thermal
 *   grid:        cells [nx, ny, nz] or N (a cube) [1..4096 each], size_m [Lx, Ly, Lz] or L
 *                [m > 0], periodic [x, y, z] or one bool [bools, false]
 *   walls:       x_lo, x_hi, y_lo, y_hi, z_lo, z_hi: {emissivity [0..1, 1 = black], T_K
 *                [K >= 0, required]}: exactly the faces of the non-periodic axes
 *   gas:         model grey|wsgg [grey; wsgg: Bordbar et al. 2014's H2O-CO2 weighted sum of
 *                grey gases], kappa_per_m [grey only, required, > 0], pressure_atm [1],
 *                x_H2O [0], x_CO2 [0] (mole fractions, uniform: a fields: dataset replaces
 *                one; giving both is refused)
 *   fields:      file [HDF5, relative to the config], T_K [dataset, required], pressure_atm,
 *                x_H2O, x_CO2 [datasets, optional]: each a [nx][ny][nz] array of doubles
 *   setup:       (instead of fields:) profile uniform|lin1|parab1|parab2|sin|3dims, axis
 *                x|y|z [x: the axis of the 1D profiles], T_K [uniform only, K > 0]
 *                (thermal_profile.h: the profiles of Silvestri & Pecnik 2019, eqs. 18-22)
 *   montecarlo:  rays_per_element [1..2^32-1, 1000], seed [0..2^32-1, 1], transmissivity_min
 *                [(0, 1), 1e-6], multigrid {levels [0..16, 1: the fine grid only; 0 the same],
 *                steps_per_level [>= 1, 5]},
 *                sort_gases [bool, false]
 *   output:      directory [path, "out"], overwrite [bool, false: a directory holding another
 *                run's files is refused], progress [bool, true: the per-rank lines of the log]
 *   raytracing:  backend cpu|cuda|auto [auto: cuda when this build has the thermal CUDA
 *                solver and a GPU is visible, else cpu] (`--backend` sets it, as for the
 *                ionization runs)
 */
#ifndef IONF_CONFIG_THERMAL_H
#define IONF_CONFIG_THERMAL_H

#include "config/config.h"
#include "config/config_file.h"
#include "core/error.h"
#include "core/params.h"
#include "core/path.h"
#include "thermal/thermal.h"

#define CONFIG_THERMAL_NAME_MAX 256

/** How the medium's fields are made (setup.profile), or read (fields:). */
enum config_thermal_profile {
  CONFIG_THERMAL_FILE,    /*!< fields: read from an HDF5 file */
  CONFIG_THERMAL_UNIFORM, /*!< T = setup.T_K everywhere */
  CONFIG_THERMAL_LIN1,    /*!< T = 500 + 1000 s/L (s along setup.axis) */
  CONFIG_THERMAL_PARAB1,  /*!< T = 500 - 2000 s^2 + 2000 s (s in m) */
  CONFIG_THERMAL_PARAB2,  /*!< T = 500 - 8000 (s/L)^2 + 8000 s/L */
  CONFIG_THERMAL_SIN,     /*!< T = (sin(pi x) sin(pi y) sin(pi z) pi / sigma)^(1/4) */
  CONFIG_THERMAL_3DIMS    /*!< T = 500 - 2000 (xyz)^2 + 2000 xyz (x, y, z in m) */
};

/** The fields' datasets in fields: (index into config_thermal.dataset). */
enum config_thermal_field {
  CONFIG_THERMAL_T,
  CONFIG_THERMAL_P,
  CONFIG_THERMAL_X_H2O,
  CONFIG_THERMAL_X_CO2,
  CONFIG_THERMAL_FIELDS
};

struct config_thermal {
  char config_name[IONF_PATH_MAX];   /*!< for messages: the file, "built-in NAME", ... */
  struct thermal_setup setup;        /*!< grid, walls, gas, Monte Carlo: the solver's input */
  double size_m[3];                  /*!< grid.size_m */
  double pressure_atm, x_h2o, x_co2; /*!< gas.*: the uniform values */
  enum config_thermal_profile profile;
  int axis;                          /*!< setup.axis: 0, 1, 2 */
  double uniform_t_k;                /*!< setup.T_K (uniform) */
  char file[IONF_PATH_MAX];          /*!< fields.file, absolute */
  char dataset[CONFIG_THERMAL_FIELDS][CONFIG_THERMAL_NAME_MAX]; /*!< "": not read */
  char output_dir[IONF_PATH_MAX];
  int overwrite;
  int progress;                      /*!< output.progress */
  enum backend_kind backend;         /*!< raytracing.backend */
  char *effective_yaml;              /*!< every key with its value (malloc'd) */
};

/** The names of the faces in YAML and the output file, in enum thermal_face order. */
extern const char *const config_thermal_face_names[THERMAL_FACES];
/** The names of setup.profile (enum config_thermal_profile; [0] "file" for fields:). */
extern const char *const config_thermal_profile_names[];
/** "grey" or "wsgg" for an enum thermal_gas_model. */
const char *config_thermal_gas_name(int gas_model);

/** 1 when a parsed config's top level has the key `problem` (a thermal run, or a config
    that says which problem it is and is read, and checked, as one). */
int config_thermal_is_thermal(const struct param_node *root);
/** The same for a config's text (0 when it does not parse: the loader says why). */
int config_thermal_file_is_thermal(const struct config_file *f);

/** The config of `root` (named `name` in messages; relative paths from `dir`, with '/').
    On failure cfg holds nothing to free. */
IONF_NODISCARD ionf_err config_thermal_from_params(const struct param_node *root,
                                                   const char *name, const char *dir,
                                                   struct config_thermal *cfg);
/** The config of a config text with "a.b=VALUE" overrides applied. */
IONF_NODISCARD ionf_err config_thermal_load_file(const struct config_file *f,
                                                 char *const *overrides, int n_overrides,
                                                 struct config_thermal *cfg);
void config_thermal_free(struct config_thermal *cfg);

#endif /* IONF_CONFIG_THERMAL_H */

/**
 * @file api_thermal.c
 * @brief The public C API of thermal radiation (include/ionfront.h, ionf_thermal_*) over
 *        the thermal run (src/engine/thermal_run.h): a flow solver's coupling loop.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "config/config_file.h"
#include "config/config_thermal.h"
#include "core/error.h"
#include "engine/thermal_run.h"
#include "io/thermal_io.h"
#include "ionfront.h"
#include "mpi/comm.h"

#define API_THERMAL_MAGIC 0x74686d6cu /* "thml" */

struct ionf_thermal {
  unsigned magic;
  struct config_thermal cfg; /* the run borrows it */
  struct thermal_run *run;
  int solved;                /* a solve finished: the wall fluxes are there */
};

static ionf_err api_thermal_check(const ionf_thermal *t) {
  IONF_CHECK(t != NULL, IONF_ERR_USAGE, "the thermal solver is NULL");
  IONF_CHECK(t->magic == API_THERMAL_MAGIC && t->run != NULL, IONF_ERR_USAGE,
             "not a live ionfront thermal solver (destroyed, or not from ionf_thermal_create_*)");
  return IONF_OK;
}

enum api_thermal_origin { API_THERMAL_FILE, API_THERMAL_YAML, API_THERMAL_BUILTIN };

static ionf_err api_thermal_make(const struct config_file *f, const char *const *overrides,
                                 int n_overrides, ionf_thermal **out) {
  struct param_node *root = NULL;
  IONF_CALL(config_file_tree(f, NULL, 0, &root)); /* a text that does not parse says why */
  int thermal = config_thermal_is_thermal(root);
  params_free(root);
  IONF_CHECK(thermal, IONF_ERR_CONFIG,
             "%s is not a thermal-radiation config (no 'problem: thermal' at its top level); "
             "ionf_engine_create_* makes the ionization runs",
             f->name);
  ionf_thermal *t = ionf_calloc(1, sizeof *t, "the thermal solver");
  if (!t) return IONF_ERR_MEM;
  ionf_err rc = config_thermal_load_file(f, (char *const *)overrides, n_overrides, &t->cfg);
  if (rc == IONF_OK) rc = thermal_run_create(&t->cfg, &t->run);
  if (rc != IONF_OK) {
    config_thermal_free(&t->cfg);
    free(t);
    return rc;
  }
  t->magic = API_THERMAL_MAGIC;
  *out = t;
  return IONF_OK;
}

static ionf_err api_thermal_create(enum api_thermal_origin origin, const char *what,
                                   const char *const *overrides, int n_overrides, int mpi_comm,
                                   ionf_thermal **out) {
  IONF_CHECK(out != NULL, IONF_ERR_INPUT, "the output pointer for the thermal solver is NULL");
  *out = NULL;
  IONF_CHECK(n_overrides >= 0 && (n_overrides == 0 || overrides != NULL), IONF_ERR_INPUT,
             "%d override(s) but the override list is NULL or the count negative", n_overrides);
  for (int i = 0; i < n_overrides; ++i)
    IONF_CHECK(overrides[i] != NULL, IONF_ERR_INPUT, "override %d is NULL", i);
  IONF_CHECK(what != NULL, IONF_ERR_INPUT, "the %s is NULL",
             origin == API_THERMAL_FILE ? "config path"
             : origin == API_THERMAL_YAML ? "YAML text" : "built-in problem's name");
  IONF_CALL(api_comm_claim(mpi_comm));
  struct config_file f;
  if (origin == API_THERMAL_FILE) IONF_CALL(config_file_read(what, &f));
  else if (origin == API_THERMAL_BUILTIN) IONF_CALL(config_file_builtin(what, &f));
  else config_file_of_text(what, "YAML text", &f);
  ionf_err rc = api_thermal_make(&f, overrides, n_overrides, out);
  config_file_free(&f);
  if (rc == IONF_OK) api_handle_born(mpi_comm);
  return rc;
}

ionf_status ionf_thermal_create_from_file(const char *path, const char *const *overrides,
                                          int n_overrides, int mpi_comm, ionf_thermal **out) {
  api_begin();
  return api_end(NULL, api_thermal_create(API_THERMAL_FILE, path, overrides, n_overrides,
                                          mpi_comm, out));
}

ionf_status ionf_thermal_create_from_yaml(const char *yaml_text, const char *const *overrides,
                                          int n_overrides, int mpi_comm, ionf_thermal **out) {
  api_begin();
  return api_end(NULL, api_thermal_create(API_THERMAL_YAML, yaml_text, overrides, n_overrides,
                                          mpi_comm, out));
}

ionf_status ionf_thermal_create_builtin(const char *name, const char *const *overrides,
                                        int n_overrides, int mpi_comm, ionf_thermal **out) {
  api_begin();
  return api_end(NULL, api_thermal_create(API_THERMAL_BUILTIN, name, overrides, n_overrides,
                                          mpi_comm, out));
}

void ionf_thermal_destroy(ionf_thermal *t) {
  if (!t || t->magic != API_THERMAL_MAGIC) return;
  t->magic = 0;
  thermal_run_destroy(t->run);
  config_thermal_free(&t->cfg);
  free(t);
  api_handle_gone();
}

ionf_status ionf_thermal_grid(const ionf_thermal *t, int64_t cells[3], double cell_m[3]) {
  api_begin();
  ionf_err rc = api_thermal_check(t);
  if (rc != IONF_OK) return api_end(NULL, rc);
  for (int a = 0; a < 3; ++a) {
    if (cells) cells[a] = t->cfg.setup.n[a];
    if (cell_m) cell_m[a] = t->cfg.setup.cell_m[a];
  }
  return IONF_STATUS_OK;
}

ionf_status ionf_thermal_cell_range(const ionf_thermal *t, int64_t *first, int64_t *count) {
  api_begin();
  ionf_err rc = api_thermal_check(t);
  if (rc != IONF_OK) return api_end(NULL, rc);
  if (first) *first = t->run->range.cell_first;
  if (count) *count = t->run->range.cell_count;
  return IONF_STATUS_OK;
}

/* With device arrays, a NULL gas field stands for the solver's default (1 atm, 0), which
   must then be the config's uniform value too. */
static ionf_err api_thermal_device_gas(const struct config_thermal *cfg, const double *p_atm,
                                       const double *x_h2o, const double *x_co2) {
  if (cfg->setup.gas_model == THERMAL_GAS_GREY) return IONF_OK;
  IONF_CHECK(p_atm || (cfg->pressure_atm == 1.0 && !cfg->dataset[CONFIG_THERMAL_P][0]),
             IONF_ERR_INPUT, "ionf_thermal_solve with IONF_MEMORY_DEVICE: p_atm is NULL but the "
             "config's pressure is not a uniform 1 atm: pass it as a device array");
  IONF_CHECK(x_h2o || (cfg->x_h2o == 0.0 && !cfg->dataset[CONFIG_THERMAL_X_H2O][0]),
             IONF_ERR_INPUT, "ionf_thermal_solve with IONF_MEMORY_DEVICE: x_h2o is NULL but the "
             "config's x_H2O is not a uniform 0: pass it as a device array");
  IONF_CHECK(x_co2 || (cfg->x_co2 == 0.0 && !cfg->dataset[CONFIG_THERMAL_X_CO2][0]),
             IONF_ERR_INPUT, "ionf_thermal_solve with IONF_MEMORY_DEVICE: x_co2 is NULL but the "
             "config's x_CO2 is not a uniform 0: pass it as a device array");
  return IONF_OK;
}

/* Every rank checks its arguments, then they agree before the collective solve. */
static ionf_err api_thermal_args(const ionf_thermal *t, struct thermal_fields *f,
                                 const double *q, const double *q_sigma, int memory) {
  IONF_CHECK(memory == IONF_MEMORY_HOST || memory == IONF_MEMORY_DEVICE, IONF_ERR_INPUT,
             "memory = %d: IONF_MEMORY_HOST (0) or IONF_MEMORY_DEVICE (1)", memory);
  IONF_CHECK(q || t->run->range.cell_count == 0, IONF_ERR_INPUT, "q_w_per_m3 is NULL");
  if (memory == IONF_MEMORY_DEVICE) {
    IONF_CHECK(t->run->backend == BACKEND_CUDA, IONF_ERR_USAGE,
               "ionf_thermal_solve with IONF_MEMORY_DEVICE, but the solver runs on the CPU (%s): "
               "device arrays need raytracing.backend: cuda (or auto with a GPU); pass host "
               "arrays",
               t->run->backend_text);
    IONF_CHECK(f->t_k, IONF_ERR_INPUT, "ionf_thermal_solve with IONF_MEMORY_DEVICE: t_k is NULL "
               "(the config's medium is host memory: pass T as a device array)");
    IONF_CHECK(q_sigma || t->run->range.cell_count == 0, IONF_ERR_INPUT,
               "ionf_thermal_solve with IONF_MEMORY_DEVICE: q_sigma_w_per_m3 is NULL");
    return api_thermal_device_gas(&t->cfg, f->p_atm, f->x_h2o, f->x_co2);
  }
  /* host: NULL -> the config's medium */
  const struct thermal_run *r = t->run;
  if (!f->t_k) f->t_k = r->t_k;
  if (!f->p_atm) f->p_atm = r->p_atm;
  if (!f->x_h2o) f->x_h2o = r->x_h2o;
  if (!f->x_co2) f->x_co2 = r->x_co2;
  if (t->cfg.setup.gas_model == THERMAL_GAS_GREY) f->p_atm = f->x_h2o = f->x_co2 = NULL;
  return thermal_run_check_fields("ionf_thermal_solve", f, r->cells);
}

static ionf_err api_thermal_solve(ionf_thermal *t, struct thermal_fields *f, double *q,
                                  double *q_sigma, int memory) {
  IONF_CALL(api_thermal_check(t));
  ionf_err rc = api_thermal_args(t, f, q, q_sigma, memory), any = rc;
  if (comm_agree(rc, &any) != IONF_OK && rc == IONF_OK) rc = IONF_ERR_MPI;
  if (rc == IONF_OK && any != IONF_OK)
    rc = ionf_error_set(IONF_ERR_PEER, "another rank's ionf_thermal_solve arguments were refused");
  IONF_CALL(rc);
  double *sigma = q_sigma, *scratch = NULL;
  if (!sigma) { /* host only (device needs it): the errors computed and dropped */
    scratch = ionf_malloc(sizeof(double) * (size_t)(t->run->range.cell_count + 1), "sigma");
    IONF_CHECK(scratch, IONF_ERR_MEM, "out of memory");
    sigma = scratch;
  }
  t->solved = 0;
  rc = thermal_run_solve(t->run, f, memory == IONF_MEMORY_DEVICE, q, sigma);
  free(scratch);
  if (rc == IONF_OK) t->solved = 1;
  return rc;
}

ionf_status ionf_thermal_solve(ionf_thermal *t, const double *t_k, const double *p_atm,
                               const double *x_h2o, const double *x_co2, double *q_w_per_m3,
                               double *q_sigma_w_per_m3, int memory) {
  api_begin();
  struct thermal_fields f = {t_k, p_atm, x_h2o, x_co2};
  return api_end(NULL, api_thermal_solve(t, &f, q_w_per_m3, q_sigma_w_per_m3, memory));
}

ionf_status ionf_thermal_wall_shape(const ionf_thermal *t, int face, int64_t dims[2]) {
  api_begin();
  ionf_err rc = api_thermal_check(t);
  if (rc == IONF_OK && (face < 0 || face >= THERMAL_FACES))
    rc = ionf_error_set(IONF_ERR_INPUT, "face %d: 0..5 (x_lo, x_hi, y_lo, y_hi, z_lo, z_hi)",
                        face);
  if (rc != IONF_OK) return api_end(NULL, rc);
  int64_t n_u, n_v;
  int64_t count = thermal_io_face_patches(&t->cfg.setup, face, &n_u, &n_v);
  if (dims) {
    dims[0] = count ? n_u : 0;
    dims[1] = count ? n_v : 0;
  }
  return IONF_STATUS_OK;
}

ionf_status ionf_thermal_wall_flux(const ionf_thermal *t, int face, double *q_w_per_m2,
                                   double *q_sigma_w_per_m2, int64_t count) {
  api_begin();
  ionf_err rc = api_thermal_check(t);
  if (rc == IONF_OK && (face < 0 || face >= THERMAL_FACES))
    rc = ionf_error_set(IONF_ERR_INPUT, "face %d: 0..5 (x_lo, x_hi, y_lo, y_hi, z_lo, z_hi)",
                        face);
  if (rc == IONF_OK && !t->solved)
    rc = ionf_error_set(IONF_ERR_USAGE, "no wall fluxes yet: call ionf_thermal_solve first");
  if (rc != IONF_OK) return api_end(NULL, rc);
  int64_t first = 0, n_u, n_v;
  for (int g = 0; g < face; ++g) first += thermal_io_face_patches(&t->cfg.setup, g, &n_u, &n_v);
  int64_t patches = thermal_io_face_patches(&t->cfg.setup, face, &n_u, &n_v);
  if (count != patches)
    return api_end(NULL, ionf_error_set(IONF_ERR_INPUT,
                                        "face %s has %lld wall patches (%s); count is %lld",
                                        config_thermal_face_names[face], (long long)patches,
                                        patches ? "ionf_thermal_wall_shape" : "a periodic axis",
                                        (long long)count));
  if (patches > 0 && !q_w_per_m2)
    return api_end(NULL, ionf_error_set(IONF_ERR_INPUT, "q_w_per_m2 is NULL"));
  if (patches > 0) {
    memcpy(q_w_per_m2, t->run->wall_q_w_per_m2 + first, sizeof(double) * (size_t)patches);
    if (q_sigma_w_per_m2)
      memcpy(q_sigma_w_per_m2, t->run->wall_q_sigma_w_per_m2 + first,
             sizeof(double) * (size_t)patches);
  }
  return IONF_STATUS_OK;
}

ionf_status ionf_thermal_stats(const ionf_thermal *t, int64_t *rays, int64_t *steps,
                               double *solve_s) {
  api_begin();
  ionf_err rc = api_thermal_check(t);
  if (rc != IONF_OK) return api_end(NULL, rc);
  if (rays) *rays = t->run->rays_traced;
  if (steps) *steps = t->run->steps_traced;
  if (solve_s) *solve_s = t->run->solve_s;
  return IONF_STATUS_OK;
}

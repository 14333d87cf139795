/**
 * @file api.c
 * @brief The public C API (include/ionfront.h) over the engine (src/engine/engine.h),
 *        for grid and particle runs alike.
 *
 * Each call clears the internal error record, checks its arguments (a NULL or
 * wrong-size argument is an IONF_STATUS_INPUT/USAGE, never a crash), calls the
 * engine and, on failure, copies the message to the engine's and the calling
 * thread's last-error buffers.
 */
#define _POSIX_C_SOURCE 200809L
#include "ionfront.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "mpi/comm.h"
#include "config/config.h"
#include "config/config_file.h"
#include "engine/engine.h"
#include "core/error.h"
#include "core/ionf_config.h"
#include "config/problems.h"
#include "chem/species.h"
#include "config/sph_config.h"
#include "io/snapshot.h"

_Static_assert(IONF_STATUS_CONFIG == IONF_ERR_CONFIG && IONF_STATUS_INPUT == IONF_ERR_INPUT &&
                   IONF_STATUS_IO == IONF_ERR_IO && IONF_STATUS_MEM == IONF_ERR_MEM &&
                   IONF_STATUS_GPU == IONF_ERR_GPU && IONF_STATUS_GPU_MEM == IONF_ERR_GPU_MEM &&
                   IONF_STATUS_MPI == IONF_ERR_MPI &&
                   IONF_STATUS_UNSUPPORTED == IONF_ERR_UNSUPPORTED &&
                   IONF_STATUS_INTERNAL == IONF_ERR_INTERNAL && IONF_STATUS_USAGE == IONF_ERR_USAGE &&
                   IONF_STATUS_PEER == IONF_ERR_PEER && IONF_STATUS_STOPPED == IONF_STOPPED,
               "public status codes must equal the internal ones");
_Static_assert(IONF_LOG_INFO == IONF_LOG_LEVEL_INFO && IONF_LOG_RANK_INFO == IONF_LOG_LEVEL_RANK_INFO &&
                   IONF_LOG_WARNING == IONF_LOG_LEVEL_WARNING,
               "public log levels must equal the internal ones");

#define API_MESSAGE_SIZE 2048
#define API_MAGIC 0x696f6e66u /* "ionf": catches a stale or foreign pointer */

struct ionf_engine {
  unsigned magic;
  int particles;          /* a particle run: its config is sph_cfg, else cfg */
  struct ionf_config cfg; /* the engine borrows its config: it lives as long as the engine */
  struct sph_config sph_cfg;
  struct engine *core;    /* the engine, grid or particles */
  char message[API_MESSAGE_SIZE];
};

static _Thread_local char thread_message[API_MESSAGE_SIZE];

/* The ranks' layout (mpi/comm.c) is per process: engines alive together share one
   communicator. */
static int live_engines = 0;
static int live_comm = IONF_COMM_WORLD;

/* Start of every call: forget older failures. */
void api_begin(void) { ionf_error_clear(); }

/* End of every call: keep the message of a failure where the caller can read it. */
ionf_status api_end(ionf_engine *e, ionf_err rc) {
  if (rc == IONF_OK) return IONF_STATUS_OK;
  const char *text = ionf_error_message();
  if (!text[0]) text = ionf_error_name(rc);
  snprintf(thread_message, sizeof thread_message, "%s", text);
  if (e && e->magic == API_MAGIC) snprintf(e->message, sizeof e->message, "%s", text);
  return (ionf_status)rc;
}

static ionf_err check_engine(const ionf_engine *e) {
  IONF_CHECK(e != NULL, IONF_ERR_USAGE, "the engine is NULL");
  IONF_CHECK(e->magic == API_MAGIC && e->core != NULL, IONF_ERR_USAGE,
             "not a live ionfront engine (destroyed, or not from ionf_engine_create_*)");
  return IONF_OK;
}

ionf_err api_check_engine(const ionf_engine *e) { return check_engine(e); }

struct engine *api_engine_core(ionf_engine *e) {
  return e && e->magic == API_MAGIC ? e->core : NULL;
}

const struct sph_config *api_engine_sph_config(const ionf_engine *e) {
  return e && e->magic == API_MAGIC && e->particles ? &e->sph_cfg : NULL;
}

const struct ionf_config *api_engine_config(const ionf_engine *e) {
  if (!e || e->magic != API_MAGIC) return NULL;
  return e->particles ? &e->sph_cfg.base : &e->cfg;
}

int ionf_api_version(void) { return IONF_API_VERSION; }

const char *ionf_version_string(void) { return IONF_VERSION " (git " IONF_GIT_SHA ")"; }

const char *ionf_status_name(ionf_status status) { return ionf_error_name((ionf_err)status); }

const char *ionf_last_error_message(const ionf_engine *engine) {
  if (engine && engine->magic == API_MAGIC) return engine->message;
  return thread_message;
}

void ionf_set_log_handler(void (*handler)(int level, const char *text, void *user), void *user) {
  ionf_log_set_handler(handler, user);
}

ionf_status ionf_init(void) {
  api_begin();
  return api_end(NULL, comm_attach(IONF_COMM_WORLD));
}

ionf_status ionf_finalize(void) {
  api_begin();
  if (live_engines > 0)
    return api_end(NULL, ionf_error_set(IONF_ERR_USAGE, "%d engine(s) still alive: destroy them "
                                        "before ionf_finalize", live_engines));
  comm_detach(); /* the library's duplicate communicator */
  if (comm_started_mpi()) comm_finalize();
  return IONF_STATUS_OK;
}

/* ---- creation -------------------------------------------------------------------- */

enum config_origin { FROM_FILE, FROM_YAML, FROM_BUILTIN };

/* The engine of a config's text `f` (a grid or, with a particles: section, a particle run). */
static ionf_err create_from(const struct config_file *f, const char *const *overrides,
                            int n_overrides, int mpi_comm, ionf_engine **out) {
  ionf_engine *e = ionf_calloc(1, sizeof *e, "the API engine");
  if (!e) return IONF_ERR_MEM;
  /* config_load takes char *const *: the strings are only read */
  char *const *ov = (char *const *)overrides;
  ionf_err rc;
  e->particles = config_file_is_particle_run(f);
  ionf_error_clear(); /* a text that does not parse fails again, with its message, below */
  if (e->particles) { /* a particles: section: the particle engine */
    rc = sph_config_load_file(f, ov, n_overrides, &e->sph_cfg);
    if (rc == IONF_OK) rc = engine_create_particles(&e->sph_cfg, NULL, &e->core);
  } else {
    rc = config_load_file(f, ov, n_overrides, &e->cfg);
    if (rc == IONF_OK) rc = engine_create(&e->cfg, &e->core);
  }
  if (rc != IONF_OK) {
    engine_destroy(e->core);
    if (e->particles) sph_config_free(&e->sph_cfg);
    else config_free(&e->cfg);
    free(e);
    return rc;
  }
  e->magic = API_MAGIC;
  *out = e;
  live_engines++;
  live_comm = mpi_comm;
  return IONF_OK;
}

static ionf_err create_check(const char *const *overrides, int n_overrides, int mpi_comm,
                             ionf_engine **out) {
  IONF_CHECK(out != NULL, IONF_ERR_INPUT, "the output pointer for the engine is NULL");
  *out = NULL;
  IONF_CHECK(n_overrides >= 0 && (n_overrides == 0 || overrides != NULL), IONF_ERR_INPUT,
             "%d override(s) but the override list is NULL or the count negative", n_overrides);
  for (int i = 0; i < n_overrides; ++i)
    IONF_CHECK(overrides[i] != NULL, IONF_ERR_INPUT, "override %d is NULL", i);
  return api_comm_claim(mpi_comm);
}

ionf_err api_comm_claim(int mpi_comm) {
  IONF_CHECK(live_engines == 0 || mpi_comm == live_comm, IONF_ERR_UNSUPPORTED,
             "the engines of one process share one communicator: %d engine(s) use handle %d, "
             "this one asks for %d (destroy them first)",
             live_engines, live_comm, mpi_comm);
  return comm_attach(mpi_comm);
}

void api_handle_born(int mpi_comm) {
  live_engines++;
  live_comm = mpi_comm;
}

void api_handle_gone(void) { live_engines--; }

/* A file is read once, by rank 0, and its text sent to every rank (a pipe or a shell's
   <(...) can be read once, on one rank: config_file.h). */
static ionf_err create(enum config_origin origin, const char *what, const char *const *overrides,
                       int n_overrides, int mpi_comm, ionf_engine **out) {
  IONF_CALL(create_check(overrides, n_overrides, mpi_comm, out));
  struct config_file f;
  if (origin == FROM_FILE && what) IONF_CALL(config_file_read(what, &f));
  else if (origin == FROM_FILE) IONF_CALL(config_file_builtin(PROBLEMS_DEFAULT, &f));
  else if (origin == FROM_BUILTIN) IONF_CALL(config_file_builtin(what ? what : PROBLEMS_DEFAULT, &f));
  else config_file_of_text(what, "YAML text", &f);
  ionf_err rc = create_from(&f, overrides, n_overrides, mpi_comm, out);
  config_file_free(&f);
  return rc;
}

ionf_err api_engine_create_from_config(const struct config_file *f, const char *const *overrides,
                                       int n_overrides, int mpi_comm, ionf_engine **out) {
  IONF_CALL(create_check(overrides, n_overrides, mpi_comm, out));
  return create_from(f, overrides, n_overrides, mpi_comm, out);
}

ionf_status ionf_engine_create_from_file(const char *path, const char *const *overrides,
                                         int n_overrides, int mpi_comm, ionf_engine **out) {
  api_begin();
  return api_end(NULL, create(FROM_FILE, path, overrides, n_overrides, mpi_comm, out));
}

ionf_status ionf_engine_create_from_yaml(const char *yaml_text, const char *const *overrides,
                                         int n_overrides, int mpi_comm, ionf_engine **out) {
  api_begin();
  ionf_err rc = yaml_text ? create(FROM_YAML, yaml_text, overrides, n_overrides, mpi_comm, out)
                          : ionf_error_set(IONF_ERR_INPUT, "the YAML text is NULL");
  if (!yaml_text && out) *out = NULL;
  return api_end(NULL, rc);
}

ionf_status ionf_engine_create_builtin(const char *name, const char *const *overrides,
                                       int n_overrides, int mpi_comm, ionf_engine **out) {
  api_begin();
  return api_end(NULL, create(FROM_BUILTIN, name, overrides, n_overrides, mpi_comm, out));
}

void ionf_engine_destroy(ionf_engine *e) {
  if (!e || e->magic != API_MAGIC) return;
  e->magic = 0;
  live_engines--;
  engine_destroy(e->core);
  if (e->particles) sph_config_free(&e->sph_cfg);
  else config_free(&e->cfg);
  e->core = NULL;
  free(e);
}

/* ---- queries ---------------------------------------------------------------------- */

ionf_status ionf_engine_kind(const ionf_engine *e, int *kind, int64_t *particle_count) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc != IONF_OK) return api_end((ionf_engine *)e, rc);
  if (kind) *kind = e->particles ? IONF_ENGINE_PARTICLES : IONF_ENGINE_GRID;
  if (particle_count) *particle_count = e->particles ? e->core->particles->set.count : 0;
  return IONF_STATUS_OK;
}

ionf_status ionf_engine_grid(const ionf_engine *e, int64_t *n, double *box_cm, double *cell_cm) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc == IONF_OK && e->particles)
    rc = ionf_error_set(IONF_ERR_USAGE, "a particle run has no grid (ionf_engine_kind gives the "
                        "particle count)");
  if (rc != IONF_OK) return api_end((ionf_engine *)e, rc);
  const struct engine *c = e->core;
  double cell = engine_grid_now(c).cell_cm; /* proper at the current time, not mid-step */
  if (n) *n = c->grid.n;
  if (cell_cm) *cell_cm = cell;
  if (box_cm) *box_cm = cell * (double)c->grid.n;
  return IONF_STATUS_OK;
}

ionf_status ionf_engine_time(const ionf_engine *e, double *time_s, int64_t *step, double *dt_s,
                             double *t_end_s) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc != IONF_OK) return api_end((ionf_engine *)e, rc);
  const struct ionf_config *cfg = api_engine_config(e);
  if (time_s) *time_s = e->core->time_s;
  if (step) *step = e->core->step;
  if (dt_s) *dt_s = cfg->dt_s;
  if (t_end_s) *t_end_s = cfg->t_end_s;
  return IONF_STATUS_OK;
}

ionf_status ionf_engine_rank(const ionf_engine *e, int *rank, int *size) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc != IONF_OK) return api_end((ionf_engine *)e, rc);
  if (rank) *rank = comm_rank();
  if (size) *size = comm_size();
  return IONF_STATUS_OK;
}

/* ---- fields ----------------------------------------------------------------------- */

enum field_kind { FIELD_KIND_N_H, FIELD_KIND_T, FIELD_KIND_X, FIELD_KIND_GAMMA };

/* The field `name`: its kind, species and host array; the message lists the names. */
static ionf_err find_field(struct engine *c, const char *name, enum field_kind *kind, int *species,
                           double **data) {
  IONF_CHECK(name != NULL, IONF_ERR_INPUT, "the field name is NULL");
  int64_t cells = c->fields.cells;
  *species = 0;
  if (!strcmp(name, "n_H")) {
    *kind = FIELD_KIND_N_H;
    *data = c->fields.n_h_cm3;
    return IONF_OK;
  }
  if (!strcmp(name, "T")) {
    *kind = FIELD_KIND_T;
    *data = c->fields.temperature_k;
    return IONF_OK;
  }
  char known[512] = "n_H, T";
  size_t used = strlen(known);
  for (int s = 0; s < c->fields.n_species; ++s) {
    const struct species_names *sn = species_names_of(s);
    char x_name[32], gamma_name[32];
    snprintf(x_name, sizeof x_name, "x_%s", sn->ion_name);
    snprintf(gamma_name, sizeof gamma_name, "Gamma_%s", sn->name);
    if (!strcmp(name, x_name) || !strcmp(name, gamma_name)) {
      *kind = name[0] == 'x' ? FIELD_KIND_X : FIELD_KIND_GAMMA;
      *species = s;
      *data = fields_species(*kind == FIELD_KIND_X ? c->fields.x_ion : c->fields.gamma_per_s, cells, s);
      return IONF_OK;
    }
    used += (size_t)snprintf(known + used, sizeof known - used, ", %s, %s", x_name, gamma_name);
  }
  return ionf_error_set(IONF_ERR_USAGE, "no field '%s'; the fields are %s", name, known);
}

/* A particle run's per-particle array `name`; *writable for x_HII and T. */
static ionf_err find_particle_field(struct engine *c, const char *name, double **data,
                                    int64_t dims[3], int *writable) {
  IONF_CHECK(name != NULL, IONF_ERR_INPUT, "the field name is NULL");
  const struct particle_set *set = &c->particles->set;
  int64_t n = set->count;
  int64_t d[3] = {n, 1, 1};
  *writable = 0;
  if (!strcmp(name, "x_HII")) {
    *data = fields_species(c->fields.x_ion, n, SPECIES_HI);
    *writable = 1;
  } else if (!strcmp(name, "T")) {
    *data = c->fields.temperature_k;
    *writable = 1;
  } else if (!strcmp(name, "Gamma_HI")) {
    *data = fields_species(c->fields.gamma_per_s, n, SPECIES_HI);
  } else if (!strcmp(name, "n_H")) {
    *data = c->fields.n_h_cm3;
  } else if (!strcmp(name, "h_cm")) {
    *data = set->h_cm;
  } else if (!strcmp(name, "mass_g")) {
    *data = set->mass_g;
  } else if (!strcmp(name, "position_cm")) {
    *data = set->pos_cm;
    d[1] = 3;
  } else {
    return ionf_error_set(IONF_ERR_USAGE, "no particle field '%s'; the fields are x_HII, T, "
                          "Gamma_HI, n_H, h_cm, mass_g, position_cm", name);
  }
  if (dims) memcpy(dims, d, sizeof d);
  return IONF_OK;
}

/* Validate a particle run's changed x_HII or T (the next step starts from them). */
static ionf_err particle_field_modified(struct engine *c, const char *name) {
  double *data;
  int writable;
  IONF_CALL(find_particle_field(c, name, &data, NULL, &writable));
  IONF_CHECK(writable, IONF_ERR_USAGE, "particle field '%s' is read-only (x_HII and T can be set)",
             name);
  int is_x = !strcmp(name, "x_HII");
  for (int64_t i = 0; i < c->particles->set.count; ++i)
    IONF_CHECK(isfinite(data[i]) && (is_x ? data[i] >= 0.0 && data[i] <= 1.0 : data[i] > 0.0),
               IONF_ERR_INPUT, "%s[%lld] = %g: %s", name, (long long)i, data[i],
               is_x ? "ion fractions must lie in [0, 1]" : "temperatures must be finite and > 0");
  return IONF_OK;
}

ionf_status ionf_engine_field(ionf_engine *e, const char *name, double **data, int64_t dims[3]) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc == IONF_OK && !data) rc = ionf_error_set(IONF_ERR_INPUT, "the data pointer is NULL");
  if (rc == IONF_OK && e->particles) { /* host arrays: nothing to synchronize */
    int writable;
    double *found = NULL;
    rc = find_particle_field(e->core, name, &found, dims, &writable);
    if (rc == IONF_OK) *data = found;
    return api_end(e, rc);
  }
  enum field_kind kind;
  int species;
  double *found = NULL;
  if (rc == IONF_OK) rc = find_field(e->core, name, &kind, &species, &found);
  if (rc == IONF_OK) rc = engine_sync_to_host(e->core);
  if (rc != IONF_OK) return api_end(e, rc);
  *data = found;
  if (dims)
    for (int a = 0; a < 3; ++a) dims[a] = e->core->grid.box.extent[a];
  return IONF_STATUS_OK;
}

ionf_status ionf_engine_local_box(const ionf_engine *e, int64_t first[3], int64_t extent[3],
                                  int64_t *halo) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc == IONF_OK && e->particles)
    rc = ionf_error_set(IONF_ERR_USAGE, "a particle run has no grid (every rank holds every "
                        "particle)");
  if (rc != IONF_OK) return api_end((ionf_engine *)e, rc);
  const struct grid_box *b = &e->core->grid.box;
  for (int a = 0; a < 3; ++a) {
    if (first) first[a] = b->lo[a];
    if (extent) extent[a] = b->extent[a];
  }
  if (halo) *halo = b->halo;
  return IONF_STATUS_OK;
}

/* The caller's changes to a host field n_H, T or x_*: validated, taken into the working
   copies.  Nothing is changed when a value is refused. */
static ionf_err field_take(struct engine *c, enum field_kind kind, int species, const char *name,
                           double *data) {
  int64_t cells = c->fields.cells;
  struct backend *be = c->backend;
  switch (kind) {
    case FIELD_KIND_GAMMA:
      return ionf_error_set(IONF_ERR_USAGE,
                            "'%s' is computed by every step's ray tracing; it cannot be set", name);
    case FIELD_KIND_N_H: {
      double sum = 0.0;
      for (int64_t i = 0; i < cells; ++i) {
        IONF_CHECK(isfinite(data[i]) && data[i] >= 0.0, IONF_ERR_INPUT,
                   "n_H[%lld] = %g: densities must be finite and >= 0", (long long)i, data[i]);
        sum += data[i];
      }
      c->sum_n_h_cm3 = sum;
      c->uniform_density = 0; /* no analytic front for an arbitrary density */
      return be->ops.upload(be, FIELD_N_H, 0, cells);
    }
    case FIELD_KIND_T:
      for (int64_t i = 0; i < cells; ++i)
        IONF_CHECK(isfinite(data[i]) && data[i] > 0.0, IONF_ERR_INPUT,
                   "T[%lld] = %g K: temperatures must be finite and > 0", (long long)i, data[i]);
      c->uniform_temperature = 0;
      if (c->fields.temperature_av_k) {
        memcpy(c->fields.temperature_av_k, data, sizeof(double) * (size_t)cells);
        memcpy(c->fields.temperature_end_k, data, sizeof(double) * (size_t)cells);
        return be->ops.upload(be, FIELD_T | FIELD_T_AV | FIELD_T_END, 0, cells);
      }
      return be->ops.upload(be, FIELD_T, 0, cells);
    case FIELD_KIND_X:
      for (int64_t i = 0; i < cells; ++i)
        IONF_CHECK(isfinite(data[i]) && data[i] >= 0.0 && data[i] <= 1.0, IONF_ERR_INPUT,
                   "%s[%lld] = %g: ion fractions must lie in [0, 1]", name, (long long)i, data[i]);
      /* the step starts from x: its averaged and end copies too (as a restart) */
      memcpy(fields_species(c->fields.x_ion_av, cells, species), data, sizeof(double) * (size_t)cells);
      memcpy(fields_species(c->fields.x_ion_end, cells, species), data, sizeof(double) * (size_t)cells);
      return be->ops.upload(be, FIELD_X | FIELD_X_AV | FIELD_X_END, 0, cells);
  }
  return IONF_OK;
}

/* Take the caller's changes to a host field into the engine's working copies. */
static ionf_err field_modified(struct engine *c, const char *name) {
  enum field_kind kind;
  int species;
  double *data;
  IONF_CALL(find_field(c, name, &kind, &species, &data));
  return field_take(c, kind, species, name, data);
}

ionf_status ionf_engine_field_modified(ionf_engine *e, const char *name) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc == IONF_OK)
    rc = e->particles ? particle_field_modified(e->core, name) : field_modified(e->core, name);
  return api_end(e, rc);
}

/* Copy `values` into `target` (count doubles) and validate them with `check`; the old
   values come back when they are refused, so a rejected value never reaches the state. */
static ionf_err replace_checked(struct engine *c, const char *name, double *target,
                                const double *values, int64_t count,
                                ionf_err (*check)(struct engine *, const char *)) {
  double *old = ionf_malloc(sizeof(double) * (size_t)(count > 0 ? count : 1), "the previous values");
  if (!old) return IONF_ERR_MEM;
  memcpy(old, target, sizeof(double) * (size_t)count);
  memcpy(target, values, sizeof(double) * (size_t)count);
  ionf_err rc = check(c, name);
  if (rc != IONF_OK) memcpy(target, old, sizeof(double) * (size_t)count);
  free(old);
  return rc;
}

static ionf_err set_particle_field(struct engine *c, const char *name, const double *values,
                                   int64_t count) {
  double *target = NULL;
  int writable = 0;
  int64_t dims[3];
  IONF_CALL(find_particle_field(c, name, &target, dims, &writable));
  IONF_CHECK(values, IONF_ERR_INPUT, "the values of '%s' are NULL", name);
  IONF_CHECK(writable, IONF_ERR_USAGE, "particle field '%s' is read-only (x_HII and T can be set)",
             name);
  IONF_CHECK(count == dims[0], IONF_ERR_INPUT, "%lld values given for '%s'; the run has %lld particles",
             (long long)count, name, (long long)dims[0]);
  return replace_checked(c, name, target, values, count, particle_field_modified);
}

static ionf_err set_grid_field(struct engine *c, const char *name, const double *values,
                               int64_t count) {
  enum field_kind kind;
  int species;
  double *data = NULL;
  int64_t cells = c->fields.cells;
  IONF_CALL(find_field(c, name, &kind, &species, &data));
  IONF_CHECK(values, IONF_ERR_INPUT, "the values of '%s' are NULL", name);
  IONF_CHECK(count == cells, IONF_ERR_INPUT,
             "%lld values given for '%s'; this rank holds %lld cells of the %lld^3 grid",
             (long long)count, name, (long long)cells, (long long)c->grid.n);
  IONF_CHECK(kind != FIELD_KIND_GAMMA, IONF_ERR_USAGE,
             "'%s' is computed by every step's ray tracing; it cannot be set", name);
  /* the host copy must be current in every other cell and species first */
  IONF_CALL(engine_sync_to_host(c));
  return replace_checked(c, name, data, values, count, field_modified);
}

ionf_status ionf_engine_set_field(ionf_engine *e, const char *name, const double *values,
                                  int64_t count) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc == IONF_OK)
    rc = e->particles ? set_particle_field(e->core, name, values, count)
                      : set_grid_field(e->core, name, values, count);
  return api_end(e, rc);
}

/* ---- sources ---------------------------------------------------------------------- */

static ionf_err set_sources(struct engine *c, int64_t count, const double *positions, int units,
                            const double *ndot_per_s) {
  IONF_CHECK(count >= 0, IONF_ERR_INPUT, "source count %lld < 0", (long long)count);
  IONF_CHECK(count == 0 || (positions && ndot_per_s), IONF_ERR_INPUT,
             "%lld source(s) but the positions or rates are NULL", (long long)count);
  IONF_CHECK(units == IONF_POSITION_CELLS || units == IONF_POSITION_CM, IONF_ERR_INPUT,
             "position units %d: IONF_POSITION_CELLS (0) or IONF_POSITION_CM (1)", units);
  int64_t n = c->grid.n;
  double cell_cm = c->grid.cell_cm;
  if (c->cfg->cosmological) cell_cm = c->cfg->box_size_cm / (double)n / (1.0 + engine_redshift(c));
  struct source_list list;
  IONF_CALL(sources_alloc(count, &list));
  ionf_err rc = IONF_OK;
  for (int64_t s = 0; s < count && rc == IONF_OK; ++s) {
    for (int d = 0; d < 3 && rc == IONF_OK; ++d) {
      double p = positions[3 * s + d];
      double cell = units == IONF_POSITION_CM ? floor(p / cell_cm) : floor(p);
      if (!(isfinite(p) && cell >= 0.0 && cell < (double)n))
        rc = ionf_error_set(IONF_ERR_INPUT, "source %lld: position[%d] = %g %s lies outside the "
                            "box (0 to %lld cells, %g cm)", (long long)s, d, p,
                            units == IONF_POSITION_CM ? "cm" : "cells", (long long)n,
                            cell_cm * (double)n);
      else
        list.ijk[3 * s + d] = (int32_t)cell;
    }
    list.ndot_per_s[s] = ndot_per_s[s];
  }
  if (rc == IONF_OK) rc = sources_validate(&list, n, "ionf_engine_set_sources");
  if (rc == IONF_OK) rc = sources_merge_same_cell(&list, n);
  if (rc != IONF_OK) {
    sources_free(&list);
    return rc;
  }
  sources_free(&c->sources);
  c->sources = list;
  return engine_share_sources(c);
}

/* A particle run's sources: positions in cm in the particles' frame; ranks share them by slabs. */
static ionf_err set_particle_sources(struct engine *c, int64_t count, const double *positions,
                                     int units, const double *ndot_per_s) {
  IONF_CHECK(count >= 0, IONF_ERR_INPUT, "source count %lld < 0", (long long)count);
  IONF_CHECK(count == 0 || (positions && ndot_per_s), IONF_ERR_INPUT,
             "%lld source(s) but the positions or rates are NULL", (long long)count);
  IONF_CHECK(units == IONF_POSITION_CM, IONF_ERR_INPUT,
             "position units %d: a particle run takes source positions in cm (IONF_POSITION_CM)",
             units);
  const struct particle_set *set = &c->particles->set;
  for (int64_t s = 0; s < count; ++s) {
    for (int d = 0; d < 3; ++d) {
      double x = positions[3 * s + d];
      int outside = !isfinite(x) || (set->has_box && (x < 0.0 || x >= set->box_size_cm[d]));
      IONF_CHECK(!outside, IONF_ERR_INPUT, "source %lld: position[%d] = %g cm lies outside the box",
                 (long long)s, d, x);
    }
    IONF_CHECK(isfinite(ndot_per_s[s]) && ndot_per_s[s] > 0.0, IONF_ERR_INPUT,
               "source %lld has Ndot = %g; must be finite and > 0", (long long)s, ndot_per_s[s]);
  }
  struct source_list list;
  IONF_CALL(sources_from_positions(count, positions, ndot_per_s, &list));
  sources_free(&c->sources);
  c->sources = list;
  return engine_share_sources(c);
}

ionf_status ionf_engine_set_sources(ionf_engine *e, int64_t count, const double *positions,
                                    int position_units, const double *ndot_per_s) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc == IONF_OK && e->particles)
    rc = set_particle_sources(e->core, count, positions, position_units, ndot_per_s);
  else if (rc == IONF_OK)
    rc = set_sources(e->core, count, positions, position_units, ndot_per_s);
  return api_end(e, rc);
}

ionf_status ionf_engine_source_count(const ionf_engine *e, int64_t *count) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc == IONF_OK && !count) rc = ionf_error_set(IONF_ERR_INPUT, "the count pointer is NULL");
  if (rc != IONF_OK) return api_end((ionf_engine *)e, rc);
  *count = e->core->sources.n;
  return IONF_STATUS_OK;
}

/* ---- time stepping and outputs ---------------------------------------------------- */

ionf_status ionf_engine_step(ionf_engine *e, double dt_s, int *iterations) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc == IONF_OK && !(isfinite(dt_s) && dt_s > 0.0))
    rc = ionf_error_set(IONF_ERR_INPUT, "time step dt_s = %g s: must be finite and > 0", dt_s);
  struct engine_step_info info;
  if (rc == IONF_OK) rc = engine_step(e->core, dt_s, &info);
  if (rc == IONF_OK && iterations) *iterations = info.iterations;
  return api_end(e, rc);
}

ionf_err api_engine_run_report(ionf_engine *e, struct engine_report *report) {
  IONF_CALL(check_engine(e));
  return engine_run(e->core, report);
}

ionf_status ionf_engine_run(ionf_engine *e) {
  api_begin();
  struct engine_report report;
  ionf_err rc = api_engine_run_report(e, &report);
  return api_end(e, rc);
}

ionf_status ionf_engine_write_snapshot(ionf_engine *e, int index, char *path, size_t path_size) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc == IONF_OK && (index < 0 || index > 9999))
    rc = ionf_error_set(IONF_ERR_INPUT, "snapshot index %d: 0 to 9999", index);
  if (rc == IONF_OK) rc = engine_write_snapshot(e->core, index, path, path_size);
  return api_end(e, rc);
}

ionf_status ionf_engine_write_checkpoint(ionf_engine *e, char *path, size_t path_size) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc == IONF_OK) rc = engine_write_checkpoint(e->core, path, path_size);
  return api_end(e, rc);
}

ionf_status ionf_engine_restart(ionf_engine *e, const char *checkpoint_path) {
  api_begin();
  ionf_err rc = check_engine(e);
  if (rc == IONF_OK && !checkpoint_path)
    rc = ionf_error_set(IONF_ERR_INPUT, "the checkpoint path is NULL");
  if (rc == IONF_OK) rc = engine_restart(e->core, checkpoint_path);
  return api_end(e, rc);
}

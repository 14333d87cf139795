/**
 * @file thermal_run.c
 * @brief A thermal-radiation run over the MPI ranks (thermal_run.h).
 */
#include "engine/thermal_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/thermal_backend.h"
#include "engine/thermal_profile.h"
#include "io/output_dir.h"
#include "io/thermal_io.h"
#include "mpi/comm.h"
#include "mpi/comm_blocks.h"

void thermal_run_range(const struct thermal_setup *s, int rank, int size,
                       struct thermal_range *r) {
  comm_slab(s->n[0] * s->n[1] * s->n[2], rank, size, &r->cell_first, &r->cell_count);
  comm_slab(thermal_wall_patches(s), rank, size, &r->wall_first, &r->wall_count);
}

/* The arrays of the medium: T, and for WSGG the pressure and both mole fractions. */
static int thermal_run_medium_arrays(const struct config_thermal *cfg) {
  return cfg->setup.gas_model == THERMAL_GAS_GREY ? 1 : 4;
}

double thermal_run_memory_bytes(const struct config_thermal *cfg) {
  const struct thermal_setup *s = &cfg->setup;
  double cells = (double)s->n[0] * (double)s->n[1] * (double)s->n[2];
  double walls = (double)thermal_wall_patches(s);
  /* the medium, the gathered Q and sigma (the command line), every wall's q and sigma and
     this rank's share of them */
  return 8.0 * (cells * (thermal_run_medium_arrays(cfg) + 2) + 4.0 * walls);
}

void thermal_run_destroy(struct thermal_run *r) {
  if (!r) return;
  free(r->t_k);
  free(r->p_atm);
  free(r->x_h2o);
  free(r->x_co2);
  free(r->wall_q_w_per_m2);
  free(r->wall_q_sigma_w_per_m2);
  free(r);
}

/* Rank 0 reads the fields file, every rank gets its arrays (or rank 0's error). */
static ionf_err thermal_run_read(struct thermal_run *r) {
  const struct config_thermal *cfg = r->cfg;
  double *out[CONFIG_THERMAL_FIELDS] = {r->t_k, r->p_atm, r->x_h2o, r->x_co2};
  const char *names[CONFIG_THERMAL_FIELDS];
  for (int f = 0; f < CONFIG_THERMAL_FIELDS; ++f)
    names[f] = out[f] ? cfg->dataset[f] : NULL; /* a grey gas reads T only */
  ionf_err rc = IONF_OK, shared = IONF_OK;
  if (comm_rank() == 0) rc = thermal_io_read(cfg->file, names, CONFIG_THERMAL_FIELDS, cfg->setup.n, out);
  IONF_CALL(comm_share_error(rc, 0, &shared));
  IONF_CALL(shared);
  for (int f = 0; f < CONFIG_THERMAL_FIELDS; ++f)
    if (names[f] && names[f][0]) IONF_CALL(comm_bcast(out[f], r->cells, 0));
  return IONF_OK;
}

/* Every cell's T finite and >= 0, the pressure > 0 and the mole fractions in [0, 1]. */
ionf_err thermal_run_check_fields(const char *where, const struct thermal_fields *f,
                                  int64_t cells) {
  for (int64_t c = 0; c < cells; ++c) {
    IONF_CHECK(isfinite(f->t_k[c]) && f->t_k[c] >= 0.0, IONF_ERR_INPUT,
               "%s: T[%lld] = %g K: temperatures must be finite and >= 0", where, (long long)c,
               f->t_k[c]);
    IONF_CHECK(!f->p_atm || (isfinite(f->p_atm[c]) && f->p_atm[c] > 0.0), IONF_ERR_INPUT,
               "%s: pressure[%lld] = %g atm: must be finite and > 0", where, (long long)c,
               f->p_atm ? f->p_atm[c] : 0.0);
    IONF_CHECK(!f->x_h2o || (f->x_h2o[c] >= 0.0 && f->x_h2o[c] <= 1.0), IONF_ERR_INPUT,
               "%s: x_H2O[%lld] = %g: mole fractions lie in [0, 1]", where, (long long)c,
               f->x_h2o ? f->x_h2o[c] : 0.0);
    IONF_CHECK(!f->x_co2 || (f->x_co2[c] >= 0.0 && f->x_co2[c] <= 1.0), IONF_ERR_INPUT,
               "%s: x_CO2[%lld] = %g: mole fractions lie in [0, 1]", where, (long long)c,
               f->x_co2 ? f->x_co2[c] : 0.0);
  }
  return IONF_OK;
}

/* The run's medium: the profile (every rank computes the same) or the file; the uniform
   gas values where no dataset gives them. */
static ionf_err thermal_run_medium(struct thermal_run *r) {
  const struct config_thermal *cfg = r->cfg;
  if (r->p_atm) { /* WSGG: uniform first; a dataset read below replaces it */
    thermal_profile_fill(r->p_atm, r->cells, cfg->pressure_atm);
    thermal_profile_fill(r->x_h2o, r->cells, cfg->x_h2o);
    thermal_profile_fill(r->x_co2, r->cells, cfg->x_co2);
  }
  if (cfg->profile == CONFIG_THERMAL_FILE) IONF_CALL(thermal_run_read(r));
  else IONF_CALL(thermal_profile_temperature(cfg, r->t_k));
  struct thermal_fields f = {r->t_k, r->p_atm, r->x_h2o, r->x_co2};
  char where[IONF_PATH_MAX + 16];
  snprintf(where, sizeof where, "%s", cfg->profile == CONFIG_THERMAL_FILE ? cfg->file : cfg->config_name);
  return thermal_run_check_fields(where, &f, r->cells);
}

static ionf_err thermal_run_make(const struct config_thermal *cfg, struct thermal_run *r) {
  const struct thermal_setup *s = &cfg->setup;
  r->cfg = cfg;
  r->cells = s->n[0] * s->n[1] * s->n[2];
  r->walls = thermal_wall_patches(s);
  thermal_run_range(s, comm_rank(), comm_size(), &r->range);
  IONF_CALL(thermal_backend_choose(cfg->backend, &r->backend, r->backend_text,
                                   sizeof r->backend_text));
  size_t cells = (size_t)r->cells, walls = (size_t)(r->walls > 0 ? r->walls : 1);
  IONF_CHECK((r->t_k = ionf_malloc(cells * sizeof(double), "the temperature")) != NULL,
             IONF_ERR_MEM, "out of memory for T (%zu cells)", cells);
  if (s->gas_model != THERMAL_GAS_GREY) {
    r->p_atm = ionf_malloc(cells * sizeof(double), "the pressure");
    r->x_h2o = ionf_malloc(cells * sizeof(double), "x_H2O");
    r->x_co2 = ionf_malloc(cells * sizeof(double), "x_CO2");
    IONF_CHECK(r->p_atm && r->x_h2o && r->x_co2, IONF_ERR_MEM, "out of memory for the gas");
  }
  r->wall_q_w_per_m2 = ionf_calloc(walls, sizeof(double), "the wall fluxes");
  r->wall_q_sigma_w_per_m2 = ionf_calloc(walls, sizeof(double), "the wall fluxes' errors");
  IONF_CHECK(r->wall_q_w_per_m2 && r->wall_q_sigma_w_per_m2, IONF_ERR_MEM,
             "out of memory for the wall fluxes");
  return thermal_run_medium(r);
}

ionf_err thermal_run_create(const struct config_thermal *cfg, struct thermal_run **out) {
  *out = NULL;
  struct thermal_run *r = ionf_calloc(1, sizeof *r, "the thermal run");
  ionf_err rc = r ? thermal_run_make(cfg, r) : IONF_ERR_MEM;
  ionf_err any = rc;
  if (comm_agree(rc, &any) != IONF_OK && rc == IONF_OK) rc = IONF_ERR_MPI;
  if (rc == IONF_OK && any != IONF_OK)
    rc = ionf_error_set(IONF_ERR_PEER, "another rank failed to set up the thermal run");
  if (rc != IONF_OK) {
    thermal_run_destroy(r);
    ionf_error_trace(__func__, __FILE__, __LINE__);
    return rc;
  }
  *out = r;
  return IONF_OK;
}

ionf_err thermal_run_solve(struct thermal_run *r, const struct thermal_fields *f,
                           int device_pointers, double *q, double *q_sigma) {
  struct thermal_fields own = {r->t_k, r->p_atm, r->x_h2o, r->x_co2};
  const struct thermal_range *g = &r->range;
  /* this rank's wall patches land at their place in the whole list, gathered after */
  struct thermal_result res = {q, q_sigma, r->wall_q_w_per_m2 + g->wall_first,
                               r->wall_q_sigma_w_per_m2 + g->wall_first, 0, 0};
  double t0 = ionf_wtime();
  ionf_err rc = thermal_backend_solve(r->backend, &r->cfg->setup, f ? f : &own, g, &res,
                                      device_pointers);
  ionf_err any = rc;
  if (comm_agree(rc, &any) != IONF_OK && rc == IONF_OK) rc = IONF_ERR_MPI;
  if (rc == IONF_OK && any != IONF_OK)
    rc = ionf_error_set(IONF_ERR_PEER, "another rank's thermal solve failed");
  if (rc != IONF_OK) {
    ionf_error_trace(__func__, __FILE__, __LINE__);
    return rc;
  }
  double counts[2] = {(double)res.rays_traced, (double)res.steps_traced};
  if (r->walls > 0) {
    IONF_CALL(comm_blocks_allgather(r->wall_q_w_per_m2, r->walls));
    IONF_CALL(comm_blocks_allgather(r->wall_q_sigma_w_per_m2, r->walls));
  }
  IONF_CALL(comm_allreduce_sum(counts, 2));
  r->rays_traced = (int64_t)counts[0];
  r->steps_traced = (int64_t)counts[1];
  r->solve_s = ionf_wtime() - t0; /* after the collectives: the slowest rank's time */
  return IONF_OK;
}

void thermal_run_sigma_stats(const double *q, const double *q_sigma, int64_t n, double *mean,
                             double *max) {
  double sum = 0.0, worst = 0.0;
  int64_t used = 0;
  for (int64_t c = 0; c < n; ++c) {
    if (!(fabs(q[c]) > 0.0) || !isfinite(q_sigma[c])) continue;
    double rel = q_sigma[c] / fabs(q[c]);
    sum += rel;
    if (rel > worst) worst = rel;
    ++used;
  }
  *mean = used > 0 ? sum / (double)used : 0.0;
  *max = worst;
}

/* ---- the command line's run ----------------------------------------------------------- */

static void thermal_run_log_setup(const struct thermal_run *r) {
  const struct config_thermal *cfg = r->cfg;
  const struct thermal_setup *s = &cfg->setup;
  char walls[256] = "";
  size_t used = 0;
  for (int f = 0; f < THERMAL_FACES; ++f)
    if (!s->periodic[f / 2])
      used += (size_t)snprintf(walls + used, sizeof walls - used, "%s%s %g K eps %g",
                               used ? ", " : "", config_thermal_face_names[f], s->wall[f].t_k,
                               s->wall[f].emissivity);
  ionf_message0("thermal radiation: %lld x %lld x %lld cells of %.4g x %.4g x %.4g m, periodic "
                "[%s, %s, %s]; walls: %s",
                (long long)s->n[0], (long long)s->n[1], (long long)s->n[2], s->cell_m[0],
                s->cell_m[1], s->cell_m[2], s->periodic[0] ? "x" : "-",
                s->periodic[1] ? "y" : "-", s->periodic[2] ? "z" : "-", used ? walls : "none");
  char gas[160];
  if (s->gas_model == THERMAL_GAS_GREY)
    snprintf(gas, sizeof gas, "grey, kappa = %g 1/m", s->kappa_per_m);
  else
    snprintf(gas, sizeof gas, "wsgg (Bordbar et al. 2014)");
  ionf_message0("gas %s; medium %s%s; %lld rays per element, seed %u; backend %s", gas,
                cfg->profile == CONFIG_THERMAL_FILE ? "from " : "profile ",
                cfg->profile == CONFIG_THERMAL_FILE ? cfg->file
                                                    : config_thermal_profile_names[cfg->profile],
                (long long)s->rays_per_element, (unsigned)s->seed, r->backend_text);
}

/* The elements each rank computes (rank 0 logs every rank's). */
static void thermal_run_log_ranks(const struct thermal_setup *s) {
  int p = comm_size();
  for (int rank = 0; rank < p && rank < 16; ++rank) {
    struct thermal_range g;
    thermal_run_range(s, rank, p, &g);
    ionf_message0("rank %d: cells %lld..%lld (%lld), wall patches %lld..%lld (%lld)", rank,
                  (long long)g.cell_first, (long long)(g.cell_first + g.cell_count - 1),
                  (long long)g.cell_count, (long long)g.wall_first,
                  (long long)(g.wall_first + g.wall_count - 1), (long long)g.wall_count);
  }
  if (p > 16) ionf_message0("(%d more ranks)", p - 16);
}

/* Rank 0 writes thermal.h5; every rank learns the outcome. */
static ionf_err thermal_run_write(const struct thermal_run *r, const double *q,
                                  const double *q_sigma, const char *path) {
  ionf_err rc = IONF_OK, shared = IONF_OK;
  if (comm_rank() == 0) {
    struct thermal_io_result res = {
        &r->cfg->setup, r->t_k, q, q_sigma, r->wall_q_w_per_m2, r->wall_q_sigma_w_per_m2,
        r->rays_traced, r->steps_traced, config_thermal_gas_name(r->cfg->setup.gas_model),
        r->cfg->effective_yaml, r->cfg->config_name, config_thermal_face_names};
    rc = thermal_io_write(path, &res);
  }
  IONF_CALL(comm_share_error(rc, 0, &shared));
  return shared;
}

/* The solve, the gather and the file of a made run. */
static ionf_err thermal_run_body(struct thermal_run *r, struct thermal_run_report *rep,
                                 double *q, double *q_sigma) {
  const struct config_thermal *cfg = r->cfg;
  int len = snprintf(rep->path, sizeof rep->path, "%s/%s", cfg->output_dir, THERMAL_IO_FILE_NAME);
  IONF_CHECK(len > 0 && (size_t)len < sizeof rep->path, IONF_ERR_CONFIG,
             "output.directory '%s' is too long", cfg->output_dir);
  IONF_CALL(output_dir_claim_all(cfg->output_dir,
                                 cfg->overwrite ? OUTPUT_DIR_OVERWRITE : OUTPUT_DIR_NEW));
  const struct thermal_range *g = &r->range;
  IONF_CALL(thermal_run_solve(r, NULL, 0, q + g->cell_first, q_sigma + g->cell_first));
  IONF_CALL(comm_blocks_allgather(q, r->cells));
  IONF_CALL(comm_blocks_allgather(q_sigma, r->cells));
  rep->solve_s = r->solve_s;
  rep->rays_traced = r->rays_traced;
  rep->steps_traced = r->steps_traced;
  thermal_run_sigma_stats(q, q_sigma, r->cells, &rep->sigma_rel_mean, &rep->sigma_rel_max);
  double elements = (double)(r->cells + r->walls);
  ionf_message0("solved %lld cells and %lld wall patches, %lld rays (%lld cell crossings) in "
                "%.3f s: %.4g element-rays per second; relative sigma of Q^R: mean %.3g, max "
                "%.3g",
                (long long)r->cells, (long long)r->walls, (long long)r->rays_traced,
                (long long)r->steps_traced, r->solve_s,
                r->solve_s > 0.0 ? elements * (double)cfg->setup.rays_per_element / r->solve_s
                                 : 0.0,
                rep->sigma_rel_mean, rep->sigma_rel_max);
  IONF_CALL(thermal_run_write(r, q, q_sigma, rep->path));
  ionf_message0("wrote %s", rep->path);
  return IONF_OK;
}

ionf_err thermal_run_execute(const struct config_thermal *cfg, struct thermal_run_report *rep) {
  memset(rep, 0, sizeof *rep);
  struct thermal_run *r = NULL;
  IONF_CALL(thermal_run_create(cfg, &r));
  thermal_run_log_setup(r);
  if (cfg->progress) thermal_run_log_ranks(&cfg->setup);
  double *q = ionf_calloc((size_t)r->cells, sizeof(double), "Q^R");
  double *q_sigma = ionf_calloc((size_t)r->cells, sizeof(double), "Q^R's sigma");
  ionf_err rc = q && q_sigma ? IONF_OK : IONF_ERR_MEM;
  ionf_err any = rc;
  if (comm_agree(rc, &any) != IONF_OK && rc == IONF_OK) rc = IONF_ERR_MPI;
  if (rc == IONF_OK && any != IONF_OK) rc = ionf_error_set(IONF_ERR_PEER, "another rank ran out of memory");
  if (rc == IONF_OK) rc = thermal_run_body(r, rep, q, q_sigma);
  free(q);
  free(q_sigma);
  thermal_run_destroy(r);
  return rc;
}

ionf_err thermal_run_plan(const struct config_thermal *cfg) {
  const struct thermal_setup *s = &cfg->setup;
  struct thermal_run *r = NULL;
  /* the medium made or read as the run would (a bad file fails here) */
  IONF_CALL(thermal_run_create(cfg, &r));
  thermal_run_log_setup(r);
  int64_t walls = r->walls, cells = r->cells;
  thermal_run_destroy(r);
  double rays = (double)(cells + walls) * (double)s->rays_per_element;
  ionf_message0("plan: %lld cells + %lld wall patches, %.4g rays in all over %d rank(s); "
                "output %s/%s",
                (long long)cells, (long long)walls, rays, comm_size(), cfg->output_dir,
                THERMAL_IO_FILE_NAME);
  thermal_run_log_ranks(s);
  double mib = thermal_run_memory_bytes(cfg) / 1048576.0;
  ionf_message0("memory per rank: host %.3g MiB (every rank holds the whole medium)", mib);
  return IONF_OK;
}

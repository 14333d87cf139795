/**
 * @file grid_domain.c
 * @brief The grid domain: a run on the cells of a grid box -- its set-up (density,
 *        sources, clumps, Monte Carlo state), its tracers (ASORA or Monte Carlo
 *        packets, plane sources) and chemistry on the backend's device, and what a
 *        step of it needs beyond the engine's loop (a production run's interval, an
 *        expanding box's dilution, the means, Monte Carlo's adaptation).
 *        Outputs, checkpoints and the I-front record: grid_output.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "config/config_subgrid.h"
#include "config/config_views.h"
#include "core/ionf_config.h"
#include "engine/domain.h"
#include "engine/engine_memory.h"
#include "engine/grid_output.h"
#include "engine/partition.h"
#include "engine/sequence.h"
#include "grid/clumps.h"
#include "grid/ifront.h"
#include "io/io_density.h"
#include "io/io_sources.h"
#include "mpi/comm.h"
#include "rt/asora/asora.h"
#include "rt/planar/planar.h"
#include "synth/synth_inputs.h"

/* ---- set-up ---------------------------------------------------------------------- */

static ionf_err load_density(struct engine *e) {
  const struct ionf_config *cfg = e->cfg;
  double *n_h = e->fields.n_h_cm3;
  if (cfg->sequence.density_pattern[0]) { /* the first redshift's file: sequence_load */
    e->uniform_density = 0;
    return IONF_OK;
  }
  if (cfg->n_h_cm3.from_file) {
    e->uniform_density = 0;
    return io_density_read_box(cfg->n_h_cm3.file, cfg->n_h_cm3.dataset, e->grid.n, &e->grid.box,
                               n_h);
  }
  e->uniform_density = 1;
  for (int64_t c = 0; c < e->fields.cells; ++c) n_h[c] = cfg->n_h_cm3.value;
  return IONF_OK;
}

static ionf_err load_sources(struct engine *e) {
  const struct ionf_config *cfg = e->cfg;
  const char *origin = cfg->config_name;
  if (cfg->sequence.halo_pattern[0]) /* none until the first catalogue: sequence_load */
    return sources_alloc(0, &e->sources);
  if (cfg->source_file[0]) {
    IONF_CALL(io_sources_read_grid(cfg->source_file, cfg->source_format, e->grid.n,
                                   &e->sources));
    origin = cfg->source_file;
  } else {
    IONF_CALL(sources_alloc(cfg->n_sources_inline, &e->sources));
    memcpy(e->sources.ijk, cfg->source_ijk, 3 * sizeof(int32_t) * (size_t)cfg->n_sources_inline);
    memcpy(e->sources.ndot_per_s, cfg->source_ndot_per_s,
           sizeof(double) * (size_t)cfg->n_sources_inline);
  }
  IONF_CALL(sources_validate(&e->sources, e->grid.n, origin));
  return sources_merge_same_cell(&e->sources, e->grid.n);
}

/* synthetic: rank 0 makes the missing input files; every rank learns the outcome
   before anyone reads them. */
static ionf_err make_synthetic_inputs(const struct ionf_config *cfg) {
  if (cfg->synthetic.kind == SYNTHETIC_NONE) return IONF_OK;
  ionf_err rc = comm_rank() == 0 ? synth_inputs_make(cfg) : IONF_OK;
  ionf_err any = IONF_OK;
  IONF_CALL(comm_agree(rc, &any));
  IONF_CALL(rc);
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "rank 0 failed to make the synthetic inputs");
  return IONF_OK;
}

/* The chemistry's parameters: case A when the Monte Carlo diffuse field carries the
   ground-state recombinations (the analytic fronts keep case B). */
static struct chem_params grid_chem(const struct engine *e) {
  struct chem_params p = e->chem;
  if (e->mc_on && e->mc.recombination_emission) p.alpha_b_1e4_cm3_s = e->mc.alpha_a_1e4_cm3_s;
  return p;
}

/* The sub-grid models at the step's redshift (an expanding box's: the middle of the step,
   e->z_density; a static run's: its fixed z): raytracing.mean_free_path's photon radius, and
   chemistry.clumping's parameters with the grid's mean n_H (every rank's cells, once). */
static void grid_subgrid_step(struct engine *e) {
  const struct ionf_config *cfg = e->cfg;
  const double z = cfg->cosmological ? e->z_density : cfg->z_initial;
  e->r_max_cells = config_subgrid_r_max_cells(cfg, z);
  e->clumping_now =
      clumping_model_step(&cfg->clumping, z, e->sum_n_h_cm3 / (double)e->global_cells);
}

/* The initial state: x_HII and T everywhere, clumps over n_H and T, the sum of n_H. */
static void initial_state(struct engine *e) {
  const struct ionf_config *cfg = e->cfg;
  int64_t cells = e->fields.cells;
  /* hydrogen starts at material.x_HII_initial, helium at x_HeII_initial, x_HeIII_initial */
  const double x0[IONF_MAX_SPECIES] = {cfg->x_hii_initial, cfg->x_heii_initial,
                                       cfg->x_heiii_initial};
  for (int s = 0; s < e->fields.n_species; ++s) {
    double *x = fields_species(e->fields.x_ion, cells, s);
    double *x_av = fields_species(e->fields.x_ion_av, cells, s);
    double *x_end = fields_species(e->fields.x_ion_end, cells, s);
    for (int64_t c = 0; c < cells; ++c) x[c] = x_av[c] = x_end[c] = x0[s];
  }
  for (int64_t c = 0; c < cells; ++c) e->fields.temperature_k[c] = cfg->temperature_k;
  /* clumps over the density and the initial temperature, in the config's (comoving) box */
  e->clump_cells = clumps_paint(cfg->clumps, cfg->n_clumps, e->grid.n, &e->grid.box,
                                cfg->box_size_cm / (double)e->grid.n, e->fields.n_h_cm3,
                                e->fields.temperature_k);
  if (e->clump_cells > 0) e->uniform_density = 0;
  e->uniform_temperature = e->clump_cells == 0;
  for (int64_t c = 0; c < cells; ++c)
    if (e->fields.temperature_av_k) {
      e->fields.temperature_av_k[c] = e->fields.temperature_k[c];
      e->fields.temperature_end_k[c] = e->fields.temperature_k[c];
    }
}

/* A split grid: a clump painted on any rank's box makes the medium non-uniform on all. */
static ionf_err clumps_agree(struct engine *e) {
  int any = 0;
  IONF_CALL(comm_max_int(e->clump_cells > 0, &any));
  if (any) e->uniform_density = 0;
  e->uniform_temperature = !any;
  return IONF_OK;
}

ionf_err engine_sum_n_h(struct engine *e, double *sum_out) {
  const struct decomp *d = &e->decomp;
  const double *n_h = e->fields.n_h_cm3 + d->own_offset * d->plane_cells;
  double sum_n = 0.0;
  for (int64_t c = 0; c < d->own_count * d->plane_cells; ++c) sum_n += n_h[c];
  if (decomp_exchanges(d)) IONF_CALL(comm_allreduce_sum(&sum_n, 1));
  *sum_out = sum_n;
  return IONF_OK;
}

/* The grid, its box (the whole grid, or a slab and its halo: grid/decomp.h) and the
   fields over it. */
static ionf_err grid_fields_make(struct engine *e, enum decomp_kind kind) {
  const struct ionf_config *cfg = e->cfg;
  e->grid.n = cfg->n_cells_1d;
  e->grid.cell_cm = cfg->box_size_cm / (double)cfg->n_cells_1d;
  if (cfg->cosmological) { /* a comoving box: proper cells are (1+z) times smaller */
    e->cosmo = cosmology_flat(cfg->hubble_h, cfg->omega_m, cfg->omega_b, cfg->t_cmb0_k);
    e->age_start_s = cosmology_age_s(&e->cosmo, cfg->z_initial);
    e->z_density = cfg->z_initial;
    e->grid.cell_cm /= 1.0 + cfg->z_initial;
  }
  e->grid.periodic = cfg->periodic;
  /* the halo: ceil(R_max), the largest photon radius of the run */
  IONF_CALL(decomp_make(kind, e->grid.n, e->grid.periodic, cfg->r_max_cells, comm_rank(),
                        comm_size(), &e->decomp));
  e->r_max_cells = cfg->r_max_cells;
  e->grid.box = e->decomp.box;
  e->global_cells = grid_cells(e->grid.n);
  e->slab_units = e->grid.n; /* slabs of i-planes */
  e->slab_unit_cells = e->grid.n * e->grid.n;
  e->seq_interval = -1;
  e->seq_n_suppressed = -1;
  IONF_CALL(fields_alloc(grid_box_cells(&e->grid.box), !cfg->isothermal,
                         config_views_species_count(cfg), &e->fields));
  e->fields.abundance_he = cfg->abundance_he;
  return IONF_OK;
}

ionf_err engine_create(const struct ionf_config *cfg, struct engine **out) {
  *out = NULL;
  IONF_CALL(make_synthetic_inputs(cfg));
  struct engine_memory need; /* refused here, naming the figures, rather than killed later */
  IONF_CALL(engine_memory_check_grid(cfg, &need));
  struct engine *e = ionf_calloc(1, sizeof *e, "the engine");
  if (!e) return IONF_ERR_MEM;
  e->cfg = cfg;
  e->memory = need;
  e->kind = ENGINE_GRID;
  e->domain = &grid_domain_ops;
  /* a production run checks all its input files before anything else */
  ionf_err rc = grid_fields_make(e, (enum decomp_kind)need.decomposition);
  if (rc == IONF_OK && cfg->sequence.n_redshifts > 1 && cfg->sequence.halo_pattern[0]) {
    e->seq_sources_by_interval = ionf_malloc(
        (size_t)(cfg->sequence.n_redshifts - 1) * sizeof *e->seq_sources_by_interval,
        "the sources of each interval");
    if (!e->seq_sources_by_interval) rc = ionf_error_set(IONF_ERR_MEM, "out of memory");
  }
  if (rc == IONF_OK && cfg->sequence.n_redshifts > 0)
    rc = sequence_check_inputs(e, e->seq_sources_by_interval);
  if (rc == IONF_OK) rc = load_density(e);
  if (rc == IONF_OK) rc = load_sources(e);
  struct photo_spectrum spectrum = config_views_spectrum(cfg);
  struct species_data species[IONF_MAX_SPECIES];
  config_views_species(cfg, species);
  e->chem = config_views_chem(cfg);
  /* with helium the band tables give the rates; hydrogen's tables then only carry the
     species' threshold cross-sections (grey: nothing to integrate) */
  if (e->fields.n_species > 1) spectrum.type = SPECTRUM_GREY;
  if (rc == IONF_OK) rc = photo_tables_build(&spectrum, species, !cfg->isothermal, &e->tables);
  if (rc == IONF_OK) photo_tables_cut(&e->tables, cfg->transmission_cutoff);
  if (rc == IONF_OK) rc = engine_helium_make(e);
  if (rc == IONF_OK && cfg->method == RT_METHOD_MONTECARLO) {
    rc = mc_state_init(&cfg->montecarlo, &spectrum, species, &e->chem, e->grid.n, &e->mc);
    e->mc_on = rc == IONF_OK;
    e->mc.rank = comm_rank();
    e->mc.ranks = comm_size();
  }
  if (rc == IONF_OK) {
    initial_state(e);
    rc = engine_sum_n_h(e, &e->sum_n_h_cm3);
  }
  if (rc == IONF_OK && decomp_exchanges(&e->decomp)) rc = clumps_agree(e);
  if (rc == IONF_OK) {
    e->chem_now = grid_chem(e);
    grid_subgrid_step(e); /* at z_initial, until the first step sets its own */
    rc = engine_setup_compute(e, cfg->backend);
  }
  /* the first redshift's density and halos, through the same path as the later ones */
  if (rc == IONF_OK && cfg->sequence.n_redshifts > 0) rc = sequence_load(e, 0, 1);
  if (rc != IONF_OK) {
    ionf_error_trace(__func__, __FILE__, __LINE__);
    engine_destroy(e);
    return rc;
  }
  *out = e;
  return IONF_OK;
}

/* ---- the domain's ops -------------------------------------------------------------- */

/* The point-source tracer (ASORA or Monte Carlo) and, on one rank, the plane sources,
   on the backend's device; the chemistry there too. */
static ionf_err grid_make_compute(struct engine *e) {
  const struct ionf_config *cfg = e->cfg;
  struct backend *be = e->backend;
  int cuda = be->device >= 0;
  struct tracer *t = NULL;
  ionf_err rc = IONF_ERR_UNSUPPORTED;
  if (e->mc_on) {
    struct mc_tracer_setup ms = {e->grid, cfg->r_max_cells, &e->mc, be->stream};
    rc = cuda ? IONF_ERR_UNSUPPORTED : mc_tracer_create_cpu(&ms, &t);
#if IONF_HAVE_CUDA
    if (cuda) rc = mc_tracer_create_cuda(&ms, &t);
#endif
  } else {
    struct asora_tracer_setup as = {.grid = e->grid,
                                    .r_max_cells = cfg->r_max_cells,
                                    .tables = be->tables,
                                    .bands = be->bands,
                                    .n_species = e->fields.n_species,
                                    .order = ASORA_ORDER_LINES,
                                    .source_batch_size = cfg->source_batch_size,
                                    .stream = be->stream};
    rc = cuda ? IONF_ERR_UNSUPPORTED : asora_tracer_create_cpu(&as, &t);
#if IONF_HAVE_CUDA
    if (cuda) rc = asora_tracer_create_cuda(&as, &t);
#endif
  }
  IONF_CALL(rc);
  e->tracers[e->n_tracers++] = t;
  /* one rank traces the plane sources, so the sum over ranks counts them once */
  if (comm_rank() == 0 && cfg->n_planes > 0) {
    struct planar_tracer_setup ps = {e->grid, cfg->planes, cfg->n_planes, be->tables, be->stream};
    rc = cuda ? IONF_ERR_UNSUPPORTED : planar_tracer_create_cpu(&ps, &t);
#if IONF_HAVE_CUDA
    if (cuda) rc = planar_tracer_create_cuda(&ps, &t);
#endif
    IONF_CALL(rc);
    e->tracers[e->n_tracers++] = t;
  }
#if IONF_HAVE_CUDA
  if (cuda) return chem_solver_create_cuda(1, be->stream, &e->chem_solver);
#endif
  return chem_solver_create_cpu(&e->chem_solver);
}

/* Shares balanced by tracing cost; every rank computes the same partition. */
static ionf_err grid_share_sources(struct engine *e) {
  int p = comm_size();
  int64_t *first = ionf_malloc(2 * sizeof(int64_t) * (size_t)p, "the source partition");
  if (!first) return IONF_ERR_MEM;
  int64_t *count = first + p;
  ionf_err (*share)(struct source_list *, int64_t, int, double, int, int64_t *, int64_t *,
                    double *) = decomp_exchanges(&e->decomp) ? partition_sources_by_slab
                                                             : partition_sources;
  ionf_err rc = share(&e->sources, e->grid.n, e->grid.periodic, e->cfg->r_max_cells, p, first,
                      count, &e->source_imbalance);
  e->first_source = first[comm_rank()];
  e->source_count = count[comm_rank()];
  free(first);
  return rc;
}

/*
 * Expanding universe: the step's redshift is the one at its middle (C2-Ray's
 * convention); the density is diluted to it, the proper cell size shrinks with
 * 1/(1+z), and the thermal terms get T_CMB(z) and H(z).
 */
static ionf_err cosmology_step(struct engine *e, double dt_s) {
  double z_half = cosmology_redshift_at_age(&e->cosmo, e->age_start_s + e->time_s + 0.5 * dt_s);
  double ratio = (1.0 + z_half) / (1.0 + e->z_density);
  double density_factor = ratio * ratio * ratio;
  struct chem_params chem = grid_chem(e);
  if (chem.thermal) {
    chem.t_cmb_k = cosmology_t_cmb_k(&e->cosmo, z_half);
    chem.hubble_per_s = cosmology_hubble_per_s(&e->cosmo, z_half);
  }
  if (density_factor != 1.0) IONF_CALL(e->backend->ops.scale_density(e->backend, density_factor));
  e->chem_now = chem;
  e->chem_he_now.t_cmb_k = chem.t_cmb_k;
  e->chem_he_now.hubble_per_s = chem.hubble_per_s;
  e->grid.cell_cm = e->cfg->box_size_cm / (double)e->grid.n / (1.0 + z_half);
  e->sum_n_h_cm3 *= density_factor;
  e->z_density = z_half;
  return IONF_OK;
}

static ionf_err grid_step_prepare(struct engine *e, double dt_s) {
  const struct ionf_config *cfg = e->cfg;
  if (cfg->sequence.n_redshifts > 0) { /* a new interval: its density and halos first */
    int interval = sequence_interval_at(&cfg->sequence, e->time_s, 1e-9 * cfg->dt_s);
    if (interval != e->seq_interval) IONF_CALL(sequence_load(e, interval, 1));
  }
  if (cfg->cosmological) IONF_CALL(cosmology_step(e, dt_s));
  grid_subgrid_step(e);
  e->mc.step = e->step; /* Monte Carlo: new packets each step, the same in its iterations */
  if (e->mc_on) /* the diffuse field's budget: as many packets as all sources, unless set */
    e->mc.recombination_packets = cfg->montecarlo.recombination_packets > 0
                                      ? cfg->montecarlo.recombination_packets
                                      : e->mc.packets_per_source * e->sources.n;
  return IONF_OK;
}

static void grid_step_means(const struct engine *e, const struct chem_pass_result *cr,
                            struct engine_step_info *info) {
  info->x_mean_volume = cr->sum_x_end / (double)e->global_cells;
  info->x_mean_mass =
      e->sum_n_h_cm3 > 0.0 ? cr->sum_x_end_mass / e->sum_n_h_cm3 : info->x_mean_volume;
}

/* montecarlo.target_relative_error: the next step's packets per source (rt/mc/mc.h). */
static ionf_err grid_step_done(struct engine *e) {
  const struct mc_config *mc = &e->cfg->montecarlo;
  if (!e->mc_on || !(mc->target_relative_error > 0.0)) return IONF_OK;
  IONF_CALL(engine_sync_to_host(e));
  double err = mc_front_error(e->gamma_rel_err, e->fields.x_ion, e->fields.cells);
  e->mc.packets_per_source = mc_next_packets(e->mc.packets_per_source, err,
                                             mc->target_relative_error,
                                             mc->max_packets_per_source);
  return IONF_OK;
}

/* Monte Carlo: the error of the whole Gamma, sum w^2 over the ranks, then the ratio. */
static ionf_err grid_sync_host(struct engine *e) {
  if (!e->mc_on) return IONF_OK;
  int64_t cells = e->fields.cells;
  for (int t = 0; t < e->n_tracers; ++t)
    if (e->tracers[t]->ops.sync_host) IONF_CALL(e->tracers[t]->ops.sync_host(e->tracers[t]));
  if (!e->gamma_rel_err) {
    e->gamma_rel_err = ionf_malloc(sizeof(double) * (size_t)cells, "the error of Gamma");
    if (!e->gamma_rel_err) return IONF_ERR_MEM;
  }
  memcpy(e->gamma_rel_err, e->mc.gamma_sq, sizeof(double) * (size_t)cells);
  if (comm_size() > 1) IONF_CALL(comm_allreduce_sum(e->gamma_rel_err, cells));
  mc_relative_error(e->fields.gamma_per_s, /* the HI block */ e->gamma_rel_err, cells,
                    e->gamma_rel_err);
  return IONF_OK;
}

static void grid_destroy(struct engine *e) {
  decomp_free(&e->decomp);
  if (e->mc_on) mc_state_free(&e->mc);
  free(e->gamma_rel_err);
}

const struct domain_ops grid_domain_ops = {
    "grid",           grid_make_compute,     grid_share_sources,    grid_step_prepare,
    grid_step_means,  grid_step_done,        grid_sync_host,        grid_write_output,
    grid_write_checkpoint, grid_restart,     grid_front_csv_open,   grid_front_csv_row,
    grid_destroy};

/* ---- what the run loop and outputs ask of a grid run ------------------------------- */

double engine_redshift(const struct engine *e) {
  if (!e->cfg->cosmological) return -1.0;
  /* on a redshift of a production run's list: that redshift, not its round trip
     through the age (8.799999999999999 for 8.8) */
  const struct sequence_config *seq = &e->cfg->sequence;
  for (int i = 0; i < seq->n_redshifts; ++i)
    if (fabs(e->time_s - seq->times_s[i]) <= 1e-9 * e->cfg->dt_s) return seq->redshifts[i];
  return cosmology_redshift_at_age(&e->cosmo, e->age_start_s + e->time_s);
}

int engine_has_single_source_front(const struct engine *e) {
  /* (a production run's sources and density change: no single front to follow) */
  return e->kind == ENGINE_GRID && e->cfg->sequence.n_redshifts == 0 && e->sources.n == 1 &&
         e->cfg->n_planes == 0 && e->uniform_density && e->cfg->n_h_cm3.value > 0.0;
}

int engine_has_analytic_front(const struct engine *e) {
  /* Stromgren (static) or Shapiro & Giroux (expanding): one fixed temperature, and one
     fixed recombination rate (no clumping, or a constant factor) */
  return engine_has_single_source_front(e) && e->cfg->isothermal && e->uniform_temperature &&
         (e->cfg->clumping.kind == CLUMPING_NONE || e->cfg->clumping.kind == CLUMPING_CONSTANT);
}

double engine_total_ndot(const struct engine *e) {
  double box_cm = e->grid.cell_cm * (double)e->grid.n; /* proper: the flux is per proper area */
  return sources_total_ndot(&e->sources) +
         planar_total_ndot(e->cfg->planes, e->cfg->n_planes, box_cm);
}

double engine_analytic_front_cm(const struct engine *e, double t_s) {
  double alpha = chem_alpha_b(&e->chem, e->cfg->temperature_k);
  if (e->cfg->clumping.kind == CLUMPING_CONSTANT) alpha *= e->cfg->clumping.value;
  if (!e->cfg->cosmological)
    return ifront_analytic_radius_cm(e->sources.ndot_per_s[0], e->cfg->n_h_cm3.value, alpha, t_s);
  /* comoving with a = 1 at z_initial, brought to proper at the redshift of t */
  double age_s = e->age_start_s + t_s;
  double r_comoving = cosmology_sg87_front_comoving_cm(
      e->sources.ndot_per_s[0], e->cfg->n_h_cm3.value, alpha, e->age_start_s, age_s);
  double z = cosmology_redshift_at_age(&e->cosmo, age_s);
  return r_comoving * (1.0 + e->cfg->z_initial) / (1.0 + z);
}

struct grid engine_grid_now(const struct engine *e) {
  /* During a step of an expanding box e->grid.cell_cm is the one at the step's middle;
     a front measured at the step's end must use the redshift of that end. */
  struct grid g = e->grid;
  if (e->cfg->cosmological) g.cell_cm = e->cfg->box_size_cm / (double)g.n / (1.0 + engine_redshift(e));
  return g;
}

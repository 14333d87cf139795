/**
 * @file engine.c
 * @brief The grid engine's set-up, time step and run loop.
 */
#define _POSIX_C_SOURCE 200809L
#include "engine/engine.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chem/chem_k.h"
#include "grid/clumps.h"
#include "mpi/comm.h"
#include "core/constants.h"
#include "grid/ifront.h"
#include "io/io_density.h"
#include "io/io_sources.h"
#include "grid/partition.h"
#include "rt/planar/planar.h"
#include "engine/sequence.h"
#include "chem/species.h"
#include "io/checkpoint.h"
#include "io/output_dir.h"
#include "io/snapshot.h"
#include "synth/synth_inputs.h"
#include "io/export_c2ray.h"
#include "io/xdmf.h"
#include "cosmo/tb21.h"

static ionf_err load_density(struct engine *e) {
  const struct ionf_config *cfg = e->cfg;
  int64_t cells = grid_cells(e->grid.n);
  double *n_h = e->fields.n_h_cm3;
  if (cfg->sequence.density_pattern[0]) { /* the first redshift's file: sequence_load */
    e->uniform_density = 0;
    return IONF_OK;
  }
  if (cfg->n_h_cm3.from_file) {
    e->uniform_density = 0;
    return io_density_read(cfg->n_h_cm3.file, cfg->n_h_cm3.dataset, e->grid.n, n_h);
  }
  e->uniform_density = 1;
  for (int64_t c = 0; c < cells; ++c) n_h[c] = cfg->n_h_cm3.value;
  return IONF_OK;
}

ionf_err engine_share_sources(struct engine *e) {
  /* Shares balanced by tracing cost; every rank computes the same partition. */
  int p = comm_size();
  int64_t *first = ionf_malloc(2 * sizeof(int64_t) * (size_t)p, "the source partition");
  if (!first) return IONF_ERR_MEM;
  int64_t *count = first + p;
  ionf_err rc = partition_sources(&e->sources, e->grid.n, e->grid.periodic, e->cfg->r_max_cells,
                                  p, first, count, &e->source_imbalance);
  e->first_source = first[comm_rank()];
  e->source_count = count[comm_rank()];
  e->ndot_total_per_s = sources_total_ndot(&e->sources);
  free(first);
  return rc;
}

static struct chem_params backend_chem(const struct engine *e);

static ionf_err load_sources(struct engine *e) {
  const struct ionf_config *cfg = e->cfg;
  const char *origin = cfg->config_name;
  if (cfg->sequence.halo_pattern[0]) /* none until the first catalogue: sequence_load */
    return sources_alloc(0, &e->sources);
  if (cfg->source_file[0]) {
    IONF_CALL(io_sources_read(cfg->source_file, cfg->source_format, &e->sources));
    origin = cfg->source_file;
  } else {
    IONF_CALL(sources_alloc(cfg->n_sources_inline, &e->sources));
    memcpy(e->sources.ijk, cfg->source_ijk, 3 * sizeof(int32_t) * (size_t)cfg->n_sources_inline);
    memcpy(e->sources.ndot_per_s, cfg->source_ndot_per_s,
           sizeof(double) * (size_t)cfg->n_sources_inline);
  }
  IONF_CALL(sources_validate(&e->sources, e->grid.n, origin));
  IONF_CALL(sources_merge_same_cell(&e->sources, e->grid.n));
  return engine_share_sources(e);
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

ionf_err engine_create(const struct ionf_config *cfg, struct engine **out) {
  *out = NULL;
  IONF_CALL(make_synthetic_inputs(cfg));
  struct engine *e = ionf_calloc(1, sizeof *e, "the engine");
  if (!e) return IONF_ERR_MEM;
  e->cfg = cfg;
  e->grid.n = cfg->n_cells_1d;
  e->grid.cell_cm = cfg->box_size_cm / (double)cfg->n_cells_1d;
  if (cfg->cosmological) { /* a comoving box: proper cells are (1+z) times smaller */
    e->cosmo = cosmology_flat(cfg->hubble_h, cfg->omega_m, cfg->omega_b, cfg->t_cmb0_k);
    e->age_start_s = cosmology_age_s(&e->cosmo, cfg->z_initial);
    e->z_density = cfg->z_initial;
    e->grid.cell_cm /= 1.0 + cfg->z_initial;
  }
  e->grid.periodic = cfg->periodic;
  e->seq_interval = -1;
  /* a production run checks all its input files before anything else */
  ionf_err rc = cfg->sequence.n_redshifts > 0 ? sequence_check_inputs(e) : IONF_OK;
  if (rc == IONF_OK) rc = grid_fields_alloc(e->grid.n, !cfg->isothermal, &e->fields);
  if (rc == IONF_OK) rc = load_density(e);
  if (rc == IONF_OK) rc = load_sources(e);
  if (rc == IONF_OK) rc = photo_tables_build(cfg, &e->tables);
  if (rc == IONF_OK && cfg->method == RT_METHOD_MONTECARLO) {
    rc = mc_state_init(cfg, e->grid.n, &e->mc);
    e->mc_on = rc == IONF_OK;
    e->mc.rank = comm_rank();
    e->mc.ranks = comm_size();
  }
  if (rc == IONF_OK) {
    int64_t cells = grid_cells(e->grid.n);
    /* hydrogen starts at material.x_HII_initial (other species would start neutral) */
    double *x = grid_species(e->fields.x_ion, e->grid.n, SPECIES_HI);
    double *x_av = grid_species(e->fields.x_ion_av, e->grid.n, SPECIES_HI);
    double *x_end = grid_species(e->fields.x_ion_end, e->grid.n, SPECIES_HI);
    for (int64_t c = 0; c < cells; ++c) {
      x[c] = cfg->x_hii_initial;
      x_av[c] = cfg->x_hii_initial;
      x_end[c] = cfg->x_hii_initial;
      e->fields.temperature_k[c] = cfg->temperature_k;
    }
    /* clumps over the density and the initial temperature, in the config's (comoving) box */
    e->clump_cells = clumps_paint(cfg->clumps, cfg->n_clumps, e->grid.n,
                                  cfg->box_size_cm / (double)e->grid.n, e->fields.n_h_cm3,
                                  e->fields.temperature_k);
    if (e->clump_cells > 0) e->uniform_density = 0;
    e->uniform_temperature = e->clump_cells == 0;
    double sum_n = 0.0;
    for (int64_t c = 0; c < cells; ++c) {
      if (e->fields.temperature_av_k) {
        e->fields.temperature_av_k[c] = e->fields.temperature_k[c];
        e->fields.temperature_end_k[c] = e->fields.temperature_k[c];
      }
      sum_n += e->fields.n_h_cm3[c];
    }
    e->sum_n_h_cm3 = sum_n;
    e->chem = chem_params_from_config(cfg);
    rc = rt_backend_create(cfg->backend, &e->backend);
  }
  if (rc == IONF_OK) {
    struct backend_setup setup;
    setup.grid = e->grid;
    setup.host = &e->fields;
    setup.sources = &e->sources;
    setup.first_source = e->first_source;
    setup.source_count = e->source_count;
    setup.tables = &e->tables;
    setup.chem = backend_chem(e);
    setup.r_max_cells = cfg->r_max_cells;
    setup.source_batch_size = cfg->source_batch_size;
    /* one rank traces the plane sources, so the sum over ranks counts them once */
    setup.planes = cfg->planes;
    setup.n_planes = comm_rank() == 0 ? cfg->n_planes : 0;
    int on_gpu = strcmp(e->backend->type_name, "cuda") == 0;
    setup.want_device_sum =
        on_gpu && (cfg->reduction == REDUCTION_AUTO || cfg->reduction == REDUCTION_NCCL);
    setup.mc = e->mc_on ? &e->mc : NULL;
    rc = e->backend->ops.setup(e->backend, &setup);
    /* the way ranks sum Gamma, as measured best (benchmarks/RESULTS.md) where asked for 'auto' */
    e->reduction = cfg->reduction;
    if (e->reduction == REDUCTION_AUTO)
      e->reduction = !on_gpu ? REDUCTION_SCATTER
                             : e->backend->ops.gamma_allreduce ? REDUCTION_NCCL : REDUCTION_ALLREDUCE;
    if (e->reduction == REDUCTION_NCCL && !e->backend->ops.gamma_allreduce) {
      if (comm_size() > 1)
        ionf_warning("mpi.reduction = nccl, but NCCL is not usable here (%s); summing through the host",
                     on_gpu ? "see the backend line" : "the CPU backend");
      e->reduction = REDUCTION_ALLREDUCE;
    }
    if (rc == IONF_OK) rc = e->backend->ops.upload(e->backend, FIELD_ALL, 0, grid_cells(e->grid.n));
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

void engine_destroy(struct engine *e) {
  if (!e) return;
  rt_backend_destroy(e->backend);
  if (e->mc_on) mc_state_free(&e->mc);
  free(e->gamma_rel_err);
  photo_tables_free(&e->tables);
  sources_free(&e->sources);
  grid_fields_free(&e->fields);
  free(e);
}

static ionf_err mc_adapt_packets(struct engine *e);

/* The rate parameters the chemistry runs with: case A when the Monte Carlo diffuse
   field carries the ground-state recombinations (the analytic fronts keep case B). */
static struct chem_params backend_chem(const struct engine *e) {
  struct chem_params p = e->chem;
  if (e->mc_on && e->mc.recombination_emission) p.alpha_b_1e4_cm3_s = e->mc.alpha_a_1e4_cm3_s;
  return p;
}

/*
 * Test hook (IONFRONT_FAULT_INJECT): "signal:S" raises SIGUSR1 on rank 0 after
 * step S; "trace:R" makes rank R's ray tracing fail; "load:R" makes rank R's
 * reading of a later interval's inputs fail (sequence.c).  Lets the test suite
 * exercise the stop/restart and failure paths for real.
 */
long engine_fault_inject(const char *what) {
  const char *v = getenv("IONFRONT_FAULT_INJECT");
  size_t len = strlen(what);
  if (!v || strncmp(v, what, len) != 0 || v[len] != ':') return -1;
  return strtol(v + len + 1, NULL, 10);
}

/* The convergence sums of a chemistry pass as 6 doubles (to send them), and back. */
static void chem_sums_pack(const struct chem_pass_result *cr, double sums[6]) {
  sums[0] = (double)cr->unconverged_cells;
  sums[1] = (double)cr->cells_at_max_iter;
  sums[2] = cr->sum_x_end;
  sums[3] = cr->sum_x_neutral_end;
  sums[4] = cr->sum_x_end_mass;
  sums[5] = cr->sum_t_end;
}

static void chem_sums_unpack(const double sums[6], struct chem_pass_result *cr) {
  cr->unconverged_cells = (int64_t)sums[0];
  cr->cells_at_max_iter = (int64_t)sums[1];
  cr->sum_x_end = sums[2];
  cr->sum_x_neutral_end = sums[3];
  cr->sum_x_end_mass = sums[4];
  cr->sum_t_end = sums[5];
}

/* Every rank's slab of `field` to every rank (an all-gather by broadcasts). */
static ionf_err share_slabs(const struct engine *e, double *field) {
  int64_t plane = e->grid.n * e->grid.n;
  for (int r = 0; r < comm_size(); ++r) {
    int64_t first, count;
    comm_slab(e->grid.n, r, comm_size(), &first, &count);
    IONF_CALL(comm_bcast(field + first * plane, count * plane, r));
  }
  return IONF_OK;
}

/*
 * Sum the ranks' rates and run one chemistry pass, in the configured way:
 *  - scatter: each rank gets the summed Gamma of its slab of i-planes
 *    (a reduce to each slab's owner), updates its slab, and the slabs of x_av
 *    are broadcast back (an all-gather);
 *  - reduce: rank 0 gets the whole sum, updates every cell, broadcasts x_av;
 *  - allreduce: every rank gets the whole sum and updates every cell;
 *  - nccl: the same, summed in GPU memory by NCCL (no host copies).
 * The convergence sums end up the same on every rank.
 */
/* The host arrays of the fields in `mask` (bits of enum backend_field), in bit order,
   and how many n^3 blocks each holds (IONF_N_SPECIES for the per-species ones). */
static int host_fields(struct engine *e, unsigned mask, double **out, int *blocks) {
  struct grid_fields *f = &e->fields;
  double *by_bit[9] = {f->n_h_cm3,         f->x_ion,          f->x_ion_av,
                       f->x_ion_end,       f->temperature_k,  f->gamma_per_s,
                       f->temperature_av_k, f->temperature_end_k, f->heating_erg_per_s};
  int n = 0;
  for (int b = 0; b < 9; ++b)
    if (mask & (1u << b)) {
      blocks[n] = backend_field_per_species(1u << b) ? IONF_N_SPECIES : 1;
      out[n++] = by_bit[b];
    }
  return n;
}

static ionf_err sum_rates_and_update(struct engine *e, double dt_s, struct chem_pass_result *cr) {
  struct rt_backend *be = e->backend;
  int64_t cells = grid_cells(e->grid.n), plane = e->grid.n * e->grid.n;
  int p = comm_size(), me = comm_rank();
  int thermal = e->fields.heating_erg_per_s != NULL;
  /* the rates summed over ranks, and the averages every rank needs for tracing */
  unsigned rate_bits = FIELD_GAMMA | (thermal ? FIELD_HEAT : 0u);
  unsigned avg_bits = FIELD_X_AV | (thermal ? FIELD_T_AV : 0u);
  double *rates[2], *avgs[2];
  int rate_blocks[2], avg_blocks[2];
  int n_rates = host_fields(e, rate_bits, rates, rate_blocks);
  int n_avgs = host_fields(e, avg_bits, avgs, avg_blocks);
  double t0 = ionf_wtime(), t_chem = 0.0;
  if (p == 1) {
    IONF_CALL(be->ops.chemistry(be, dt_s, 0, cells, cr));
    e->timers.chemistry_s += ionf_wtime() - t0;
    return IONF_OK;
  }
  if (e->reduction == REDUCTION_NCCL) { /* in GPU memory, no host copy */
    IONF_CALL(be->ops.gamma_allreduce(be));
    double c0 = ionf_wtime();
    IONF_CALL(be->ops.chemistry(be, dt_s, 0, cells, cr));
    t_chem = ionf_wtime() - c0;
    e->timers.chemistry_s += t_chem;
    e->timers.reduce_s += c0 - t0;
    return IONF_OK;
  }
  IONF_CALL(be->ops.download(be, rate_bits, 0, cells)); /* host staging */
  double sums[6];
  switch (e->reduction) {
    case REDUCTION_AUTO:
    case REDUCTION_NCCL:
    case REDUCTION_ALLREDUCE: {
      for (int f = 0; f < n_rates; ++f)
        IONF_CALL(comm_allreduce_sum(rates[f], cells * rate_blocks[f]));
      IONF_CALL(be->ops.upload(be, rate_bits, 0, cells));
      double c0 = ionf_wtime();
      IONF_CALL(be->ops.chemistry(be, dt_s, 0, cells, cr));
      t_chem = ionf_wtime() - c0;
      break;
    }
    case REDUCTION_REDUCE: {
      for (int f = 0; f < n_rates; ++f)
        IONF_CALL(comm_reduce_sum(rates[f], cells * rate_blocks[f], 0));
      if (me == 0) {
        IONF_CALL(be->ops.upload(be, rate_bits, 0, cells));
        double c0 = ionf_wtime();
        IONF_CALL(be->ops.chemistry(be, dt_s, 0, cells, cr));
        t_chem = ionf_wtime() - c0;
        IONF_CALL(be->ops.download(be, avg_bits, 0, cells));
        chem_sums_pack(cr, sums);
      }
      for (int f = 0; f < n_avgs; ++f) IONF_CALL(comm_bcast(avgs[f], cells * avg_blocks[f], 0));
      IONF_CALL(comm_bcast(sums, 6, 0));
      if (me != 0) IONF_CALL(be->ops.upload(be, avg_bits, 0, cells));
      chem_sums_unpack(sums, cr);
      break;
    }
    case REDUCTION_SCATTER: {
      int64_t first, count;
      for (int f = 0; f < n_rates; ++f)
        for (int b = 0; b < rate_blocks[f]; ++b)
          for (int r = 0; r < p; ++r) {
            comm_slab(e->grid.n, r, p, &first, &count);
            IONF_CALL(comm_reduce_sum(rates[f] + b * cells + first * plane, count * plane, r));
          }
      comm_slab(e->grid.n, me, p, &first, &count);
      IONF_CALL(be->ops.upload(be, rate_bits, first * plane, count * plane));
      double c0 = ionf_wtime();
      IONF_CALL(be->ops.chemistry(be, dt_s, first * plane, count * plane, cr));
      t_chem = ionf_wtime() - c0;
      IONF_CALL(be->ops.download(be, avg_bits, first * plane, count * plane));
      chem_sums_pack(cr, sums);
      IONF_CALL(comm_allreduce_sum(sums, 6));
      for (int f = 0; f < n_avgs; ++f)
        for (int b = 0; b < avg_blocks[f]; ++b) IONF_CALL(share_slabs(e, avgs[f] + b * cells));
      IONF_CALL(be->ops.upload(be, avg_bits, 0, cells));
      chem_sums_unpack(sums, cr);
      break;
    }
  }
  e->timers.chemistry_s += t_chem;
  e->timers.reduce_s += ionf_wtime() - t0 - t_chem;
  return IONF_OK;
}

/* At the end of a step every rank needs the new x (and T): send them from where
   they were computed. */
static ionf_err share_end_state(struct engine *e) {
  struct rt_backend *be = e->backend;
  int p = comm_size(), me = comm_rank();
  if (p == 1 || e->reduction == REDUCTION_ALLREDUCE || e->reduction == REDUCTION_NCCL)
    return IONF_OK;
  double t0 = ionf_wtime();
  int64_t cells = grid_cells(e->grid.n), plane = e->grid.n * e->grid.n;
  unsigned end_bits = FIELD_X_END | (e->fields.temperature_end_k ? FIELD_T_END : 0u);
  double *ends[2];
  int end_blocks[2];
  int n_ends = host_fields(e, end_bits, ends, end_blocks);
  if (e->reduction == REDUCTION_REDUCE) {
    if (me == 0) IONF_CALL(be->ops.download(be, end_bits, 0, cells));
    for (int f = 0; f < n_ends; ++f) IONF_CALL(comm_bcast(ends[f], cells * end_blocks[f], 0));
  } else {
    int64_t first, count;
    comm_slab(e->grid.n, me, p, &first, &count);
    IONF_CALL(be->ops.download(be, end_bits, first * plane, count * plane));
    for (int f = 0; f < n_ends; ++f)
      for (int b = 0; b < end_blocks[f]; ++b) IONF_CALL(share_slabs(e, ends[f] + b * cells));
  }
  IONF_CALL(be->ops.upload(be, end_bits, 0, cells));
  e->timers.reduce_s += ionf_wtime() - t0;
  return IONF_OK;
}

double engine_redshift(const struct engine *e) {
  if (!e->cfg->cosmological) return -1.0;
  /* on a redshift of a production run's list: that redshift, not its round trip
     through the age (8.799999999999999 for 8.8) */
  const struct sequence_config *seq = &e->cfg->sequence;
  for (int i = 0; i < seq->n_redshifts; ++i)
    if (fabs(e->time_s - seq->times_s[i]) <= 1e-9 * e->cfg->dt_s) return seq->redshifts[i];
  return cosmology_redshift_at_age(&e->cosmo, e->age_start_s + e->time_s);
}

/*
 * Expanding universe: the step's redshift is the one at its middle (C2-Ray's
 * convention); the density is diluted to it, the proper cell size shrinks with
 * 1/(1+z), and the thermal terms get T_CMB(z) and H(z).
 */
static ionf_err cosmology_step(struct engine *e, double dt_s) {
  double z_half = cosmology_redshift_at_age(&e->cosmo, e->age_start_s + e->time_s + 0.5 * dt_s);
  struct backend_step_params p;
  double ratio = (1.0 + z_half) / (1.0 + e->z_density);
  p.density_factor = ratio * ratio * ratio;
  p.cell_cm = e->cfg->box_size_cm / (double)e->grid.n / (1.0 + z_half);
  p.chem = backend_chem(e);
  if (p.chem.thermal) {
    p.chem.t_cmb_k = cosmology_t_cmb_k(&e->cosmo, z_half);
    p.chem.hubble_per_s = cosmology_hubble_per_s(&e->cosmo, z_half);
  }
  IONF_CALL(e->backend->ops.set_step(e->backend, &p));
  e->grid.cell_cm = p.cell_cm;
  e->sum_n_h_cm3 *= p.density_factor;
  e->z_density = z_half;
  return IONF_OK;
}

ionf_err engine_step(struct engine *e, double dt_s, struct engine_step_info *info) {
  const struct ionf_config *cfg = e->cfg;
  struct rt_backend *be = e->backend;
  int64_t cells = grid_cells(e->grid.n);
  if (cfg->sequence.n_redshifts > 0) { /* a new interval: its density and halos first */
    int interval = sequence_interval_at(&cfg->sequence, e->time_s, 1e-9 * cfg->dt_s);
    if (interval != e->seq_interval) IONF_CALL(sequence_load(e, interval, 1));
  }
  if (cfg->cosmological) IONF_CALL(cosmology_step(e, dt_s));
  IONF_CALL(be->ops.step_begin(be));
  e->mc.step = e->step; /* Monte Carlo: new packets each step, the same in its iterations */
  if (e->mc_on) /* the diffuse field's budget: as many packets as all sources, unless set */
    e->mc.recombination_packets = cfg->montecarlo.recombination_packets > 0
                                      ? cfg->montecarlo.recombination_packets
                                      : e->mc.packets_per_source * e->sources.n;

  /* C2-Ray's global criterion: few cells still changing, or sums settled. */
  double tol = cfg->convergence_fraction;
  int64_t by_count = (int64_t)(tol * (double)cells);
  int64_t by_sources = (e->sources.n - 1) / 3;
  int64_t conv_cells = by_count < by_sources ? by_count : by_sources;
  double prev_sum_ion = 2.0 * (double)cells, prev_sum_neutral = 2.0 * (double)cells;
  double prev_sum_t = -1.0;
  int thermal = e->fields.temperature_av_k != NULL;
  struct chem_pass_result cr;
  memset(&cr, 0, sizeof cr);
  info->converged = 0;
  for (info->iterations = 1; info->iterations <= cfg->max_iterations; ++info->iterations) {
    double t0 = ionf_wtime();
    struct trace_stats ts = {0};
    /* A rank whose tracing fails (GPU memory, ...) must not leave the others
       waiting in the reduction: agree first. */
    ionf_err rc = be->ops.trace(be, &ts);
    if (rc == IONF_OK && engine_fault_inject("trace") == comm_rank())
      rc = ionf_error_set(IONF_ERR_GPU_MEM, "rank %d: ray tracing failed (injected fault)",
                          comm_rank());
    ionf_err any;
    IONF_CALL(comm_agree(rc, &any));
    IONF_CALL(rc);
    IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "another rank failed while ray tracing");
    e->cells_traced += ts.cells_traced;
    e->timers.trace_s += ionf_wtime() - t0;
    IONF_CALL(sum_rates_and_update(e, dt_s, &cr));
    double rel_ion = fabs(cr.sum_x_end - prev_sum_ion) / cr.sum_x_end;
    double rel_neutral = fabs(cr.sum_x_neutral_end - prev_sum_neutral) / cr.sum_x_neutral_end;
    /* with an evolving temperature, the sum of T must settle too (C2-Ray's |dT/T|) */
    int t_settled = !thermal || (prev_sum_t > 0.0 && fabs(cr.sum_t_end - prev_sum_t) <
                                                         tol * cr.sum_t_end);
    prev_sum_ion = cr.sum_x_end;
    prev_sum_neutral = cr.sum_x_neutral_end;
    prev_sum_t = cr.sum_t_end;
    if (cr.unconverged_cells < conv_cells || (rel_ion < tol && rel_neutral < tol && t_settled)) {
      info->converged = 1;
      break;
    }
  }
  if (info->iterations > cfg->max_iterations) info->iterations = cfg->max_iterations;
  IONF_CALL(share_end_state(e));
  IONF_CALL(be->ops.step_end(be));
  e->time_s += dt_s;
  e->step++;
  if (e->mc_on && cfg->montecarlo.target_relative_error > 0.0) IONF_CALL(mc_adapt_packets(e));
  info->x_mean_volume = cr.sum_x_end / (double)cells;
  info->x_mean_mass =
      e->sum_n_h_cm3 > 0.0 ? cr.sum_x_end_mass / e->sum_n_h_cm3 : info->x_mean_volume;
  return IONF_OK;
}

ionf_err engine_sync_to_host(struct engine *e) {
  int64_t cells = grid_cells(e->grid.n);
  IONF_CALL(e->backend->ops.download(e->backend, FIELD_X | FIELD_GAMMA | FIELD_T | FIELD_N_H, 0,
                                     cells));
  /* After a step Gamma is complete only where it was summed: make it whole. */
  if (comm_size() > 1 && e->reduction == REDUCTION_REDUCE)
    IONF_CALL(comm_bcast(e->fields.gamma_per_s, cells * IONF_N_SPECIES, 0));
  if (comm_size() > 1 && e->reduction == REDUCTION_SCATTER)
    for (int s = 0; s < IONF_N_SPECIES; ++s)
      IONF_CALL(share_slabs(e, grid_species(e->fields.gamma_per_s, e->grid.n, s)));
  if (e->mc_on) { /* the error of the whole Gamma: sum w^2 over the ranks, then the ratio */
    if (!e->gamma_rel_err) {
      e->gamma_rel_err = ionf_malloc(sizeof(double) * (size_t)cells, "the error of Gamma");
      if (!e->gamma_rel_err) return IONF_ERR_MEM;
    }
    memcpy(e->gamma_rel_err, e->mc.gamma_sq, sizeof(double) * (size_t)cells);
    if (comm_size() > 1) IONF_CALL(comm_allreduce_sum(e->gamma_rel_err, cells));
    mc_relative_error(e->fields.gamma_per_s, /* the HI block */ e->gamma_rel_err, cells, e->gamma_rel_err);
  }
  return IONF_OK;
}

/* montecarlo.target_relative_error: the next step's packets per source (src/mc.h). */
static ionf_err mc_adapt_packets(struct engine *e) {
  IONF_CALL(engine_sync_to_host(e));
  double err = mc_front_error(e->gamma_rel_err, e->fields.x_ion, grid_cells(e->grid.n));
  const struct mc_config *mc = &e->cfg->montecarlo;
  e->mc.packets_per_source = mc_next_packets(e->mc.packets_per_source, err,
                                             mc->target_relative_error,
                                             mc->max_packets_per_source);
  return IONF_OK;
}

int engine_has_single_source_front(const struct engine *e) {
  /* (a production run's sources and density change: no single front to follow) */
  return e->cfg->sequence.n_redshifts == 0 && e->sources.n == 1 && e->cfg->n_planes == 0 &&
         e->uniform_density && e->cfg->n_h_cm3.value > 0.0;
}

int engine_has_analytic_front(const struct engine *e) {
  /* Stromgren (static) or Shapiro & Giroux (expanding): one fixed temperature */
  return engine_has_single_source_front(e) && e->cfg->isothermal && e->uniform_temperature;
}

double engine_total_ndot(const struct engine *e) {
  double box_cm = e->grid.cell_cm * (double)e->grid.n; /* proper: the flux is per proper area */
  return sources_total_ndot(&e->sources) +
         planar_total_ndot(e->cfg->planes, e->cfg->n_planes, box_cm);
}

double engine_analytic_front_cm(const struct engine *e, double t_s) {
  double alpha = chem_alpha_b(&e->chem, e->cfg->temperature_k);
  if (!e->cfg->cosmological)
    return ifront_analytic_radius_cm(e->sources.ndot_per_s[0], e->cfg->n_h_cm3.value, alpha, t_s);
  /* comoving with a = 1 at z_initial, brought to proper at the redshift of t */
  double age_s = e->age_start_s + t_s;
  double r_comoving = cosmology_sg87_front_comoving_cm(
      e->sources.ndot_per_s[0], e->cfg->n_h_cm3.value, alpha, e->age_start_s, age_s);
  double z = cosmology_redshift_at_age(&e->cosmo, age_s);
  return r_comoving * (1.0 + e->cfg->z_initial) / (1.0 + z);
}

/* The grid with its proper cell size at the current time.  During a step of an
   expanding box e->grid.cell_cm is the one at the step's middle; a front measured
   at the step's end must use the redshift of that end. */
static struct grid grid_now(const struct engine *e) {
  struct grid g = e->grid;
  if (e->cfg->cosmological) g.cell_cm = e->cfg->box_size_cm / (double)g.n / (1.0 + engine_redshift(e));
  return g;
}

/* Beside a snapshot: its XDMF description and, if asked, C2-Ray's binaries. */
static ionf_err write_sidecars(const struct engine *e, const char *snapshot) {
  const struct ionf_config *cfg = e->cfg;
  if (cfg->write_xdmf) {
    /* the snapshot's datasets: x_<ion> and Gamma_<species> of every species, then the rest */
    char names[2 * IONF_N_SPECIES][32];
    const char *datasets[2 * IONF_N_SPECIES + 3];
    int n_sets = 0;
    for (int s = 0; s < IONF_N_SPECIES; ++s)
      snprintf(names[s], sizeof names[s], "x_%s", species_names_of(s)->ion_name);
    for (int s = 0; s < IONF_N_SPECIES; ++s)
      snprintf(names[IONF_N_SPECIES + s], sizeof names[0], "Gamma_%s", species_names_of(s)->name);
    for (int q = 0; q < 2 * IONF_N_SPECIES; ++q) datasets[n_sets++] = names[q];
    datasets[n_sets++] = "n_H";
    datasets[n_sets++] = "T";
    if (e->fields.dtb_mk) datasets[n_sets++] = "dTb";
    IONF_CALL(xdmf_write_sidecar(snapshot, e->grid.n, cfg->box_size_cm / IONF_KPC_CM, "kpc",
                                 e->time_s / IONF_MYR_S, datasets, n_sets));
  }
  if (cfg->write_c2ray_binary) {
    char path[IONF_PATH_MAX + 64];
    double t_myr = e->time_s / IONF_MYR_S, z = engine_redshift(e);
    for (int s = 0; s < IONF_N_SPECIES; ++s) {
      const struct species_names *sn = species_names_of(s);
      export_c2ray_name(path, sizeof path, cfg->output_dir, sn->c2ray_xfrac_stem, z, t_myr);
      IONF_CALL(export_c2ray_write(path, e->grid.n, grid_species(e->fields.x_ion, e->grid.n, s), 0));
      export_c2ray_name(path, sizeof path, cfg->output_dir, sn->c2ray_rates_stem, z, t_myr);
      IONF_CALL(export_c2ray_write(path, e->grid.n,
                                   grid_species(e->fields.gamma_per_s, e->grid.n, s), 1));
    }
    export_c2ray_name(path, sizeof path, cfg->output_dir, "Temper3D", z, t_myr);
    IONF_CALL(export_c2ray_write(path, e->grid.n, e->fields.temperature_k, 1));
  }
  return IONF_OK;
}

/* What every snapshot and checkpoint records beside the fields; `in` receives the
   production run's inputs (meta->inputs points at it then). */
static struct snapshot_meta snapshot_meta_now(const struct engine *e, int index,
                                              struct snapshot_inputs *in) {
  struct snapshot_meta meta;
  memset(&meta, 0, sizeof meta);
  meta.index = index;
  meta.step = e->step;
  meta.time_s = e->time_s;
  meta.redshift = engine_redshift(e);
  meta.density_redshift = e->z_density;
  meta.sum_n_h_cm3 = e->sum_n_h_cm3;
  meta.mc_seed = e->mc_on ? (int64_t)e->mc.seed : -1;
  meta.mc_packets_per_source = e->mc_on ? e->mc.packets_per_source : 0;
  meta.gamma_rel_err = e->mc_on ? e->gamma_rel_err : NULL;
  if (e->cfg->sequence.n_redshifts > 0 && e->seq_interval >= 0) {
    in->redshift = e->cfg->sequence.redshifts[e->seq_interval];
    in->density_file = e->seq_density_file;
    in->halo_file = e->seq_halo_file;
    in->n_sources = e->sources.n;
    in->ndot_total_per_s = e->ndot_total_per_s;
    meta.inputs = in;
  }
  return meta;
}

/* Snapshot + I-front record at the current time (rank 0 writes). */
static ionf_err write_output(struct engine *e, int index, struct engine_report *report) {
  double t0 = ionf_wtime();
  IONF_CALL(engine_sync_to_host(e));
  if (e->cfg->write_dtb && e->cfg->cosmological) { /* derived: 21-cm brightness */
    if (!e->fields.dtb_mk) {
      e->fields.dtb_mk = ionf_malloc(sizeof(double) * (size_t)grid_cells(e->grid.n), "dTb");
      if (!e->fields.dtb_mk) return IONF_ERR_MEM;
    }
    tb21_field(grid_cells(e->grid.n), grid_species(e->fields.x_ion, e->grid.n, SPECIES_HI), e->fields.n_h_cm3, e->cfg->omega_m,
               e->cfg->omega_b, e->cfg->hubble_h, engine_redshift(e), e->fields.dtb_mk);
  }
  /* collective over the ranks: each writes its slab */
  struct snapshot_inputs inputs;
  struct snapshot_meta meta = snapshot_meta_now(e, index, &inputs);
  const struct snapshot_run run = {e->cfg->output_dir, e->cfg->box_size_cm, e->cfg->effective_yaml,
                                   e->cfg->config_name};
  IONF_CALL(snapshot_write(&run, &e->grid, &e->fields, &meta, report->last_snapshot,
                           sizeof report->last_snapshot));
  report->n_snapshots++;
  ionf_err rc = comm_rank() == 0 ? write_sidecars(e, report->last_snapshot) : IONF_OK;
  ionf_err any;
  IONF_CALL(comm_agree(rc, &any));
  IONF_CALL(rc);
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "rank 0 failed to write the files beside a snapshot");
  if (index > 0 && engine_has_analytic_front(e) &&
      report->n_ifront < (int)(sizeof report->ifront / sizeof report->ifront[0])) {
    struct ifront_record *r = &report->ifront[report->n_ifront++];
    r->time_s = e->time_s;
    struct grid g = grid_now(e);
    r->r_numeric_cm = ifront_radius_along_x_cm(&g, grid_species(e->fields.x_ion, g.n, SPECIES_HI),
                                              e->sources.ijk);
    r->r_analytic_cm = engine_analytic_front_cm(e, e->time_s);
  }
  e->timers.io_s += ionf_wtime() - t0;
  return IONF_OK;
}

/* Steps of dt (in a production run the interval's equal steps), shortened to land
   exactly on the next output time (or t_end); every redshift of a sequence is one. */
static double next_step_length(const struct ionf_config *cfg, double t, double t_tiny) {
  double dt_max = cfg->dt_s;
  if (cfg->sequence.n_redshifts > 0)
    dt_max = sequence_step_s(&cfg->sequence, sequence_interval_at(&cfg->sequence, t, t_tiny));
  double target = cfg->t_end_s;
  for (int i = 0; i < cfg->n_outputs; ++i)
    if (cfg->output_times_s[i] > t + t_tiny) {
      if (cfg->output_times_s[i] < target) target = cfg->output_times_s[i];
      break;
    }
  double dt = dt_max < target - t ? dt_max : target - t;
  if (target - t - dt < t_tiny) dt = target - t;
  return dt;
}

/* DIR/ifront.csv: the measured and analytic front after every step (one
   source in a uniform medium), so a smooth r_I(t) needs no extra snapshots. */
static ionf_err ifront_csv_open(const struct engine *e, FILE **out) {
  *out = NULL;
  if (comm_rank() != 0 || !engine_has_single_source_front(e)) return IONF_OK;
  char path[IONF_PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/ifront.csv", e->cfg->output_dir);
  FILE *exists = e->restarted ? fopen(path, "r") : NULL;
  if (exists) { /* a restart continues the file from the checkpoint's time */
    fclose(exists);
    IONF_CALL(csv_keep_rows_upto(path, e->time_s / IONF_MYR_S + 1e-9));
    *out = fopen(path, "a");
    IONF_CHECK(*out, IONF_ERR_IO, "cannot write '%s'", path);
    return IONF_OK;
  }
  *out = fopen(path, "w");
  IONF_CHECK(*out, IONF_ERR_IO, "cannot write '%s'", path);
  fprintf(*out, "time_Myr,r_numeric_kpc,r_analytic_kpc,ratio\n");
  return IONF_OK;
}

static ionf_err ifront_csv_row(struct engine *e, FILE *f) {
  if (!f) return IONF_OK;
  /* the line of cells through the source along x is all the measurement needs */
  int64_t n = e->grid.n;
  double *line = ionf_malloc(sizeof(double) * (size_t)n, "an x line");
  if (!line) return IONF_ERR_MEM;
  ionf_err rc =
      e->backend->ops.read_x_line(e->backend, e->sources.ijk[1], e->sources.ijk[2], line);
  if (rc != IONF_OK) {
    free(line);
    return rc;
  }
  struct grid g = grid_now(e);
  double r = ifront_radius_along_line_cm(&g, line, e->sources.ijk[0]);
  free(line);
  /* no analytic solution once the temperature evolves: those columns are nan */
  double a = engine_has_analytic_front(e) ? engine_analytic_front_cm(e, e->time_s) : NAN;
  fprintf(f, "%.6f,%.6f,%.6f,%.6f\n", e->time_s / IONF_MYR_S, r >= 0 ? r / IONF_KPC_CM : -1.0,
          a / IONF_KPC_CM, r >= 0 ? r / a : -1.0);
  fflush(f);
  return IONF_OK;
}

static void format_duration(double s, char *buf, size_t size) {
  if (s < 1.0) snprintf(buf, size, "%.0f ms", 1e3 * s);
  else if (s < 120.0) snprintf(buf, size, "%.1f s", s);
  else if (s < 7200.0) snprintf(buf, size, "%.1f min", s / 60.0);
  else snprintf(buf, size, "%.1f h", s / 3600.0);
}

/* ---- stopping on a signal, checkpoints, restarts ------------------------------- */

/* Set by the handler; read at the end of each step (async-signal-safe). */
static volatile sig_atomic_t stop_signal = 0;

static void on_stop_signal(int sig) { stop_signal = sig; }

void engine_install_signal_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL); /* SLURM at the time limit, scancel */
  sigaction(SIGUSR1, &sa, NULL); /* SLURM's warning: sbatch --signal=B:USR1@120 */
}

ionf_err engine_step_end(int64_t step, int finished, int64_t checkpoint_every, int *checkpoint,
                         int *stop) {
  int sig = 0;
  IONF_CALL(engine_stop_requested(step, &sig));
  int due = checkpoint_every > 0 && step % checkpoint_every == 0;
  *checkpoint = (sig || due) && !finished;
  *stop = finished ? 0 : sig;
  return IONF_OK;
}

ionf_err engine_stop_requested(int64_t step, int *signal_out) {
  *signal_out = 0;
  long signal_after = engine_fault_inject("signal");
  if (signal_after >= 0 && step == signal_after && comm_rank() == 0) raise(SIGUSR1);
  /* every rank stops at the same step if any was signalled */
  return comm_max_int((int)stop_signal, signal_out);
}

ionf_err engine_stopped_error(int sig, int64_t step, double time_s, const char *checkpoint) {
  return ionf_error_set(IONF_STOPPED,
                        "stopped by signal %d after step %lld (t = %.6g Myr); checkpoint "
                        "written to %s; continue with: ionfront run CONFIG --restart %s",
                        sig, (long long)step, time_s / IONF_MYR_S, checkpoint, checkpoint);
}

static ionf_err write_checkpoint(struct engine *e, int next_index, char *path, size_t size) {
  double t0 = ionf_wtime();
  IONF_CALL(engine_sync_to_host(e));
  struct snapshot_inputs inputs;
  struct snapshot_meta meta = snapshot_meta_now(e, next_index, &inputs);
  meta.checkpoint = 1;
  meta.next_index = next_index;
  const struct snapshot_run run = {e->cfg->output_dir, e->cfg->box_size_cm, e->cfg->effective_yaml,
                                   e->cfg->config_name};
  IONF_CALL(snapshot_write(&run, &e->grid, &e->fields, &meta, path, size));
  e->timers.io_s += ionf_wtime() - t0;
  return IONF_OK;
}

ionf_err engine_restart(struct engine *e, const char *path) {
  struct checkpoint_state st;
  IONF_CALL(checkpoint_read(path, e->grid.n, e->fields.x_ion, e->fields.temperature_k, &st));
  IONF_CHECK(st.time_s < e->cfg->t_end_s, IONF_ERR_INPUT,
             "checkpoint '%s' is at %.6g Myr, already at time.t_end (%.6g Myr)", path,
             st.time_s / IONF_MYR_S, e->cfg->t_end_s / IONF_MYR_S);
  int64_t cells = grid_cells(e->grid.n);
  const struct sequence_config *seq = &e->cfg->sequence;
  if (seq->n_redshifts > 0) { /* the halos of the interval the checkpoint's last step was in */
    IONF_CHECK(st.density_redshift >= 0.0, IONF_ERR_INPUT,
               "checkpoint '%s' has no attribute 'density_redshift' (written by an older "
               "ionfront?); a production run cannot continue from it",
               path);
    int interval = sequence_interval_ending_at(seq, st.time_s, 1e-9 * e->cfg->dt_s);
    if (interval != e->seq_interval) IONF_CALL(sequence_load(e, interval, 0));
  }
  if (e->cfg->cosmological && st.density_redshift >= 0.0) {
    /* n_H as diluted up to the checkpoint, bit for bit (re-diluting would round
       differently); older checkpoints lack it and the density is diluted from z_initial */
    IONF_CALL(io_field_read(path, "/Grid/n_H", e->grid.n, "n_H", "densities", e->fields.n_h_cm3));
    IONF_CALL(e->backend->ops.upload(e->backend, FIELD_N_H, 0, cells));
    e->z_density = st.density_redshift;
    e->sum_n_h_cm3 = st.sum_n_h_cm3;
  }
  memcpy(e->fields.x_ion_av, e->fields.x_ion, sizeof(double) * (size_t)cells * IONF_N_SPECIES);
  memcpy(e->fields.x_ion_end, e->fields.x_ion, sizeof(double) * (size_t)cells * IONF_N_SPECIES);
  IONF_CALL(e->backend->ops.upload(e->backend, FIELD_X | FIELD_X_AV | FIELD_X_END | FIELD_T, 0,
                                   cells));
  if (e->mc_on) { /* the same packets as the interrupted run: same seed, same count */
    IONF_CHECK(st.mc_seed == (int64_t)e->mc.seed, IONF_ERR_INPUT,
               "checkpoint '%s' was written with montecarlo.seed = %lld, this run has %lld: "
               "a restart must keep the seed (or start afresh)",
               path, (long long)st.mc_seed, (long long)e->mc.seed);
    if (st.mc_packets_per_source > 0) e->mc.packets_per_source = st.mc_packets_per_source;
  }
  e->time_s = st.time_s;
  e->step = st.step;
  e->next_snapshot_index = st.next_index;
  e->restarted = 1;
  return IONF_OK;
}

ionf_err engine_run(struct engine *e, struct engine_report *report) {
  const struct ionf_config *cfg = e->cfg;
  memset(report, 0, sizeof *report);
  double wall0 = ionf_wtime(), t_start = e->time_s;
  struct step_log log = {0};
  IONF_CALL(output_dir_prepare_all(cfg->output_dir));
  ionf_err rc = comm_rank() == 0 ? step_log_open(&log, cfg->output_dir, e->restarted ? e->step : -1)
                                 : IONF_OK;
  ionf_err any;
  IONF_CALL(comm_agree(rc, &any));
  if (rc != IONF_OK) return rc;
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "rank 0 could not open the step log in '%s'",
             cfg->output_dir);

  FILE *front_csv = NULL;
  rc = ifront_csv_open(e, &front_csv);
  int index = e->restarted ? e->next_snapshot_index : 1;
  if (rc == IONF_OK && !e->restarted) rc = write_output(e, 0, report);
  int next_output = 0;
  const double t_tiny = 1e-9 * cfg->dt_s;
  int64_t n_steps_total = e->step;
  for (double t = e->time_s; t < cfg->t_end_s - t_tiny; ++n_steps_total)
    t += next_step_length(cfg, t, t_tiny);
  while (rc == IONF_OK && e->time_s < cfg->t_end_s - t_tiny) {
    while (next_output < cfg->n_outputs && cfg->output_times_s[next_output] <= e->time_s + t_tiny)
      next_output++;
    double dt = next_step_length(cfg, e->time_s, t_tiny);
    double s0 = ionf_wtime();
    struct engine_step_info info;
    rc = engine_step(e, dt, &info);
    if (rc != IONF_OK) break;
    double step_wall = ionf_wtime() - s0;
    if (comm_rank() == 0 && log.file)
      rc = step_log_row(&log, e->step, e->time_s, info.iterations, info.x_mean_volume,
                        info.x_mean_mass, step_wall, engine_redshift(e), e->sources.n,
                        e->ndot_total_per_s);
    if (rc != IONF_OK) break;
    rc = ifront_csv_row(e, front_csv);
    if (rc != IONF_OK) break;
    if (!info.converged)
      ionf_warning("step %lld: not converged after %d iterations (raytracing.max_iterations)",
                   (long long)e->step, info.iterations);
    if (cfg->progress) {
      double elapsed = ionf_wtime() - wall0;
      double eta = elapsed / (e->time_s - t_start) * (cfg->t_end_s - e->time_s);
      char eta_text[32], wall_text[32];
      format_duration(eta, eta_text, sizeof eta_text);
      format_duration(step_wall, wall_text, sizeof wall_text);
      char z_text[32] = "";
      if (cfg->cosmological) snprintf(z_text, sizeof z_text, "  z = %.3f", engine_redshift(e));
      ionf_message0("step %4lld/%-4lld t = %8.3f Myr%s  iterations %3d  <x_HII> = %.5f  wall %s  ETA %s",
                    (long long)e->step, (long long)n_steps_total, e->time_s / IONF_MYR_S, z_text,
                    info.iterations, info.x_mean_volume, wall_text, eta_text);
    }
    if (next_output < cfg->n_outputs &&
        fabs(e->time_s - cfg->output_times_s[next_output]) <= t_tiny) {
      rc = write_output(e, index++, report);
      next_output++;
      if (rc != IONF_OK) break;
    }
    int checkpoint = 0, stop = 0;
    rc = engine_step_end(e->step, e->time_s >= cfg->t_end_s - t_tiny, cfg->checkpoint_every,
                         &checkpoint, &stop);
    if (rc == IONF_OK && checkpoint)
      rc = write_checkpoint(e, index, report->checkpoint, sizeof report->checkpoint);
    if (rc != IONF_OK) break;
    if (stop) {
      rc = engine_stopped_error(stop, e->step, e->time_s, report->checkpoint);
      break;
    }
  }
  if (log.file) step_log_close(&log);
  if (front_csv && fclose(front_csv) != 0 && rc == IONF_OK)
    rc = ionf_error_set(IONF_ERR_IO, "cannot write '%s/ifront.csv'", cfg->output_dir);
  report->wall_s = ionf_wtime() - wall0;
  report->steps = e->step;
  return rc;
}

ionf_err engine_write_snapshot(struct engine *e, int index, char *path, size_t size) {
  IONF_CALL(output_dir_prepare_all(e->cfg->output_dir));
  struct engine_report report;
  memset(&report, 0, sizeof report);
  IONF_CALL(write_output(e, index, &report));
  if (path && size > 0) snprintf(path, size, "%s", report.last_snapshot);
  return IONF_OK;
}

ionf_err engine_write_checkpoint(struct engine *e, char *path, size_t size) {
  IONF_CALL(output_dir_prepare_all(e->cfg->output_dir));
  char where[IONF_PATH_MAX + 32];
  IONF_CALL(write_checkpoint(e, e->next_snapshot_index > 0 ? e->next_snapshot_index : 1, where,
                             sizeof where));
  if (path && size > 0) snprintf(path, size, "%s", where);
  return IONF_OK;
}

/**
 * @file sph_engine.c
 * @brief The particle engine's set-up, time step and run loop.
 *
 * Chemistry: chem_cpu_pass (OpenMP) with the CPU tracer, sph_chem_cuda_pass
 * (gpu/sph_chem.cu) with the CUDA tracer; both apply chem_k.h's per-cell update to
 * particles.  Measured on two CPU threads: chemistry is ~1% of the CPU tracer's time
 * in isothermal Test 1 (32^3 particles) but 8% in thermal Test 2 (32^3, 500 Myr:
 * 11 s of 152 s; up to ~20 us per particle and pass early on, the temperature's
 * sub-steps); next to a GPU trace the host would dominate thermal runs, hence the
 * kernel.
 */
#define _POSIX_C_SOURCE 200809L
#include "engine/sph_engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend.h"
#include "gpu/particles/bvh_build.h"
#include "chem/chem.h"
#include "mpi/comm.h"
#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "io/io_density.h"
#include "io/io_particles.h"
#include "particles/particles_make.h"
#include "io/output_dir.h"
#include "io/snapshot.h"
#include "io/sph_checkpoint.h"
#include "chem/sph_chem.h"
#include "particles/sph_neighbours.h"
#include "particles/sph_periodic_k.h"
#include "particles/sph_rays.h"
#include "core/ionf_config.h"
#include "io/sph_snapshot.h"

#define SPH_ENGINE_MAX_LEAF 8 /* particles per BVH leaf */

int64_t sph_engine_default_rays(int64_t n_particles) {
  int64_t nside = sph_rays_default_nside(n_particles); /* the tracer's own default */
  return 12 * nside * nside;
}

static ionf_err load_particles(struct sph_engine *e) {
  const struct sph_config *cfg = e->cfg;
  struct particle_set *p = &e->particles;
  if (cfg->generate != SPH_GENERATE_NONE) {
    struct particles_make_params prm;
    particles_make_default_params(&prm);
    prm.n_side = cfg->count_1d;
    prm.box_cm = cfg->gen_box_cm;
    prm.periodic = cfg->gen_periodic;
    prm.jitter = cfg->gen_jitter;
    prm.relax_iterations = cfg->generate == SPH_GENERATE_GLASS ? cfg->gen_relax_iterations : 0;
    prm.density_g_cm3 = cfg->gen_n_h_cm3 * IONF_PROTON_MASS_G / cfg->hydrogen_mass_fraction;
    prm.n_ngb = cfg->gen_neighbours;
    prm.hydrogen_mass_fraction = cfg->hydrogen_mass_fraction;
    prm.seed = cfg->gen_seed;
    double *cell_rho = NULL; /* density_file: the grid's n_H, then its mass density */
    if (cfg->generate == SPH_GENERATE_DENSITY_FILE) {
      const size_t cells = (size_t)(cfg->count_1d * cfg->count_1d * cfg->count_1d);
      cell_rho = ionf_malloc(cells * sizeof *cell_rho, "the density grid");
      IONF_CHECK(cell_rho, IONF_ERR_MEM, "out of memory");
      ionf_err rc = io_density_read(cfg->gen_density_file, cfg->gen_density_dataset,
                                    cfg->count_1d, cell_rho);
      if (rc != IONF_OK) {
        free(cell_rho);
        return rc;
      }
      for (size_t c = 0; c < cells; ++c)
        cell_rho[c] *= IONF_PROTON_MASS_G / cfg->hydrogen_mass_fraction;
      prm.cell_density_g_cm3 = cell_rho;
    }
    ionf_err rc = particles_make_lattice(&prm, p);
    free(cell_rho);
    IONF_CALL(rc);
    IONF_CALL(particles_validate(p, cfg->generate == SPH_GENERATE_DENSITY_FILE
                                        ? cfg->gen_density_file
                                        : "particles.generate"));
  } else {
    struct io_particles_options o;
    io_particles_default_options(&o);
    o.hydrogen_mass_fraction = cfg->hydrogen_mass_fraction;
    o.unit_length_cm = cfg->unit_length_cm;
    o.unit_mass_g = cfg->unit_mass_g;
    IONF_CALL(io_particles_read(cfg->file, &o, p));
    if (!p->density_g_cm3) IONF_CALL(sph_neighbours_densities(p)); /* the kernel sum */
    IONF_CALL(particles_validate(p, cfg->file));
  }
  particles_set_hydrogen(p, cfg->hydrogen_mass_fraction);
  /* particles.wrap_rays: false: periodicity shaped h and the densities (the
     generator's and the file's), but the run treats the box as open */
  if (!cfg->wrap_rays) p->periodic = 0;
  return IONF_OK;
}

/*
 * A periodic set (particles.generate.periodic, or a file with Header/Periodic or a
 * BoxSize; not with particles.wrap_rays: false): rays wrap across the box (sph_trace.h), so they need an end,
 * 0 < R_max <= SPH_PERIODIC_MAX_R_BOXES smallest box sides.  Beyond half the
 * smallest side a particle can be reached from two images of one source (each
 * image within R_max counts, where the grid tracer's periodic domain sees only
 * the nearest): allowed, and said once.
 */
static ionf_err check_periodic(const struct sph_engine *e) {
  const struct sph_config *cfg = e->cfg;
  const struct particle_set *p = &e->particles;
  if (!p->periodic) return IONF_OK;
  const char *origin = cfg->generate == SPH_GENERATE_NONE ? cfg->file : "particles.generate.periodic";
  double l_min = fmin(p->box_size_cm[0], fmin(p->box_size_cm[1], p->box_size_cm[2]));
  IONF_CHECK(cfg->r_max_cm > 0.0, IONF_ERR_CONFIG,
             "%s: raytracing.R_max = 0 (unlimited), but the particles are periodic (%s): rays "
             "wrap across the box and need a length, at most %g box sides (e.g. '%g kpc' for "
             "half the box), or particles.wrap_rays: false to treat the box as open",
             cfg->base.config_name, origin, SPH_PERIODIC_MAX_R_BOXES, 0.5 * l_min / IONF_KPC_CM);
  IONF_CHECK(cfg->r_max_cm <= SPH_PERIODIC_MAX_R_BOXES * l_min, IONF_ERR_CONFIG,
             "%s: raytracing.R_max = %g kpc is more than %g times the periodic box's smallest "
             "side (%g kpc)",
             cfg->base.config_name, cfg->r_max_cm / IONF_KPC_CM, SPH_PERIODIC_MAX_R_BOXES,
             l_min / IONF_KPC_CM);
  if (cfg->r_max_cm > 0.5 * l_min && comm_rank() == 0)
    ionf_warning("%s: raytracing.R_max = %g kpc is more than half the periodic box's smallest "
                 "side (%g kpc): particles can receive light from more than one image of a "
                 "source",
                 cfg->base.config_name, cfg->r_max_cm / IONF_KPC_CM, l_min / IONF_KPC_CM);
  return IONF_OK;
}

/* Sources must lie in the particles' box (or, without one, their extent). */
static ionf_err check_sources(const struct sph_engine *e) {
  const struct sph_config *cfg = e->cfg;
  struct bvh_scene scene;
  particles_scene(&e->particles, &scene);
  for (int64_t s = 0; s < cfg->n_sources; ++s)
    for (int d = 0; d < 3; ++d) {
      double x = cfg->source_pos_cm[3 * s + d];
      IONF_CHECK(x >= scene.lo[d] && x <= scene.hi[d], IONF_ERR_CONFIG,
                 "%s: sources[%lld].position = %s is outside the particles' box (%c in %g..%g "
                 "kpc)",
                 cfg->base.config_name, (long long)s, cfg->source_text[s], "xyz"[d],
                 scene.lo[d] / IONF_KPC_CM, scene.hi[d] / IONF_KPC_CM);
    }
  return IONF_OK;
}

static ionf_err choose_tracer(struct sph_engine *e) {
  enum backend_kind kind = e->cfg->base.backend;
  int gpus = rt_backend_cuda_device_count();
  if (kind == BACKEND_AUTO) kind = gpus > 0 ? BACKEND_CUDA : BACKEND_CPU;
  if (kind == BACKEND_CUDA) {
    IONF_CHECK(IONF_HAVE_CUDA, IONF_ERR_UNSUPPORTED,
               "%s: raytracing.backend = cuda, but this ionfront was built without CUDA",
               e->cfg->base.config_name);
    IONF_CHECK(gpus > 0, IONF_ERR_UNSUPPORTED,
               "%s: raytracing.backend = cuda, but no CUDA device is visible",
               e->cfg->base.config_name);
    IONF_CHECK(sph_cuda_select_device(comm_local_rank()) >= 0, IONF_ERR_GPU,
               "rank %d: cannot use a CUDA device (local rank %d of %d devices)", comm_rank(),
               comm_local_rank(), gpus);
    e->trace = sph_trace_cuda;
    e->tracer_name = "cuda";
    e->chem_on_gpu = 1;
  } else {
    e->trace = sph_trace_cpu;
    e->tracer_name = "cpu";
  }
  return IONF_OK;
}

static ionf_err build_tree(struct sph_engine *e) {
  const struct particle_set *p = &e->particles;
  struct bvh_scene scene;
  particles_scene(p, &scene);
  IONF_CHECK(p->count <= BVH_MAX_PARTICLES, IONF_ERR_INPUT,
             "%lld particles: the tree holds at most %lld", (long long)p->count,
             (long long)BVH_MAX_PARTICLES);
  /* the GPU builds the same tree, bit for bit (gpu/bvh_build.h) */
  if (!strcmp(e->tracer_name, "cuda"))
    return bvh_build_cuda(p->pos_cm, p->h_cm, p->count, &scene, SPH_ENGINE_MAX_LEAF, &e->tree);
  return bvh_build_cpu(p->pos_cm, p->h_cm, p->count, &scene, SPH_ENGINE_MAX_LEAF, &e->tree, NULL);
}

static ionf_err alloc_state(struct sph_engine *e) {
  int64_t n = e->particles.count;
  int thermal = !e->cfg->base.isothermal;
  double **fields[] = {&e->n_h_cm3, &e->x_hii, &e->x_hii_av, &e->x_hii_end, &e->temperature_k,
                       &e->gamma_hi_per_s};
  for (size_t f = 0; f < sizeof fields / sizeof fields[0]; ++f) {
    *fields[f] = ionf_calloc((size_t)n, sizeof(double), "a particle field");
    if (!*fields[f]) return IONF_ERR_MEM;
  }
  if (thermal) {
    double **extra[] = {&e->temperature_av_k, &e->temperature_end_k, &e->heating_erg_per_s};
    for (size_t f = 0; f < 3; ++f) {
      *extra[f] = ionf_calloc((size_t)n, sizeof(double), "a particle field");
      if (!*extra[f]) return IONF_ERR_MEM;
    }
  }
  const struct ionf_config *b = &e->cfg->base;
  double per_g = e->cfg->hydrogen_mass_fraction / IONF_PROTON_MASS_G;
  double sum_atoms = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    e->n_h_cm3[i] = per_g * e->particles.density_g_cm3[i];
    e->x_hii[i] = e->x_hii_av[i] = e->x_hii_end[i] = b->x_hii_initial;
    e->temperature_k[i] = b->temperature_k;
    if (thermal) e->temperature_av_k[i] = e->temperature_end_k[i] = b->temperature_k;
    sum_atoms += e->particles.n_h_atoms[i];
  }
  e->sum_n_h_atoms = sum_atoms;
  return IONF_OK;
}

ionf_err sph_engine_create(const struct sph_config *cfg, sph_trace_fn trace,
                           struct sph_engine **out) {
  *out = NULL;
  struct sph_engine *e = ionf_calloc(1, sizeof *e, "the particle engine");
  if (!e) return IONF_ERR_MEM;
  e->cfg = cfg;
  /* every rank makes or reads the same particles; failures are agreed on */
  ionf_err rc = load_particles(e);
  if (rc == IONF_OK) rc = check_periodic(e);
  if (rc == IONF_OK) rc = check_sources(e);
  if (rc == IONF_OK) {
    if (trace) {
      e->trace = trace;
      e->tracer_name = "injected";
    } else {
      rc = choose_tracer(e);
    }
  }
  if (rc == IONF_OK) rc = build_tree(e);
  if (rc == IONF_OK) rc = alloc_state(e);
  if (rc == IONF_OK && !strcmp(e->tracer_name, "cuda")) { /* each pass's copies in and out */
    size_t bytes = sizeof(double) * (size_t)e->particles.count;
    sph_trace_cuda_pin_host(e->x_hii_av, bytes);
    sph_trace_cuda_pin_host(e->gamma_hi_per_s, bytes);
    if (e->heating_erg_per_s) sph_trace_cuda_pin_host(e->heating_erg_per_s, bytes);
  }
  if (rc == IONF_OK) rc = photo_tables_build(&cfg->base, &e->tables);
  if (rc == IONF_OK) {
    e->chem = chem_params_from_config(&cfg->base);
    e->n_rays = cfg->rays_per_source > 0 ? cfg->rays_per_source
                                         : sph_engine_default_rays(e->particles.count);
    comm_slab(cfg->n_sources, comm_rank(), comm_size(), &e->first_source, &e->source_count);
  }
  ionf_err any;
  IONF_CALL(comm_agree(rc, &any));
  if (rc == IONF_OK && any != IONF_OK)
    rc = ionf_error_set(IONF_ERR_PEER, "another rank failed to set up the particles");
  if (rc != IONF_OK) {
    ionf_error_trace(__func__, __FILE__, __LINE__);
    sph_engine_destroy(e);
    return rc;
  }
  *out = e;
  return IONF_OK;
}

void sph_engine_destroy(struct sph_engine *e) {
  if (!e) return;
  if (e->tracer_name && !strcmp(e->tracer_name, "cuda")) sph_trace_cuda_release();
  if (e->chem_on_gpu) sph_chem_cuda_release();
  double *fields[] = {e->n_h_cm3,        e->x_hii,           e->x_hii_av,
                      e->x_hii_end,      e->temperature_k,   e->temperature_av_k,
                      e->temperature_end_k, e->gamma_hi_per_s, e->heating_erg_per_s};
  for (size_t f = 0; f < sizeof fields / sizeof fields[0]; ++f) free(fields[f]);
  photo_tables_free(&e->tables);
  bvh_free(&e->tree);
  particles_free(&e->particles);
  free(e);
}

/* One pass of this rank's sources with columns from x_av; every rank agrees on
   the outcome before the sum (a failed rank must not leave others waiting). */
static ionf_err trace_pass(struct sph_engine *e) {
  const struct sph_config *cfg = e->cfg;
  int64_t n = e->particles.count;
  int thermal = e->heating_erg_per_s != NULL;
  double t0 = ionf_wtime();
  ionf_err rc = IONF_OK;
  if (e->source_count > 0) {
    struct sph_trace_input in;
    memset(&in, 0, sizeof in);
    in.particles = &e->particles;
    in.tree = &e->tree;
    in.x_hii = e->x_hii_av;
    in.tables = photo_tables_view(&e->tables);
    in.heating = thermal;
    in.sources.count = e->source_count;
    in.sources.pos_cm = cfg->source_pos_cm + 3 * e->first_source;
    in.sources.ndot_per_s = cfg->source_ndot_per_s + e->first_source;
    in.n_rays = e->n_rays;
    in.r_max_cm = cfg->r_max_cm;
    struct sph_trace_output out = {e->gamma_hi_per_s, e->heating_erg_per_s};
    struct sph_trace_stats st = {0};
    rc = e->trace(&in, &out, &st);
    e->hits += st.hits;
  } else { /* more ranks than sources */
    memset(e->gamma_hi_per_s, 0, sizeof(double) * (size_t)n);
    if (thermal) memset(e->heating_erg_per_s, 0, sizeof(double) * (size_t)n);
  }
  if (rc == IONF_OK && engine_fault_inject("trace") == comm_rank())
    rc = ionf_error_set(IONF_ERR_GPU_MEM, "rank %d: particle ray tracing failed (injected fault)",
                        comm_rank());
  ionf_err any;
  IONF_CALL(comm_agree(rc, &any));
  IONF_CALL(rc);
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "another rank failed while ray tracing");
  e->timers.trace_s += ionf_wtime() - t0;
  if (comm_size() > 1) {
    double r0 = ionf_wtime();
    IONF_CALL(comm_allreduce_sum(e->gamma_hi_per_s, n));
    if (thermal) IONF_CALL(comm_allreduce_sum(e->heating_erg_per_s, n));
    e->timers.reduce_s += ionf_wtime() - r0;
  }
  return IONF_OK;
}

ionf_err sph_engine_step(struct sph_engine *e, double dt_s, struct sph_step_info *info) {
  const struct ionf_config *b = &e->cfg->base;
  int64_t n = e->particles.count;
  int thermal = e->heating_erg_per_s != NULL;
  size_t bytes = sizeof(double) * (size_t)n;
  memcpy(e->x_hii_av, e->x_hii, bytes);
  memcpy(e->x_hii_end, e->x_hii, bytes);
  if (thermal) {
    memcpy(e->temperature_av_k, e->temperature_k, bytes);
    memcpy(e->temperature_end_k, e->temperature_k, bytes);
  }
  /* C2-Ray's global criterion, as engine_step: few particles still changing, or sums settled */
  double tol = b->convergence_fraction;
  int64_t by_count = (int64_t)(tol * (double)n);
  int64_t by_sources = (e->cfg->n_sources - 1) / 3;
  int64_t conv_particles = by_count < by_sources ? by_count : by_sources;
  double prev_ion = 2.0 * (double)n, prev_neutral = 2.0 * (double)n, prev_t = -1.0;
  struct chem_pass_result cr;
  memset(&cr, 0, sizeof cr);
  info->converged = 0;
  for (info->iterations = 1; info->iterations <= b->max_iterations; ++info->iterations) {
    IONF_CALL(trace_pass(e));
    double c0 = ionf_wtime();
    struct chem_input in = {n,
                            dt_s,
                            e->chem,
                            e->n_h_cm3,
                            e->temperature_k,
                            e->gamma_hi_per_s,
                            e->x_hii,
                            thermal ? e->heating_erg_per_s : NULL,
                            n}; /* one species (HI): the stride is never stepped */
    struct chem_state st = {e->x_hii_av, e->x_hii_end, e->temperature_av_k,
                            e->temperature_end_k};
    IONF_CALL(e->chem_on_gpu ? sph_chem_cuda_pass(&in, &st, &cr) : chem_cpu_pass(&in, &st, &cr));
    e->timers.chemistry_s += ionf_wtime() - c0;
    double rel_ion = fabs(cr.sum_x_end - prev_ion) / cr.sum_x_end;
    double rel_neutral = fabs(cr.sum_x_neutral_end - prev_neutral) / cr.sum_x_neutral_end;
    int t_settled = !thermal || (prev_t > 0.0 && fabs(cr.sum_t_end - prev_t) < tol * cr.sum_t_end);
    prev_ion = cr.sum_x_end;
    prev_neutral = cr.sum_x_neutral_end;
    prev_t = cr.sum_t_end;
    if (cr.unconverged_cells < conv_particles || (rel_ion < tol && rel_neutral < tol && t_settled)) {
      info->converged = 1;
      break;
    }
  }
  if (info->iterations > b->max_iterations) info->iterations = b->max_iterations;
  memcpy(e->x_hii, e->x_hii_end, bytes);
  if (thermal) memcpy(e->temperature_k, e->temperature_end_k, bytes);
  e->time_s += dt_s;
  e->step++;
  double sum_mass = 0.0;
  for (int64_t i = 0; i < n; ++i) sum_mass += e->particles.n_h_atoms[i] * e->x_hii[i];
  info->x_mean = cr.sum_x_end / (double)n;
  info->x_mean_mass = e->sum_n_h_atoms > 0.0 ? sum_mass / e->sum_n_h_atoms : info->x_mean;
  return IONF_OK;
}

/* The particle set for messages: its file, or the generator's settings. */
static void particles_origin(const struct sph_config *cfg, char *buf, size_t size) {
  static const char *const kinds[] = {"none", "lattice", "glass", "density_file"};
  if (cfg->generate == SPH_GENERATE_NONE)
    snprintf(buf, size, "%s", cfg->file);
  else if (cfg->generate == SPH_GENERATE_DENSITY_FILE)
    snprintf(buf, size, "particles.generate: density_file %s, seed %llu", cfg->gen_density_file,
             (unsigned long long)cfg->gen_seed);
  else
    snprintf(buf, size, "particles.generate: %s, count_1d %lld, seed %llu", kinds[cfg->generate],
             (long long)cfg->count_1d, (unsigned long long)cfg->gen_seed);
}

/* What a checkpoint of this run records to be checked on a restart; `origin` holds
   the text meta->origin points at. */
static void checkpoint_meta(struct sph_engine *e, int next_index, struct sph_checkpoint_meta *m,
                            char *origin, size_t origin_size) {
  if (!e->identity[0]) sph_checkpoint_identity(&e->particles, e->identity);
  memset(m, 0, sizeof *m);
  particles_origin(e->cfg, origin, origin_size);
  m->next_index = next_index;
  m->particle_count = e->particles.count;
  memcpy(m->identity, e->identity, sizeof m->identity);
  m->origin = origin;
  m->rays_per_source = e->n_rays;
  m->r_max_cm = e->cfg->r_max_cm;
  m->hydrogen_mass_fraction = e->cfg->hydrogen_mass_fraction;
  m->isothermal = e->heating_erg_per_s == NULL;
}

/* Rank 0 writes `path` (a snapshot, or a checkpoint when ck); every rank learns the outcome. */
static ionf_err write_state(struct sph_engine *e, const char *path,
                            const struct sph_checkpoint_meta *ck) {
  double t0 = ionf_wtime();
  ionf_err rc = IONF_OK;
  if (comm_rank() == 0) {
    struct sph_snapshot_view v;
    memset(&v, 0, sizeof v);
    v.particles = &e->particles;
    v.x_hii = e->x_hii;
    v.gamma_hi_per_s = e->gamma_hi_per_s;
    v.temperature_k = e->temperature_k;
    v.n_h_cm3 = e->n_h_cm3;
    v.time_s = e->time_s;
    v.step = e->step;
    v.deposit_n = ck ? 0 : e->cfg->output_grid; /* a checkpoint needs the particles only */
    v.effective_yaml = e->cfg->base.effective_yaml;
    v.checkpoint = ck;
    rc = sph_snapshot_write(path, &v);
  }
  ionf_err any;
  IONF_CALL(comm_agree(rc, &any));
  IONF_CALL(rc);
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "rank 0 failed to write '%s'", path);
  e->timers.io_s += ionf_wtime() - t0;
  return IONF_OK;
}

ionf_err sph_engine_write_snapshot(struct sph_engine *e, int index, char *path_out,
                                   size_t path_out_size) {
  char path[IONF_PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/snapshot_%04d.h5", e->cfg->base.output_dir, index);
  IONF_CALL(write_state(e, path, NULL));
  if (path_out) snprintf(path_out, path_out_size, "%s", path);
  return IONF_OK;
}

ionf_err sph_engine_write_checkpoint(struct sph_engine *e, int next_index, char *path_out,
                                     size_t path_out_size) {
  char path[IONF_PATH_MAX + 32], origin[IONF_PATH_MAX + 128];
  snprintf(path, sizeof path, "%s/checkpoint.h5", e->cfg->base.output_dir);
  struct sph_checkpoint_meta m;
  checkpoint_meta(e, next_index, &m, origin, sizeof origin);
  IONF_CALL(write_state(e, path, &m));
  if (path_out) snprintf(path_out, path_out_size, "%s", path);
  return IONF_OK;
}

ionf_err sph_engine_restart(struct sph_engine *e, const char *path) {
  IONF_CHECK(e->step == 0 && !e->restarted, IONF_ERR_USAGE,
             "a restart must come right after the engine's creation (this engine has taken %lld "
             "step(s))",
             (long long)e->step);
  char origin[IONF_PATH_MAX + 128];
  struct sph_checkpoint_meta want;
  checkpoint_meta(e, 0, &want, origin, sizeof origin);
  int64_t n = e->particles.count;
  /* every rank reads the whole state (it is replicated); the outcome is agreed on */
  double *x = ionf_malloc(2 * sizeof(double) * (size_t)n, "the checkpoint's state");
  ionf_err rc = x ? IONF_OK : IONF_ERR_MEM;
  struct sph_checkpoint_state st;
  memset(&st, 0, sizeof st);
  if (rc == IONF_OK) rc = sph_checkpoint_read(path, &want, x, x + n, &st);
  const double t_end = e->cfg->base.t_end_s;
  if (rc == IONF_OK && !(st.time_s < t_end - 1e-9 * e->cfg->base.dt_s))
    rc = ionf_error_set(IONF_ERR_INPUT,
                        "checkpoint '%s' is at %.6g Myr, already at time.t_end (%.6g Myr)", path,
                        st.time_s / IONF_MYR_S, t_end / IONF_MYR_S);
  ionf_err any;
  ionf_err agreed = comm_agree(rc, &any);
  if (rc == IONF_OK) rc = agreed;
  if (rc == IONF_OK && any != IONF_OK)
    rc = ionf_error_set(IONF_ERR_PEER, "another rank failed to read checkpoint '%s'", path);
  if (rc != IONF_OK) {
    free(x);
    return rc;
  }
  size_t bytes = sizeof(double) * (size_t)n;
  memcpy(e->x_hii, x, bytes);
  memcpy(e->x_hii_av, x, bytes);
  memcpy(e->x_hii_end, x, bytes);
  memcpy(e->temperature_k, x + n, bytes);
  if (e->temperature_av_k) {
    memcpy(e->temperature_av_k, x + n, bytes);
    memcpy(e->temperature_end_k, x + n, bytes);
  }
  free(x);
  e->time_s = st.time_s;
  e->step = st.step;
  e->next_snapshot_index = st.next_index;
  e->restarted = 1;
  return IONF_OK;
}

/* Steps of dt, shortened to land on the next output time (or t_end). */
static double next_step_length(const struct ionf_config *cfg, double t, double t_tiny) {
  double target = cfg->t_end_s;
  for (int i = 0; i < cfg->n_outputs; ++i)
    if (cfg->output_times_s[i] > t + t_tiny) {
      if (cfg->output_times_s[i] < target) target = cfg->output_times_s[i];
      break;
    }
  double dt = cfg->dt_s < target - t ? cfg->dt_s : target - t;
  if (target - t - dt < t_tiny) dt = target - t;
  return dt;
}

ionf_err sph_engine_run(struct sph_engine *e, struct engine_report *report) {
  const struct ionf_config *cfg = &e->cfg->base;
  memset(report, 0, sizeof *report);
  double wall0 = ionf_wtime();
  struct step_log log = {0};
  IONF_CALL(output_dir_prepare_all(cfg->output_dir));
  ionf_err rc = comm_rank() == 0 ? step_log_open(&log, cfg->output_dir, e->restarted ? e->step : -1)
                                 : IONF_OK;
  ionf_err any;
  IONF_CALL(comm_agree(rc, &any));
  if (rc != IONF_OK) return rc;
  IONF_CHECK(any == IONF_OK, IONF_ERR_PEER, "rank 0 could not open the step log in '%s'",
             cfg->output_dir);
  if (!e->restarted) {
    rc = sph_engine_write_snapshot(e, 0, report->last_snapshot, sizeof report->last_snapshot);
    if (rc == IONF_OK) report->n_snapshots++;
  }
  int index = e->restarted ? e->next_snapshot_index : 1, next_output = 0;
  const double t_tiny = 1e-9 * cfg->dt_s;
  while (rc == IONF_OK && e->time_s < cfg->t_end_s - t_tiny) {
    while (next_output < cfg->n_outputs && cfg->output_times_s[next_output] <= e->time_s + t_tiny)
      next_output++;
    double dt = next_step_length(cfg, e->time_s, t_tiny);
    double s0 = ionf_wtime();
    struct sph_step_info info;
    rc = sph_engine_step(e, dt, &info);
    if (rc != IONF_OK) break;
    double step_wall = ionf_wtime() - s0;
    double ndot = 0.0;
    for (int64_t s = 0; s < e->cfg->n_sources; ++s) ndot += e->cfg->source_ndot_per_s[s];
    if (comm_rank() == 0 && log.file)
      rc = step_log_row(&log, e->step, e->time_s, info.iterations, info.x_mean, info.x_mean_mass,
                        step_wall, -1.0, e->cfg->n_sources, ndot);
    if (rc != IONF_OK) break;
    if (!info.converged)
      ionf_warning("step %lld: not converged after %d iterations (raytracing.max_iterations)",
                   (long long)e->step, info.iterations);
    if (cfg->progress)
      ionf_message0("step %4lld t = %8.3f Myr  iterations %3d  <x_HII> = %.5f (mass %.5f)  wall %.2f s",
                    (long long)e->step, e->time_s / IONF_MYR_S, info.iterations, info.x_mean,
                    info.x_mean_mass, step_wall);
    if (next_output < cfg->n_outputs &&
        fabs(e->time_s - cfg->output_times_s[next_output]) <= t_tiny) {
      rc = sph_engine_write_snapshot(e, index++, report->last_snapshot,
                                     sizeof report->last_snapshot);
      if (rc == IONF_OK) report->n_snapshots++;
      next_output++;
      if (rc != IONF_OK) break;
    }
    /* as engine_run: checkpoints every checkpoint_every steps and on a stop signal */
    int checkpoint = 0, stop = 0;
    rc = engine_step_end(e->step, e->time_s >= cfg->t_end_s - t_tiny, cfg->checkpoint_every,
                         &checkpoint, &stop);
    if (rc == IONF_OK && checkpoint)
      rc = sph_engine_write_checkpoint(e, index, report->checkpoint, sizeof report->checkpoint);
    if (rc != IONF_OK) break;
    if (stop) {
      rc = engine_stopped_error(stop, e->step, e->time_s, report->checkpoint);
      break;
    }
  }
  if (log.file) step_log_close(&log);
  report->wall_s = ionf_wtime() - wall0;
  report->steps = e->step;
  return rc;
}

/**
 * @file particle_domain.c
 * @brief The particle domain: a run on SPH particles -- the particle set (a file or
 *        generated), its tree, n_H per particle, the sources by position, the
 *        particle tracer (CPU, CUDA or a test's) and the chemistry (CPU, or through
 *        the GPU beside the CUDA tracer).  Every rank holds every particle and its own
 *        tree; the fields stay on the host (the CPU backend), where the tracer and the
 *        chemistry read and write them; on several ranks each rank's chemistry runs on
 *        its block of particles (particle_reduce.c; mpi.reduction allreduce: on all).
 *        Snapshots, checkpoints, restarts: particle_output.c.
 *
 * Chemistry: measured on two CPU threads it is ~1% of the CPU tracer's time in
 * isothermal Test 1 (32^3 particles) but 8% in thermal Test 2 (32^3, 500 Myr: 11 s of
 * 152 s; up to ~20 us per particle and pass early on, the temperature's sub-steps);
 * next to a GPU trace the host would dominate thermal runs, hence the GPU pass with
 * the CUDA tracer.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "config/config_views.h"
#include "core/ionf_config.h"
#include "cosmo/cosmology.h"
#include "engine/domain.h"
#include "engine/particle_output.h"
#include "engine/particle_reduce.h"
#include "io/io_density.h"
#include "io/io_particles.h"
#include "mpi/comm.h"
#include "particles/particles_make.h"
#include "particles/sph_neighbours.h"
#include "particles/sph_periodic_k.h"
#include "particles/sph_rays.h"
#include "gpu/core/cuda_util.h"

#define PARTICLE_MAX_LEAF 8 /* particles per BVH leaf */

/* ---- the particle set ---------------------------------------------------------------- */

/* particles.generate: the generator's parameters (density_file: the grid's n_H as mass
   densities in *cell_rho, to be freed) */
static ionf_err generate_params(const struct sph_config *cfg, struct particles_make_params *prm,
                                double **cell_rho) {
  particles_make_default_params(prm);
  prm->n_side = cfg->count_1d;
  prm->box_cm = cfg->gen_box_cm;
  prm->periodic = cfg->gen_periodic;
  prm->jitter = cfg->gen_jitter;
  prm->relax_iterations = cfg->generate == SPH_GENERATE_GLASS ? cfg->gen_relax_iterations : 0;
  prm->density_g_cm3 = cfg->gen_n_h_cm3 * IONF_PROTON_MASS_G / cfg->hydrogen_mass_fraction;
  prm->n_ngb = cfg->gen_neighbours;
  prm->hydrogen_mass_fraction = cfg->hydrogen_mass_fraction;
  prm->seed = cfg->gen_seed;
  *cell_rho = NULL;
  if (cfg->generate != SPH_GENERATE_DENSITY_FILE) return IONF_OK;
  const size_t cells = (size_t)(cfg->count_1d * cfg->count_1d * cfg->count_1d);
  double *rho = ionf_malloc(cells * sizeof *rho, "the density grid");
  IONF_CHECK(rho, IONF_ERR_MEM, "out of memory");
  ionf_err rc = io_density_read(cfg->gen_density_file, cfg->gen_density_dataset, cfg->count_1d, rho);
  if (rc != IONF_OK) {
    free(rho);
    return rc;
  }
  for (size_t c = 0; c < cells; ++c) rho[c] *= IONF_PROTON_MASS_G / cfg->hydrogen_mass_fraction;
  prm->cell_density_g_cm3 = rho;
  *cell_rho = rho;
  return IONF_OK;
}

static ionf_err load_particles(struct engine *e) {
  struct engine_particles *ep = e->particles;
  const struct sph_config *cfg = ep->cfg;
  struct particle_set *p = &ep->set;
  if (cfg->generate != SPH_GENERATE_NONE) {
    struct particles_make_params prm;
    double *cell_rho;
    IONF_CALL(generate_params(cfg, &prm, &cell_rho));
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
static ionf_err check_periodic(const struct engine *e) {
  const struct sph_config *cfg = e->particles->cfg;
  const struct particle_set *p = &e->particles->set;
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
static ionf_err check_sources(const struct engine *e) {
  const struct sph_config *cfg = e->particles->cfg;
  struct bvh_scene scene;
  particles_scene(&e->particles->set, &scene);
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

/* The pass function the config asks for (auto: CUDA when a GPU is present); a CUDA
   pass makes this rank's GPU current before the tree is built on it. */
static ionf_err choose_tracer(struct engine *e) {
  struct engine_particles *ep = e->particles;
  enum backend_kind kind = ep->cfg->base.backend;
  int gpus = cuda_util_device_count();
  if (kind == BACKEND_AUTO) kind = gpus > 0 ? BACKEND_CUDA : BACKEND_CPU;
  ep->tracer_name = "cpu";
  if (kind != BACKEND_CUDA) return IONF_OK;
  IONF_CHECK(IONF_HAVE_CUDA, IONF_ERR_UNSUPPORTED,
             "%s: raytracing.backend = cuda, but this ionfront was built without CUDA",
             ep->cfg->base.config_name);
  IONF_CHECK(gpus > 0, IONF_ERR_UNSUPPORTED,
             "%s: raytracing.backend = cuda, but no CUDA device is visible",
             ep->cfg->base.config_name);
  IONF_CHECK(cuda_util_select_device(comm_local_rank()) >= 0, IONF_ERR_GPU,
             "rank %d: cannot use a CUDA device (local rank %d of %d devices)", comm_rank(),
             comm_local_rank(), gpus);
  ep->tracer_name = "cuda";
  return IONF_OK;
}

static int tracer_on_gpu(const struct engine *e) { return !strcmp(e->particles->tracer_name, "cuda"); }

static ionf_err build_tree(struct engine *e) {
  const struct particle_set *p = &e->particles->set;
  struct bvh_scene scene;
  particles_scene(p, &scene);
  IONF_CHECK(p->count <= BVH_MAX_PARTICLES, IONF_ERR_INPUT,
             "%lld particles: the tree holds at most %lld", (long long)p->count,
             (long long)BVH_MAX_PARTICLES);
  if (tracer_on_gpu(e)) /* the GPU builds the same tree, bit for bit (gpu/particles/bvh_build.cu) */
    return bvh_build_cuda(p->pos_cm, p->h_cm, p->count, &scene, PARTICLE_MAX_LEAF,
                          &e->particles->tree);
  return bvh_build_cpu(p->pos_cm, p->h_cm, p->count, &scene, PARTICLE_MAX_LEAF,
                       &e->particles->tree, NULL);
}

/* The fields over the particles, and the initial state. */
static ionf_err alloc_state(struct engine *e) {
  struct engine_particles *ep = e->particles;
  int64_t n = ep->set.count;
  const struct ionf_config *b = &ep->cfg->base;
  const int ns = config_views_species_count(b);
  IONF_CALL(fields_alloc(n, !b->isothermal, ns, &e->fields));
  e->fields.abundance_he = b->abundance_he;
  e->global_cells = n;
  e->slab_units = n;
  e->slab_unit_cells = 1;
  double per_g = ep->cfg->hydrogen_mass_fraction / IONF_PROTON_MASS_G;
  double sum_atoms = 0.0;
  struct fields *f = &e->fields;
  for (int64_t i = 0; i < n; ++i) {
    f->n_h_cm3[i] = per_g * ep->set.density_g_cm3[i];
    f->x_ion[i] = f->x_ion_av[i] = f->x_ion_end[i] = b->x_hii_initial;
    for (int s = 1; s < ns; ++s) { /* helium starts at x_HeII_initial, x_HeIII_initial */
      double x0 = s == SPECIES_HEI ? b->x_heii_initial : b->x_heiii_initial;
      f->x_ion[s * n + i] = f->x_ion_av[s * n + i] = f->x_ion_end[s * n + i] = x0;
    }
    f->temperature_k[i] = b->temperature_k;
    if (f->temperature_av_k) f->temperature_av_k[i] = f->temperature_end_k[i] = b->temperature_k;
    sum_atoms += ep->set.n_h_atoms[i];
  }
  ep->sum_n_h_atoms = sum_atoms;
  return IONF_OK;
}

int64_t engine_particles_default_rays(int64_t n_particles) {
  int64_t nside = sph_rays_default_nside(n_particles); /* the tracer's own default */
  return 12 * nside * nside;
}

/* Everything of a particle run that the compute set-up needs before it; every rank makes
   or reads the same particles. */
static ionf_err particle_setup(struct engine *e, sph_trace_fn trace) {
  struct engine_particles *ep = e->particles;
  const struct sph_config *cfg = ep->cfg;
  IONF_CALL(load_particles(e));
  IONF_CALL(check_periodic(e));
  IONF_CALL(check_sources(e));
  ep->pass = trace;
  if (trace) ep->tracer_name = "injected";
  else IONF_CALL(choose_tracer(e));
  IONF_CALL(build_tree(e));
  IONF_CALL(alloc_state(e));
#if IONF_HAVE_CUDA
  if (tracer_on_gpu(e)) { /* each pass's copies in and out */
    size_t bytes = sizeof(double) * (size_t)ep->set.count * (size_t)e->fields.n_species;
    sph_trace_cuda_pin_host(e->fields.x_ion_av, bytes);
    sph_trace_cuda_pin_host(e->fields.gamma_per_s, bytes);
    if (e->fields.heating_erg_per_s) sph_trace_cuda_pin_host(e->fields.heating_erg_per_s, bytes);
  }
#endif
  struct photo_spectrum spectrum = config_views_spectrum(&cfg->base);
  struct species_data species[IONF_MAX_SPECIES];
  config_views_species(&cfg->base, species);
  /* with helium the band tables give the rates (engine_helium_make); hydrogen's tables
     then only carry the species' threshold cross-sections, as on grids */
  if (e->fields.n_species > 1) spectrum.type = SPECTRUM_GREY;
  IONF_CALL(photo_tables_build(&spectrum, species, !cfg->base.isothermal, &e->tables));
  IONF_CALL(engine_helium_make(e));
  e->chem = config_views_chem(&cfg->base);
  e->chem_now = e->chem;
  /* a constant C, or the redshift model's at its z (a particle run has no redshift) */
  e->clumping_now = clumping_model_step(&cfg->base.clumping, cfg->base.z_initial, 0.0);
  ep->n_rays = cfg->rays_per_source > 0 ? cfg->rays_per_source
                                        : engine_particles_default_rays(ep->set.count);
  return sources_from_positions(cfg->n_sources, cfg->source_pos_cm, cfg->source_ndot_per_s,
                                &e->sources);
}

ionf_err engine_create_particles(const struct sph_config *cfg, sph_trace_fn trace,
                                 struct engine **out) {
  *out = NULL;
  struct engine *e = ionf_calloc(1, sizeof *e, "the particle engine");
  if (!e) return IONF_ERR_MEM;
  e->particles = ionf_calloc(1, sizeof *e->particles, "the particle engine");
  if (!e->particles) {
    free(e);
    return IONF_ERR_MEM;
  }
  e->cfg = &cfg->base;
  e->kind = ENGINE_PARTICLES;
  e->domain = &particle_domain_ops;
  e->particles->cfg = cfg;
  e->seq_interval = -1;
  e->seq_n_suppressed = -1;
  ionf_err rc = particle_setup(e, trace);
  ionf_err any;
  IONF_CALL(comm_agree(rc, &any));
  if (rc == IONF_OK && any != IONF_OK)
    rc = ionf_error_set(IONF_ERR_PEER, "another rank failed to set up the particles");
  if (rc == IONF_OK) rc = engine_setup_compute(e, BACKEND_CPU); /* the state lives on the host */
  if (rc != IONF_OK) {
    ionf_error_trace(__func__, __FILE__, __LINE__);
    engine_destroy(e);
    return rc;
  }
  *out = e;
  return IONF_OK;
}

/* ---- the domain's ops -------------------------------------------------------------- */

static ionf_err particle_make_compute(struct engine *e) {
  struct engine_particles *ep = e->particles;
  struct sph_tracer_setup s = {.particles = &ep->set,
                               .tree = &ep->tree,
                               .tables = photo_tables_view(&e->tables),
                               .n_rays = ep->n_rays,
                               .r_max_cm = ep->cfg->r_max_cm,
                               .tuning = ep->cfg->trace,
                               .n_species = 1};
  if (!ep->cfg->share_sources) { /* every source's rays shared among the ranks */
    s.ray_first = comm_rank();
    s.ray_stride = comm_size();
  }
  if (e->fields.n_species > 1) { /* helium: the band tables */
    s.n_species = e->fields.n_species;
    s.abundance_he = e->fields.abundance_he;
    s.bands = bands_view_of(&e->bands);
  }
  /* (a CPU-only build never chooses the CUDA pass: choose_tracer refuses it) */
  sph_trace_fn fn = ep->pass ? ep->pass : tracer_on_gpu(e) ? sph_trace_cuda : sph_trace_cpu;
  struct tracer *t = NULL;
  IONF_CALL(sph_tracer_create(&s, fn, ep->tracer_name, &t));
  e->tracers[e->n_tracers++] = t;
  IONF_CALL(particle_reduce_setup(e, tracer_on_gpu(e)));
#if IONF_HAVE_CUDA
  if (tracer_on_gpu(e)) return chem_solver_create_cuda(0, NULL, &e->chem_solver);
#endif
  return chem_solver_create_cpu(&e->chem_solver);
}

/* particles.ranks_share rays: every rank traces every source, a share of its rays (the
   tracer's ray_first, ray_stride: rank, ranks), so the ranks' work is alike wherever the
   sources sit; sources: contiguous blocks of equal count, all rays of each (sources in
   dense or sparse surroundings cost differently: benchmarks/RESULTS.md). */
static ionf_err particle_share_sources(struct engine *e) {
  if (e->particles->cfg->share_sources)
    comm_slab(e->sources.n, comm_rank(), comm_size(), &e->first_source, &e->source_count);
  else
    e->first_source = 0, e->source_count = e->sources.n;
  e->source_imbalance = 1.0;
  return IONF_OK;
}

static ionf_err particle_step_prepare(struct engine *e, double dt_s) { return IONF_OK; }

static void particle_step_means(const struct engine *e, const struct chem_pass_result *cr,
                                struct engine_step_info *info) {
  const struct engine_particles *ep = e->particles;
  int64_t n = ep->set.count;
  double sum_mass = 0.0;
  for (int64_t i = 0; i < n; ++i) sum_mass += ep->set.n_h_atoms[i] * e->fields.x_ion[i];
  info->x_mean_volume = cr->sum_x_end / (double)n;
  info->x_mean_mass = ep->sum_n_h_atoms > 0.0 ? sum_mass / ep->sum_n_h_atoms : info->x_mean_volume;
}

static void particle_destroy(struct engine *e) {
  struct engine_particles *ep = e->particles;
  if (!ep) return;
  particle_reduce_destroy(e);
#if IONF_HAVE_CUDA
  if (ep->tracer_name && !strcmp(ep->tracer_name, "cuda")) sph_trace_cuda_release();
#endif
  bvh_free(&ep->tree);
  particles_free(&ep->set);
  free(ep);
  e->particles = NULL;
}

const struct domain_ops particle_domain_ops = {
    "particles",           particle_make_compute, particle_share_sources,
    particle_step_prepare, particle_step_means,   NULL,
    NULL,                  particle_write_output, particle_write_checkpoint,
    particle_restart,      NULL,                  NULL,
    particle_destroy};

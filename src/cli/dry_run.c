/**
 * @file dry_run.c
 * @brief `ionfront run CONFIG --dry-run`: the config loaded, every input checked as the
 *        run would (engine_plan_grid; a particle run's engine made and dropped), the plan
 *        printed (rank 0), nothing written.
 */
#include "cli/dry_run.h"
#include "grid/decomp.h"

#include <stdio.h>
#include <string.h>

#include "cli/thermal_cli.h"
#include "config/config_file.h"
#include "config/config_thermal.h"
#include "config/config_subgrid.h"
#include "config/config_views.h"
#include "config/problems.h"
#include "config/sph_config.h"
#include "core/constants.h"
#include "core/ionf_config.h"
#include "engine/engine.h"
#include "engine/engine_plan.h"
#include "grid/halo_model.h"
#include "mpi/comm.h"

/* The time line of a plan: steps, their lengths, the outputs (rank 0). */
/* The species the run follows (config_views_species_count), with helium's settings; then
   the sub-grid models (chemistry.clumping, raytracing.mean_free_path) when given. */
static void dry_run_print_species(const struct ionf_config *cfg) {
  if (config_views_species_count(cfg) == 1)
    ionf_message0("species: hydrogen (HI)");
  else
    ionf_message0("species: hydrogen and helium (HI, HeI, HeII), abundance_He = %g, case %s, "
                  "%d + %d + %d band sub-bins%s",
                  cfg->abundance_he, cfg->recombination_case_b ? "B" : "A",
                  cfg->band_sub_bins[0], cfg->band_sub_bins[1], cfg->band_sub_bins[2],
                  cfg->secondary_ionization ? ", secondary ionization" : "");
  char lines[2][CONFIG_SUBGRID_LINE_MAX];
  int n = config_subgrid_describe(cfg, lines);
  for (int i = 0; i < n; ++i) ionf_message0("%s", lines[i]);
}

static void dry_run_print_times(const struct ionf_config *cfg) {
  int64_t n_steps;
  double lo, hi;
  engine_plan_steps(cfg, &n_steps, &lo, &hi);
  if (lo == hi)
    ionf_message0("time: %lld step(s) of %g Myr to t_end = %g Myr", (long long)n_steps,
                  lo / IONF_MYR_S, cfg->t_end_s / IONF_MYR_S);
  else
    ionf_message0("time: %lld step(s) of %g to %g Myr (dt = %g Myr, cut at outputs and "
                  "redshifts) to t_end = %g Myr",
                  (long long)n_steps, lo / IONF_MYR_S, hi / IONF_MYR_S, cfg->dt_s / IONF_MYR_S,
                  cfg->t_end_s / IONF_MYR_S);
  char list[1024] = "";
  size_t used = 0;
  for (int i = 0; i < cfg->n_outputs && used < sizeof list; ++i)
    used += (size_t)snprintf(list + used, sizeof list - used, "%s%g", i ? ", " : "",
                             cfg->output_times_s[i] / IONF_MYR_S);
  ionf_message0("outputs: the initial state and %d snapshot(s) at t = %s Myr, in %s/ (not "
                "created by a dry run)",
                cfg->n_outputs, list, cfg->output_dir);
}

/* `bytes` as "1.5 GiB" or "12 MiB" into `buf` (32 bytes). */
static const char *dry_run_bytes(double bytes, char *buf) {
  const double mib = 1024.0 * 1024.0;
  if (bytes >= 1024.0 * mib) snprintf(buf, 32, "%.1f GiB", bytes / (1024.0 * mib));
  else snprintf(buf, 32, "%.1f MiB", bytes / mib);
  return buf;
}

static ionf_err dry_run_grid(const struct ionf_config *cfg) {
  struct engine_plan plan;
  IONF_CALL(engine_plan_grid(cfg, &plan));
  double cell_cm = cfg->box_size_cm / (double)cfg->n_cells_1d;
  ionf_message0("grid %lld^3, box %.6g kpc%s, cell %.4g pc, %s; %s (%lld cells)",
                (long long)cfg->n_cells_1d, cfg->box_size_cm / IONF_KPC_CM,
                cfg->cosmological ? " (comoving)" : "", cell_cm / IONF_PC_CM,
                cfg->periodic ? "periodic" : "non-periodic",
                plan.memory.decomposition == DECOMP_SLABS
                    ? "each rank holds a slab and its halo"
                    : "every rank holds the whole grid",
                (long long)(cfg->n_cells_1d * cfg->n_cells_1d * cfg->n_cells_1d));
  if (plan.synthetic_pending)
    ionf_message0("synthetic: the run would first make its missing input files (not made, "
                  "not checked by a dry run)");
  if (plan.n_sources < 0) {
    char model[512], unit[64] = "";
    halo_model_describe(&cfg->sequence.halo_model, model, sizeof model);
    if (cfg->sequence.halo_format == HALO_FORMAT_C2RAY)
      snprintf(unit, sizeof unit, ", mass unit %.6g Msun", cfg->sequence.halo_mass_unit_msun);
    ionf_message0("sources: from the sequence's halo files (format %s%s), one per redshift (%s); "
                  "%s",
                  config_sequence_halo_format_name(cfg->sequence.halo_format), unit,
                  plan.synthetic_pending ? "to be made" : "all checked", model);
  }
  else if (plan.synthetic_pending && cfg->source_file[0] && plan.n_sources == 0)
    ionf_message0("sources: %s (to be made)", cfg->source_file);
  else if (plan.n_sources > 0 || cfg->n_planes == 0)
    ionf_message0("%lld point source(s), %.4g photons/s in all", (long long)plan.n_sources,
                  plan.ndot_total_per_s);
  if (cfg->n_planes > 0) ionf_message0("%d plane-parallel source(s)", cfg->n_planes);
  for (int r = 0; r < plan.n_ranks && plan.n_sources > 0; ++r)
    ionf_message0("rank %d: %lld point source(s) to trace", r, (long long)plan.rank_sources[r]);
  if (plan.n_ranks > 1 && plan.n_sources > 0)
    ionf_message0("tracing cost: largest rank / mean = %.3f", plan.source_imbalance);
  const struct engine_memory *m = &plan.memory;
  char t[6][32], gpu[96] = "none (computes on the host)";
  if (m->gpu_bytes > 0)
    snprintf(gpu, sizeof gpu, "about %s of %s free", dry_run_bytes(m->gpu_bytes, t[4]),
             dry_run_bytes(plan.gpu_available_bytes, t[5]));
  ionf_message0("memory per rank (rank 0): host about %s (fields %s, ray-tracing buffers %s, "
                "other %s) of %s available; GPU %s",
                dry_run_bytes(m->host_bytes, t[0]), dry_run_bytes(m->fields_bytes, t[1]),
                dry_run_bytes(m->tracer_bytes, t[2]), dry_run_bytes(m->other_bytes, t[3]),
                dry_run_bytes(plan.host_available_bytes, t[5]), gpu);
  ionf_message0("grid: %s (%s); the largest rank's box %lld cells",
                m->decomposition == DECOMP_SLABS ? "split in slabs of i-planes with halos"
                                                 : "replicated on every rank",
                m->decomposition_reason ? m->decomposition_reason : "", (long long)m->box_cells);
  engine_plan_free(&plan);
  dry_run_print_species(cfg);
  const struct sequence_config *seq = &cfg->sequence;
  if (seq->n_redshifts > 0)
    ionf_message0("sequence: %d redshifts from z = %g to z = %g%s%s", seq->n_redshifts,
                  seq->redshifts[0], seq->redshifts[seq->n_redshifts - 1],
                  seq->density_pattern[0] ? "; density files: " : "",
                  seq->density_pattern[0]
                      ? config_sequence_density_format_name(seq->density_format)
                      : ""); /* the halo files' format: the sources line */
  dry_run_print_times(cfg);
  return IONF_OK;
}

static ionf_err dry_run_particles(const struct sph_config *cfg) {
  struct engine *e = NULL;
  IONF_CALL(engine_create_particles(cfg, NULL, &e));
  const struct particle_set *set = &e->particles->set;
  char box[96] = "";
  if (set->has_box)
    snprintf(box, sizeof box, ", box %.6g x %.6g x %.6g kpc", set->box_size_cm[0] / IONF_KPC_CM,
             set->box_size_cm[1] / IONF_KPC_CM, set->box_size_cm[2] / IONF_KPC_CM);
  ionf_message0("%lld particles (%s)%s; every rank holds every particle; %lld source(s), %lld "
                "rays each",
                (long long)set->count, cfg->file[0] ? cfg->file : "generated", box,
                (long long)e->sources.n, (long long)e->particles->n_rays);
  engine_destroy(e);
  dry_run_print_species(&cfg->base);
  dry_run_print_times(&cfg->base);
  return IONF_OK;
}

ionf_err dry_run(const char *config_path, char *const *overrides, int n_overrides) {
  struct config_file f;
  IONF_CALL(config_path ? config_file_read(config_path, &f)
                        : config_file_builtin(PROBLEMS_DEFAULT, &f));
  ionf_message0("ionfront %s: dry run of %s (nothing is written)", IONF_VERSION, f.name);
  if (config_thermal_file_is_thermal(&f)) { /* problem: thermal (src/cli/thermal_cli.c) */
    ionf_err rc = thermal_cli_run(&f, overrides, n_overrides, NULL, 1);
    config_file_free(&f);
    return rc;
  }
  int particles = config_file_is_particle_run(&f);
  ionf_error_clear();
  struct ionf_config cfg;
  struct sph_config sph;
  memset(&sph, 0, sizeof sph);
  ionf_err rc = particles ? sph_config_load_file(&f, overrides, n_overrides, &sph)
                          : config_load_file(&f, overrides, n_overrides, &cfg);
  config_file_free(&f);
  if (rc == IONF_OK) rc = particles ? dry_run_particles(&sph) : dry_run_grid(&cfg);
  if (particles) sph_config_free(&sph);
  else config_free(&cfg);
  return rc;
}

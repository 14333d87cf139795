/**
 * @file config_run.c
 * @brief How the run computes and writes: raytracing:, montecarlo:, output:, mpi:.
 */
#include "config/config_internal.h"

#include <stdio.h>

ionf_err config_run_raytracing(struct config_ctx *ctx, const struct param_node *root,
                               struct ionf_config *cfg) {
  static const char *const keys[] = {"R_max", "convergence_fraction", "max_iterations",
                                     "backend", "source_batch_size", "method", "mean_free_path",
                                     "transmission_cutoff"};
  static const char *const methods[] = {"asora", "montecarlo"};
  static const char *const backends[] = {"cpu", "cuda", "auto"};
  static const enum backend_kind backend_of[] = {BACKEND_CPU, BACKEND_CUDA, BACKEND_AUTO};
  struct config_section s;
  struct param_node *n;
  int64_t iters = 0;
  int which = 0;
  IONF_CALL(config_open_section(ctx, root, "raytracing", keys, CONFIG_N(keys), &s));

  /* Bare numbers are cells; lengths are converted with the grid's cell. */
  double cell_cm = cfg->box_size_cm / (double)cfg->n_cells_1d;
  double r_cm = 0.0;
  const struct param_node *given = params_get(s.user, "R_max");
  IONF_CALL(config_take(&s, "R_max", CONFIG_DEF_R_MAX, &n));
  IONF_CALL(config_quantity(ctx, s.path, n, UNIT_LENGTH, cell_cm, cell_cm, &r_cm));
  cfg->r_max_cells = r_cm / cell_cm;
  if (!(cfg->r_max_cells >= 0))
    return config_range(ctx, s.path, n, "must be >= 0; 0 means the whole box");
  /* a model of R(z) (the photon radius planned: config_subgrid_check); R_max caps it */
  IONF_CALL(config_subgrid_mfp(&s, cfg));
  cfg->r_max_cap_cells = cfg->mean_free_path.kind != MFP_NONE && given && given->kind != PARAM_NULL
                             ? cfg->r_max_cells
                             : 0.0;

  IONF_CALL(config_take(&s, "convergence_fraction", CONFIG_DEF_CONVERGENCE, &n));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &cfg->convergence_fraction));
  if (!(cfg->convergence_fraction > 0 && cfg->convergence_fraction <= 0.1))
    return config_range(ctx, s.path, n, "must be in (0, 0.1]");

  IONF_CALL(config_take(&s, "max_iterations", CONFIG_DEF_MAX_ITER, &n));
  IONF_CALL(config_int(ctx, s.path, n, 1, 10000, &iters));
  cfg->max_iterations = (int)iters;

  IONF_CALL(config_take_enum(&s, "backend", CONFIG_DEF_BACKEND, backends, CONFIG_N(backends),
                             &which));
  cfg->backend = backend_of[which];

  int64_t batch = 0;
  IONF_CALL(config_take(&s, "source_batch_size", CONFIG_DEF_BATCH, &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, 100000000, &batch));
  cfg->source_batch_size = batch;

  IONF_CALL(config_take_enum(&s, "method", "asora", methods, CONFIG_N(methods), &which));
  cfg->method = which == 1 ? RT_METHOD_MONTECARLO : RT_METHOD_ASORA;

  IONF_CALL(config_take(&s, "transmission_cutoff", "0", &n));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &cfg->transmission_cutoff));
  if (!(cfg->transmission_cutoff >= 0.0 && cfg->transmission_cutoff <= 1e-3))
    return config_range(ctx, s.path, n, "must be 0 (off) or in (0, 1e-3]");
  IONF_CHECK(cfg->method == RT_METHOD_ASORA || cfg->transmission_cutoff == 0.0, IONF_ERR_CONFIG,
             "%s: raytracing.transmission_cutoff = %g: for raytracing.method asora only (Monte "
             "Carlo packets: leave it out)",
             ctx->name, cfg->transmission_cutoff);
  return IONF_OK;
}

/* montecarlo: read only with raytracing.method: montecarlo (else it must be absent). */
ionf_err config_run_montecarlo(struct config_ctx *ctx, const struct param_node *root,
                               struct ionf_config *cfg) {
  static const char *const keys[] = {"packets_per_source", "seed", "target_relative_error",
                                     "max_packets_per_source", "recombination_emission",
                                     "recombination_packets", "alpha_A"};
  const struct param_node *user = params_get(root, "montecarlo");
  if (cfg->method != RT_METHOD_MONTECARLO) {
    IONF_CHECK(!user || user->kind == PARAM_NULL, IONF_ERR_CONFIG,
               "%s: montecarlo: is given but raytracing.method is asora (set raytracing.method: "
               "montecarlo, or remove the montecarlo section)",
               ctx->name);
    return IONF_OK;
  }
  struct config_section s;
  struct param_node *n;
  struct mc_config *mc = &cfg->montecarlo;
  int64_t v = 0;
  IONF_CALL(config_open_section(ctx, root, "montecarlo", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "packets_per_source", "100000", &n));
  IONF_CALL(config_int(ctx, s.path, n, 1, 4294967295LL, &mc->packets_per_source));
  IONF_CALL(config_take(&s, "seed", "1", &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, 4294967295LL, &v));
  mc->seed = (uint32_t)v;
  IONF_CALL(config_take(&s, "target_relative_error", "0", &n));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &mc->target_relative_error));
  if (!(mc->target_relative_error >= 0.0 && mc->target_relative_error < 1.0))
    return config_range(ctx, s.path, n, "must be in [0, 1); 0 keeps packets_per_source fixed");
  IONF_CALL(config_take(&s, "max_packets_per_source", "100000000", &n));
  IONF_CALL(config_int(ctx, s.path, n, 1, 4294967295LL, &mc->max_packets_per_source));
  if (mc->max_packets_per_source < mc->packets_per_source)
    return config_range(ctx, s.path, n, "must be >= montecarlo.packets_per_source");
  IONF_CALL(config_take(&s, "recombination_emission", "false", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &mc->recombination_emission));
  IONF_CALL(config_take(&s, "recombination_packets", "0", &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, 1000000000000LL, &mc->recombination_packets));
  IONF_CALL(config_take(&s, "alpha_A", "4.18e-13", &n));
  IONF_CALL(config_number(ctx, s.path, n, "a number", &mc->alpha_a_1e4_cm3_s));
  if (!(mc->alpha_a_1e4_cm3_s >= cfg->alpha_b_1e4_cm3_s && mc->alpha_a_1e4_cm3_s < 1e-10))
    return config_range(ctx, s.path, n, "must be >= chemistry.alpha_B (case A counts every "
                                        "recombination) and < 1e-10");
  IONF_CHECK(cfg->n_planes == 0, IONF_ERR_CONFIG,
             "%s: raytracing.method = montecarlo does not carry plane-parallel sources yet "
             "(sources has %d plane(s)); use raytracing.method: asora",
             ctx->name, cfg->n_planes);
  return IONF_OK;
}

ionf_err config_run_output(struct config_ctx *ctx, const struct param_node *root,
                           struct ionf_config *cfg) {
  static const char *const keys[] = {"directory", "progress", "checkpoint_every", "xdmf", "vtkhdf",
                                     "c2ray_binary", "dTb", "overwrite"};
  struct config_section s;
  struct param_node *n;
  int64_t every = 0;
  IONF_CALL(config_open_section(ctx, root, "output", keys, CONFIG_N(keys), &s));
  IONF_CALL(config_take(&s, "directory", CONFIG_DEF_OUTPUT_DIR, &n));
  IONF_CALL(config_string(ctx, s.path, n, "a directory name", cfg->output_dir,
                          sizeof cfg->output_dir));
  IONF_CALL(config_take(&s, "progress", CONFIG_DEF_PROGRESS, &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->progress));
  IONF_CALL(config_take(&s, "checkpoint_every", CONFIG_DEF_CHECKPOINT_EVERY, &n));
  IONF_CALL(config_int(ctx, s.path, n, 0, 100000000, &every));
  cfg->checkpoint_every = every;
  IONF_CALL(config_take(&s, "xdmf", "false", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->write_xdmf));
  IONF_CALL(config_take(&s, "vtkhdf", "true", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->write_vtkhdf));
  IONF_CALL(config_take(&s, "c2ray_binary", "false", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->write_c2ray_binary));
  IONF_CALL(config_take(&s, "dTb", "false", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->write_dtb));
  IONF_CALL(config_take(&s, "overwrite", "false", &n));
  IONF_CALL(config_bool(ctx, s.path, n, &cfg->overwrite));
  return IONF_OK;
}

ionf_err config_run_mpi(struct config_ctx *ctx, const struct param_node *root,
                        struct ionf_config *cfg) {
  static const char *const keys[] = {"reduction"};
  static const char *const modes[] = {"auto", "nccl", "scatter", "reduce", "allreduce"};
  static const enum reduction_mode mode_of[] = {REDUCTION_AUTO, REDUCTION_NCCL,
                                                REDUCTION_SCATTER, REDUCTION_REDUCE,
                                                REDUCTION_ALLREDUCE};
  struct config_section s;
  int which = 0;
  IONF_CALL(config_open_section(ctx, root, "mpi", keys, CONFIG_N(keys), &s));
  IONF_CALL(
      config_take_enum(&s, "reduction", CONFIG_DEF_REDUCTION, modes, CONFIG_N(modes), &which));
  cfg->reduction = mode_of[which];
  return IONF_OK;
}

/**
 * @file main.c
 * @brief The `ionfront` command line: run, example, generate, --help, --version.
 *
 * main() is the only place that reports an error and chooses the exit code.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/affinity.h"
#include "api/api_internal.h"
#include "mpi/comm.h"
#include "config/config.h"
#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "engine/engine.h"
#include "gpu/core/cuda_util.h"
#include "core/error.h"
#include "core/ionf_config.h"
#include "rt/planar/planar.h"
#include "cli/cli_log.h"
#include "cli/particles_cli.h"
#include "config/problems.h"
#include "cli/render_cli.h"
#include "synth/synth.h"

static const char *usage_main =
    "usage: ionfront <command> [options]\n"
    "\n"
    "Radiative transfer of ionizing photons on grids (C2-Ray physics, ASORA ray tracing).\n"
    "\n"
    "commands:\n"
    "  run [CONFIG.yaml]   run a simulation (no CONFIG: the built-in default problem)\n"
    "  example [NAME]      print a complete, commented config (no NAME: list them)\n"
    "  generate KIND       write synthetic inputs: iliev4 (Test 4 density and sources),\n"
    "                      eor (density grids and halo catalogues from z = 20 to 7) or\n"
    "                      particles (a test SPH particle set; 'generate particles --help')\n"
    "\n"
    "options:\n"
    "  -h, --help          this help ('ionfront run --help' for run's options)\n"
    "  --version           version and build information\n"
    "\n"
    "Start with:  ionfront run      or  ionfront example iliev1 > run.yaml\n";

static const char *usage_run =
    "usage: ionfront run [CONFIG.yaml] [options]\n"
    "\n"
    "Runs the simulation CONFIG describes (YAML; see 'ionfront example iliev1').\n"
    "Without CONFIG, runs the built-in default problem (Iliev et al. 2006 Test 1 at 64^3)\n"
    "and compares its ionization front with the analytic solution.\n"
    "\n"
    "options:\n"
    "  --output DIR              write snapshots and logs to DIR (output.directory)\n"
    "  --set SECTION.KEY=VALUE   override one config value; VALUE is parsed as YAML,\n"
    "                            e.g. --set grid.N=128 --set 'time.dt=5 Myr'\n"
    "  --backend cpu|cuda|auto   where to compute (raytracing.backend)\n"
    "  --restart FILE            continue from a checkpoint (DIR/checkpoint.h5), written every\n"
    "                            output.checkpoint_every steps and on SIGTERM / SIGUSR1 /\n"
    "                            SIGINT (Ctrl-C; exit code 13)\n"
    "  --overwrite               remove an earlier run's files from the output directory\n"
    "                            first (output.overwrite; without it such a directory is refused)\n"
    "  --quiet                   no per-step progress lines\n"
    "  -v, --verbose             more detail, including error traces\n"
    "  -h, --help                this help\n"
    "\n"
    "Outputs: DIR/snapshot_NNNN.h5 (HDF5: /Grid/x_HII, /Grid/Gamma_HI, /Grid/n_H, /Grid/T),\n"
    "DIR/log.csv (one row per step), DIR/ifront.csv (single-source runs).\n"
    "Run under MPI with: mpirun -np P ionfront run CONFIG.yaml\n";

static const char *usage_generate =
    "usage: ionfront generate iliev4|eor [options]\n"
    "       ionfront generate particles [options]   (a test SPH particle set: see its --help)\n"
    "\n"
    "Writes synthetic cosmological inputs: a log-normal Gaussian random field with the\n"
    "linear LCDM power spectrum (Eisenstein & Hu 1998, no wiggles) and sources on it.\n"
    "\n"
    "  iliev4   the stand-in for Iliev et al. (2006) Test 4: DIR/density.h5 (proper n_H at\n"
    "           z = 9 in a 0.5/h comoving Mpc box) and DIR/sources.txt (the 16 densest\n"
    "           peaks, Ndot = f_gamma M Omega_b / (Omega_m m_p t_s), f_gamma = 250, t_s = 3 Myr),\n"
    "           the files 'ionfront example iliev4' reads (it also makes them itself)\n"
    "  eor      a reionization sequence: DIR/density_z<z>.h5 (dataset n_H, proper, at z)\n"
    "           and DIR/halos_z<z>.h5 (/halos/position in comoving Mpc, /halos/mass in\n"
    "           Msun) per redshift, one linear field grown with D(z); haloes from the\n"
    "           extended Press-Schechter collapsed mass of each cell; DIR/redshifts.txt\n"
    "\n"
    "options:\n"
    "  --N n                 cells per side (128)\n"
    "  --seed s              random seed, an integer 0..4294967295 (iliev4: 4, eor: 1)\n"
    "  --out DIR             output folder (iliev4: iliev4_ic, eor: eor_inputs)\n"
    "  --sigma-8 x           rms linear overdensity in 8 Mpc/h spheres today (0.8)\n"
    "  --n-s x               primordial spectral index (iliev4: 1.0, eor: 0.96)\n"
    "  --h x, --Omega-m x, --Omega-b x   flat LCDM (0.7, 0.27, 0.043)\n"
    "eor only:\n"
    "  --box L               comoving box side in Mpc (100)\n"
    "  --z-start z --z-end z --count m   m redshifts from z-start down to z-end, equally\n"
    "                        spaced in cosmic time, rounded to 0.001 (20, 7, 14)\n"
    "  --redshifts z1,z2,... the redshifts instead (descending)\n"
    "  --min-halo-mass M     smallest halo of the collapsed fraction [Msun] (1e8: atomic cooling)\n"
    "  --min-source-mass M   a cell holds a halo when its collapsed mass reaches M [Msun]\n"
    "                        (default: the minimum halo mass)\n";

/* YAML single-quoted scalar, so paths with ':' or spaces survive --set parsing. */
static char *yaml_quote(const char *key, const char *value) {
  size_t n = strlen(key) + 2 * strlen(value) + 8;
  char *out = malloc(n);
  if (!out) return NULL;
  char *p = out + sprintf(out, "%s='", key);
  for (const char *v = value; *v; ++v) {
    if (*v == '\'') *p++ = '\'';
    *p++ = *v;
  }
  *p++ = '\'';
  *p = '\0';
  return out;
}

static int report_error(ionf_err rc, int all_ranks_failed) {
  if (rc == IONF_ERR_PEER && ionf_log_verbosity() < 2) return (int)rc;
  /* An error every rank saw the same way (config) is printed once. */
  if (all_ranks_failed && comm_rank() != 0) return (int)rc;
  if (comm_size() > 1 && !all_ranks_failed)
    fprintf(stderr, "ionfront: error on rank %d: %s\n", comm_rank(), ionf_error_message());
  else
    fprintf(stderr, "ionfront: error: %s\n", ionf_error_message());
  if (ionf_log_verbosity() >= 2 && ionf_error_trace_text()[0])
    fprintf(stderr, "%s", ionf_error_trace_text());
  return (int)rc;
}

/* Agree on rc across ranks and report it; returns the exit code (0 if all fine). */
static int finish_phase(ionf_err rc) {
  ionf_err worst;
  int n_failed = 0;
  if (comm_agree_count(rc, &worst, &n_failed) != IONF_OK) return report_error(IONF_ERR_MPI, 0);
  if (worst == IONF_OK) return 0;
  if (rc == IONF_OK) return (int)IONF_ERR_PEER; /* another rank reports it */
  return report_error(rc, n_failed == comm_size());
}

static void print_version(void) {
  printf("ionfront %s (git %s)\n", IONF_VERSION, IONF_GIT_SHA);
  printf("backends: cpu (OpenMP)%s\n", IONF_HAVE_CUDA ? ", cuda" : " (built without CUDA)");
}

static void print_front_summary(const struct engine *e, const struct engine_report *rep) {
  if (rep->n_ifront == 0) return;
  printf("\nI-front along x from the source (x_HI = 0.5, proper) against the analytic %s:\n",
         e->cfg->cosmological ? "Shapiro & Giroux (1987) front"
                              : "r_S (1 - e^{-t/t_rec})^{1/3}");
  printf("  %10s  %12s  %12s  %8s\n", "t [Myr]", "r_I [kpc]", "analytic", "ratio");
  double worst = 0.0;
  for (int i = 0; i < rep->n_ifront; ++i) {
    const struct ifront_record *r = &rep->ifront[i];
    if (r->r_numeric_cm < 0) {
      printf("  %10.2f  %12s  %12.4f  %8s\n", r->time_s / IONF_MYR_S, "left box",
             r->r_analytic_cm / IONF_KPC_CM, "-");
      continue;
    }
    double ratio = r->r_numeric_cm / r->r_analytic_cm;
    if (fabs(ratio - 1.0) > worst) worst = fabs(ratio - 1.0);
    printf("  %10.2f  %12.4f  %12.4f  %8.4f\n", r->time_s / IONF_MYR_S,
           r->r_numeric_cm / IONF_KPC_CM, r->r_analytic_cm / IONF_KPC_CM, ratio);
  }
  printf("  largest deviation from analytic: %.1f%% (published codes: within about 5%%)\n",
         100.0 * worst);
  (void)e;
}

/* SIGTERM / SIGUSR1 (SLURM at the time limit, scancel, sbatch --signal=B:USR1@120) and
   SIGINT (Ctrl-C): the run stops at the end of the current step with a checkpoint
   (engine_note_stop_signal).  A second Ctrl-C ends the process at once (SA_RESETHAND). */
static void on_stop_signal(int sig) { engine_note_stop_signal(sig); }

static void install_stop_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGUSR1, &sa, NULL);
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, NULL);
}

/* A rank computing on a GPU runs on the cores nearest it (hwloc), within the launcher's
   binding: the program's choice, made here, not the library's. */
static void bind_near_gpu(const struct engine *e, char *note, size_t size) {
  note[0] = '\0';
  if (e->backend && e->backend->device >= 0) {
    char what[160];
    cuda_util_bind_near_device(e->backend->device, what, sizeof what);
    snprintf(note, size, " (%s)", what);
  }
}

/* One line per rank on rank 0: host, device and cores (the start-up log). */
static void print_rank_table(const struct engine *e) {
  char line[2048], where[256], bound[200];
  bind_near_gpu(e, bound, sizeof bound);
  affinity_describe(where, sizeof where);
  char planes[48] = "";
  if (comm_rank() == 0 && e->cfg->n_planes > 0) /* rank 0 traces the plane sources */
    snprintf(planes, sizeof planes, " and %d plane source(s)", e->cfg->n_planes);
  char compute[800];
  engine_describe(e, compute, sizeof compute);
  snprintf(line, sizeof line, "rank %d on %s: %s%s; %lld point source(s)%s; %s", comm_rank(),
           comm_host_name(), compute, bound, (long long)e->source_count, planes, where);
  int p = comm_size();
  char *all = comm_rank() == 0 ? malloc(sizeof line * (size_t)p) : NULL;
  if (comm_gather_text(line, sizeof line, all) == IONF_OK && all)
    for (int r = 0; r < p; ++r) ionf_message0("%s", all + (size_t)r * sizeof line);
  free(all);
}

/* `ionfront run` of a config with a particles: section (src/sph_engine.h). */
static int command_run_particles(const char *config_path, char *const *overrides,
                                 int n_overrides, const char *restart_path) {
  /* through the public API, as grid runs (src/api.c holds the particle engine) */
  ionf_engine *api = NULL;
  ionf_err rc = (ionf_err)ionf_engine_create_from_file(config_path, (const char *const *)overrides,
                                                       n_overrides, IONF_COMM_WORLD, &api);
  if (rc == IONF_OK && restart_path) rc = (ionf_err)ionf_engine_restart(api, restart_path);
  int code;
  if ((code = finish_phase(rc)) != 0) {
    ionf_engine_destroy(api);
    return code;
  }
  const struct sph_config *cfg = api_engine_sph_config(api);
  struct engine *e = api_engine_core(api);
  ionf_message0("ionfront %s (git %s): %s (particles)", IONF_VERSION, IONF_GIT_SHA,
                cfg->base.config_name);
  ionf_message0("%d MPI rank(s)", comm_size());
  ionf_message0("%lld particles (%s), tree of %d leaves on every rank; %lld source(s), %lld rays "
                "each; tracer %s; chemistry %s",
                (long long)e->particles->set.count, cfg->file[0] ? cfg->file : "generated",
                (int)e->particles->tree.n_leaves, (long long)e->sources.n,
                (long long)e->particles->n_rays, e->particles->tracer_name,
                e->chem_solver->device_arrays || strcmp(e->chem_solver->name, "cpu")
                    ? "on the GPU"
                    : "on the host (OpenMP)");
  ionf_message0("spectrum: %s; dt = %g Myr to t_end = %g Myr; outputs in %s/",
                cfg->base.spectrum == SPECTRUM_GREY ? "grey" : "black body",
                cfg->base.dt_s / IONF_MYR_S, cfg->base.t_end_s / IONF_MYR_S, cfg->base.output_dir);
  if (restart_path)
    ionf_message0("restarting from %s at step %lld, t = %g Myr", restart_path,
                  (long long)e->step, e->time_s / IONF_MYR_S);
  install_stop_handlers();
  struct engine_report rep;
  rc = api_engine_run_report(api, &rep);
  if (rc == IONF_STOPPED) {
    ionf_message0("ionfront: %s", ionf_error_message());
    ionf_engine_destroy(api);
    return (int)rc;
  }
  if (rc != IONF_OK && comm_size() > 1 && rc != IONF_ERR_PEER) {
    /* as for grids: the failing rank says why and ends the job, never a hang */
    fprintf(stderr, "ionfront: error on rank %d (%s): %s\n", comm_rank(), comm_host_name(),
            ionf_error_message());
    fflush(stderr);
    comm_abort((int)rc);
  }
  if ((code = finish_phase(rc)) == 0 && comm_rank() == 0) {
    printf("\ndone: %lld steps in %.1f s (trace %.1f s, reduce %.1f s, chemistry %.1f s, I/O %.1f s)\n",
           (long long)rep.steps, rep.wall_s, e->timers.trace_s, e->timers.reduce_s,
           e->timers.chemistry_s, e->timers.io_s);
    printf("outputs: %d snapshot(s) in %s/ (last: %s), step log %s/log.csv\n", rep.n_snapshots,
           cfg->base.output_dir, rep.last_snapshot, cfg->base.output_dir);
  }
  ionf_engine_destroy(api);
  return code;
}

/* The command line of `ionfront run`: CONFIG, overrides (--set, --output, --backend,
   --quiet as "a.b=V" strings), --restart, --verbose. */
struct run_args {
  const char *config_path, *restart_path;
  char **overrides;
  int n_overrides;
};

static void run_args_free(struct run_args *a) {
  for (int i = 0; i < a->n_overrides; ++i) free(a->overrides[i]);
  free(a->overrides);
  a->overrides = NULL;
  a->n_overrides = 0;
}

/* 0: run; -1: --help printed; else the exit code of a usage error (printed). */
static int run_parse(int argc, char **argv, struct run_args *a) {
  memset(a, 0, sizeof *a);
  a->overrides = calloc((size_t)argc + 1, sizeof(char *));
  if (!a->overrides) return (int)IONF_ERR_MEM;
  int code = 0;
  for (int i = 0; i < argc && code == 0; ++i) {
    const char *arg = argv[i];
    int has_value = i + 1 < argc;
    if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
      if (comm_rank() == 0) fputs(usage_run, stdout);
      code = -1;
    } else if (!strcmp(arg, "--set") && has_value) {
      a->overrides[a->n_overrides++] = strdup(argv[++i]);
    } else if (!strncmp(arg, "--set=", 6)) {
      a->overrides[a->n_overrides++] = strdup(arg + 6);
    } else if (!strcmp(arg, "--output") && has_value) {
      a->overrides[a->n_overrides++] = yaml_quote("output.directory", argv[++i]);
    } else if (!strcmp(arg, "--backend") && has_value) {
      a->overrides[a->n_overrides++] = yaml_quote("raytracing.backend", argv[++i]);
    } else if (!strcmp(arg, "--restart") && has_value) {
      a->restart_path = argv[++i];
    } else if (!strcmp(arg, "--overwrite")) {
      a->overrides[a->n_overrides++] = strdup("output.overwrite=true");
    } else if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
      a->overrides[a->n_overrides++] = strdup("output.progress=false");
    } else if (!strcmp(arg, "--verbose") || !strcmp(arg, "-v")) {
      ionf_log_set_verbosity(2);
    } else if (arg[0] == '-') {
      if (comm_rank() == 0)
        fprintf(stderr, "ionfront run: error: unknown option '%s'%s\n%s", arg,
                (!strcmp(arg, "--set") || !strcmp(arg, "--output") || !strcmp(arg, "--backend") ||
                 !strcmp(arg, "--restart"))
                    ? " (it needs a value)"
                    : "",
                usage_run);
      code = (int)IONF_ERR_USAGE;
    } else if (!a->config_path) {
      a->config_path = arg;
    } else {
      if (comm_rank() == 0)
        fprintf(stderr, "ionfront run: error: one config file only (got '%s' and '%s')\n",
                a->config_path, arg);
      code = (int)IONF_ERR_USAGE;
    }
  }
  return code;
}

/* Which run, on how many ranks, from where (rank 0). */
static void print_run_header(const struct ionf_config *cfg, const struct engine *e,
                             const char *config_path, const char *restart_path) {
  ionf_message0("ionfront %s (git %s): %s", IONF_VERSION, IONF_GIT_SHA, cfg->config_name);
  if (!config_path)
    ionf_message0("no config given: running the built-in default problem "
                  "(Iliev et al. 2006 Test 1, reduced size; 'ionfront example iliev1' for the full one)");
  ionf_message0("%d MPI rank(s)", comm_size());
  if (restart_path)
    ionf_message0("restarting from %s at step %lld, t = %g Myr", restart_path,
                  (long long)e->step, e->time_s / IONF_MYR_S);
  print_rank_table(e);
}

/* What a grid run is about to do: grid, sources, sequence, ranks, spectrum (rank 0). */
static void print_run_setup(const struct ionf_config *cfg, const struct engine *e) {
  char planes_text[64] = "";
  if (cfg->n_planes > 0)
    snprintf(planes_text, sizeof planes_text, " and %d plane-parallel source(s)", cfg->n_planes);
  ionf_message0("grid %lld^3, cell %.4g pc, %s; %lld point source(s)%s, %.4g photons/s in all",
                (long long)e->grid.n, e->grid.cell_cm / IONF_PC_CM,
                e->grid.periodic ? "periodic" : "non-periodic", (long long)e->sources.n,
                planes_text, engine_total_ndot(e));
  for (int p = 0; p < cfg->n_planes; ++p)
    ionf_message0("plane source %d: %.4g photons/s/cm^2 through the %s face (%.4g photons/s)", p,
                  cfg->planes[p].flux_per_cm2_s, planar_face_names[cfg->planes[p].face],
                  planar_total_ndot(&cfg->planes[p], 1, e->grid.cell_cm * (double)e->grid.n));
  if (e->clump_cells > 0)
    ionf_message0("%d clump(s) over %lld cells of the initial density and temperature",
                  cfg->n_clumps, (long long)e->clump_cells);
  if (cfg->sequence.n_redshifts > 0) {
    const struct sequence_config *seq = &cfg->sequence;
    long long steps = 0;
    for (int i = 0; i + 1 < seq->n_redshifts; ++i) steps += seq->steps[i];
    ionf_message0("sequence: %d redshifts from z = %g to z = %g in %lld steps; density %s; "
                  "sources %s",
                  seq->n_redshifts, seq->redshifts[0], seq->redshifts[seq->n_redshifts - 1], steps,
                  seq->density_pattern[0] ? seq->density_pattern : "material.n_H (diluted)",
                  seq->halo_pattern[0] ? seq->halo_pattern : "sources: (constant)");
  }
  if (comm_size() > 1)
    ionf_message0("sources shared by tracing cost over %d ranks: largest share / mean = %.3f; "
                  "rates summed by '%s'",
                  comm_size(), e->source_imbalance,
                  e->reduction == REDUCTION_NCCL      ? "nccl"
                  : e->reduction == REDUCTION_SCATTER ? "scatter"
                  : e->reduction == REDUCTION_REDUCE  ? "reduce"
                                                      : "allreduce");
  ionf_message0("spectrum: %s; dt = %g Myr to t_end = %g Myr; outputs in %s/",
                cfg->spectrum == SPECTRUM_GREY ? "grey" : "black body",
                cfg->dt_s / IONF_MYR_S, cfg->t_end_s / IONF_MYR_S, cfg->output_dir);
}

/* The end of a grid run: stopped by a signal (exit 13), one rank's failure (it aborts
   the job), an error, or the summary.  Returns the exit code. */
static int finish_run(ionf_err rc, const struct ionf_config *cfg, const struct engine *e,
                      const struct engine_report *rep) {
  if (rc == IONF_STOPPED) {
    ionf_message0("ionfront: %s", ionf_error_message());
    return (int)rc;
  }
  if (rc != IONF_OK && comm_size() > 1) {
    /* One rank's failure (GPU memory, a file) ends the whole job, never a hang:
       the failing rank says why and aborts; the others learned of it and wait. */
    if (rc != IONF_ERR_PEER) {
      fprintf(stderr, "ionfront: error on rank %d (%s): %s\n", comm_rank(), comm_host_name(),
              ionf_error_message());
      if (ionf_log_verbosity() >= 2) fprintf(stderr, "%s", ionf_error_trace_text());
      fflush(stderr);
      comm_abort((int)rc);
    }
    comm_finalize();
    return (int)rc;
  }
  int code = finish_phase(rc);
  if (code == 0 && comm_rank() == 0) {
    printf("\ndone: %lld steps in %.1f s (trace %.1f s, reduce %.1f s, chemistry %.1f s, I/O %.1f s)\n",
           (long long)rep->steps, rep->wall_s, e->timers.trace_s, e->timers.reduce_s,
           e->timers.chemistry_s, e->timers.io_s);
    printf("outputs: %d snapshot(s) in %s/ (last: %s), step log %s/log.csv\n", rep->n_snapshots,
           cfg->output_dir, rep->last_snapshot, cfg->output_dir);
    print_front_summary(e, rep);
  }
  return code;
}

static int command_run(int argc, char **argv) {
  struct run_args a;
  int code = run_parse(argc, argv, &a);
  if (code != 0) {
    run_args_free(&a);
    return code < 0 ? 0 : code;
  }
  if (sph_config_is_particle_run(a.config_path, PROBLEMS_DEFAULT)) {
    code = command_run_particles(a.config_path, a.overrides, a.n_overrides, a.restart_path);
    run_args_free(&a);
    return code;
  }
  /* Through the public API (include/ionfront.h): config, overrides, engine, restart. */
  ionf_engine *api = NULL;
  ionf_err rc = (ionf_err)ionf_engine_create_from_file(
      a.config_path, (const char *const *)a.overrides, a.n_overrides, IONF_COMM_WORLD, &api);
  run_args_free(&a);
  if (rc == IONF_OK && a.restart_path) rc = (ionf_err)ionf_engine_restart(api, a.restart_path);
  if ((code = finish_phase(rc)) != 0) {
    ionf_engine_destroy(api);
    return code;
  }
  const struct ionf_config *cfg = api_engine_config(api);
  struct engine *e = api_engine_core(api);
  print_run_header(cfg, e, a.config_path, a.restart_path);
  install_stop_handlers();
  print_run_setup(cfg, e);

  struct engine_report rep;
  rc = api_engine_run_report(api, &rep);
  code = finish_run(rc, cfg, e, &rep);
  if (!(rc != IONF_OK && rc != IONF_STOPPED && comm_size() > 1)) ionf_engine_destroy(api);
  return code;
}

static int command_example(int argc, char **argv) {
  if (argc == 0) {
    if (comm_rank() == 0) {
      printf("built-in problems (ionfront example NAME > run.yaml):\n");
      for (int i = 0; i < problems_count(); ++i)
        printf("  %-12s %s\n", problems_name(i), problems_description(i));
    }
    return 0;
  }
  const char *text = problems_yaml(argv[0]);
  if (!text) {
    if (comm_rank() == 0) {
      fprintf(stderr, "ionfront example: error: no built-in problem '%s'; known:", argv[0]);
      for (int i = 0; i < problems_count(); ++i) fprintf(stderr, " %s", problems_name(i));
      fputc('\n', stderr);
    }
    return (int)IONF_ERR_USAGE;
  }
  if (comm_rank() == 0) fputs(text, stdout);
  return 0;
}

/* ---- generate ------------------------------------------------------------------- */

struct generate_args {
  const char *kind, *out;
  int64_t n;
  uint64_t seed;
  double sigma_8, n_s, box_cmpc, z_start, z_end;
  struct cosmology cosmo;       /* h, Omega_m, Omega_b from the options; flat */
  int count;
  double redshifts[1024];
  int n_redshifts;
  double min_halo_mass, min_source_mass;
};

/* A whole number argument; prints the problem and returns 0 when it is not one. */
static int generate_number(const char *opt, const char *text, double lo, double hi, double *out) {
  char *end = NULL;
  double v = strtod(text, &end);
  if (end == text || *end != '\0' || !isfinite(v) || v < lo || v > hi) {
    fprintf(stderr, "ionfront generate: error: %s %s: expected a number in [%g, %g]\n", opt, text,
            lo, hi);
    return 0;
  }
  *out = v;
  return 1;
}

static int generate_integer(const char *opt, const char *text, double lo, double hi,
                            double *out) {
  if (!generate_number(opt, text, lo, hi, out)) return 0;
  if (*out != floor(*out)) {
    fprintf(stderr, "ionfront generate: error: %s %s: expected an integer\n", opt, text);
    return 0;
  }
  return 1;
}

/* Parse the options; returns 0 to go on, else the exit code (-1: printed help). */
static int generate_parse(int argc, char **argv, struct generate_args *g) {
  if (argc == 0 || !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
    fputs(usage_generate, argc == 0 ? stderr : stdout);
    return argc == 0 ? (int)IONF_ERR_USAGE : -1;
  }
  g->kind = argv[0];
  int eor = !strcmp(g->kind, "eor");
  if (!eor && strcmp(g->kind, "iliev4") != 0) {
    fprintf(stderr, "ionfront generate: error: unknown kind '%s' (iliev4 or eor)\n%s", g->kind,
            usage_generate);
    return (int)IONF_ERR_USAGE;
  }
  g->out = eor ? "eor_inputs" : "iliev4_ic";
  g->n = 128;
  g->seed = eor ? 1 : 4;
  g->sigma_8 = 0.8;
  g->n_s = eor ? 0.96 : 1.0;
  g->cosmo = cosmology_flat(COSMOLOGY_DEFAULT_H, COSMOLOGY_DEFAULT_OMEGA_M, COSMOLOGY_DEFAULT_OMEGA_B,
                            COSMOLOGY_DEFAULT_T_CMB_K);
  g->box_cmpc = 100.0;
  g->z_start = 20.0;
  g->z_end = 7.0;
  g->count = 14;
  g->min_halo_mass = 1e8;
  g->min_source_mass = -1.0;
  for (int a = 1; a < argc; ++a) {
    const char *opt = argv[a];
    if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
      fputs(usage_generate, stdout);
      return -1;
    }
    const char *eor_only[] = {"--box", "--z-start", "--z-end", "--count", "--redshifts",
                              "--min-halo-mass", "--min-source-mass"};
    for (size_t e = 0; e < sizeof eor_only / sizeof *eor_only; ++e)
      if (!eor && !strcmp(opt, eor_only[e])) {
        fprintf(stderr, "ionfront generate: error: %s is an option of 'generate eor' only\n", opt);
        return (int)IONF_ERR_USAGE;
      }
    if (a + 1 >= argc || opt[0] != '-') {
      fprintf(stderr, "ionfront generate: error: %s '%s'\n%s",
              opt[0] == '-' ? "missing value for" : "unexpected argument", opt, usage_generate);
      return (int)IONF_ERR_USAGE;
    }
    const char *val = argv[++a];
    double v = 0.0;
    int ok = 1;
    if (!strcmp(opt, "--N")) {
      ok = generate_integer(opt, val, 3, 4096, &v);
      g->n = (int64_t)v;
    } else if (!strcmp(opt, "--seed")) {
      ok = generate_integer(opt, val, 0, 4294967295.0, &v);
      g->seed = (uint64_t)v;
    } else if (!strcmp(opt, "--out")) {
      g->out = val;
    } else if (!strcmp(opt, "--sigma-8")) {
      ok = generate_number(opt, val, 1e-6, 10, &g->sigma_8);
    } else if (!strcmp(opt, "--n-s")) {
      ok = generate_number(opt, val, 1e-6, 2, &g->n_s);
    } else if (!strcmp(opt, "--h")) {
      ok = generate_number(opt, val, 1e-3, 10, &g->cosmo.h);
    } else if (!strcmp(opt, "--Omega-m")) {
      ok = generate_number(opt, val, 1e-6, 1, &g->cosmo.omega_m);
    } else if (!strcmp(opt, "--Omega-b")) {
      ok = generate_number(opt, val, 1e-6, 1, &g->cosmo.omega_b);
    } else if (!strcmp(opt, "--box")) {
      ok = generate_number(opt, val, 1e-6, 1e5, &g->box_cmpc);
    } else if (!strcmp(opt, "--z-start")) {
      ok = generate_number(opt, val, 0, 999, &g->z_start);
    } else if (!strcmp(opt, "--z-end")) {
      ok = generate_number(opt, val, 0, 999, &g->z_end);
    } else if (!strcmp(opt, "--count")) {
      ok = generate_integer(opt, val, 1, 1024, &v);
      g->count = (int)v;
    } else if (!strcmp(opt, "--redshifts")) {
      char buf[4096];
      snprintf(buf, sizeof buf, "%s", val);
      g->n_redshifts = 0;
      for (char *tok = strtok(buf, ","); tok && ok; tok = strtok(NULL, ",")) {
        ok = g->n_redshifts < 1024 && generate_number(opt, tok, 0, 999, &v);
        if (ok) g->redshifts[g->n_redshifts++] = v;
      }
    } else if (!strcmp(opt, "--min-halo-mass")) {
      ok = generate_number(opt, val, 1e-30, 1e20, &g->min_halo_mass);
    } else if (!strcmp(opt, "--min-source-mass")) {
      ok = generate_number(opt, val, 1e-30, 1e20, &g->min_source_mass);
    } else {
      fprintf(stderr, "ionfront generate: error: unknown option '%s'\n%s", opt, usage_generate);
      return (int)IONF_ERR_USAGE;
    }
    if (!ok) return (int)IONF_ERR_USAGE;
  }
  if (g->min_source_mass < 0.0) g->min_source_mass = g->min_halo_mass;
  g->cosmo = cosmology_flat(g->cosmo.h, g->cosmo.omega_m, g->cosmo.omega_b, g->cosmo.t_cmb0_k);
  return 0;
}

static int generate_iliev4(const struct generate_args *g) {
  char dpath[IONF_PATH_MAX], spath[IONF_PATH_MAX];
  snprintf(dpath, sizeof dpath, "%s/density.h5", g->out);
  snprintf(spath, sizeof spath, "%s/sources.txt", g->out);
  struct synth_iliev4_request req;
  memset(&req, 0, sizeof req);
  /* the paper's box: 0.5/h comoving Mpc */
  struct synth_field field = {g->n, 0.5 / g->cosmo.h, g->cosmo, g->sigma_8, g->n_s, g->seed};
  req.field = field;
  req.redshift = 9.0;
  req.n_sources = 16;
  req.min_separation_cells = 4;
  req.f_gamma = 250.0;
  req.t_source_s = 3.0 * IONF_MYR_S;
  req.density_path = dpath;
  req.density_dataset = "n_H";
  req.sources_path = spath;
  req.sources_format = SOURCE_FORMAT_TEXT;
  struct synth_iliev4_result res;
  double t0 = ionf_wtime();
  ionf_err rc = synth_write_iliev4(&req, &res);
  if (rc != IONF_OK) return report_error(rc, 1);
  printf("wrote %s: %lld^3 proper n_H at z = 9 in a %.6g comoving Mpc box (mean %.4e cm^-3, "
         "rms linear delta %.3f, densest cell %.1f x mean)\n",
         dpath, (long long)g->n, req.field.box_cmpc, res.mean_n_h_cm3, res.sigma_lin,
         res.max_over_mean);
  printf("wrote %s: %d sources at the densest peaks, Ndot %.3e .. %.3e 1/s (%.3e in all)\n",
         spath, res.n_sources, res.ndot_min, res.ndot_max, res.ndot_total);
  printf("in %.1f s.  Run Test 4 on them (the files are found next to the config):\n", ionf_wtime() - t0);
  char sets[256] = "";
  int used = 0;
  if (g->n != 128) used += snprintf(sets + used, sizeof sets - (size_t)used, " --set grid.N=%lld", (long long)g->n);
  if (g->seed != 4) used += snprintf(sets + used, sizeof sets - (size_t)used, " --set synthetic.seed=%llu", (unsigned long long)g->seed);
  if (g->sigma_8 != 0.8) used += snprintf(sets + used, sizeof sets - (size_t)used, " --set synthetic.sigma_8=%.9g", g->sigma_8);
  if (g->n_s != 1.0) used += snprintf(sets + used, sizeof sets - (size_t)used, " --set synthetic.n_s=%.9g", g->n_s);
  const struct cosmology *c = &g->cosmo;
  if (c->h != COSMOLOGY_DEFAULT_H || c->omega_m != COSMOLOGY_DEFAULT_OMEGA_M ||
      c->omega_b != COSMOLOGY_DEFAULT_OMEGA_B)
    snprintf(sets + used, sizeof sets - (size_t)used,
             " --set cosmology.h=%.9g --set cosmology.Omega_m=%.9g --set cosmology.Omega_b=%.9g "
             "--set 'grid.box_size=%.9g kpc'",
             c->h, c->omega_m, c->omega_b, 0.5 / c->h / 10.0 * 1000.0);
  printf("  ionfront example iliev4 > iliev4.yaml    # in the folder that holds %s/\n", g->out);
  printf("  ionfront run iliev4.yaml%s\n", sets);
  if (strcmp(g->out, "iliev4_ic") != 0)
    printf("  (the built-in config names iliev4_ic/density.h5 and iliev4_ic/sources.txt: "
           "edit material.n_H.file and sources.file, or --set them)\n");
  return 0;
}

/* `count` redshifts from z_start to z_end equally spaced in cosmic time, to 0.001. */
static int generate_time_spaced(const struct generate_args *g, const struct cosmology *c,
                                double *z) {
  if (g->count == 1) {
    z[0] = g->z_end;
    return 1;
  }
  double t0 = cosmology_age_s(c, g->z_start), t1 = cosmology_age_s(c, g->z_end);
  for (int i = 0; i < g->count; ++i) {
    double t = t0 + (t1 - t0) * (double)i / (double)(g->count - 1);
    z[i] = i == 0 ? g->z_start : i == g->count - 1 ? g->z_end : cosmology_redshift_at_age(c, t);
    z[i] = floor(z[i] * 1000.0 + 0.5) / 1000.0;
  }
  return 1;
}

static int generate_eor(struct generate_args *g) {
  struct cosmology c = g->cosmo;
  double *z = g->redshifts;
  int nz = g->n_redshifts;
  if (nz == 0) {
    if (!(g->z_start > g->z_end)) {
      fprintf(stderr, "ionfront generate: error: --z-start %g must be above --z-end %g\n",
              g->z_start, g->z_end);
      return (int)IONF_ERR_USAGE;
    }
    generate_time_spaced(g, &c, z);
    nz = g->count;
  }
  char dpat[IONF_PATH_MAX], hpat[IONF_PATH_MAX], list[IONF_PATH_MAX + 32];
  snprintf(dpat, sizeof dpat, "%s/density_z%%.3f.h5", g->out);
  snprintf(hpat, sizeof hpat, "%s/halos_z%%.3f.h5", g->out);
  snprintf(list, sizeof list, "%s/redshifts.txt", g->out);
  struct synth_eor_request req = {{g->n, g->box_cmpc, c, g->sigma_8, g->n_s, g->seed}, nz, z,
                                  g->min_halo_mass, g->min_source_mass, dpat, hpat};
  struct synth_eor_step *steps = calloc((size_t)nz, sizeof *steps);
  if (!steps) return (int)IONF_ERR_MEM;
  double t0 = ionf_wtime();
  ionf_err rc = synth_write_eor_sequence_steps(&req, steps);
  if (rc != IONF_OK) {
    free(steps);
    return report_error(rc, 1);
  }
  /* the redshift list, for configs and scripts */
  char tmp[IONF_PATH_MAX + 48];
  snprintf(tmp, sizeof tmp, "%s/.redshifts.txt.tmp", g->out);
  FILE *f = fopen(tmp, "w");
  int bad = !f;
  for (int i = 0; f && i < nz; ++i) fprintf(f, "%.3f\n", z[i]);
  if (f && (ferror(f) | fclose(f))) bad = 1;
  if (bad || rename(tmp, list) != 0) {
    fprintf(stderr, "ionfront generate: error: cannot write '%s'\n", list);
    remove(tmp);
    free(steps);
    return (int)IONF_ERR_IO;
  }
  printf("EoR sequence: %lld^3 cells, %.6g comoving Mpc box, seed %llu, sigma_8 %g, n_s %g; "
         "haloes above %.3g Msun, a halo per cell with >= %.3g Msun collapsed\n",
         (long long)g->n, g->box_cmpc, (unsigned long long)g->seed, g->sigma_8, g->n_s,
         g->min_halo_mass, g->min_source_mass);
  printf("  %8s %8s %9s %10s %10s %10s %12s\n", "z", "D(z)", "rms delta", "max rho", "f_coll",
         "f_coll(PS)", "haloes");
  for (int i = 0; i < nz; ++i)
    printf("  %8.3f %8.4f %9.4f %10.2f %10.3e %10.3e %12lld\n", steps[i].redshift,
           steps[i].growth, steps[i].sigma_lin, steps[i].max_over_mean, steps[i].fcoll_mass,
           steps[i].fcoll_ps, (long long)steps[i].n_halos);
  printf("wrote %d density files (%s), %d halo catalogues (%s) and %s in %.1f s\n", nz, dpat, nz,
         hpat, list, ionf_wtime() - t0);
  printf("The eor example reads them (box_size %.6g Mpc comoving; halo positions in comoving "
         "Mpc).\n", g->box_cmpc);
  free(steps);
  return 0;
}

static int command_generate(int argc, char **argv) {
  if (argc > 0 && !strcmp(argv[0], "particles")) /* test SPH particle sets */
    return comm_rank() == 0 ? particles_cli_main(argc - 1, argv + 1) : 0;
  struct generate_args g;
  memset(&g, 0, sizeof g);
  int code = comm_rank() == 0 ? generate_parse(argc, argv, &g) : 0;
  if (code != 0) return code < 0 ? 0 : code;
  if (comm_rank() != 0) return 0; /* a serial tool: rank 0 writes */
  return !strcmp(g.kind, "eor") ? generate_eor(&g) : generate_iliev4(&g);
}

int main(int argc, char **argv) {
  ionf_wtime(); /* start the clock */
  /* progress lines reach a pipe, tee or SLURM log as they happen */
  setvbuf(stdout, NULL, _IOLBF, 0);
  cli_log_install(); /* the library's messages on stdout / stderr */
  if (comm_init(&argc, &argv) != IONF_OK) {
    fprintf(stderr, "ionfront: error: %s\n", ionf_error_message());
    return (int)IONF_ERR_MPI;
  }
  int code = 0;
  const char *cmd = argc > 1 ? argv[1] : NULL;
  if (!cmd || !strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
    if (comm_rank() == 0) fputs(usage_main, cmd ? stdout : stderr);
    code = cmd ? 0 : (int)IONF_ERR_USAGE;
  } else if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
    if (comm_rank() == 0) print_version();
  } else if (!strcmp(cmd, "run")) {
    code = command_run(argc - 2, argv + 2);
  } else if (!strcmp(cmd, "example")) {
    code = command_example(argc - 2, argv + 2);
  } else if (!strcmp(cmd, "generate")) {
    code = command_generate(argc - 2, argv + 2);
  } else if (!strcmp(cmd, "render")) {
    code = render_cli_main(argc - 2, argv + 2);
  } else {
    if (comm_rank() == 0) fprintf(stderr, "ionfront: error: unknown command '%s'\n%s", cmd, usage_main);
    code = (int)IONF_ERR_USAGE;
  }
  comm_finalize();
  return code;
}

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
#include "config/config_subgrid.h"
#include "config/config_thermal.h"
#include "core/constants.h"
#include "cosmo/cosmology.h"
#include "engine/engine.h"
#include "gpu/core/cuda_util.h"
#include "core/error.h"
#include "core/ionf_config.h"
#include "rt/planar/planar.h"
#include "cli/cli_cores.h"
#include "cli/cli_log.h"
#include "cli/convert_cli.h"
#include "cli/dry_run.h"
#include "cli/generate_cli.h"
#include "cli/particles_cli.h"
#include "config/problems.h"
#include "cli/render_cli.h"
#include "cli/thermal_cli.h"
#include "synth/synth.h"

static const char *usage_main =
    "usage: ionfront <command> [options]\n"
    "\n"
    "Radiative transfer of ionizing photons on grids (C2-Ray physics, ASORA ray tracing)\n"
    "and on SPH particles; thermal radiation in absorbing-emitting gases (problem: thermal).\n"
    "\n"
    "commands:\n"
    "  run [CONFIG.yaml]   run a simulation (no CONFIG: the built-in default problem);\n"
    "                      --dry-run checks it and prints the plan, writing nothing\n"
    "  example [NAME]      print a complete, commented config (no NAME: list them)\n"
    "  generate KIND       write synthetic inputs: iliev4 (Test 4 density and sources),\n"
    "                      eor (density grids and halo catalogues from z = 20 to 7) or\n"
    "                      particles (a test SPH particle set)\n"
    "  convert PARAMS.yml  print an ionfront config made from a pyC2Ray parameter file\n"
    "                      (-o FILE writes it; --sources FILE, --dt, --t-end fill in what\n"
    "                      pyC2Ray's driving script supplies)\n"
    "  render SNAPSHOT.h5 -o IMAGE.png\n"
    "                      draw a slice or a volume rendering of a snapshot or a particle\n"
    "                      file (PNG), or a frame per snapshot of a run (--all DIR)\n"
    "\n"
    "Each command's options: ionfront COMMAND --help (and ionfront generate particles --help)\n"
    "\n"
    "options:\n"
    "  -h, --help          this help\n"
    "  --version           version and build information\n"
    "\n"
    "Start with:  ionfront run      or  ionfront example iliev1 > run.yaml\n"
    "From pyC2Ray:  ionfront convert parameters.yml -o run.yaml --sources src.txt\n";

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
    "  --dry-run                 check the config and every input as the run would, print the\n"
    "                            plan (sources per rank, steps, outputs, memory per rank),\n"
    "                            write nothing; exit 0 if the run would start\n"
    "  --quiet                   no per-step progress lines\n"
    "  -v, --verbose             more detail, including error traces\n"
    "  -h, --help                this help\n"
    "\n"
    "Outputs: DIR/snapshot_NNNN.h5 (HDF5: /Grid/x_HII, /Grid/Gamma_HI, /Grid/n_H, /Grid/T),\n"
    "DIR/log.csv (one row per step), DIR/ifront.csv (single-source runs).\n"
    "A config with 'problem: thermal' (ionfront example thermal_slab) is a thermal-radiation\n"
    "run: one solve, DIR/thermal.h5 (/Thermal/Q_R [W/m^3], wall fluxes; docs/thermal.md).\n"
    "Run under MPI with: mpirun -np P ionfront run CONFIG.yaml\n";

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
  char slab[96] = "";
  if (decomp_exchanges(&e->decomp))
    snprintf(slab, sizeof slab, "; planes %lld..%lld and their halo",
             (long long)e->decomp.own_first,
             (long long)(e->decomp.own_first + e->decomp.own_count - 1));
  snprintf(line, sizeof line, "rank %d on %s: %s%s; %lld point source(s)%s%s; %s", comm_rank(),
           comm_host_name(), compute, bound, (long long)e->source_count, planes, slab, where);
  int p = comm_size();
  char *all = comm_rank() == 0 ? malloc(sizeof line * (size_t)p) : NULL;
  if (comm_gather_text(line, sizeof line, all) == IONF_OK && all)
    for (int r = 0; r < p; ++r) ionf_message0("%s", all + (size_t)r * sizeof line);
  free(all);
}

/* The sub-grid models (chemistry.clumping, raytracing.mean_free_path), when given. */
static void print_subgrid(const struct ionf_config *cfg) {
  char lines[2][CONFIG_SUBGRID_LINE_MAX];
  int n = config_subgrid_describe(cfg, lines);
  for (int i = 0; i < n; ++i) ionf_message0("%s", lines[i]);
}

/* `ionfront run` of a config with a particles: section (src/sph_engine.h), its engine
   `api` made (or not: rc) by run_create. */
static int command_run_particles(ionf_engine *api, ionf_err rc, const char *restart_path) {
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
  cli_cores_check();
  ionf_message0("%lld particles (%s), tree of %d leaves on every rank; %lld source(s), %lld rays "
                "each; tracer %s; chemistry %s",
                (long long)e->particles->set.count, cfg->file[0] ? cfg->file : "generated",
                (int)e->particles->tree.n_leaves, (long long)e->sources.n,
                (long long)e->particles->n_rays, e->particles->tracer_name,
                e->chem_solver->device_arrays || strcmp(e->chem_solver->name, "cpu")
                    ? "on the GPU"
                    : "on the host (OpenMP)");
  if (comm_size() > 1)
    ionf_message0("%s over %d ranks; rates summed by '%s' (%s)",
                  cfg->share_sources ? "sources in blocks" : "every source's rays shared", comm_size(),
                  e->reduction == REDUCTION_SCATTER ? "scatter" : "allreduce",
                  e->reduction != REDUCTION_SCATTER ? "every rank's chemistry on all particles"
                  : e->particles->nccl ? "each rank's chemistry on its block of particles; the "
                                         "blocks summed and gathered through NCCL on the GPUs"
                                       : "each rank's chemistry on its block of particles; the "
                                         "blocks summed and gathered by MPI on the host");
  ionf_message0("spectrum: %s; dt = %g Myr to t_end = %g Myr; outputs in %s/",
                cfg->base.spectrum == SPECTRUM_GREY ? "grey" : "black body",
                cfg->base.dt_s / IONF_MYR_S, cfg->base.t_end_s / IONF_MYR_S, cfg->base.output_dir);
  print_subgrid(&cfg->base);
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
  int dry_run; /* --dry-run: check and plan, write nothing */
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
    } else if (!strcmp(arg, "--dry-run")) {
      a->dry_run = 1;
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
  cli_cores_check();
  if (restart_path)
    ionf_message0("restarting from %s at step %lld, t = %g Myr", restart_path,
                  (long long)e->step, e->time_s / IONF_MYR_S);
  print_rank_table(e);
}

/* `bytes` as "1.5 GiB" / "320 MiB". */
static const char *memory_words(double bytes, char *buf, size_t cap) {
  if (bytes >= 1073741824.0) snprintf(buf, cap, "%.1f GiB", bytes / 1073741824.0);
  else snprintf(buf, cap, "%.0f MiB", ceil(bytes / 1048576.0));
  return buf;
}

/* grid.decomposition as resolved: how the grid is held, why, and the memory per rank. */
static void print_decomposition(const struct engine *e) {
  const struct engine_memory *m = &e->memory;
  const struct decomp *d = &e->decomp;
  char h[32], g[32], rh[32], rg[32], gpu[96] = "";
  if (m->gpu_bytes > 0.0)
    snprintf(gpu, sizeof gpu, ", GPU %s", memory_words(m->gpu_bytes, g, sizeof g));
  if (decomp_exchanges(d)) {
    char rep_gpu[64] = "";
    if (m->replicated_gpu_bytes > 0.0)
      snprintf(rep_gpu, sizeof rep_gpu, ", GPU %s",
               memory_words(m->replicated_gpu_bytes, rg, sizeof rg));
    ionf_message0("grid split in slabs of i-planes over %d ranks (%s): a halo of %lld planes "
                  "each side; the largest box %lld cells (%.1f%% of the grid); memory per rank: "
                  "host %s%s (replicated: host %s%s)",
                  d->ranks, m->decomposition_reason ? m->decomposition_reason : "",
                  (long long)d->halo, (long long)m->box_cells,
                  100.0 * (double)m->box_cells / (double)e->global_cells,
                  memory_words(m->host_bytes, h, sizeof h), gpu,
                  memory_words(m->replicated_host_bytes, rh, sizeof rh), rep_gpu);
  } else {
    ionf_message0("grid replicated on every rank (%s); memory per rank: host %s%s",
                  m->decomposition_reason ? m->decomposition_reason : "",
                  memory_words(m->host_bytes, h, sizeof h), gpu);
  }
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
  print_decomposition(e);
  if (e->clump_cells > 0)
    ionf_message0("%d clump(s) over %lld cells of the initial density and temperature%s",
                  cfg->n_clumps, (long long)e->clump_cells,
                  decomp_exchanges(&e->decomp) ? " (of rank 0's slab)" : "");
  if (cfg->sequence.n_redshifts > 0) {
    const struct sequence_config *seq = &cfg->sequence;
    long long steps = 0;
    for (int i = 0; i + 1 < seq->n_redshifts; ++i) steps += seq->steps[i];
    char density[IONF_PATH_MAX + 64] = "material.n_H (diluted)";
    char halos[IONF_PATH_MAX + 64] = "sources: (constant)";
    if (seq->density_pattern[0])
      snprintf(density, sizeof density, "%s (%s)", seq->density_pattern,
               config_sequence_density_format_name(seq->density_format));
    if (seq->halo_pattern[0])
      snprintf(halos, sizeof halos, "%s (format %s)", seq->halo_pattern,
               config_sequence_halo_format_name(seq->halo_format));
    ionf_message0("sequence: %d redshifts from z = %g to z = %g in %lld steps; density %s; "
                  "sources %s",
                  seq->n_redshifts, seq->redshifts[0], seq->redshifts[seq->n_redshifts - 1], steps,
                  density, halos);
    if (seq->halo_pattern[0]) {
      char model[512];
      halo_model_describe(&seq->halo_model, model, sizeof model);
      ionf_message0("halo sources: %s", model);
    }
  }
  if (decomp_exchanges(&e->decomp))
    ionf_message0("sources traced by the rank owning their slab: tracing cost of the largest "
                  "share / mean = %.3f (clustered sources make slabs uneven); halo rates "
                  "returned to their owners%s",
                  e->source_imbalance,
                  e->backend->ops.halo ? " on the GPUs" : " through the host (MPI)");
  else if (comm_size() > 1)
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
  print_subgrid(cfg);
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
  /* This rank's GPU (local rank mod the GPUs) current from the start: with CUDA 12 a
     device made current gets its context at once, so a rank that asked about its GPU
     from device 0 (the memory check) would leave a context of ~0.5 GB on GPU 0. */
  if (cuda_util_device_count() > 0) (void)cuda_util_select_device(comm_local_rank());
  if (a.dry_run) { /* check and plan (src/cli/dry_run.c), write nothing */
    code = finish_phase(dry_run(a.config_path, a.overrides, a.n_overrides));
    if (code == 0) ionf_message0("the run would start (%d MPI rank(s))", comm_size());
    run_args_free(&a);
    return code;
  }
  /* The config read once, by rank 0 (it may be a pipe); problem: thermal runs apart
     (src/cli/thermal_cli.c), the others through the API: overrides, engine, restart. */
  struct config_file f;
  ionf_err rc = a.config_path ? config_file_read(a.config_path, &f)
                              : config_file_builtin(PROBLEMS_DEFAULT, &f);
  if ((code = finish_phase(rc)) != 0) {
    run_args_free(&a);
    return code;
  }
  if (config_thermal_file_is_thermal(&f)) {
    code = finish_phase(thermal_cli_run(&f, a.overrides, a.n_overrides, a.restart_path, 0));
    config_file_free(&f);
    run_args_free(&a);
    return code;
  }
  ionf_engine *api = NULL;
  rc = api_engine_create_from_config(&f, (const char *const *)a.overrides, a.n_overrides,
                                     IONF_COMM_WORLD, &api);
  config_file_free(&f);
  run_args_free(&a);
  if (api && api_engine_sph_config(api)) /* a particles: section */
    return command_run_particles(api, rc, a.restart_path);
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

static const char *usage_example =
    "usage: ionfront example [NAME]\n\nPrints the complete, commented config (YAML) of the "
    "built-in problem NAME\n(ionfront example iliev1 > run.yaml); without NAME, lists them.\n";

static int command_example(int argc, char **argv) {
  if (argc > 0 && (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help"))) {
    if (comm_rank() == 0) fputs(usage_example, stdout);
    return 0;
  }
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
    code = generate_cli_main(argc - 2, argv + 2);
  } else if (!strcmp(cmd, "convert")) {
    code = convert_cli_main(argc - 2, argv + 2);
  } else if (!strcmp(cmd, "render")) {
    code = render_cli_main(argc - 2, argv + 2);
  } else {
    if (comm_rank() == 0) fprintf(stderr, "ionfront: error: unknown command '%s'\n%s", cmd, usage_main);
    code = (int)IONF_ERR_USAGE;
  }
  comm_finalize();
  return code;
}

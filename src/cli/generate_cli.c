/**
 * @file generate_cli.c
 * @brief `ionfront generate`: synthetic inputs (the Test 4 stand-in, an `eor`
 *        sequence) and test SPH particle sets, written by rank 0.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/generate_cli.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/particles_cli.h"
#include "core/constants.h"
#include "core/error.h"
#include "cosmo/cosmology.h"
#include "mpi/comm.h"
#include "synth/synth.h"

/* A failed write or computation (rank 0 alone runs generate): say why, return the code. */
static int generate_fail(ionf_err rc) {
  fprintf(stderr, "ionfront generate: error: %s\n", ionf_error_message());
  return (int)rc;
}

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
    fprintf(stderr, "ionfront generate: error: unknown kind '%s' (iliev4, eor or particles)\n%s", g->kind,
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
  if (rc != IONF_OK) return generate_fail(rc);
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
    return generate_fail(rc);
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

int generate_cli_main(int argc, char **argv) {
  if (argc > 0 && !strcmp(argv[0], "particles")) /* test SPH particle sets */
    return comm_rank() == 0 ? particles_cli_main("ionfront generate particles", argc - 1, argv + 1)
                            : 0;
  struct generate_args g;
  memset(&g, 0, sizeof g);
  int code = comm_rank() == 0 ? generate_parse(argc, argv, &g) : 0;
  if (code != 0) return code < 0 ? 0 : code;
  if (comm_rank() != 0) return 0; /* a serial tool: rank 0 writes */
  return !strcmp(g.kind, "eor") ? generate_eor(&g) : generate_iliev4(&g);
}


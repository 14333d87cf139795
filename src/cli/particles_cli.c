/**
 * @file particles_cli.c
 * @brief The command that writes a test particle set: `ionfront generate particles` and
 *        the `ionfront-particles` tool (its help and messages name the one typed).
 */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */

#include "cli/particles_cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/constants.h"
#include "io/io_particles.h"
#include "particles/particles_make.h"
#include "core/units.h"

#define CLI_MAX_CLUMPS 64

/* The command the user typed: "ionfront-particles" or "ionfront generate particles". */
static const char *cli_command = "ionfront-particles";

static const char *usage_particles =
    "Writes a test set of SPH gas particles (HDF5, Gadget layout, physical CGS: readable\n"
    "by Gadget/SWIFT tools and by ionfront): a jittered lattice, or a glass-like relaxed\n"
    "set, with optional clumps; smoothing lengths give every kernel sphere exactly\n"
    "--ngb particles; densities are the SPH kernel sums.\n"
    "\n"
    "options:\n"
    "  --out FILE            output file (default particles.h5)\n"
    "  --N n                 lattice sites per side: n^3 background particles (default 32)\n"
    "  --box LENGTH          box side, e.g. '6.6 kpc' (bare number: kpc; default 1 kpc)\n"
    "  --density RHO         background density [g/cm^3] (default 1e-24)\n"
    "  --ngb k               particles in each kernel sphere, itself included (default 48)\n"
    "  --jitter J            random shift of each lattice site, in spacings, 0..1 (default 0.1)\n"
    "  --glass ITER          random start relaxed by ITER repulsion steps (30 is plenty)\n"
    "                        instead of a lattice (no clumps)\n"
    "  --clump X,Y,Z,R,C     a sphere at (X, Y, Z) of radius R (fractions of the box) with C\n"
    "                        times the background density; repeatable\n"
    "  --open                a non-periodic box (default periodic)\n"
    "  --hydrogen X          hydrogen mass fraction (default 1: hydrogen only)\n"
    "  --random uniform|clustered\n"
    "                        instead: --count random particles from a known density\n"
    "                        (h from that density, no neighbour search: for benchmarks)\n"
    "  --count n             particles of a --random set (default 2097152)\n"
    "  --seed S              random seed (default 1)\n"
    "  -h, --help            this help\n";

static int cli_error(const char *fmt, ...) IONF_PRINTF(1, 2);
static int cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: error: ", cli_command);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return (int)IONF_ERR_USAGE;
}

/* A number in [lo, hi] or a usage error naming the option. */
static int cli_number(const char *opt, const char *text, double lo, double hi, double *out) {
  if (!units_parse_number(text, out) || *out < lo || *out > hi) {
    char range[96];
    snprintf(range, sizeof range, "a number in [%g, %g]", lo, hi);
    fprintf(stderr, "%s: error: %s '%s': expected %s\n", cli_command, opt, text, range);
    return 0;
  }
  return 1;
}

int particles_cli_main(const char *command, int argc, char **argv) {
  if (command) cli_command = command;
  struct particles_make_params prm;
  particles_make_default_params(&prm);
  struct particle_clump clumps[CLI_MAX_CLUMPS];
  const char *out_path = "particles.h5", *random_kind = NULL;
  double count = 2097152.0, x_h = 1.0;
  for (int i = 0; i < argc; ++i) {
    const char *opt = argv[i];
    if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
      printf("usage: %s [options]\n\n%s", cli_command, usage_particles);
      return 0;
    }
    if (!strcmp(opt, "--open")) {
      prm.periodic = 0;
      continue;
    }
    if (opt[0] != '-' || opt[1] != '-')
      return cli_error("unexpected argument '%s' (see --help)", opt);
    if (i + 1 >= argc) return cli_error("%s needs a value", opt);
    const char *val = argv[++i];
    double v = 0.0;
    if (!strcmp(opt, "--out")) {
      out_path = val;
    } else if (!strcmp(opt, "--N")) {
      if (!cli_number(opt, val, 2, 1024, &v)) return (int)IONF_ERR_USAGE;
      prm.n_side = (int64_t)v;
    } else if (!strcmp(opt, "--box")) {
      if (units_parse(val, UNIT_LENGTH, IONF_KPC_CM, 0.0, "--box", &prm.box_cm) != IONF_OK) {
        fprintf(stderr, "%s: error: %s\n", cli_command, ionf_error_message());
        return (int)IONF_ERR_USAGE;
      }
    } else if (!strcmp(opt, "--density")) {
      if (!cli_number(opt, val, 1e-300, 1e300, &prm.density_g_cm3)) return (int)IONF_ERR_USAGE;
    } else if (!strcmp(opt, "--ngb")) {
      if (!cli_number(opt, val, 2, 1000, &v)) return (int)IONF_ERR_USAGE;
      prm.n_ngb = (int)v;
    } else if (!strcmp(opt, "--jitter")) {
      if (!cli_number(opt, val, 0, 1, &prm.jitter)) return (int)IONF_ERR_USAGE;
    } else if (!strcmp(opt, "--glass")) {
      if (!cli_number(opt, val, 1, 10000, &v)) return (int)IONF_ERR_USAGE;
      prm.relax_iterations = (int)v;
    } else if (!strcmp(opt, "--hydrogen")) {
      if (!cli_number(opt, val, 1e-6, 1, &x_h)) return (int)IONF_ERR_USAGE;
    } else if (!strcmp(opt, "--seed")) {
      if (!cli_number(opt, val, 0, 4294967295.0, &v)) return (int)IONF_ERR_USAGE;
      prm.seed = (uint64_t)v;
    } else if (!strcmp(opt, "--count")) {
      if (!cli_number(opt, val, 2, (double)BVH_MAX_PARTICLES, &count)) return (int)IONF_ERR_USAGE;
    } else if (!strcmp(opt, "--random")) {
      if (strcmp(val, "uniform") && strcmp(val, "clustered"))
        return cli_error("--random '%s': expected uniform or clustered", val);
      random_kind = val;
    } else if (!strcmp(opt, "--clump")) {
      if (prm.n_clumps == CLI_MAX_CLUMPS) return cli_error("more than %d clumps", CLI_MAX_CLUMPS);
      double c[5];
      char *copy = strdup(val), *save = NULL, *tok = strtok_r(copy, ",", &save);
      int k = 0;
      for (; tok && k < 5; tok = strtok_r(NULL, ",", &save)) {
        if (!units_parse_number(tok, &c[k])) break;
        ++k;
      }
      int extra = tok != NULL;
      free(copy);
      if (k != 5 || extra)
        return cli_error("--clump '%s': expected five numbers X,Y,Z,R,C", val);
      struct particle_clump *cl = &clumps[prm.n_clumps++];
      for (int a = 0; a < 3; ++a) cl->center_cm[a] = c[a]; /* scaled by the box below */
      cl->radius_cm = c[3];
      cl->contrast = c[4];
    } else {
      return cli_error("unknown option '%s' (see --help)", opt);
    }
  }
  for (int k = 0; k < prm.n_clumps; ++k) {
    for (int a = 0; a < 3; ++a) clumps[k].center_cm[a] *= prm.box_cm;
    clumps[k].radius_cm *= prm.box_cm;
  }
  prm.clumps = clumps;
  prm.hydrogen_mass_fraction = x_h;

  struct particle_set p;
  ionf_err rc;
  if (random_kind) {
    struct particles_random_params rp = {(int64_t)count, prm.box_cm,
                                         strcmp(random_kind, "clustered")
                                             ? PARTICLES_RANDOM_UNIFORM
                                             : PARTICLES_RANDOM_CLUSTERED,
                                         prm.n_ngb, prm.density_g_cm3, prm.seed};
    rc = particles_make_random(&rp, &p);
    if (rc == IONF_OK) particles_set_hydrogen(&p, x_h);
  } else {
    rc = particles_make_lattice(&prm, &p);
  }
  if (rc == IONF_OK) {
    rc = io_particles_write(out_path, &p);
    if (rc == IONF_OK)
      printf("wrote %lld particles to %s (box %g cm, %s, total mass %g g)\n", (long long)p.count,
             out_path, prm.box_cm, p.periodic ? "periodic" : "open", particles_total_mass_g(&p));
    particles_free(&p);
  }
  if (rc != IONF_OK) {
    fprintf(stderr, "%s: error: %s\n", cli_command, ionf_error_message());
    return (int)rc;
  }
  return 0;
}

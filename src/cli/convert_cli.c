/**
 * @file convert_cli.c
 * @brief `ionfront convert PARAMS.yml [-o FILE] [--sources FILE] [--dt TIME] [--t-end TIME]`:
 *        the library converts (src/config/convert_pyc2ray.c); this prints the config, or
 *        writes it whole (a temporary name, synced, renamed), and reports errors.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/convert_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/convert_pyc2ray.h"
#include "core/error.h"
#include "io/output_file.h"
#include "mpi/comm.h"

static const char *usage_convert =
    "usage: ionfront convert PARAMS.yml [-o CONFIG.yaml] [--sources FILE] [--dt TIME]\n"
    "                        [--t-end TIME]\n"
    "\n"
    "Makes a complete, commented ionfront config from a pyC2Ray parameter file (the YAML\n"
    "sections Grid, Material, CGS, Abundances, Photo, Sinks, BlackBodySource, Sources,\n"
    "Cosmology, Output, Raytracing) and prints it, or writes it to -o CONFIG.yaml.  Each\n"
    "converted line names its pyC2Ray key and what was done (n_H = avg_dens (1 + zred_0)^3,\n"
    "the box in Mpc, 0/1 as false/true, R_max_cMpc in Mpc); keys with no ionfront\n"
    "counterpart, and keys pyC2Ray does not read, are listed at the end.  What pyC2Ray's\n"
    "driving script supplies (sources, time steps, the redshifts of its input files) is\n"
    "marked PLACEHOLDER, or given by:\n"
    "\n"
    "options:\n"
    "  --sources FILE   a C2-Ray source list (the count, then 'i j k Ndot 1' per source,\n"
    "                   1-based cells): sources: {file: FILE, format: text}\n"
    "  --dt TIME        time.dt, e.g. '5 Myr' (a bare number is in Myr)\n"
    "  --t-end TIME     time.t_end\n"
    "  -o FILE          write the config to FILE, whole (a temporary name, then renamed)\n"
    "  -h, --help       this help\n"
    "\n"
    "Then check it:  ionfront run CONFIG.yaml --dry-run   (key by key: docs/pyc2ray.md)\n";

/* The text to `path`: whole or not at all. */
static ionf_err convert_cli_write(const char *path, const char *text) {
  size_t n = strlen(path) + 8;
  char *tmp = malloc(n);
  IONF_CHECK(tmp, IONF_ERR_MEM, "out of memory");
  snprintf(tmp, n, "%s.tmp", path);
  ionf_err rc = IONF_OK;
  FILE *f = fopen(tmp, "w");
  if (!f) {
    rc = ionf_error_set(IONF_ERR_IO, "cannot write '%s' (cannot create '%s')", path, tmp);
    free(tmp);
    return rc;
  }
  size_t len = strlen(text);
  if (fwrite(text, 1, len, f) != len) rc = ionf_error_set(IONF_ERR_IO, "cannot write '%s'", path);
  if (fclose(f) != 0 && rc == IONF_OK)
    rc = ionf_error_set(IONF_ERR_IO, "cannot write '%s': close failed (disk full?)", path);
  rc = output_file_commit(rc, tmp, path, "converted config");
  free(tmp);
  return rc;
}

static int convert_cli_usage_error(const char *what, const char *arg) {
  if (comm_rank() == 0)
    fprintf(stderr, "ionfront convert: error: %s '%s' (see 'ionfront convert --help')\n", what,
            arg);
  return (int)IONF_ERR_USAGE;
}

int convert_cli_main(int argc, char **argv) {
  struct convert_pyc2ray_options opt = {0};
  const char *params = NULL, *out_path = NULL;
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    int has_value = i + 1 < argc;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      if (comm_rank() == 0) fputs(usage_convert, stdout);
      return 0;
    } else if (!strcmp(a, "-o") && has_value) {
      out_path = argv[++i];
    } else if (!strcmp(a, "--sources") && has_value) {
      opt.sources_file = argv[++i];
    } else if (!strcmp(a, "--dt") && has_value) {
      opt.dt = argv[++i];
    } else if (!strcmp(a, "--t-end") && has_value) {
      opt.t_end = argv[++i];
    } else if (a[0] == '-' && a[1] != '\0') {
      return convert_cli_usage_error(
          !strcmp(a, "-o") || !strcmp(a, "--sources") || !strcmp(a, "--dt") ||
                  !strcmp(a, "--t-end")
              ? "the option needs a value:"
              : "unknown option",
          a);
    } else if (!params) {
      params = a;
    } else {
      return convert_cli_usage_error("one parameter file only; also got", a);
    }
  }
  if (!params) {
    if (comm_rank() == 0) fprintf(stderr, "ionfront convert: error: no parameter file\n%s", usage_convert);
    return (int)IONF_ERR_USAGE;
  }
  struct stat in_st, out_st;
  if (out_path && stat(params, &in_st) == 0 && stat(out_path, &out_st) == 0 &&
      in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino)
    return convert_cli_usage_error("-o would overwrite the parameter file itself:", out_path);
  if (comm_rank() != 0) return 0; /* one process converts and writes */
  struct convert_pyc2ray_result res;
  ionf_err rc = convert_pyc2ray_file(params, &opt, &res);
  if (rc == IONF_OK && out_path) rc = convert_cli_write(out_path, res.text);
  else if (rc == IONF_OK && (fputs(res.text, stdout) == EOF || fflush(stdout) != 0))
    rc = ionf_error_set(IONF_ERR_IO, "cannot write the config to standard output");
  if (rc != IONF_OK) {
    fprintf(stderr, "ionfront convert: error: %s\n", ionf_error_message());
    free(res.text);
    return (int)rc;
  }
  fprintf(stderr,
          "ionfront convert: %s: %d key(s) converted, %d listed as not converted (%d unknown to "
          "pyC2Ray)%s%s\n",
          params, res.n_converted, res.n_not_converted, res.n_unknown, out_path ? "; wrote " : "",
          out_path ? out_path : "");
  free(res.text);
  return 0;
}

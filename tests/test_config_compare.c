/**
 * @file test_config_compare.c
 * @brief config_compare: which differences between a checkpoint's configuration and a
 *        restart's are refused (physics), which are allowed (t_end, outputs, output.*,
 *        backend, reduction, debug), and the message naming the key and both values.
 */
#include <stdio.h>
#include <string.h>

#include "config/config_compare.h"
#include "core/params.h"
#include "test_util.h"

static const char *base_yaml =
    "grid:\n  N: 16\n  box_size: 6.6 kpc\nmaterial:\n  n_H: 1.0e-3\n  temperature: 1.0e4\n"
    "sources:\n- position: [0, 0, 0]\n  Ndot: 5.0e48\nspectrum:\n  type: grey\n"
    "time:\n  dt: 10 Myr\n  t_end: 100 Myr\n  outputs: [50 Myr, 100 Myr]\n"
    "raytracing:\n  backend: auto\n  max_iterations: 100\n"
    "output:\n  directory: \"o\"\n  checkpoint_every: 0\n  progress: true\nmpi:\n  reduction: auto\n";

/* base_yaml with one --set style override applied; 1 when the restart is refused, and
   the differing key in *key. */
static int refused(const char *assignment, char *key, size_t size) {
  struct param_node *a = NULL, *b = NULL;
  if (params_load_string(base_yaml, "base", &a) != IONF_OK ||
      params_load_string(base_yaml, "new", &b) != IONF_OK) {
    fprintf(stderr, "cannot parse the test's YAML: %s\n", ionf_error_message());
    return -1;
  }
  if (assignment && params_set_override(b, assignment) != IONF_OK) return -1;
  struct config_compare_diff d;
  int r = config_compare_restart_trees(a, b, &d, NULL);
  snprintf(key, size, "%s", r ? d.key : "");
  params_free(a);
  params_free(b);
  return r;
}

int main(void) {
  char key[256];
  /* the physics: refused, naming the first key that differs */
  static const char *const physics[][2] = {
      {"material.n_H=2.0e-3", "material.n_H"},
      {"time.dt=5 Myr", "time.dt"},
      {"spectrum.type=blackbody", "spectrum.type"},
      {"spectrum.T_eff=1e5", "spectrum.T_eff"},
      {"grid.box_size=10 kpc", "grid.box_size"},
      {"sources=[{position: [1, 0, 0], Ndot: 5.0e48}]", "sources[0].position[0]"},
      {"sources=[{position: [0, 0, 0], Ndot: 5.0e48}, {position: [2, 2, 2], Ndot: 1e48}]",
       "sources"},
      {"raytracing.max_iterations=50", "raytracing.max_iterations"},
      {"cosmology.cosmological=true", "cosmology"},
  };
  for (size_t i = 0; i < sizeof physics / sizeof *physics; ++i) {
    int r = refused(physics[i][0], key, sizeof key);
    EXPECT(r == 1, "--set %s: not refused (%d)", physics[i][0], r);
    EXPECT(r != 1 || !strcmp(key, physics[i][1]), "--set %s: key '%s', expected '%s'",
           physics[i][0], key, physics[i][1]);
  }
  /* what a restart may change: accepted */
  static const char *const free_keys[] = {
      "time.t_end=200 Myr", "time.outputs=[150 Myr, 200 Myr]", "output.directory=elsewhere",
      "output.checkpoint_every=3", "output.progress=false", "output.overwrite=true",
      "raytracing.backend=cpu", "mpi.reduction=allreduce", "debug.signal_after_step=4",
      /* the same numbers written otherwise */
      "material.n_H=0.001", "time.dt=10.0 Myr", "grid.N=16.0"};
  for (size_t i = 0; i < sizeof free_keys / sizeof *free_keys; ++i) {
    int r = refused(free_keys[i], key, sizeof key);
    EXPECT(r == 0, "--set %s: refused (%d, key '%s')", free_keys[i], r, key);
  }
  EXPECT(refused(NULL, key, sizeof key) == 0, "the same config refused at '%s'", key);
  EXPECT(refused("time.dt=10 kyr", key, sizeof key) == 1, "10 kyr taken for 10 Myr");

  /* the message: the checkpoint, the key, both values and the keys that may change */
  char changed[2048];
  snprintf(changed, sizeof changed, "%s", base_yaml);
  char *p = strstr(changed, "n_H: 1.0e-3");
  memcpy(p, "n_H: 2.0e-3", 11);
  ionf_error_clear();
  ionf_err rc = config_compare_restart("o/checkpoint.h5", base_yaml, changed, NULL);
  const char *msg = ionf_error_message();
  EXPECT(rc == IONF_ERR_INPUT, "rc %d", (int)rc);
  EXPECT(strstr(msg, "checkpoint 'o/checkpoint.h5' was written by a run with material.n_H = "
                     "1.0e-3; this config has material.n_H = 2.0e-3") != NULL,
         "message: %s", msg);
  EXPECT(strstr(msg, "time.t_end, time.outputs, output.") != NULL, "no list of keys: %s", msg);
  ionf_error_clear();
  EXPECT(config_compare_restart("c.h5", base_yaml, base_yaml, NULL) == IONF_OK, "same config refused: %s",
         ionf_error_message());
  ionf_error_clear();
  EXPECT(config_compare_restart("c.h5", "grid: [unclosed", base_yaml, NULL) == IONF_ERR_INPUT,
         "unreadable stored config accepted");
  /* input files: moved to another folder is the same file (reported), renamed is not */
  const char *with_file = "material:\n  n_H: {file: \"/a/run/density.h5\", dataset: n_H}\n";
  struct param_node *fa = NULL, *fb = NULL, *fc = NULL;
  EXPECT(params_load_string(with_file, "a", &fa) == IONF_OK &&
             params_load_string(with_file, "b", &fb) == IONF_OK &&
             params_load_string(with_file, "c", &fc) == IONF_OK &&
             params_set_override(fb, "material.n_H.file='/scratch/new/density.h5'") == IONF_OK &&
             params_set_override(fc, "material.n_H.file='/a/run/density_2.h5'") == IONF_OK,
         "cannot build the file configs");
  struct config_compare_diff d, moved;
  EXPECT(config_compare_restart_trees(fa, fb, &d, &moved) == 0 &&
             !strcmp(moved.key, "material.n_H.file") &&
             !strcmp(moved.new_value, "/scratch/new/density.h5"),
         "a moved input: refused at '%s', moved '%s'", d.key, moved.key);
  EXPECT(config_compare_restart_trees(fa, fc, &d, &moved) == 1 &&
             !strcmp(d.key, "material.n_H.file") && moved.key[0] == '\0',
         "another input file: key '%s', moved '%s'", d.key, moved.key);
  params_free(fa);
  params_free(fb);
  params_free(fc);
  /* keys added later: an older checkpoint without them matches their default only */
  const char *old_seq = "sequence:\n  density: {pattern: \"/d_%.3f.h5\", dataset: n_H}\n"
                        "  halos: {pattern: \"/h_%.3f.h5\", f_gamma: 20, t_source: 10}\n";
  struct param_node *sa = NULL, *sb = NULL, *sc = NULL;
  EXPECT(params_load_string(old_seq, "a", &sa) == IONF_OK &&
             params_load_string(old_seq, "b", &sb) == IONF_OK &&
             params_load_string(old_seq, "c", &sc) == IONF_OK &&
             params_set_override(sb, "sequence.density.format=hdf5") == IONF_OK &&
             params_set_override(sb, "sequence.halos.format=ionfront") == IONF_OK &&
             params_set_override(sb, "sequence.halos.f_gamma_low_mass=0") == IONF_OK &&
             params_set_override(sc, "sequence.density.format=cubep3m") == IONF_OK,
         "cannot build the sequence configs");
  EXPECT(config_compare_restart_trees(sa, sb, &d, NULL) == 0,
         "an older checkpoint without sequence.density.format, sequence.halos.format and "
         "f_gamma_low_mass (hdf5, ionfront, 0 now) refused at '%s'",
         d.key);
  /* the halo format's default is ionfront: another value against an older checkpoint differs */
  static const char *const other_halos[] = {"sequence.halos.format=21cmfast",
                                            "sequence.halos.format=hdf5",
                                            "sequence.halos.f_gamma_low_mass=5"};
  for (int k = 0; k < 3; ++k) {
    struct param_node *sh = NULL;
    EXPECT(params_load_string(old_seq, "h", &sh) == IONF_OK &&
               params_set_override(sh, other_halos[k]) == IONF_OK,
           "cannot build %s", other_halos[k]);
    EXPECT(sh && config_compare_restart_trees(sa, sh, &d, NULL) == 1 &&
               !strncmp(d.key, other_halos[k], strlen(d.key)) &&
               other_halos[k][strlen(d.key)] == '=',
           "%s against an older checkpoint: key '%s'", other_halos[k], d.key);
    params_free(sh);
  }
  EXPECT(config_compare_restart_trees(sa, sc, &d, NULL) == 1 &&
             !strcmp(d.key, "sequence.density.format"),
         "format cubep3m against an older checkpoint: key '%s'", d.key);
  EXPECT(config_compare_restart_trees(sc, sb, &d, NULL) == 1,
         "format cubep3m in the checkpoint, hdf5 now: accepted");
  params_free(sa);
  params_free(sb);
  params_free(sc);
  EXPECT(config_compare_restart_may_change("output.anything") &&
             !config_compare_restart_may_change("outputs") &&
             !config_compare_restart_may_change("time.dt"),
         "the list of keys a restart may change");
  TEST_RETURN();
}

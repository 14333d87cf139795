/**
 * @file test_config_shorten.c
 * @brief Shortening a run and --set mistakes (issue 20): --set 'time.t_end=50 Myr' works
 *        on every built-in example, the outputs past it are dropped with a note naming
 *        them and the run ends with a snapshot at t_end; outputs <= 0 are still refused;
 *        an error in a value given by --set names the --set, not the config file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/problems.h"
#include "config/sph_config.h"
#include "core/constants.h"
#include "core/error.h"
#include "core/params.h"
#include "test_util.h"

static char notes[8192];

static void note_handler(int level, const char *text, void *user) {
  (void)level;
  (void)user;
  size_t used = strlen(notes);
  snprintf(notes + used, sizeof notes - used, "%s\n", text);
}

static int is_particle_problem(const char *name) {
  return strstr(problems_yaml(name), "\nparticles:") != NULL;
}

/* Load built-in `name` with the overrides: a grid or a particle config. */
static ionf_err load(const char *name, char **sets, int n_sets, struct ionf_config *grid,
                     struct sph_config *sph) {
  if (is_particle_problem(name)) return sph_config_load(NULL, name, sets, n_sets, sph);
  return config_load(NULL, name, sets, n_sets, grid);
}

static void unload(const char *name, struct ionf_config *grid, struct sph_config *sph) {
  if (is_particle_problem(name)) sph_config_free(sph);
  else config_free(grid);
}

/* Every example that loads as it is also loads shortened to 50 Myr (if its dt allows). */
static void test_every_example(void) {
  for (int i = 0; i < problems_count(); ++i) {
    const char *name = problems_name(i);
    struct ionf_config grid;
    struct sph_config sph;
    ionf_err rc = load(name, NULL, 0, &grid, &sph);
    if (rc != IONF_OK) { /* its input files are not here (iliev4, eor): not this test's */
      printf("skip %s: %s\n", name, ionf_error_message());
      ionf_error_clear();
      continue;
    }
    const struct ionf_config *c = is_particle_problem(name) ? &sph.base : &grid;
    int long_enough = c->t_end_s > 50 * IONF_MYR_S && c->dt_s <= 50 * IONF_MYR_S;
    int had_late = c->n_outputs > 1 && c->output_times_s[c->n_outputs - 2] > 50 * IONF_MYR_S;
    int sequence = c->sequence.n_redshifts > 0; /* its t_end is implied by its redshifts */
    unload(name, &grid, &sph);
    if (!long_enough || sequence) continue;
    char *sets[] = {"time.t_end=50 Myr"};
    notes[0] = '\0';
    rc = load(name, sets, 1, &grid, &sph);
    EXPECT(rc == IONF_OK, "%s --set time.t_end=50 Myr: %s", name, ionf_error_message());
    ionf_error_clear();
    if (rc != IONF_OK) continue;
    c = is_particle_problem(name) ? &sph.base : &grid;
    EXPECT(c->n_outputs >= 1 && c->output_times_s[c->n_outputs - 1] == 50 * IONF_MYR_S,
           "%s shortened: the last output is at t_end", name);
    for (int k = 0; k < c->n_outputs; ++k)
      EXPECT(c->output_times_s[k] <= 50 * IONF_MYR_S, "%s shortened: output %d at %g Myr", name,
             k, c->output_times_s[k] / IONF_MYR_S);
    if (had_late)
      EXPECT(strstr(notes, "after time.t_end = 50 Myr") != NULL,
             "%s shortened: no note of the dropped outputs (notes: %s)", name, notes);
    unload(name, &grid, &sph);
  }
}

/* iliev1 shortened: exactly its outputs up to t_end, the note names the dropped ones, and
   the effective config (what the snapshot stores) loads to the same output times. */
static void test_iliev1(void) {
  char *sets[] = {"time.t_end=50 Myr"};
  struct ionf_config cfg, again;
  notes[0] = '\0';
  ionf_err rc = config_load(NULL, "iliev1", sets, 1, &cfg);
  EXPECT(rc == IONF_OK, "iliev1 shortened: %s", ionf_error_message());
  if (rc != IONF_OK) return;
  EXPECT(strstr(notes, "time.outputs") && strstr(notes, "100 Myr") &&
             strstr(notes, "500 Myr") && strstr(notes, "snapshot at t_end"),
         "the note names the dropped outputs: %s", notes);
  EXPECT(cfg.n_outputs == 3, "iliev1 shortened: %d outputs (10, 30, 50 Myr expected)",
         cfg.n_outputs);
  struct param_node *root = NULL;
  rc = params_load_string(cfg.effective_yaml, "effective", &root);
  if (rc == IONF_OK) rc = config_from_params(root, "effective", &again);
  EXPECT(rc == IONF_OK, "the effective config loads: %s\n%s", ionf_error_message(),
         cfg.effective_yaml);
  if (rc == IONF_OK) {
    EXPECT(again.n_outputs == cfg.n_outputs, "effective config: %d outputs, not %d",
           again.n_outputs, cfg.n_outputs);
    for (int k = 0; k < cfg.n_outputs && k < again.n_outputs; ++k)
      EXPECT(again.output_times_s[k] == cfg.output_times_s[k], "effective output %d", k);
    config_free(&again);
  }
  params_free(root);
  config_free(&cfg);
  ionf_error_clear();
}

static void expect_fail(const char *name, char *set, const char *want1, const char *want2) {
  struct ionf_config grid;
  struct sph_config sph;
  char *sets[] = {set};
  ionf_err rc = load(name, sets, 1, &grid, &sph);
  const char *msg = ionf_error_message();
  EXPECT(rc != IONF_OK, "%s --set %s: loaded", name, set);
  EXPECT(strstr(msg, want1) != NULL, "%s --set %s: message lacks '%s': %s", name, set, want1,
         msg);
  if (want2)
    EXPECT(strstr(msg, want2) != NULL, "%s --set %s: message lacks '%s': %s", name, set, want2,
           msg);
  EXPECT(strstr(msg, "built-in") == NULL, "%s --set %s: blames the config: %s", name, set, msg);
  if (rc == IONF_OK) unload(name, &grid, &sph);
  ionf_error_clear();
}

static void test_set_blame(void) {
  expect_fail("iliev1", "time.dt=abc", "--set time.dt=abc: ", "time.dt");
  expect_fail("iliev1", "grid.NN=3", "--set grid.NN=3: unknown key 'grid.NN'", NULL);
  expect_fail("iliev1", "tmie.dt=3", "--set tmie.dt=3: unknown section 'tmie'", NULL);
  expect_fail("iliev1", "time.outputs=[-5 Myr]", "--set time.outputs=[-5 Myr]: ",
              "out of range");
  expect_fail("iliev1", "time.outputs=0", "--set time.outputs=0: ", "out of range");
  expect_fail("iliev1", "sources=[{position: [1, 1, 1], Ndot: -1}]",
              "--set sources=[{position: [1, 1, 1], Ndot: -1}]: ", "Ndot");
  expect_fail("eor", "time.t_end=50 Myr", "--set time.t_end=50 Myr: ", "sequence.redshifts");
  expect_fail("iliev1", "spectrum.type=pink", "--set spectrum.type=pink: ", NULL);
  expect_fail("iliev1_particles", "particles.generate.jitter=7",
              "--set particles.generate.jitter=7: ", "out of range");
  expect_fail("iliev1_particles", "time.dt=abc", "--set time.dt=abc: ", NULL);
}

int main(void) {
  ionf_log_set_handler(note_handler, NULL);
  test_iliev1();
  test_every_example();
  test_set_blame();
  TEST_RETURN();
}

/**
 * @file thermal_cli.c
 * @brief `ionfront run` of a thermal-radiation config (thermal_cli.h).
 */
#include "cli/thermal_cli.h"

#include <stdio.h>

#include "cli/cli_cores.h"
#include "config/config_thermal.h"
#include "core/ionf_config.h"
#include "engine/thermal_run.h"
#include "mpi/comm.h"

ionf_err thermal_cli_run(const struct config_file *f, char *const *overrides, int n_overrides,
                         const char *restart_path, int dry_run) {
  IONF_CHECK(!restart_path, IONF_ERR_USAGE,
             "--restart %s: a thermal-radiation run (problem: thermal) is one solve; it has no "
             "checkpoints to continue from",
             restart_path);
  struct config_thermal cfg;
  IONF_CALL(config_thermal_load_file(f, overrides, n_overrides, &cfg));
  ionf_message0("ionfront %s (git %s): %s (thermal radiation)", IONF_VERSION, IONF_GIT_SHA,
                cfg.config_name);
  ionf_message0("%d MPI rank(s)", comm_size());
  cli_cores_check();
  ionf_err rc;
  if (dry_run) {
    rc = thermal_run_plan(&cfg);
  } else {
    struct thermal_run_report rep;
    rc = thermal_run_execute(&cfg, &rep);
    if (rc == IONF_OK && comm_rank() == 0)
      printf("\ndone: Q^R of %lld x %lld x %lld cells in %.2f s (%lld rays); relative sigma "
             "mean %.3g, max %.3g\noutput: %s\n",
             (long long)cfg.setup.n[0], (long long)cfg.setup.n[1], (long long)cfg.setup.n[2],
             rep.solve_s, (long long)rep.rays_traced, rep.sigma_rel_mean, rep.sigma_rel_max,
             rep.path);
  }
  config_thermal_free(&cfg);
  return rc;
}

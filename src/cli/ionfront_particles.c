/**
 * @file ionfront_particles.c
 * @brief `ionfront-particles`: writes a test SPH particle set (see --help).
 */
#include "cli/cli_log.h"
#include "cli/particles_cli.h"
#include "core/error.h"

int main(int argc, char **argv) {
  ionf_wtime();
  cli_log_install(); /* the library's messages on stdout / stderr */
  return particles_cli_main("ionfront-particles", argc - 1, argv + 1);
}

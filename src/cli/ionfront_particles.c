/**
 * @file ionfront_particles.c
 * @brief `ionfront-particles`: writes a test SPH particle set (see --help).
 */
#include "core/error.h"
#include "cli/particles_cli.h"

int main(int argc, char **argv) {
  ionf_wtime();
  return particles_cli_main(argc - 1, argv + 1);
}

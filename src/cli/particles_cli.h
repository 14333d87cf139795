/**
 * @file particles_cli.h
 * @brief The command that writes a test SPH particle set: the
 *        `ionfront-particles` tool today (tools/ionfront_particles.c), and the
 *        body of `ionfront generate particles` once the `generate` command
 *        lands in main.c (one dispatch line).
 */
#ifndef IONF_PARTICLES_CLI_H
#define IONF_PARTICLES_CLI_H

/** Run with the options after the command name; returns the exit code (0: written). */
int particles_cli_main(int argc, char **argv);

#endif /* IONF_PARTICLES_CLI_H */

/**
 * @file particles_cli.h
 * @brief The command that writes a test SPH particle set: `ionfront generate particles`
 *        (main.c) and the `ionfront-particles` tool (ionfront_particles.c).
 */
#ifndef IONF_PARTICLES_CLI_H
#define IONF_PARTICLES_CLI_H

/** Run with the options after the command name; `command` is the command as typed, for
    the help and the messages ("ionfront generate particles"); returns the exit code. */
int particles_cli_main(const char *command, int argc, char **argv);

#endif /* IONF_PARTICLES_CLI_H */

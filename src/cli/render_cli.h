/**
 * @file render_cli.h
 * @brief `ionfront render`: slices and volume renderings of snapshots (grid or
 *        SPH particles) into PNG files with metadata, single images or numbered
 *        movie frames (shared among MPI ranks).
 */
#ifndef IONF_RENDER_CLI_H
#define IONF_RENDER_CLI_H

/** Run with the options after the command name; returns the exit code (0: written). */
int render_cli_main(int argc, char **argv);

#endif /* IONF_RENDER_CLI_H */

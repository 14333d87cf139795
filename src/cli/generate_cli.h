/**
 * @file generate_cli.h
 * @brief `ionfront generate`: synthetic cosmological inputs (iliev4, eor) and test
 *        SPH particle sets.
 */
#ifndef IONF_GENERATE_CLI_H
#define IONF_GENERATE_CLI_H

/** Run with the options after the command name; returns the exit code (0: written). */
int generate_cli_main(int argc, char **argv);

#endif /* IONF_GENERATE_CLI_H */

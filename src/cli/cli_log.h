/**
 * @file cli_log.h
 * @brief The command line's log handler: the library's messages on stdout and
 *        stderr, with rank prefixes on several ranks.
 */
#ifndef IONF_CLI_LOG_H
#define IONF_CLI_LOG_H

/**
 * Print every message from now on (core/error.h's log handler):
 *   run information (rank 0's):  "TEXT" on stdout;
 *   a rank's information:        "[RRRR] TEXT" on stdout ("TEXT" alone on one rank);
 *   warnings:                    "[RRRR] WARNING: TEXT" on stderr ("WARNING: TEXT" on one rank);
 * each line flushed at once.  RRRR is comm_rank(), known once comm_init has run.
 */
void cli_log_install(void);

#endif /* IONF_CLI_LOG_H */

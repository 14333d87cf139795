/**
 * @file cli_log.c
 * @brief The command line prints what the library hands its log handler.
 */
#include "cli/cli_log.h"

#include <stdio.h>

#include "core/error.h"
#include "mpi/comm.h"

static void cli_log_print(int level, const char *text, void *user) {
  (void)user;
  FILE *out = level == IONF_LOG_LEVEL_WARNING ? stderr : stdout;
  const char *tag = level == IONF_LOG_LEVEL_WARNING ? "WARNING: " : "";
  char prefix[32];
  if (level != IONF_LOG_LEVEL_INFO && comm_size() > 1)
    snprintf(prefix, sizeof prefix, "[%04d] %s", comm_rank(), tag);
  else
    snprintf(prefix, sizeof prefix, "%s", tag);
  /* one call per line: the lines of ranks sharing a terminal do not interleave */
  fprintf(out, "%s%s\n", prefix, text);
  fflush(out);
}

void cli_log_install(void) { ionf_log_set_handler(cli_log_print, NULL); }

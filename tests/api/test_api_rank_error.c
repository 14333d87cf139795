/**
 * @file test_api_rank_error.c
 * @brief A write error on rank 0 during ionf_engine_run (its log.csv row of step 2
 *        fails: debug.fail_log_step; its ifront.csv cannot be opened: a directory of
 *        that name; or written: a link to /dev/full) makes every rank return an error from ionf_engine_run (rank 0 the
 *        cause, the others IONF_STATUS_PEER) instead of leaving them waiting in a
 *        collective.  Run on 2 or more ranks under `timeout 60` (a hang fails).
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ionfront.h"

static int failures = 0;
#define CHECK(cond, ...)                                            \
  do {                                                              \
    if (!(cond)) {                                                  \
      fprintf(stderr, "FAIL line %d (rank %d): ", __LINE__, rank);  \
      fprintf(stderr, __VA_ARGS__);                                 \
      fputc('\n', stderr);                                          \
      ++failures;                                                   \
    }                                                               \
  } while (0)

static int rank = 0;

/* Run the default problem into `dir` with one more override; the status of the run. */
static ionf_status run_into(const char *dir, const char *extra, char *message, size_t size) {
  char out[600];
  snprintf(out, sizeof out, "output.directory='%s'", dir);
  const char *ov[] = {"grid.N=8", "time.dt=10 Myr", "time.t_end=50 Myr", "time.outputs=[50 Myr]",
                      "raytracing.backend=cpu", "output.progress=false", out, extra};
  int n = extra ? 8 : 7;
  ionf_engine *e = NULL;
  ionf_status rc = ionf_engine_create_builtin(NULL, ov, n, IONF_COMM_WORLD, &e);
  CHECK(rc == IONF_STATUS_OK, "create: %s", ionf_last_error_message(NULL));
  if (rc != IONF_STATUS_OK) return rc;
  rc = ionf_engine_run(e);
  snprintf(message, size, "%s", ionf_last_error_message(e));
  ionf_engine_destroy(e);
  return rc;
}

/* Every rank failed; rank 0 with `cause` in its message, the others with PEER. */
static void expect_all_failed(const char *what, ionf_status rc, const char *message,
                              const char *cause) {
  int failed = rc != IONF_STATUS_OK, n_failed = 0, size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allreduce(&failed, &n_failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(n_failed == size, "%s: %d of %d ranks returned an error", what, n_failed, size);
  if (rank == 0)
    CHECK(strstr(message, cause) != NULL, "%s: rank 0's message '%s' lacks '%s'", what, message,
          cause);
  else
    CHECK(rc == IONF_STATUS_PEER, "%s: rank %d returned %d, not IONF_STATUS_PEER", what, rank,
          (int)rc);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char base[256] = "/tmp/ionf_rank_error_XXXXXX";
  if (rank == 0 && !mkdtemp(base)) base[0] = '\0';
  MPI_Bcast(base, sizeof base, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!base[0]) {
    fprintf(stderr, "cannot make a temporary directory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  char dir[300], message[4096];

  /* rank 0's log.csv row of step 2 fails */
  snprintf(dir, sizeof dir, "%s/log", base);
  ionf_status rc = run_into(dir, "debug.fail_log_step=2", message, sizeof message);
  expect_all_failed("log.csv row", rc, message, "cannot write step log");

  /* rank 0 cannot open ifront.csv (a directory of that name) */
  snprintf(dir, sizeof dir, "%s/front/ifront.csv", base);
  if (rank == 0) {
    char parent[300];
    snprintf(parent, sizeof parent, "%s/front", base);
    mkdir(parent, 0700);
    mkdir(dir, 0700);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  snprintf(dir, sizeof dir, "%s/front", base);
  rc = run_into(dir, NULL, message, sizeof message);
  expect_all_failed("ifront.csv", rc, message, "ifront.csv");

  /* rank 0's ifront.csv is full (a link to /dev/full): no longer ignored */
  snprintf(dir, sizeof dir, "%s/full", base);
  if (rank == 0) {
    char link[320];
    mkdir(dir, 0700);
    snprintf(link, sizeof link, "%s/ifront.csv", dir);
    if (symlink("/dev/full", link) != 0) fprintf(stderr, "cannot link %s\n", link);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  rc = run_into(dir, NULL, message, sizeof message);
  expect_all_failed("ifront.csv on a full disk", rc, message, "ifront.csv");

  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", base);
  }
  int any = 0;
  MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(any ? "%d check(s) failed\n" : "all checks passed\n", any);
  MPI_Finalize();
  return any ? 1 : 0;
}

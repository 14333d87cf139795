/**
 * libionfront behaves as a guest in its caller's process (public API alone, shared
 * library): it prints nothing (its progress lines and warnings reach the log handler
 * set with ionf_set_log_handler, or are dropped without one); it leaves
 * MPI_COMM_WORLD's error handler, GSL's error handler and HDF5's automatic error
 * reporting as the caller set them, also across black-body rate tables and Monte Carlo
 * spectra (GSL quadratures), snapshots and a failed HDF5 read (which calls the caller's
 * HDF5 reporting not once); and it works on its own duplicate of the caller's
 * communicator, so the caller may free its communicator while the engine lives.
 * usage: test_api_guest   (one rank; writes into a fresh temporary directory, removed
 *        at the end)
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw: test_tmpdir.h */
#include <fcntl.h>
#include <gsl/gsl_errno.h>
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ionfront.h>

#include "../test_tmpdir.h"

static int failures = 0;
#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "FAIL line %d: ", __LINE__);         \
      fprintf(stderr, __VA_ARGS__);                        \
      fputc('\n', stderr);                                 \
      ++failures;                                          \
    }                                                      \
  } while (0)

struct log_record {
  int info, rank_info, warning, other;
  int bad_text; /* texts with a newline or a rank prefix */
  char first_info[256], first_warning[256];
};

static void collect(int level, const char *text, void *user) {
  struct log_record *r = user;
  if (strchr(text, '\n') || text[0] == '[') r->bad_text++;
  if (level == IONF_LOG_INFO) {
    if (!r->info++) snprintf(r->first_info, sizeof r->first_info, "%s", text);
  } else if (level == IONF_LOG_WARNING) {
    if (!r->warning++) snprintf(r->first_warning, sizeof r->first_warning, "%s", text);
  } else if (level == IONF_LOG_RANK_INFO) {
    r->rank_info++;
  } else {
    r->other++;
  }
}

static void caller_gsl_handler(const char *reason, const char *file, int line, int code) {
  (void)reason, (void)file, (void)line, (void)code;
}

static void caller_mpi_handler(MPI_Comm *comm, int *code, ...) { (void)comm, (void)code; }

static int caller_h5_calls = 0;
static herr_t caller_h5_auto(hid_t stack, void *data) {
  (void)stack, (void)data;
  caller_h5_calls++;
  return 0;
}

/* stdout and stderr (the descriptors) into `path` until unredirect: what the library
   writes, if anything */
static void redirect(const char *path, int saved[2]) {
  fflush(stdout), fflush(stderr);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  saved[0] = dup(1), saved[1] = dup(2);
  dup2(fd, 1), dup2(fd, 2);
  close(fd);
}

static long unredirect(const char *path, int saved[2]) {
  fflush(stdout), fflush(stderr);
  dup2(saved[0], 1), dup2(saved[1], 2);
  close(saved[0]), close(saved[1]);
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Create on `comm_f` from the default problem with `extra` overrides, free the caller's
   communicator `to_free` (may be NULL) right after, run to t_end, destroy. */
static void run_engine(int comm_f, MPI_Comm *to_free, const char *const *extra, int n_extra) {
  const char *ov[32] = {"grid.N=12", "time.dt=10 Myr", "time.t_end=20 Myr",
                        "time.outputs=[20 Myr]", "output.progress=true",
                        "raytracing.backend=cpu", "raytracing.max_iterations=1",
                        "spectrum.type=blackbody", "spectrum.T_eff=5e4",
                        "output.directory=guest_out", "output.overwrite=true"};
  int n = 11;
  for (int i = 0; i < n_extra; ++i) ov[n++] = extra[i];
  ionf_engine *e = NULL;
  ionf_status rc = ionf_engine_create_builtin(NULL, ov, n, comm_f, &e);
  CHECK(rc == IONF_STATUS_OK, "create: %s", ionf_last_error_message(NULL));
  if (rc != IONF_STATUS_OK) return;
  if (to_free) MPI_Comm_free(to_free); /* the engine keeps its own duplicate */
  rc = ionf_engine_run(e);
  CHECK(rc == IONF_STATUS_OK, "run: %s", ionf_last_error_message(e));
  ionf_engine_destroy(e);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  char tmp[4096]; /* the runs' files go to a fresh temporary directory */
  if (!test_tmpdir_enter(tmp, sizeof tmp, "ionf_api_guest")) {
    MPI_Finalize();
    return 1;
  }
  MPI_Errhandler mine;
  MPI_Comm_create_errhandler(caller_mpi_handler, &mine);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, mine);
  gsl_set_error_handler(caller_gsl_handler);
  H5Eset_auto2(H5E_DEFAULT, caller_h5_auto, NULL);
  const char *const mc[] = {"raytracing.method=montecarlo", "montecarlo.packets_per_source=2000"};

  /* no handler: nothing printed, nothing delivered */
  int saved[2];
  redirect("guest_quiet.txt", saved);
  run_engine(IONF_COMM_WORLD, NULL, NULL, 0);
  long printed = unredirect("guest_quiet.txt", saved);
  CHECK(printed == 0, "the library wrote %ld bytes to stdout/stderr (guest_quiet.txt)", printed);

  /* a handler gets the progress lines and the warnings; on a communicator the caller
     frees right after creation */
  struct log_record rec;
  memset(&rec, 0, sizeof rec);
  ionf_set_log_handler(collect, &rec);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  redirect("guest_logged.txt", saved);
  run_engine((int)MPI_Comm_c2f(comm), &comm, NULL, 0);
  run_engine(IONF_COMM_WORLD, NULL, mc, 2); /* Monte Carlo: the packets' black-body spectrum */
  printed = unredirect("guest_logged.txt", saved);
  CHECK(printed == 0, "with a handler, the library wrote %ld bytes (guest_logged.txt)", printed);
  CHECK(rec.info >= 4 && strstr(rec.first_info, "step"),
        "%d info message(s), the first '%s' (progress lines expected)", rec.info, rec.first_info);
  CHECK(rec.warning >= 2 && strstr(rec.first_warning, "not converged"),
        "%d warning(s), the first '%s' (max_iterations 1: 'not converged' expected)",
        rec.warning, rec.first_warning);
  CHECK(rec.other == 0 && rec.bad_text == 0, "%d message(s) of unknown level, %d with a newline "
        "or rank prefix", rec.other, rec.bad_text);

  /* a failed HDF5 read inside the library: reported as a status, not through the
     caller's HDF5 reporting */
  FILE *bad = fopen("guest_not_hdf5.h5", "w");
  CHECK(bad && fputs("not HDF5\n", bad) >= 0 && fclose(bad) == 0, "writing guest_not_hdf5.h5");
  ionf_engine *e = NULL;
  const char *small[] = {"grid.N=12", "raytracing.backend=cpu", "output.directory=guest_out"};
  if (ionf_engine_create_builtin(NULL, small, 3, IONF_COMM_WORLD, &e) == IONF_STATUS_OK) {
    CHECK(ionf_engine_restart(e, "guest_not_hdf5.h5") == IONF_STATUS_IO,
          "restart from a text file: %s", ionf_last_error_message(e));
    ionf_engine_destroy(e);
  }
  CHECK(caller_h5_calls == 0, "the caller's HDF5 error reporting was called %d time(s)",
        caller_h5_calls);

  /* back to dropping */
  int before = rec.info + rec.warning;
  ionf_set_log_handler(NULL, NULL);
  run_engine(IONF_COMM_WORLD, NULL, NULL, 0);
  CHECK(rec.info + rec.warning == before, "messages delivered after the handler was removed");

  /* the caller's handlers are still in place */
  MPI_Errhandler now;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &now);
  CHECK(now == mine, "MPI_COMM_WORLD's error handler was changed");
  MPI_Errhandler_free(&now);
  gsl_error_handler_t *gsl_now = gsl_set_error_handler(NULL);
  CHECK(gsl_now == caller_gsl_handler, "GSL's error handler was changed");
  H5E_auto2_t h5_now = NULL;
  void *h5_data = NULL;
  H5Eget_auto2(H5E_DEFAULT, &h5_now, &h5_data);
  CHECK(h5_now == caller_h5_auto, "HDF5's automatic error reporting was changed");

  CHECK(ionf_finalize() == IONF_STATUS_OK, "finalize: %s", ionf_last_error_message(NULL));
  int finalized = 1;
  MPI_Finalized(&finalized);
  CHECK(!finalized, "ionf_finalize finalized the caller's MPI");
  MPI_Errhandler_free(&mine);
  MPI_Finalize();
  CHECK(test_tmpdir_leave(tmp), "removing %s", tmp);
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  else printf("all checks passed\n");
  return failures ? 1 : 0;
}

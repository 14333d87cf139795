/**
 * @file test_output_dir.c
 * @brief output_dir_prepare_all on several ranks: when it returns IONF_OK the
 *        directory (and its parents) exists for every rank; when rank 0 cannot make
 *        it, rank 0 returns its own I/O error and every other rank IONF_ERR_PEER with
 *        a message naming the directory, and no rank hangs.  Run on 3 ranks, in a
 *        fresh temporary directory that rank 0 makes (and removes at the end).
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw: test_tmpdir.h */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/output_dir.h"
#include "mpi/comm.h"
#include "mpi/comm_mpi.h"
#include "test_tmpdir.h"
#include "test_util.h"

#define ROOT "output_dir_test"

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Rank 0 fails with IONF_ERR_IO naming `dir`; the others with IONF_ERR_PEER naming it. */
static void expect_failure(ionf_err rc, const char *dir, const char *what) {
  const char *msg = ionf_error_message();
  if (comm_rank() == 0) {
    EXPECT(rc == IONF_ERR_IO, "%s: rank 0 got %d, want IONF_ERR_IO", what, (int)rc);
  } else {
    EXPECT(rc == IONF_ERR_PEER, "%s: rank %d got %d, want IONF_ERR_PEER", what, comm_rank(),
           (int)rc);
    EXPECT(strstr(msg, "rank 0 could not prepare the output directory") != NULL,
           "%s: message '%s'", what, msg);
  }
  EXPECT(strstr(msg, dir) != NULL, "%s: message '%s' does not name '%s'", what, msg, dir);
  ionf_error_clear();
}

int main(int argc, char **argv) {
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  EXPECT(comm_size() > 1, "run this test on several ranks (it has %d)", comm_size());
  /* every rank works in rank 0's fresh temporary directory (ROOT is relative) */
  char tmp[4096] = "";
  if (comm_rank() == 0 && !test_tmpdir_make(tmp, sizeof tmp, "ionf_output_dir")) tmp[0] = '\0';
  MPI_Bcast(tmp, (int)sizeof tmp, MPI_CHAR, 0, comm_mpi());
  char home[4096];
  if (!tmp[0] || !getcwd(home, sizeof home) || chdir(tmp) != 0) {
    fprintf(stderr, "rank %d: no temporary directory to work in\n", comm_rank());
    comm_finalize();
    return 1;
  }

  /* rank 0 leaves a fresh tree: ROOT/afile (a regular file), nothing else */
  if (comm_rank() == 0) {
    remove(ROOT "/made/one/two");
    remove(ROOT "/made/one");
    remove(ROOT "/made");
    remove(ROOT "/afile");
    remove(ROOT);
    EXPECT(mkdir(ROOT, 0777) == 0, "mkdir %s", ROOT);
    FILE *f = fopen(ROOT "/afile", "w");
    EXPECT(f && fputs("not a directory\n", f) >= 0 && fclose(f) == 0, "writing %s/afile", ROOT);
  }

  /* made with its parents, and there for every rank once the call returns */
  const char *good = ROOT "/made/one/two";
  ionf_err rc = output_dir_prepare_all(good);
  EXPECT(rc == IONF_OK, "rank %d: output_dir_prepare_all('%s'): %s", comm_rank(), good,
         ionf_error_message());
  EXPECT(is_dir(good), "rank %d: '%s' is not a directory after the call", comm_rank(), good);
  EXPECT(output_dir_prepare_all(good) == IONF_OK, "rank %d: a second time: %s", comm_rank(),
         ionf_error_message());
  ionf_error_clear();

  /* below a regular file, and a regular file itself */
  const char *below = ROOT "/afile/sub";
  expect_failure(output_dir_prepare_all(below), below, "below a file");
  EXPECT(!is_dir(below), "'%s' exists", below);
  expect_failure(output_dir_prepare_all(ROOT "/afile"), ROOT "/afile", "on a file");

  /* the ranks still agree afterwards: nobody is left waiting in a collective */
  ionf_err any = IONF_OK;
  EXPECT(comm_agree(IONF_OK, &any) == IONF_OK && any == IONF_OK, "agreeing after the failures");
  EXPECT(chdir(home) == 0, "rank %d: back to %s", comm_rank(), home);
  MPI_Barrier(comm_mpi()); /* everybody out before rank 0 removes it */
  if (comm_rank() == 0) EXPECT(test_tmpdir_remove(tmp), "removing %s", tmp);
  comm_finalize();
  TEST_RETURN();
}

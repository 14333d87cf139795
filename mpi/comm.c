/**
 * @file comm.c
 * @brief MPI glue.
 */
#include "mpi/comm.h"
#include "mpi/comm_mpi.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the communicator of every collective: ionfront's own duplicate of MPI_COMM_WORLD
   (the command line) or of the communicator a library caller gave */
static MPI_Comm the_comm;
static int the_comm_set = 0;

MPI_Comm comm_mpi(void) { return the_comm_set ? the_comm : MPI_COMM_WORLD; }

static int my_rank = 0;
static int my_size = 1;
static char host_name[MPI_MAX_PROCESSOR_NAME] = "unknown";
static int my_local_rank = 0;
static int my_local_size = 1;

/* Counts beyond INT_MAX (N >= 1291 grids) go in chunks well below it; tests
   shrink the chunk to exercise the splitting on small arrays. */
static int64_t comm_chunk = (int64_t)1 << 30;
#define COMM_CHUNK comm_chunk

void comm_set_chunk_elements(int64_t elements) {
  comm_chunk = elements > 0 ? elements : ((int64_t)1 << 30);
}

int64_t comm_chunk_elements(void) { return comm_chunk; }

static ionf_err mpi_check(int rc, const char *what) {
  if (rc == MPI_SUCCESS) return IONF_OK;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  return ionf_error_set(IONF_ERR_MPI, "rank %d: %s failed: %s", my_rank, what, text);
}

static int comm_we_started_mpi = 0;

/* What comm_init does after MPI_Init: ranks, host, node-local rank, prefixes. */
static void comm_learn_layout(void);

/*
 * Work on a duplicate of `given` from now on, with MPI_ERRORS_RETURN on the duplicate
 * only; the one held already serves when it is congruent with `given` (same ranks in
 * the same order).  Errors of a bad `given` are raised on MPI_COMM_WORLD's handler
 * (Open MPI), so that one returns codes meanwhile and is restored before returning.
 */
static ionf_err comm_use(MPI_Comm given, int mpi_comm_f) {
  MPI_Errhandler world_handler;
  if (mpi_check(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world_handler),
                "MPI_Comm_get_errhandler") != IONF_OK)
    return IONF_ERR_MPI;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  ionf_err rc = IONF_OK;
  int inter = 0, same = MPI_UNEQUAL;
  rc = mpi_check(MPI_Comm_test_inter(given, &inter), "MPI_Comm_test_inter");
  if (rc == IONF_OK && inter)
    rc = ionf_error_set(IONF_ERR_USAGE, "the MPI communicator handle %d is an intercommunicator",
                        mpi_comm_f);
  if (rc == IONF_OK && the_comm_set)
    rc = mpi_check(MPI_Comm_compare(given, the_comm, &same), "MPI_Comm_compare");
  if (rc == IONF_OK && same != MPI_CONGRUENT) {
    comm_detach();
    MPI_Comm dup;
    rc = mpi_check(MPI_Comm_dup(given, &dup), "MPI_Comm_dup");
    if (rc == IONF_OK) {
      MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
      the_comm = dup;
      the_comm_set = 1;
    }
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, world_handler);
  MPI_Errhandler_free(&world_handler);
  return rc;
}

ionf_err comm_init(int *argc, char ***argv) {
  int provided = 0;
  IONF_CALL(mpi_check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init"));
  comm_we_started_mpi = 1;
  IONF_CALL(comm_use(MPI_COMM_WORLD, -1));
  comm_learn_layout();
  return IONF_OK;
}

ionf_err comm_attach(int mpi_comm_f) {
  int initialized = 0, finalized = 0;
  MPI_Finalized(&finalized);
  IONF_CHECK(!finalized, IONF_ERR_MPI, "MPI was already finalized; ionfront cannot use it again");
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    IONF_CALL(mpi_check(MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided), "MPI_Init"));
    comm_we_started_mpi = 1;
  }
  MPI_Comm given = MPI_COMM_WORLD; /* -1: MPI_COMM_WORLD (IONF_COMM_WORLD) */
  if (mpi_comm_f != -1) {
    given = MPI_Comm_f2c((MPI_Fint)mpi_comm_f);
    static const MPI_Comm zero_handle; /* Open MPI's f2c gives NULL for unknown handles */
    IONF_CHECK(given != MPI_COMM_NULL && memcmp(&given, &zero_handle, sizeof given) != 0,
               IONF_ERR_USAGE, "the MPI communicator handle %d is not a valid communicator",
               mpi_comm_f);
  }
  IONF_CALL(comm_use(given, mpi_comm_f));
  comm_learn_layout();
  return IONF_OK;
}

int comm_started_mpi(void) { return comm_we_started_mpi; }

static void comm_learn_layout(void) {
  MPI_Comm_rank(comm_mpi(), &my_rank);
  MPI_Comm_size(comm_mpi(), &my_size);
  int len = 0;
  MPI_Get_processor_name(host_name, &len);
  /* Ranks sharing a node: the node-local rank picks the GPU (rank mod GPUs). */
  MPI_Comm node;
  if (MPI_Comm_split_type(comm_mpi(), MPI_COMM_TYPE_SHARED, my_rank, MPI_INFO_NULL, &node) ==
      MPI_SUCCESS) {
    MPI_Comm_rank(node, &my_local_rank);
    MPI_Comm_size(node, &my_local_size);
    MPI_Comm_free(&node);
  }
  ionf_log_set_rank(my_rank);
}

void comm_detach(void) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (the_comm_set && !finalized) MPI_Comm_free(&the_comm);
  the_comm_set = 0;
  my_rank = 0;
  my_size = 1;
  my_local_rank = 0;
  my_local_size = 1;
  ionf_log_set_rank(0);
}

void comm_finalize(void) {
  comm_detach();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

/* the command line's end of a failed job: all of it (the library never aborts) */
void comm_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
int comm_rank(void) { return my_rank; }
int comm_local_rank(void) { return my_local_rank; }
int comm_local_size(void) { return my_local_size; }
int comm_size(void) { return my_size; }
const char *comm_host_name(void) { return host_name; }

ionf_err comm_allreduce_sum(double *buf, int64_t count) {
  if (my_size == 1) return IONF_OK;
  const int64_t chunk = comm_chunk; /* counts beyond INT_MAX go in chunks */
  for (int64_t off = 0; off < count; off += chunk) {
    int n = (int)(count - off < chunk ? count - off : chunk);
    IONF_CALL(mpi_check(MPI_Allreduce(MPI_IN_PLACE, buf + off, n, MPI_DOUBLE, MPI_SUM,
                                      comm_mpi()),
                        "MPI_Allreduce of the photoionization rates"));
  }
  return IONF_OK;
}

ionf_err comm_reduce_sum(double *buf, int64_t count, int root) {
  if (my_size == 1) return IONF_OK;
  for (int64_t off = 0; off < count; off += COMM_CHUNK) {
    int n = (int)(count - off < COMM_CHUNK ? count - off : COMM_CHUNK);
    void *send = my_rank == root ? MPI_IN_PLACE : (void *)(buf + off);
    IONF_CALL(mpi_check(MPI_Reduce(send, buf + off, n, MPI_DOUBLE, MPI_SUM, root, comm_mpi()),
                        "MPI_Reduce of the photoionization rates"));
  }
  return IONF_OK;
}

ionf_err comm_bcast(double *buf, int64_t count, int root) {
  if (my_size == 1) return IONF_OK;
  for (int64_t off = 0; off < count; off += COMM_CHUNK) {
    int n = (int)(count - off < COMM_CHUNK ? count - off : COMM_CHUNK);
    IONF_CALL(mpi_check(MPI_Bcast(buf + off, n, MPI_DOUBLE, root, comm_mpi()), "MPI_Bcast"));
  }
  return IONF_OK;
}

ionf_err comm_bcast_bytes(void *buf, int count, int root) {
  if (my_size == 1 || count <= 0) return IONF_OK;
  return mpi_check(MPI_Bcast(buf, count, MPI_BYTE, root, comm_mpi()), "MPI_Bcast of a text");
}

ionf_err comm_max_int(int local, int *global) {
  *global = local;
  if (my_size == 1) return IONF_OK;
  return mpi_check(MPI_Allreduce(&local, global, 1, MPI_INT, MPI_MAX, comm_mpi()),
                   "MPI_Allreduce of a flag");
}

ionf_err comm_gather_text(const char *line, int size, char *all) {
  if (my_size == 1) {
    if (all) memcpy(all, line, (size_t)size);
    return IONF_OK;
  }
  return mpi_check(MPI_Gather(line, size, MPI_CHAR, all, size, MPI_CHAR, 0, comm_mpi()),
                   "MPI_Gather of the start-up lines");
}

/* Chunks of a message list: how many requests it needs. */
static int64_t comm_message_chunks(const struct comm_message *m, int n) {
  int64_t total = 0;
  for (int q = 0; q < n; ++q) total += (m[q].count + COMM_CHUNK - 1) / COMM_CHUNK;
  return total;
}

ionf_err comm_exchange(const struct comm_message *sends, int n_sends,
                       const struct comm_message *recvs, int n_recvs) {
  int64_t n_req = comm_message_chunks(sends, n_sends) + comm_message_chunks(recvs, n_recvs);
  if (n_req == 0) return IONF_OK;
  IONF_CHECK(n_req < INT_MAX, IONF_ERR_MPI, "rank %d: %lld halo messages are too many", my_rank,
             (long long)n_req);
  MPI_Request *req = malloc(sizeof *req * (size_t)n_req);
  IONF_CHECK(req, IONF_ERR_MEM, "rank %d: out of memory for %lld halo requests", my_rank,
             (long long)n_req);
  int used = 0, rc = MPI_SUCCESS;
  for (int pass = 0; pass < 2 && rc == MPI_SUCCESS; ++pass) { /* receives first */
    const struct comm_message *m = pass == 0 ? recvs : sends;
    int n = pass == 0 ? n_recvs : n_sends;
    for (int q = 0; q < n && rc == MPI_SUCCESS; ++q)
      for (int64_t off = 0; off < m[q].count && rc == MPI_SUCCESS; off += COMM_CHUNK) {
        int len = (int)(m[q].count - off < COMM_CHUNK ? m[q].count - off : COMM_CHUNK);
        rc = pass == 0 ? MPI_Irecv(m[q].buf + off, len, MPI_DOUBLE, m[q].peer, 7, comm_mpi(),
                                   &req[used])
                       : MPI_Isend(m[q].buf + off, len, MPI_DOUBLE, m[q].peer, 7, comm_mpi(),
                                   &req[used]);
        if (rc == MPI_SUCCESS) ++used;
      }
  }
  int wait_rc = MPI_Waitall(used, req, MPI_STATUSES_IGNORE);
  free(req);
  IONF_CALL(mpi_check(rc, "posting the halo exchange (MPI_Irecv / MPI_Isend)"));
  return mpi_check(wait_rc, "the halo exchange (MPI_Waitall)");
}

void comm_slab(int64_t n_planes, int rank, int size, int64_t *first, int64_t *count) {
  *first = n_planes * rank / size;
  *count = n_planes * (rank + 1) / size - *first;
}

ionf_err comm_agree(ionf_err local, ionf_err *any_failed) {
  int failed;
  return comm_agree_count(local, any_failed, &failed);
}

ionf_err comm_agree_count(ionf_err local, ionf_err *any_failed, int *n_failed) {
  int mine[2] = {(int)local, local != IONF_OK}, all[2] = {mine[0], mine[1]};
  if (my_size > 1) {
    IONF_CALL(mpi_check(MPI_Allreduce(&mine[0], &all[0], 1, MPI_INT, MPI_MAX, comm_mpi()),
                        "agreeing on errors"));
    IONF_CALL(mpi_check(MPI_Allreduce(&mine[1], &all[1], 1, MPI_INT, MPI_SUM, comm_mpi()),
                        "agreeing on errors"));
  }
  *any_failed = (ionf_err)all[0];
  *n_failed = all[1];
  return IONF_OK;
}

ionf_err comm_share_error(ionf_err local, int key, ionf_err *shared) {
  *shared = local;
  if (my_size == 1) return IONF_OK;
  /* INT_MAX marks "no failure" */
  int mine[2] = {local != IONF_OK ? (key < INT_MAX ? key : INT_MAX - 1) : INT_MAX, my_rank};
  int first[2];
  IONF_CALL(mpi_check(MPI_Allreduce(mine, first, 1, MPI_2INT, MPI_MINLOC, comm_mpi()),
                      "agreeing on errors"));
  if (first[0] == INT_MAX) {
    *shared = IONF_OK;
    return IONF_OK;
  }
  char text[2048] = "";
  int code = (int)local;
  if (my_rank == first[1]) snprintf(text, sizeof text, "%s", ionf_error_message());
  IONF_CALL(mpi_check(MPI_Bcast(&code, 1, MPI_INT, first[1], comm_mpi()), "sharing an error"));
  IONF_CALL(mpi_check(MPI_Bcast(text, (int)sizeof text, MPI_CHAR, first[1], comm_mpi()),
                      "sharing an error"));
  if (my_rank != first[1]) {
    ionf_error_clear();
    ionf_error_set((ionf_err)code, "%s", text);
  }
  *shared = (ionf_err)code;
  return IONF_OK;
}

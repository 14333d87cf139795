/**
 * @file comm_blocks.c
 * @brief Reduce-scatter and all-gather over the ranks' contiguous blocks of an array.
 *
 * Each MPI call covers one chunk [c0, c1) of the array (comm_chunk_elements); in it
 * rank r's part is its block clipped to the chunk, so the parts follow each other in
 * rank order, as MPI_Reduce_scatter's segments and MPI_Allgatherv's pieces do.
 */
#include "mpi/comm_blocks.h"

#include <stdlib.h>
#include <string.h>

#include "mpi/comm.h"
#include "mpi/comm_mpi.h"

/* The ranks' parts of chunk [c0, c1): counts[r] elements from c0 + displs[r]. */
static void chunk_parts(int64_t n, int64_t c0, int64_t c1, int ranks, int *counts, int *displs) {
  for (int r = 0; r < ranks; ++r) {
    int64_t first, count;
    comm_slab(n, r, ranks, &first, &count);
    int64_t lo = first > c0 ? first : c0, hi = first + count < c1 ? first + count : c1;
    counts[r] = hi > lo ? (int)(hi - lo) : 0;
    displs[r] = hi > lo ? (int)(lo - c0) : 0;
  }
}

static ionf_err blocks_mpi(int rc, const char *what) {
  if (rc == MPI_SUCCESS) return IONF_OK;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  return ionf_error_set(IONF_ERR_MPI, "rank %d: %s failed: %s", comm_rank(), what, msg);
}

/* op 0: the reduce-scatter, 1: the all-gather, chunk by chunk */
static ionf_err blocks_collective(double *buf, int64_t n, int op) {
  const int ranks = comm_size(), me = comm_rank();
  if (ranks == 1 || n <= 0) return IONF_OK;
  int *counts = malloc(2 * sizeof(int) * (size_t)ranks);
  IONF_CHECK(counts, IONF_ERR_MEM, "out of memory");
  int *displs = counts + ranks;
  const int64_t chunk = comm_chunk_elements();
  ionf_err rc = IONF_OK;
  for (int64_t c0 = 0; c0 < n && rc == IONF_OK; c0 += chunk) {
    int64_t c1 = c0 + chunk < n ? c0 + chunk : n;
    chunk_parts(n, c0, c1, ranks, counts, displs);
    if (op == 0) { /* in place: this rank's sum arrives at the chunk's start */
      rc = blocks_mpi(MPI_Reduce_scatter(MPI_IN_PLACE, buf + c0, counts, MPI_DOUBLE, MPI_SUM,
                                         comm_mpi()),
                      "MPI_Reduce_scatter of the rates");
      if (rc == IONF_OK && counts[me] > 0)
        memmove(buf + c0 + displs[me], buf + c0, sizeof(double) * (size_t)counts[me]);
    } else {
      rc = blocks_mpi(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf + c0, counts, displs,
                                     MPI_DOUBLE, comm_mpi()),
                      "MPI_Allgatherv of the ranks' blocks");
    }
  }
  free(counts);
  return rc;
}

ionf_err comm_blocks_reduce_sum(double *buf, int64_t n) { return blocks_collective(buf, n, 0); }

ionf_err comm_blocks_allgather(double *buf, int64_t n) { return blocks_collective(buf, n, 1); }

/**
 * @file comm.h
 * @brief MPI glue: start-up, the rank layout, the Gamma sum, and agreeing on
 *        failure so that a job never hangs on one rank's error.
 */
#ifndef IONF_COMM_H
#define IONF_COMM_H

#include <stdint.h>

#include "core/error.h"

/** MPI_Init (threads: funneled), then work on a duplicate of MPI_COMM_WORLD (comm_mpi.h)
    with MPI_ERRORS_RETURN on it, and learn the rank layout. */
IONF_NODISCARD ionf_err comm_init(int *argc, char ***argv);
/**
 * The library's start: MPI_Init_thread only if MPI is not initialised yet (then
 * comm_started_mpi() is 1), then as comm_init on the communicator of Fortran handle
 * `mpi_comm_f` (-1: MPI_COMM_WORLD): every collective then uses a duplicate of it
 * (comm_mpi.h), kept while later calls give a congruent communicator.  Neither the
 * given communicator's nor MPI_COMM_WORLD's error handler is changed.
 */
IONF_NODISCARD ionf_err comm_attach(int mpi_comm_f);
/** 1 when comm_init or comm_attach called MPI_Init. */
int comm_started_mpi(void);
/** Free the duplicate communicator (collective over it; nothing once MPI is finalized)
    and forget the layout: rank 0 of 1 until the next comm_init / comm_attach. */
void comm_detach(void);
/** comm_detach, then MPI_Finalize (unless finalized already). */
void comm_finalize(void);
/** End every rank of the job now (MPI_Abort on MPI_COMM_WORLD) with exit code `code`:
    the command line only, never the library. */
void comm_abort(int code);
int comm_rank(void);
int comm_size(void);
/** Rank among the ranks of this node (MPI_COMM_TYPE_SHARED), and their number. */
int comm_local_rank(void);
int comm_local_size(void);

/** In-place sum of `count` doubles over all ranks (chunked beyond 2^31 - 1). */
IONF_NODISCARD ionf_err comm_allreduce_sum(double *buf, int64_t count);

/** Sum of `count` doubles over all ranks into root's buf (chunked beyond 2^30). */
IONF_NODISCARD ionf_err comm_reduce_sum(double *buf, int64_t count, int root);
/** Broadcast `count` doubles from root (chunked beyond 2^30). */
IONF_NODISCARD ionf_err comm_bcast(double *buf, int64_t count, int root);
/** Broadcast `count` bytes from root (a text: a config read on one rank). */
IONF_NODISCARD ionf_err comm_bcast_bytes(void *buf, int count, int root);
/** The largest of the ranks' values (collective). */
IONF_NODISCARD ionf_err comm_max_int(int local, int *global);
/** Gather each rank's `size`-byte text to `all` (size * ranks bytes) on rank 0. */
IONF_NODISCARD ionf_err comm_gather_text(const char *line, int size, char *all);
/** One point-to-point message of comm_exchange: `count` doubles at `buf`, to or from `peer`. */
struct comm_message {
  int peer;
  double *buf;
  int64_t count;
};

/**
 * Every receive posted, then every send (nonblocking), then all awaited: the halo
 * exchange.  Messages between two ranks match in the order both list them (each side
 * lists its sends to, and receives from, a peer in the same order as the peer lists
 * the other half); counts beyond 2^30 go in chunks.  Not collective: only the ranks
 * named take part.
 */
IONF_NODISCARD ionf_err comm_exchange(const struct comm_message *sends, int n_sends,
                                      const struct comm_message *recvs, int n_recvs);

/** The share [first, first + count) of n_planes that rank `rank` of `size` owns. */
void comm_slab(int64_t n_planes, int rank, int size, int64_t *first, int64_t *count);

/**
 * Collective: every rank passes its local result; returns the worst code of
 * all ranks in *any_failed (IONF_OK if none).  Ranks that did not fail learn
 * that another did and can stop without waiting on it.
 */
IONF_NODISCARD ionf_err comm_agree(ionf_err local, ionf_err *any_failed);

/** As comm_agree, also counting the ranks that failed. */
IONF_NODISCARD ionf_err comm_agree_count(ionf_err local, ionf_err *any_failed, int *n_failed);

/**
 * Collective: of the ranks whose `local` failed, the one with the smallest `key`
 * (then the lowest rank) gives its code and message to every rank, so that all
 * report the same error (e.g. the first bad input file, whichever rank read it).
 * *shared is that code, IONF_OK when no rank failed.
 */
IONF_NODISCARD ionf_err comm_share_error(ionf_err local, int key, ionf_err *shared);

/** Elements per MPI call in the chunked collectives (default 2^30; tests use small ones). */
void comm_set_chunk_elements(int64_t elements);
/** ... and their number now. */
int64_t comm_chunk_elements(void);

/** Host name of this rank (for start-up logs). */
const char *comm_host_name(void);

#endif

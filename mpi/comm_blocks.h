/**
 * @file comm_blocks.h
 * @brief Arrays shared among the ranks in contiguous blocks (rank r owns
 *        comm_slab(n, r, ranks)): the sum of every rank's array delivered to each
 *        block's owner only (a reduce-scatter), and the blocks sent back to every rank
 *        (an all-gather).  The particle engine's split chemistry uses them; both are
 *        chunked like comm.h's collectives (comm_chunk_elements per MPI call).
 */
#ifndef IONF_COMM_BLOCKS_H
#define IONF_COMM_BLOCKS_H

#include <stdint.h>

#include "core/error.h"

/**
 * Sum `n` doubles over the ranks, each rank receiving its own block's sum: afterwards
 * buf[first, first + count) of rank r (comm_slab(n, r, comm_size())) is the sum of every
 * rank's buf there; the rest of buf is left undefined.  MPI_Reduce_scatter in place.
 * Collective.
 */
IONF_NODISCARD ionf_err comm_blocks_reduce_sum(double *buf, int64_t n);
/** Every rank's block of buf (as comm_blocks_reduce_sum's) to every rank: MPI_Allgatherv
    in place.  Collective. */
IONF_NODISCARD ionf_err comm_blocks_allgather(double *buf, int64_t n);

#endif

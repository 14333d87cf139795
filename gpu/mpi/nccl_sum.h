/**
 * @file nccl_sum.h
 * @brief Summing a GPU array over all MPI ranks in GPU memory with NCCL (and the
 *        point-to-point halo exchange of a split grid), when
 *        the NCCL library can be loaded (dlopen "libnccl.so.2"): no build or
 *        run-time dependency on NCCL otherwise.
 */
#ifndef IONF_NCCL_SUM_H
#define IONF_NCCL_SUM_H

#include <stdint.h>

#include "core/error.h"

struct nccl_sum;

/**
 * Collective over the engine's communicator (comm_mpi()): load NCCL and build a communicator, one GPU
 * per rank (the current device).  *out is NULL, and the reason in `why`, when
 * any rank cannot (every rank then agrees to do without).
 */
IONF_NODISCARD ionf_err nccl_sum_create(struct nccl_sum **out, char *why, size_t why_size);
/** In-place sum of `count` doubles of device memory over the ranks, on `stream`. */
IONF_NODISCARD ionf_err nccl_sum_allreduce(struct nccl_sum *ns, double *device_buf,
                                           int64_t count, void *stream);
/** One message of nccl_sum_exchange: `count` doubles of device memory to or from `peer`. */
struct nccl_sum_message {
  int peer;
  double *device_buf;
  int64_t count;
};
/**
 * Point-to-point in one NCCL group on `stream` (a halo exchange): every send and receive
 * listed; messages between two ranks match in the order both list them.  Not collective:
 * only the ranks named take part.
 */
IONF_NODISCARD ionf_err nccl_sum_exchange(struct nccl_sum *ns, const struct nccl_sum_message *sends,
                                          int n_sends, const struct nccl_sum_message *recvs,
                                          int n_recvs, void *stream);
/**
 * comm_blocks_reduce_sum (mpi/comm_blocks.h) through the GPUs: `n` doubles of a host
 * array (page-locked pays) summed over the ranks, rank r receiving its block's sum
 * (comm_slab(n, r, ranks)) in place; the rest of host_buf is left as it was.  The
 * array is staged in a device buffer of equal padded blocks, summed there by one
 * ncclReduceScatter, and this rank's block copied back.  Collective.
 */
IONF_NODISCARD ionf_err nccl_sum_blocks_reduce(struct nccl_sum *ns, double *host_buf, int64_t n);
/** comm_blocks_allgather through the GPUs: every rank's block of host_buf to every rank
    (one ncclAllGather of the padded blocks).  Collective. */
IONF_NODISCARD ionf_err nccl_sum_blocks_allgather(struct nccl_sum *ns, double *host_buf,
                                                  int64_t n);
/** Whether ns has the block calls (ncclReduceScatter, ncclAllGather; NULL: no). */
int nccl_sum_has_blocks(const struct nccl_sum *ns);
/** Whether ns can exchange point to point (NULL: no). */
int nccl_sum_has_exchange(const struct nccl_sum *ns);
void nccl_sum_destroy(struct nccl_sum *ns);

#endif

/**
 * @file nccl_sum.h
 * @brief Summing a GPU array over all MPI ranks in GPU memory with NCCL, when
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
void nccl_sum_destroy(struct nccl_sum *ns);

#endif

/**
 * @file nccl_sum.cu
 * @brief NCCL all-reduce of device arrays, loaded at run time.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

extern "C" {
#include "gpu/core/cuda_util.h"
#include "mpi/comm.h"
#include "gpu/mpi/nccl_sum.h"
}
#include "mpi/comm_mpi.h" /* includes mpi.h: C++ linkage for its C++ parts */

#if __has_include(<nccl.h>) /* the CUDA toolkit's; without it NCCL is simply not used */
#include <dlfcn.h>
#include <mpi.h>
#include <nccl.h>

struct nccl_sum {
  void *lib;
  ncclComm_t comm;
  ncclResult_t (*all_reduce)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t,
                             ncclComm_t, cudaStream_t);
  ncclResult_t (*comm_destroy)(ncclComm_t);
  const char *(*error_string)(ncclResult_t);
  /* point-to-point (NCCL >= 2.7); NULL when the library lacks them */
  ncclResult_t (*send)(const void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
  ncclResult_t (*recv)(void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
  ncclResult_t (*group_start)(void);
  ncclResult_t (*group_end)(void);
  /* blocks of host arrays (nccl_sum_blocks_*); NULL when the library lacks them */
  ncclResult_t (*reduce_scatter)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t,
                                 ncclComm_t, cudaStream_t);
  ncclResult_t (*all_gather)(const void *, void *, size_t, ncclDataType_t, ncclComm_t,
                             cudaStream_t);
  double *stage;                 /* ranks x block doubles of device memory, grown on demand */
  int64_t stage_block;
  cudaStream_t stream;           /* the block calls' own */
};

extern "C" ionf_err nccl_sum_create(struct nccl_sum **out, char *why, size_t why_size) {
  *out = NULL;
  snprintf(why, why_size, "ok");
  struct nccl_sum *ns = (struct nccl_sum *)calloc(1, sizeof *ns);
  ncclResult_t (*get_id)(ncclUniqueId *) = NULL;
  ncclResult_t (*init_rank)(ncclComm_t *, int, ncclUniqueId, int) = NULL;
  int ok = ns != NULL;
  /* NCCL wants one GPU per rank: ranks sharing a GPU would fail (or wait) in its set-up */
  int devices = cuda_util_device_count();
  if (ok && comm_local_size() > devices) {
    snprintf(why, why_size, "%d ranks share %d GPU(s) on a node", comm_local_size(), devices);
    ok = 0;
  }
  if (ok) ns->lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (ok && !ns->lib) {
    snprintf(why, why_size, "libnccl.so.2 not found (%s)", dlerror());
    ok = 0;
  }
  if (ok) {
    get_id = (ncclResult_t(*)(ncclUniqueId *))dlsym(ns->lib, "ncclGetUniqueId");
    init_rank = (ncclResult_t(*)(ncclComm_t *, int, ncclUniqueId, int))dlsym(ns->lib,
                                                                             "ncclCommInitRank");
    ns->all_reduce = (ncclResult_t(*)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t,
                                      ncclComm_t, cudaStream_t))dlsym(ns->lib, "ncclAllReduce");
    ns->comm_destroy = (ncclResult_t(*)(ncclComm_t))dlsym(ns->lib, "ncclCommDestroy");
    ns->error_string = (const char *(*)(ncclResult_t))dlsym(ns->lib, "ncclGetErrorString");
    ns->send = (ncclResult_t(*)(const void *, size_t, ncclDataType_t, int, ncclComm_t,
                                cudaStream_t))dlsym(ns->lib, "ncclSend");
    ns->recv = (ncclResult_t(*)(void *, size_t, ncclDataType_t, int, ncclComm_t,
                                cudaStream_t))dlsym(ns->lib, "ncclRecv");
    ns->group_start = (ncclResult_t(*)(void))dlsym(ns->lib, "ncclGroupStart");
    ns->group_end = (ncclResult_t(*)(void))dlsym(ns->lib, "ncclGroupEnd");
    ns->reduce_scatter = (ncclResult_t(*)(const void *, void *, size_t, ncclDataType_t,
                                          ncclRedOp_t, ncclComm_t, cudaStream_t))
        dlsym(ns->lib, "ncclReduceScatter");
    ns->all_gather = (ncclResult_t(*)(const void *, void *, size_t, ncclDataType_t, ncclComm_t,
                                      cudaStream_t))dlsym(ns->lib, "ncclAllGather");
    if (!get_id || !init_rank || !ns->all_reduce || !ns->comm_destroy || !ns->error_string) {
      snprintf(why, why_size, "libnccl.so.2 lacks the functions needed");
      ok = 0;
    }
  }
  /* every rank must go on to the collective init, or none */
  int all_ok = 0;
  if (MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm_mpi()) != MPI_SUCCESS) all_ok = 0;
  if (!all_ok) {
    if (ok) snprintf(why, why_size, "NCCL could not be loaded on every rank");
    nccl_sum_destroy(ns);
    return IONF_OK;
  }
  ncclUniqueId id;
  ncclResult_t rc = ncclSuccess;
  if (comm_rank() == 0) rc = get_id(&id);
  int good = rc == ncclSuccess, all_good = 0;
  MPI_Allreduce(&good, &all_good, 1, MPI_INT, MPI_MIN, comm_mpi());
  if (!all_good) {
    snprintf(why, why_size, "ncclGetUniqueId failed");
    nccl_sum_destroy(ns);
    return IONF_OK;
  }
  MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, comm_mpi());
  rc = init_rank(&ns->comm, comm_size(), id, comm_rank());
  good = rc == ncclSuccess;
  MPI_Allreduce(&good, &all_good, 1, MPI_INT, MPI_MIN, comm_mpi());
  if (!all_good) {
    snprintf(why, why_size, "ncclCommInitRank failed: %s",
             rc == ncclSuccess ? "on another rank" : ns->error_string(rc));
    if (rc == ncclSuccess) ns->comm_destroy(ns->comm);
    ns->comm = NULL;
    nccl_sum_destroy(ns);
    return IONF_OK;
  }
  *out = ns;
  return IONF_OK;
}

extern "C" ionf_err nccl_sum_allreduce(struct nccl_sum *ns, double *device_buf, int64_t count,
                                       void *stream) {
  ncclResult_t rc = ns->all_reduce(device_buf, device_buf, (size_t)count, ncclDouble, ncclSum,
                                   ns->comm, (cudaStream_t)stream);
  if (rc != ncclSuccess)
    return ionf_error_set(IONF_ERR_GPU, "rank %d: NCCL all-reduce of Gamma failed: %s",
                          comm_rank(), ns->error_string(rc));
  return IONF_OK;
}

extern "C" ionf_err nccl_sum_exchange(struct nccl_sum *ns, const struct nccl_sum_message *sends,
                                      int n_sends, const struct nccl_sum_message *recvs,
                                      int n_recvs, void *stream) {
  IONF_CHECK(ns->send && ns->recv && ns->group_start && ns->group_end, IONF_ERR_UNSUPPORTED,
             "rank %d: this NCCL has no point-to-point calls (ncclSend, ncclRecv: NCCL >= 2.7)",
             comm_rank());
  cudaStream_t s = (cudaStream_t)stream;
  ncclResult_t rc = ns->group_start();
  for (int q = 0; q < n_recvs && rc == ncclSuccess; ++q)
    rc = ns->recv(recvs[q].device_buf, (size_t)recvs[q].count, ncclDouble, recvs[q].peer, ns->comm, s);
  for (int q = 0; q < n_sends && rc == ncclSuccess; ++q)
    rc = ns->send(sends[q].device_buf, (size_t)sends[q].count, ncclDouble, sends[q].peer, ns->comm, s);
  ncclResult_t end = ns->group_end();
  if (rc == ncclSuccess) rc = end;
  if (rc != ncclSuccess)
    return ionf_error_set(IONF_ERR_GPU, "rank %d: NCCL halo exchange failed: %s", comm_rank(),
                          ns->error_string(rc));
  return IONF_OK;
}

extern "C" int nccl_sum_has_exchange(const struct nccl_sum *ns) {
  return ns && ns->send && ns->recv && ns->group_start && ns->group_end;
}

extern "C" int nccl_sum_has_blocks(const struct nccl_sum *ns) {
  return ns && ns->reduce_scatter && ns->all_gather;
}

static ionf_err blocks_cuda(cudaError_t err, const char *what) {
  if (err == cudaSuccess) return IONF_OK;
  return ionf_error_set(err == cudaErrorMemoryAllocation ? IONF_ERR_GPU_MEM : IONF_ERR_GPU,
                        "rank %d: %s: %s", comm_rank(), what, cudaGetErrorString(err));
}

/* The staging buffer for blocks of `block` doubles (zeroed when made: the padding is
   summed and gathered, never read back), and the stream. */
static ionf_err blocks_stage(struct nccl_sum *ns, int64_t block) {
  IONF_CHECK(nccl_sum_has_blocks(ns), IONF_ERR_UNSUPPORTED,
             "rank %d: this NCCL has no ncclReduceScatter or ncclAllGather", comm_rank());
  if (!ns->stream)
    IONF_CALL(blocks_cuda(cudaStreamCreateWithFlags(&ns->stream, cudaStreamNonBlocking),
                          "stream for the block sums"));
  if (block <= ns->stage_block) return IONF_OK;
  cudaFree(ns->stage);
  ns->stage = NULL;
  ns->stage_block = 0;
  size_t bytes = sizeof(double) * (size_t)block * (size_t)comm_size();
  IONF_CALL(blocks_cuda(cudaMalloc((void **)&ns->stage, bytes), "device buffer for the block sums"));
  IONF_CALL(blocks_cuda(cudaMemset(ns->stage, 0, bytes), "device buffer for the block sums"));
  ns->stage_block = block;
  return IONF_OK;
}

/* host_buf's blocks to or from the padded blocks of the stage (to_device 1: every rank's
   block, or only this rank's when `mine`) */
static ionf_err blocks_copy(struct nccl_sum *ns, double *host_buf, int64_t n, int64_t block,
                            int to_device, int mine) {
  for (int r = 0; r < comm_size(); ++r) {
    if (mine && r != comm_rank()) continue;
    int64_t first, count;
    comm_slab(n, r, comm_size(), &first, &count);
    if (count == 0) continue;
    double *d = ns->stage + (int64_t)r * block;
    size_t bytes = sizeof(double) * (size_t)count;
    IONF_CALL(blocks_cuda(to_device ? cudaMemcpyAsync(d, host_buf + first, bytes,
                                                      cudaMemcpyHostToDevice, ns->stream)
                                    : cudaMemcpyAsync(host_buf + first, d, bytes,
                                                      cudaMemcpyDeviceToHost, ns->stream),
                          "copy of the blocks"));
  }
  return IONF_OK;
}

static ionf_err blocks_nccl(struct nccl_sum *ns, ncclResult_t rc, const char *what) {
  if (rc == ncclSuccess) return IONF_OK;
  return ionf_error_set(IONF_ERR_GPU, "rank %d: %s failed: %s", comm_rank(), what,
                        ns->error_string(rc));
}

/* at least the largest block of n over the ranks (comm_slab's blocks hold the floor or
   the ceiling of n / ranks) */
static int64_t blocks_largest(int64_t n) {
  return (n + comm_size() - 1) / comm_size();
}

extern "C" ionf_err nccl_sum_blocks_reduce(struct nccl_sum *ns, double *host_buf, int64_t n) {
  const int64_t block = blocks_largest(n);
  if (comm_size() == 1 || n <= 0) return IONF_OK;
  IONF_CALL(blocks_stage(ns, block));
  IONF_CALL(blocks_copy(ns, host_buf, n, block, 1, 0));
  double *mine = ns->stage + (int64_t)comm_rank() * block;
  IONF_CALL(blocks_nccl(ns, ns->reduce_scatter(ns->stage, mine, (size_t)block, ncclDouble, ncclSum,
                                               ns->comm, ns->stream),
                        "ncclReduceScatter of the rates"));
  IONF_CALL(blocks_copy(ns, host_buf, n, block, 0, 1));
  return blocks_cuda(cudaStreamSynchronize(ns->stream), "the block sums");
}

extern "C" ionf_err nccl_sum_blocks_allgather(struct nccl_sum *ns, double *host_buf, int64_t n) {
  const int64_t block = blocks_largest(n);
  if (comm_size() == 1 || n <= 0) return IONF_OK;
  IONF_CALL(blocks_stage(ns, block));
  IONF_CALL(blocks_copy(ns, host_buf, n, block, 1, 1));
  double *mine = ns->stage + (int64_t)comm_rank() * block;
  IONF_CALL(blocks_nccl(ns, ns->all_gather(mine, ns->stage, (size_t)block, ncclDouble, ns->comm,
                                           ns->stream),
                        "ncclAllGather of the blocks"));
  IONF_CALL(blocks_copy(ns, host_buf, n, block, 0, 0));
  return blocks_cuda(cudaStreamSynchronize(ns->stream), "the block gather");
}

extern "C" void nccl_sum_destroy(struct nccl_sum *ns) {
  if (!ns) return;
  cudaFree(ns->stage);
  if (ns->stream) cudaStreamDestroy(ns->stream);
  if (ns->comm) ns->comm_destroy(ns->comm);
  if (ns->lib) dlclose(ns->lib);
  free(ns);
}

#else

extern "C" ionf_err nccl_sum_create(struct nccl_sum **out, char *why, size_t why_size) {
  *out = NULL;
  snprintf(why, why_size, "built without nccl.h");
  return IONF_OK;
}
extern "C" ionf_err nccl_sum_allreduce(struct nccl_sum *ns, double *device_buf, int64_t count,
                                       void *stream) {
  return ionf_error_set(IONF_ERR_UNSUPPORTED, "built without NCCL");
}
extern "C" ionf_err nccl_sum_exchange(struct nccl_sum *ns, const struct nccl_sum_message *sends,
                                      int n_sends, const struct nccl_sum_message *recvs,
                                      int n_recvs, void *stream) {
  return ionf_error_set(IONF_ERR_UNSUPPORTED, "built without NCCL");
}
extern "C" int nccl_sum_has_exchange(const struct nccl_sum *ns) { return 0; }
extern "C" int nccl_sum_has_blocks(const struct nccl_sum *ns) { return 0; }
extern "C" ionf_err nccl_sum_blocks_reduce(struct nccl_sum *ns, double *host_buf, int64_t n) {
  return ionf_error_set(IONF_ERR_UNSUPPORTED, "built without NCCL");
}
extern "C" ionf_err nccl_sum_blocks_allgather(struct nccl_sum *ns, double *host_buf, int64_t n) {
  return ionf_error_set(IONF_ERR_UNSUPPORTED, "built without NCCL");
}
extern "C" void nccl_sum_destroy(struct nccl_sum *ns) {}

#endif

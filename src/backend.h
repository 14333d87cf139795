/**
 * @file backend.h
 * @brief The compute backend boundary: ray tracing and chemistry behind an
 *        ops table, one implementation per device kind (PETSc-style).
 *
 * The engine owns the host fields; a backend may mirror them on a device.
 * Calls are coarse (one per pass), so a table of function pointers costs
 * nothing and lets CPU and CUDA be chosen at run time.
 */
#ifndef IONF_BACKEND_H
#define IONF_BACKEND_H

#include "asora.h"
#include "chem.h"
#include "config.h"
#include "error.h"

struct rt_backend;

struct rt_backend_ops {
  /** Zero gamma_out and add the rates of the listed sources. */
  ionf_err (*trace)(struct rt_backend *be, const struct trace_input *in, double *gamma_out,
                    struct trace_stats *stats);
  /** One chemistry pass over all cells. */
  ionf_err (*chemistry)(struct rt_backend *be, const struct chem_input *in,
                        struct chem_state *state, struct chem_pass_result *result);
  /** Release everything the backend holds. */
  void (*destroy)(struct rt_backend *be);
};

struct rt_backend {
  const char *type_name;          /*!< "cpu" or "cuda" */
  struct rt_backend_ops ops;
  void *impl;                     /*!< implementation-private state */
  char description[256];          /*!< for the start-up log (device name, threads) */
};

/**
 * Create the backend the config asks for.  AUTO picks CUDA when this build
 * has it and a GPU is present, else CPU.  Asking for CUDA without a GPU (or
 * in a CPU-only build) is IONF_ERR_UNSUPPORTED with a message saying which.
 */
IONF_NODISCARD ionf_err rt_backend_create(enum backend_kind kind, struct rt_backend **out);
void rt_backend_destroy(struct rt_backend *be);

/** Implementations. */
IONF_NODISCARD ionf_err rt_backend_create_cpu(struct rt_backend **out);
IONF_NODISCARD ionf_err rt_backend_create_cuda(struct rt_backend **out);
/** Number of usable CUDA devices (0 in a CPU-only build or without a GPU). */
int rt_backend_cuda_device_count(void);

#endif

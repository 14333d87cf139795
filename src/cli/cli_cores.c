/**
 * @file cli_cores.c
 * @brief Ranks x threads against the node's cores (see cli_cores.h).
 */
#include "cli/cli_cores.h"

#include <omp.h>
#include <stdio.h>

#include "mpi/affinity.h"
#include "mpi/comm.h"

int cli_cores_check(void) {
  const int threads = omp_get_max_threads();
  const int ranks = comm_local_size() > 0 ? comm_local_size() : 1;
  const int pus = affinity_node_pus();
  const long long wanted = (long long)threads * ranks;
  const int over = pus > 0 && wanted > pus;
  if (over && comm_local_rank() == 0) {
    fprintf(stderr,
            "ionfront: WARNING: node %s: %d rank(s) x %d OpenMP thread(s) = %lld threads on %d "
            "hardware thread(s): the run will be many times slower; set OMP_NUM_THREADS=%d (or "
            "start fewer ranks per node)\n",
            comm_host_name(), ranks, threads, wanted, pus, pus / ranks > 0 ? pus / ranks : 1);
    fflush(stderr);
  }
  return over;
}

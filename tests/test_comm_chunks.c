/**
 * @file test_comm_chunks.c
 * @brief The chunked collectives (all-reduce, reduce, broadcast) that carry
 *        grids of more than 2^31 elements: with the chunk shrunk to 1000
 *        elements, arrays of 12345 values split into uneven chunks still sum
 *        and arrive exactly; so do the ranks' blocks (mpi/comm_blocks.h: each
 *        block's sum on its owner, the blocks gathered), whose edges fall inside
 *        chunks.  Run on 3 ranks.
 */
#include <stdlib.h>

#include "mpi/comm.h"
#include "mpi/comm_blocks.h"
#include "test_util.h"

int main(int argc, char **argv) {
  if (comm_init(&argc, &argv) != IONF_OK) return 1;
  comm_set_chunk_elements(1000);
  int p = comm_size(), me = comm_rank();
  const int64_t n = 12345;
  double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
  for (int64_t i = 0; i < n; ++i) a[i] = b[i] = (double)(i + 1) * (me + 1);
  double ranks = p * (p + 1) / 2.0;
  EXPECT(comm_allreduce_sum(a, n) == IONF_OK, "allreduce");
  for (int64_t i = 0; i < n; ++i)
    if (a[i] != (double)(i + 1) * ranks) {
      EXPECT(0, "allreduce: element %lld = %g, want %g", (long long)i, a[i], (i + 1) * ranks);
      break;
    }
  EXPECT(comm_reduce_sum(b, n, p - 1) == IONF_OK, "reduce");
  if (me == p - 1)
    for (int64_t i = 0; i < n; ++i)
      if (b[i] != (double)(i + 1) * ranks) {
        EXPECT(0, "reduce: element %lld = %g", (long long)i, b[i]);
        break;
      }
  for (int64_t i = 0; i < n; ++i) b[i] = me == 0 ? (double)i : -1.0;
  EXPECT(comm_bcast(b, n, 0) == IONF_OK, "bcast");
  for (int64_t i = 0; i < n; ++i)
    if (b[i] != (double)i) {
      EXPECT(0, "bcast: element %lld = %g", (long long)i, b[i]);
      break;
    }
  /* each rank's block of the sum lands in place; then every block reaches every rank */
  int64_t mine, mine_count;
  comm_slab(n, me, p, &mine, &mine_count);
  for (int64_t i = 0; i < n; ++i) a[i] = (double)(i + 1) * (me + 1);
  EXPECT(comm_blocks_reduce_sum(a, n) == IONF_OK, "blocks reduce");
  for (int64_t i = mine; i < mine + mine_count; ++i)
    if (a[i] != (double)(i + 1) * ranks) {
      EXPECT(0, "blocks reduce: element %lld = %g, want %g", (long long)i, a[i], (i + 1) * ranks);
      break;
    }
  for (int64_t i = 0; i < n; ++i)
    if (i < mine || i >= mine + mine_count) a[i] = -1.0; /* the others' blocks: not yet here */
  EXPECT(comm_blocks_allgather(a, n) == IONF_OK, "blocks gather");
  for (int64_t i = 0; i < n; ++i)
    if (a[i] != (double)(i + 1) * ranks) {
      EXPECT(0, "blocks gather: element %lld = %g, want %g", (long long)i, a[i], (i + 1) * ranks);
      break;
    }
  int64_t first, count, total = 0;
  for (int r = 0; r < 7; ++r) {
    comm_slab(100, r, 7, &first, &count);
    EXPECT(first == total, "slab %d starts at %lld", r, (long long)first);
    total += count;
  }
  EXPECT(total == 100, "slabs cover %lld of 100 planes", (long long)total);
  free(a);
  free(b);
  int failed = test_failures, any = 0;
  if (comm_max_int(failed, &any) != IONF_OK) any = 1;
  comm_finalize();
  if (any && !failed) fprintf(stderr, "another rank failed\n");
  if (me == 0 && !any) printf("all checks passed\n");
  return any ? 1 : 0;
}

/**
 * @file cli_cores.h
 * @brief The command line's check that the ranks' OpenMP threads fit the cores.
 */
#ifndef IONF_CLI_CORES_H
#define IONF_CLI_CORES_H

/**
 * Not collective.  When the ranks of a node together run more OpenMP threads than the
 * node has hardware threads (ranks on the node x OMP max threads > hwloc PUs), the
 * first rank of that node warns on stderr, naming the numbers and the fix
 * (OMP_NUM_THREADS): such a run is silently many times slower (3 ranks x 2 threads
 * on 2 cores: 20x).  Returns 1 when this rank's node is oversubscribed, else 0.
 */
int cli_cores_check(void);

#endif /* IONF_CLI_CORES_H */

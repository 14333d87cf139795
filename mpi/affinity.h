/**
 * @file affinity.h
 * @brief Where this rank runs: the hwloc view of the cores it may use.
 */
#ifndef IONF_AFFINITY_H
#define IONF_AFFINITY_H

#include <stddef.h>

/** "N cores / M PUs, bound to PUs 0-3" (hwloc); never fails (says "unknown"). */
void affinity_describe(char *buf, size_t size);

/** Hardware threads (PUs) this node lets the job use (hwloc: cgroups and
    offline CPUs left out); 0 when unknown. */
int affinity_node_pus(void);

#endif

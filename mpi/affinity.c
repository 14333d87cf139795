/**
 * @file affinity.c
 * @brief hwloc queries for the start-up log.  Binding each rank near its GPU
 *        comes with the distributed-run work; today this reports.
 */
#include "mpi/affinity.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>

void affinity_describe(char *buf, size_t size) {
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
    snprintf(buf, size, "topology unknown");
    return;
  }
  int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
  int pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  char *list = NULL;
  if (set && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0)
    hwloc_bitmap_list_asprintf(&list, set);
  snprintf(buf, size, "%d cores / %d PUs, may run on PUs %s", cores, pus, list ? list : "?");
  free(list);
  hwloc_bitmap_free(set);
  hwloc_topology_destroy(topo);
}

int affinity_node_pus(void) {
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return 0;
  int pus = 0;
  if (hwloc_topology_load(topo) == 0) pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  hwloc_topology_destroy(topo);
  return pus > 0 ? pus : 0;
}

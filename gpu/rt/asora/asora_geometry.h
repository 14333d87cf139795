/**
 * @file asora_geometry.h
 * @brief The GPU tracer's table of its stencils' geometry (gpu/rt/asora/asora_cuda.cu):
 *        asora_stencil_geometry (rt/asora/asora_k.h) of every |d| = (|di|, |dj|, |dk|) up to
 *        the sources' largest shell, ASORA_GEOMETRY_VALUES each, [|di|][|dj|][|dk|]; the
 *        values are the computation's bits, so the cell step reads them instead.
 */
#ifndef IONF_ASORA_GEOMETRY_H
#define IONF_ASORA_GEOMETRY_H

#include "core/error.h"

struct asora_geometry {
  double *d_geo; /*!< on the device, side^3 entries, or NULL */
  int side;      /*!< |d| = 0 .. side - 1 per axis (0: none; the cell step computes it) */
};

/** The table for shells up to h_max: built when they outgrow it; none (side 0) beyond
    ASORA_GEOMETRY_TABLE_MAX_BYTES. */
ionf_err asora_geometry_build(struct asora_geometry *g, int h_max);

void asora_geometry_free(struct asora_geometry *g);

#endif /* IONF_ASORA_GEOMETRY_H */

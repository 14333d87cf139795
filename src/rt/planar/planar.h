/**
 * @file planar.h
 * @brief Plane-parallel sources: the faces' names, their photon rates
 *        (planar.c), and the CPU pass that adds the rates of every plane source
 *        to Gamma (planar_cpu.c, OpenMP over the columns of each face).  The
 *        per-column maths is planar_k.h; the CUDA pass is planar_trace_kernel
 *        in gpu/backend_cuda.cu.
 */
#ifndef IONF_PLANAR_H
#define IONF_PLANAR_H

#include <stdint.h>

#include "core/error.h"
#include "grid/grid.h"
#include "rt/photo_k.h"
#include "rt/planar/planar_k.h"
#include "rt/tracer.h"

/** Inputs of one pass over the plane sources. */
struct planar_input {
  struct grid grid;                    /*!< geometry (non-periodic) */
  const double *n_h_cm3;               /*!< n^3 hydrogen densities */
  const double *x_ion_av;              /*!< [species][n^3] time-averaged ion fractions */
  int n_species;                       /*!< species blocks (0 or 1: hydrogen alone) */
  double abundance_he;                 /*!< n_He / n_H */
  const struct planar_source *planes;  /*!< the plane sources */
  int n_planes;
  struct photo_table_view tables;
  double *heating_out;                 /*!< optional (NULL): [species][n^3] photo-heating per
                                            absorber atom is added here */
};

/** Face names as in the config ("x_low" ... "z_high"), indexed by face. */
extern const char *const planar_face_names[PLANAR_N_FACES];

/**
 * Add every plane source's photoionization rate to gamma_out ([species][n^3],
 * not zeroed here); `cells_traced` (may be NULL) gets the number of (plane, cell) pairs.
 */
IONF_NODISCARD ionf_err planar_cpu_trace(const struct planar_input *in, double *gamma_out,
                                         int64_t *cells_traced);

/** Photons per second entering the box through all plane sources [1/s]: F * L^2 each. */
double planar_total_ndot(const struct planar_source *planes, int n_planes, double box_cm);

/** What a plane-source tracer is made with (CPU or CUDA). */
struct planar_tracer_setup {
  struct grid grid;                    /*!< geometry: non-periodic, the whole grid held */
  const struct planar_source *planes;  /*!< the plane sources (must outlive the tracer) */
  int n_planes;
  struct photo_table_view tables;      /*!< rate tables, in the tracer's memory */
  void *stream;                        /*!< CUDA: the backend's cudaStream_t */
};

/**
 * The plane sources as a tracer (rt/tracer.h), on the CPU (planar_cpu_trace) or on
 * CUDA (gpu/rt/planar/planar_cuda.cu, a thread per column).  A column crosses the
 * whole grid, so the box must hold it whole (IONF_ERR_UNSUPPORTED otherwise).
 */
IONF_NODISCARD ionf_err planar_tracer_create_cpu(const struct planar_tracer_setup *s,
                                                 struct tracer **out);
IONF_NODISCARD ionf_err planar_tracer_create_cuda(const struct planar_tracer_setup *s,
                                                  struct tracer **out);
/** The check both constructors make: a non-periodic grid held whole. */
IONF_NODISCARD ionf_err planar_tracer_check(const struct planar_tracer_setup *s);

#endif

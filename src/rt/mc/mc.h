/**
 * @file mc.h
 * @brief Monte Carlo photon-packet transport (raytracing.method: montecarlo): the run's
 *        packet state, the black-body frequency table, the CPU tracer and the error
 *        estimate of Gamma.  The per-packet maths is mc_k.h; the CUDA tracer
 *        gpu/mc_cuda.h.
 *
 * Each pass, every point source of this rank emits packets_per_source packets of
 * Ndot / packets photons per second, isotropic from its cell centre; a packet walks
 * the cells it crosses (3D DDA) and each takes the fraction 1 - e^{-dtau} of the
 * photons still in it, which divided by the cell's HI atoms is its Gamma.  The
 * packets of a source in one step are the same in every iteration of that step
 * (the step is in the random counter, the iteration is not), so the iteration
 * converges as with ASORA; the next step draws new packets.
 *
 * Error estimate: a packet crosses a cell at most once, so Gamma of a cell is a sum of
 * independent packet contributions w; its relative standard error is estimated as
 * sqrt(sum w^2) / sum w (Gamma_HI_relative_error in snapshots).
 *
 * target_relative_error > 0: after each step the packets per source are set for the
 * next step so that the front error -- the root mean square of that relative error
 * over the front cells (0.1 <= x_HII <= 0.9 at the step's end) -- comes to the target,
 * N_next = N (err / target)^2 (errors fall as 1/sqrt(N)), changed by at most a
 * factor 4 per step, within [1, max_packets_per_source].
 *
 * recombination_emission (case A with re-emission): the chemistry recombines with
 * alpha_A, and each pass every cell emits its ground-state recombination photons,
 * (alpha_A - alpha_B) n_e n_HII V per second, as isotropic packets at the threshold
 * frequency from random points in the cell.  A pass's budget of M packets
 * (recombination_packets; default packets_per_source x the number of sources) is
 * shared in proportion to the cells' emission, each packet carrying R_total / M, with
 * the fraction rounded at random (unbiased; cells far below R_total / M emit rarely
 * but with the full weight).  Cells c with c % ranks == rank emit on a rank.
 */
#ifndef IONF_MC_H
#define IONF_MC_H

#include <stdint.h>

#include "chem/chem_k.h"
#include "chem/species.h"
#include "core/error.h"
#include "grid/grid.h"
#include "grid/sources.h"
#include "rt/mc/mc_k.h"
#include "rt/photo_tables.h"
#include "rt/tracer.h"

/** Points of the inverse-CDF table of black-body photon energies. */
#define MC_SPECTRUM_POINTS 2049

/** Monte Carlo photon packets (the config's montecarlo: section). */
struct mc_config {
  int64_t packets_per_source;     /*!< packets per source per pass (the start, when adaptive) */
  uint32_t seed;                  /*!< Philox key; with it a run is the same on any ranks */
  double target_relative_error;   /*!< > 0: adapt packets to this front error (above) */
  int64_t max_packets_per_source; /*!< cap of the adaptation */
  int recombination_emission;     /*!< 1: case A with re-emitted ground-state photons */
  int64_t recombination_packets;  /*!< diffuse packets per pass; 0: packets_per_source x sources */
  double alpha_a_1e4_cm3_s;       /*!< case-A recombination at 1e4 K (T power: chemistry's) */
};

/** What the tracers need beyond the grid and sources; owned by the engine. */
struct mc_state {
  uint32_t seed;               /*!< Philox key, with the emitter's cell */
  int64_t step;                /*!< the step being computed: part of the counter */
  int64_t packets_per_source;  /*!< this step's packets per source */
  double *spectrum;            /*!< inverse CDF of h nu / 13.6 eV (NULL: grey) */
  int spectrum_points;
  double sigma0_cm2, sigma_index; /*!< sigma(nu) = sigma0 e^-index */
  int heating;                 /*!< tally photo-heating (thermal runs) */
  double *gamma_sq;            /*!< host n^3: sum of squared packet rates per cell */
  /* montecarlo.recombination_emission: case A, ground-state photons re-emitted */
  int recombination_emission;
  int64_t recombination_packets;  /*!< packets of the diffuse field per pass (all ranks) */
  double alpha_a_1e4_cm3_s, alpha_b_1e4_cm3_s, alpha_power; /*!< alpha(T) = alpha(1e4)(T/1e4)^power */
  double abu_c;                /*!< electron floor, as the chemistry */
  int rank, ranks;             /*!< cells c with c % ranks == rank emit on this rank */
};

/**
 * Set up for an n^3 grid: seed and packets from `mc`, the cross-section from
 * hydrogen's entry of `species`, alpha_B, its T power, the electron floor and
 * whether heat is tallied (thermal, not grey) from `chem`, the energy table from
 * `spectrum` (none when grey), the gamma_sq array.
 */
IONF_NODISCARD ionf_err mc_state_init(const struct mc_config *mc,
                                      const struct photo_spectrum *spectrum,
                                      const struct species_data species[IONF_MAX_SPECIES],
                                      const struct chem_params *chem, int64_t n,
                                      struct mc_state *st);
void mc_state_free(struct mc_state *st);

/**
 * The energies h nu / 13.6 eV below which a fraction i / (points - 1) of a black
 * body's ionizing photons lie (13.6 eV to 10 x 54.4 eV, as the rate tables),
 * table[0] = 1; GSL quadrature of the photon spectrum, inverted piecewise linearly.
 */
IONF_NODISCARD ionf_err mc_spectrum_build(double t_eff_k, int points, double *table);

/** The photon radius of a walk [cells]: R_max, or the whole box. */
double mc_walk_limit_cells(double r_max_cells, int64_t n, int periodic);

/** The medium the packets walk (mc_k.h), the same for the CPU and the CUDA pass: the
    grid's geometry, the walk limit of R_max, HI's cross-section from `st`, the fields
    and tallies given (host or device arrays); heat only when `st` heats. */
struct mc_medium mc_medium_make(const struct mc_state *st, int64_t n, int periodic,
                                double cell_cm, double r_max_cells, const double *n_h_cm3,
                                const double *x_hii_av, double *gamma, double *gamma_sq,
                                double *heat);

/** One pass's inputs (host arrays). */
struct mc_pass {
  struct grid grid;
  const double *n_h_cm3, *x_hii_av;
  const double *temperature_k;     /*!< for alpha(T) of the diffuse field (may be NULL otherwise) */
  const struct source_list *sources;
  int64_t first_source, source_count;
  double r_max_cells;
  const struct mc_state *st;
  double *gamma, *gamma_sq, *heat; /*!< tallies, added to (heat may be NULL) */
};

/** What a Monte Carlo tracer is made with (CPU or CUDA). */
struct mc_tracer_setup {
  struct grid grid;            /*!< geometry: the whole grid held (packets cross it) */
  double r_max_cells;          /*!< the largest photon radius of any pass [cells] (each pass
                                    brings its own, tracer_fields); <= 0: whole box */
  struct mc_state *state;      /*!< the run's packet state (borrowed; step and packets per
                                    source change between passes; gamma_sq gets the tallies) */
  void *stream;                /*!< CUDA: the backend's cudaStream_t */
};

/**
 * Monte Carlo packets as a tracer (rt/tracer.h): each pass clears the state's sum of
 * w^2 and traces every packet of this rank's sources (mc_cpu_trace, or the CUDA
 * kernels of gpu/rt/mc/mc_trace.cu); sync_host brings the CUDA tracer's sum of w^2 to
 * state->gamma_sq.  The walk crosses the grid, so the box must hold it whole.
 */
IONF_NODISCARD ionf_err mc_tracer_create_cpu(const struct mc_tracer_setup *s, struct tracer **out);
IONF_NODISCARD ionf_err mc_tracer_create_cuda(const struct mc_tracer_setup *s, struct tracer **out);
/** The check both constructors make: the whole grid held. */
IONF_NODISCARD ionf_err mc_tracer_check(const struct mc_tracer_setup *s);

/** Trace this rank's packets on the CPU (OpenMP over packets); cells crossed out. */
IONF_NODISCARD ionf_err mc_cpu_trace(const struct mc_pass *p, int64_t *cells_crossed);

/** The diffuse field's total photons per second over all cells (R_total above). */
double mc_recombination_total(const struct mc_state *st, const struct grid *g,
                              const double *n_h_cm3, const double *x_hii,
                              const double *temperature_k);

/** rel[c] = sqrt(gamma_sq[c]) / gamma[c] (0 where gamma is 0). */
void mc_relative_error(const double *gamma, const double *gamma_sq, int64_t cells, double *rel);

/**
 * The front error (see above) from the relative errors and x_HII of the whole grid, and the packets
 * per source the next step takes for the target; returns -1 when no cell is in the front.
 */
double mc_front_error(const double *rel, const double *x_hii, int64_t cells);
int64_t mc_next_packets(int64_t packets, double front_error, double target, int64_t max_packets);

#endif

/**
 * @file chem.h
 * @brief The chemistry interface: one pass of C2-Ray's time-averaged implicit update
 *        over a set of cells (grid cells or SPH particles alike), behind an ops table
 *        with a CPU implementation (chem_cpu.c, OpenMP) and a CUDA one
 *        (gpu/chem/chem_cuda.cu); both run chem_k.h's chem_cell_pass on every cell.
 *
 * The state is the species list of species_k.h: per-species arrays are
 * [species][cell] with a stride between species; hydrogen alone is updated by
 * chem_k.h's chem_cell_pass, hydrogen with helium by chem_he_k.h's chem_he_cell_pass.
 */
#ifndef IONF_CHEM_H
#define IONF_CHEM_H

#include <stdint.h>

#include "chem/chem_he_k.h"
#include "chem/chem_k.h"
#include "chem/species.h"
#include "core/error.h"

/*
 * Per-species arrays are [species][cell] (species_k.h): species s of cell c at
 * s * species_stride + c, the stride being the grid's cell count (these
 * pointers may start at a slab's first cell).
 */
struct chem_input {
  int64_t n_cells;
  double dt_s;
  struct chem_params params;
  const double *n_h_cm3;
  const double *temperature_k;
  const double *gamma_per_s;   /*!< [species] photoionization rates [1/s] */
  const double *x_ion;         /*!< [species] start-of-step ion fractions */
  const double *heating_erg_per_s; /*!< [species] photo-heating per absorber (thermal runs; else NULL) */
  int64_t species_stride;      /*!< distance between species in the arrays above */
  int n_species;               /*!< 0 or 1: hydrogen's update (chem_k.h); 3: with helium */
  struct chem_he_params he;    /*!< n_species 3: the H + He update's parameters (chem_he_k.h) */
};

struct chem_state {
  double *x_ion_av;         /*!< [species] in: current estimate; out: updated time average */
  double *x_ion_end;        /*!< [species] out: end-of-step value */
  double *t_av_k;           /*!< thermal: in: current estimate; out: time average (else NULL) */
  double *t_end_k;          /*!< thermal: out: end-of-step temperature (else NULL) */
};

struct chem_pass_result {
  int64_t unconverged_cells; /*!< cells whose x_av still moved (chem_cell_unconverged) */
  int64_t cells_at_max_iter; /*!< cells whose n_e iteration did not converge */
  double sum_x_end;          /*!< sum over cells of x_end */
  double sum_x_neutral_end;  /*!< sum over cells of 1 - x_end */
  double sum_x_end_mass;     /*!< sum over cells of n_H x_end (mass-weighted mean) */
  double sum_t_end;          /*!< sum over cells of the end-of-step temperature */
};

/** The sums of a pass, in one place (every solver fills them alike). */
static inline void chem_pass_result_set(struct chem_pass_result *r, int64_t unconverged,
                                        int64_t at_max, double sum_x, double sum_neutral,
                                        double sum_mass, double sum_t) {
  r->unconverged_cells = unconverged;
  r->cells_at_max_iter = at_max;
  r->sum_x_end = sum_x;
  r->sum_x_neutral_end = sum_neutral;
  r->sum_x_end_mass = sum_mass;
  r->sum_t_end = sum_t;
}

/** A chemistry solver: where the arrays of a pass live and what updates them. */
struct chem_solver;

struct chem_solver_ops {
  /**
   * Update every cell of `in` (in->n_cells) with the current rates: state's x_av (and
   * T_av) are replaced by the new averages, x_end (T_end) written; `result` gets the
   * convergence sums over these cells.
   */
  ionf_err (*pass)(struct chem_solver *s, const struct chem_input *in, struct chem_state *state,
                   struct chem_pass_result *result);
  void (*destroy)(struct chem_solver *s);
};

struct chem_solver {
  const char *name;        /*!< "cpu", "cuda" (arrays in GPU memory), "cuda-staged" (host
                                arrays copied through the GPU) */
  int device_arrays;       /*!< 1: the pass's arrays are GPU pointers */
  struct chem_solver_ops ops;
  void *impl;              /*!< implementation-private */
  struct chem_clumping clumping; /*!< the recombinations' clumping factor of the passes
                                      (chemistry.clumping; zeroed at creation: none, C = 1),
                                      set by the engine each step (chem_solver_set_clumping) */
};

/** The clumping factor the solver's next passes multiply the recombinations by. */
void chem_solver_set_clumping(struct chem_solver *s, const struct chem_clumping *clumping);

/** The CPU solver (OpenMP over cells). */
IONF_NODISCARD ionf_err chem_solver_create_cpu(struct chem_solver **out);
/**
 * The CUDA solver (builds with CUDA only), on the current device.  device_arrays 1:
 * a pass's arrays are in GPU memory, the kernel runs on `stream` (a cudaStream_t; NULL:
 * the default stream) and the sums are reduced on the GPU (fp64 atomics: their order
 * varies in the last bits).  device_arrays 0: host arrays are copied to the GPU and
 * back each pass (the particle engine's state lives on the host), and the sums are
 * formed on the host in cell order, as the CPU's with one thread.
 */
IONF_NODISCARD ionf_err chem_solver_create_cuda(int device_arrays, void *stream,
                                                struct chem_solver **out);
void chem_solver_destroy(struct chem_solver *s);


/**
 * The chemistry parameters from the species table (recombination, collisional
 * ionization) and the run's switches: `collisional` ionization on, the electron
 * floor `abu_c`, `thermal` (the temperature evolves).  t_cmb_k and hubble_per_s
 * are 0 (cosmological runs set them per step).
 */
struct chem_params chem_params_make(const struct species_data species[IONF_MAX_SPECIES],
                                    int collisional, double abu_c, int thermal);

/** Update every cell (OpenMP). */
IONF_NODISCARD ionf_err chem_cpu_pass(const struct chem_input *in, struct chem_state *state,
                                      struct chem_pass_result *result);
/** chem_cpu_pass with the recombinations times each cell's clumping factor (clumping_k.h). */
IONF_NODISCARD ionf_err chem_cpu_pass_clumped(const struct chem_input *in,
                                              const struct chem_clumping *clumping,
                                              struct chem_state *state,
                                              struct chem_pass_result *result);

#endif

/**
 * @file sph_config.h
 * @brief The config of a particle run: a `particles:` section and point
 *        sources placed by position, on top of the grid config's physics
 *        sections (material, chemistry, spectrum, time, raytracing, output).
 *
 *   particles:  file PATH (an HDF5 snapshot, Gadget or SWIFT layout; relative to the
 *                 config file), or generate {kind lattice|glass, count_1d [2..1024],
 *                 n_H [cm^-3 > 0], box [length > 0], jitter [0..1, 0.1],
 *                 relax_iterations [glass: 30], neighbours [48], seed [1],
 *                 periodic [bool, false: h, densities and rays wrap across the faces]}
 *                 (exactly one of the two; a file is periodic when it says so,
 *                 Header/Periodic, or else when it has a BoxSize),
 *                 or generate {kind density_file, file PATH, dataset [n_H], count_1d (the
 *                 file's cells per side), box, jitter, neighbours, seed, periodic}: one
 *                 particle per cell of a grid of proper n_H [cm^-3] (e.g. 'ionfront
 *                 generate iliev4'), mass n_H m_p V_cell / X_H;
 *               unit_length, unit_mass [only for files that name no units: the
 *                 length in cm and mass in g of one file unit; 0 = refuse such files],
 *               hydrogen_mass_fraction [0 < X_H <= 1, 1],
 *               rays_per_source [0 = the tracer's default for N particles
 *                 (sph_rays_default_nside); else 12 nside^2, nside a power of two],
 *               output_grid [0, or N: also deposit x_HII on an N^3 grid, /Grid/x_HII],
 *               wrap_rays [bool, true: rays of a periodic set wrap across the box, every
 *                 image within raytracing.R_max, which must then be a length of at most
 *                 8 box sides; false: h and densities stay periodic, but the run treats
 *                 the box as open (rays end at its faces; R_max may be 0)],
 *               ranks_share rays|sources [rays: on several ranks every rank traces every
 *                 source, rays k = rank, rank + ranks, ... of its HEALPix set (the ranks'
 *                 work alike whatever the sources' surroundings); sources: each rank
 *                 traces a block of the sources, all their rays],
 *               trace [optional: the GPU tracer's tuning, for tests and measurements (the
 *                 defaults are the measured best, benchmarks/RESULTS.md; the CPU tracer
 *                 ignores it; particles/sph_trace.h): schedule warp|thread [warp: one warp
 *                 per ray, one thread per ray where the warp's cannot; thread: always one
 *                 thread per ray], window_hits [warp: hits a window's buffer holds,
 *                 2..1024, 512], min_blocks [warp: the kernel's launch bound in blocks per
 *                 SM, 1, 6 or 8; 8], window_aim [warp: the hits a window aims at, as a
 *                 fraction of its buffer, 0.1..2, 0.85], hit_capacity [thread: hits its
 *                 buffers hold; 0 = sized from free GPU memory]]
 *   sources:    a list of {position: [x, y, z] (lengths from the box corner; a bare
 *               number is in Mpc, like every length), Ndot [s^-1 > 0]}, inside the box;
 *               or, with generate.kind density_file, {file: PATH, format [auto|text|hdf5]}:
 *               a grid source file (C2-Ray text or HDF5, io_sources.h) of that grid's
 *               cells, each source at its cell's centre
 *   material:   temperature, x_HII_initial, isothermal as for grids (no n_H: the
 *               particles' SPH densities give it, n_H = X_H rho / m_p)
 *   chemistry, spectrum, time: as for grids; output: as for grids (checkpoint_every:
 *   DIR/checkpoint.h5, io/sph_checkpoint.h), but no c2ray_binary or dTb (xdmf is
 *   ignored); raytracing: as for grids, but R_max a length ('3 kpc') or 0 (a particle run
 *   has no cells: '10 cells' and bare numbers are refused), no method (the SPH ray
 *   tracer only) or source_batch_size; mpi.reduction auto, nccl or scatter (every rank
 *   holds every particle; the rates summed onto blocks of particles, each rank's chemistry
 *   on its block; the sums and gathers through NCCL on the GPUs with the CUDA tracer
 *   (auto, nccl), else by MPI on the host (scatter, auto on CPUs)) or allreduce (every
 *   rank's chemistry on all particles), not reduce;
 *   debug: as for grids (test hooks; fail_load_rank does not apply).  grid:, cosmology:, sequence:, synthetic:, montecarlo:, material.n_H and
 *   material.clumps do not apply: each is refused by its key (sph_config_shared.c).
 *
 * `ionfront run` takes this path when the config has a particles: section.
 */
#ifndef IONF_SPH_CONFIG_H
#define IONF_SPH_CONFIG_H

#include <stdint.h>

#include "config/config.h"
#include "config/config_file.h"
#include "core/error.h"
#include "particles/sph_trace.h" /* struct sph_trace_tuning */

enum sph_generate_kind {
  SPH_GENERATE_NONE,
  SPH_GENERATE_LATTICE,
  SPH_GENERATE_GLASS,
  SPH_GENERATE_DENSITY_FILE /*!< one particle per cell of an n_H grid (particles_make.h) */
};

struct sph_config {
  struct ionf_config base;      /*!< physics, time, output (grid/sources there are placeholders) */
  /* particles */
  char file[IONF_PATH_MAX];     /*!< "" when generated */
  enum sph_generate_kind generate;
  int64_t count_1d;             /*!< generated: count_1d^3 particles */
  double gen_n_h_cm3;           /*!< generated: hydrogen density (not density_file) */
  char gen_density_file[IONF_PATH_MAX]; /*!< density_file: HDF5 grid of proper n_H [cm^-3] */
  char gen_density_dataset[128];        /*!< density_file: its dataset (n_H) */
  double gen_box_cm;            /*!< generated: cube side */
  double gen_jitter;
  int gen_relax_iterations;
  int gen_neighbours;
  uint64_t gen_seed;
  int gen_periodic;
  double unit_length_cm, unit_mass_g; /*!< for files without units (0: refuse) */
  double hydrogen_mass_fraction;
  int64_t rays_per_source;      /*!< 0: automatic */
  int64_t output_grid;          /*!< 0: none */
  int wrap_rays;                /*!< a periodic set's rays wrap (1), or the box counts as open */
  int share_sources;            /*!< particles.ranks_share: sources (1) or rays (0) */
  double r_max_cm;              /*!< rays stop here; 0: unlimited */
  struct sph_trace_tuning trace; /*!< particles.trace: the GPU tracer's knobs (0: defaults) */
  /* sources */
  int64_t n_sources;
  double *source_pos_cm;        /*!< 3 x n_sources (malloc'd) */
  double *source_ndot_per_s;    /*!< n_sources (malloc'd) */
  char (*source_text)[96];      /*!< each position as written, for messages (malloc'd) */
  char source_file[IONF_PATH_MAX]; /*!< "" or the grid source file the sources came from */
};

/** Load and validate a particle-run config (file or built-in, then "a.b=V" overrides). */
IONF_NODISCARD ionf_err sph_config_load(const char *path, const char *builtin_name,
                                        char *const *overrides, int n_overrides,
                                        struct sph_config *cfg);

/** Build from a parsed tree; `name` names the config in messages and anchors relative paths. */
IONF_NODISCARD ionf_err sph_config_from_params(const struct param_node *root, const char *name,
                                               struct sph_config *cfg);
/** As sph_config_from_params, relative paths taken from folder `dir` ("": the working
    directory). */
IONF_NODISCARD ionf_err sph_config_from_params_in(const struct param_node *root,
                                                  const char *name, const char *dir,
                                                  struct sph_config *cfg);
/** A particle run's config from a config's text read once (config_file.h) and the
    overrides. */
IONF_NODISCARD ionf_err sph_config_load_file(const struct config_file *f,
                                             char *const *overrides, int n_overrides,
                                             struct sph_config *cfg);

void sph_config_free(struct sph_config *cfg);

#endif /* IONF_SPH_CONFIG_H */

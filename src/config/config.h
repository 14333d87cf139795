/**
 * @file config.h
 * @brief The typed, validated run configuration, built from a YAML tree.
 *
 * Sections and keys (bare numbers are in the unit shown; strings with a unit,
 * "6.6 kpc", "500 Myr", are accepted for lengths and times):
 *
 *   grid:       N [cells, 1..4096], box_size [Mpc; > 0], periodic [bool],
 *               decomposition auto|replicated|slabs [auto: slabs when the replicated
 *               grid does not fit a rank and a slab's halo (R_max) leaves room]
 *   material:   n_H [cm^-3; >= 0, finite] or {file: PATH, dataset: NAME},
 *               temperature [K; > 0], x_HII_initial [0 < x <= 1],
 *               isothermal [bool, true: T fixed; false: photo-heating and cooling],
 *               clumps [optional list of {center: [x, y, z] (lengths from the box
 *               corner, like box_size; inside the box), radius [length > 0],
 *               n_H [cm^-3; >= 0], temperature [K > 0; default material.temperature]}:
 *               cells whose centres lie inside get that n_H and initial T, later
 *               clumps winning; each must cover at least one cell centre]
 *   chemistry:  alpha_B [cm^3 s^-1 at 1e4 K; default 2.59e-13],
 *               alpha_B_power [default -0.7], collisional_ionization [bool, true],
 *               abu_c [electron floor from carbon, default 7.1e-7],
 *               clumping [optional, absent: none (C = 1); the sub-grid clumping factor C that
 *                 multiplies every recombination (hydrogen's, and helium's), not collisional
 *                 ionization or cooling (C2-Ray's practice); chem/clumping.h]:
 *                 a number >= 1, or {model: constant, value: C >= 1}, or
 *                 {model: redshift, C0 [>= 0], c1, c2: C(z) = C0 exp(c1 z + c2 z^2) + 1
 *                 (Bianco et al. 2021); without them the built-in fit of fits_cell_size
 *                 [comoving length, one of 1.012, 1.162, 1.518, 2.024, 2.094 Mpc; default the
 *                 nearest to grid.box_size / grid.N as given]}, or
 *                 {model: density, table [FILE: rows z a b c (more columns ignored), '#'
 *                 comments, pyC2Ray's par_density_*.txt] or fits_cell_size [as above]:
 *                 C = max(1, a x^2 + b x + c) per cell, a, b, c linear in z between rows (the
 *                 end rows beyond), x n/mean [x = n_H / <n_H> over the whole grid: the fits'
 *                 1 + delta] or 1+n/mean [pyC2Ray's sinks_model.py]};
 *                 redshift and density models take the step's redshift in cosmological runs,
 *                 else z [>= 0; default cosmology.z_initial], fixed
 *   sources:    a list of {position: [i, j, k] (0-based cell indices), Ndot [s^-1 > 0]}
 *               and/or plane-parallel sources {plane: x_low|x_high|y_low|y_high|z_low|z_high,
 *               flux [photons s^-1 cm^-2 > 0]} (a uniform flux entering through that face,
 *               travelling normal to it; non-periodic boxes only; R_max does not limit
 *               them), or {file: PATH, format: auto|hdf5|text}
 *   spectrum:   type grey|blackbody, T_eff [K; blackbody], sigma_0 [cm^2; 6.30e-18],
 *               power_law_index [2.8], num_tau [table points, 20000],
 *               min_log_tau [-20], max_log_tau [4]
 *   time:       dt [Myr > 0], t_end [Myr > 0], outputs [list of times in Myr, each
 *               in (0, t_end]; default [t_end]]
 *   raytracing: R_max [cells or length; 0 = whole box; with mean_free_path: a cap],
 *               mean_free_path [optional, cosmological runs; rt/mfp.h: R_max of each step
 *                 from its redshift, comoving: {model: Choudhury09, A [length > 0; a bare
 *                 number is in Mpc], eta}: R = A ((1+z)/5)^eta, or {model: Worseck2014, A,
 *                 eta, z1 [6], eta1 [9]}: R = A ((1+z)/5)^eta (1 + ((1+z)/(1+z1))^eta1); the
 *                 halos and buffers are sized for the largest R over the run],
 *               convergence_fraction [1e-4],
 *               max_iterations [per step, 100], backend cpu|cuda|auto [auto],
 *               source_batch_size [GPU sources in flight; 0 = automatic],
 *               method asora|montecarlo [asora],
 *               transmission_cutoff [0 = off, else in (0, 1e-3]: ASORA adds no rate behind a
 *                 column that lets through at most this fraction of the source's photons,
 *                 thin-cell rate and heating, and the GPU ends a source's rays at its first
 *                 shell that opaque; hydrogen-only runs]
 *   montecarlo: (raytracing.method: montecarlo; src/mc.h) packets_per_source [1..2^32-1, 10^5],
 *               seed [0..2^32-1, 1], target_relative_error [0 = off, else in (0, 1):
 *               packets per source adapt each step], max_packets_per_source [10^8],
 *               recombination_emission [bool, false: case B on the spot; true: case A,
 *               ground-state photons re-emitted], recombination_packets [per pass, 0 =
 *               packets_per_source x sources], alpha_A [cm^3 s^-1 at 1e4 K, 4.18e-13]
 *   output:     directory [path, "out"], progress [bool, true],
 *               checkpoint_every [steps; 0 = only on SIGTERM/SIGUSR1],
 *               xdmf [bool, true: snapshot_NNNN.xmf for ParaView/VisIt],
 *               c2ray_binary [bool, false: also C2-Ray's xfrac3D/IonRates3D/Temper3D files],
 *               dTb [bool, false: /Grid/dTb, 21-cm brightness temperature; cosmological],
 *               overwrite [bool, false: a directory holding another run's files is refused;
 *               true: those files (only ionfront's) are removed first]
 *   mpi:        reduction auto|nccl|scatter|reduce|allreduce [auto]; with grid.decomposition
 *               slabs it says how halos move: auto|nccl over NCCL between GPUs, the others
 *               through the host with MPI (no NCCL communicator: its GPU memory saved)
 *   cosmology:  cosmological [bool, false], h [0.7], Omega_m [0.27], Omega_b [0.043],
 *               T_cmb [K, 2.725], z_initial [9]: when cosmological, box_size is comoving,
 *               n_H is the proper density at z_initial (diluted as (1+z)^3), time runs
 *               from the cosmic age at z_initial, and snapshots carry the redshift
 *   sequence:   inputs that change as a cosmological run advances (production runs;
 *               needs cosmology.cosmological: true):
 *               redshifts [list, strictly descending, >= 2 entries: the run goes from the
 *                 first to the last; cosmology.z_initial defaults to (and must equal) the
 *                 first; time.t_end is implied (cosmic time from the first to the last) and
 *                 may be left out, a given value must match it to 1e-6; each interval
 *                 [z_i, z_i+1] takes ceil(dt_i / time.dt) equal steps; a snapshot is written
 *                 at every redshift after the first (snapshot_0000 is the first), and
 *                 time.outputs, if given, adds snapshots at those times],
 *               density {format [hdf5|cubep3m|21cmfast, hdf5], pattern: printf pattern
 *                 with one number conversion for the redshift, e.g. "density_z%.3f.h5",
 *                 dataset [hdf5: the dataset of proper n_H, cm^-3], fine_mesh [cubep3m,
 *                 required], hydrogen_mass_fraction [cubep3m, 0.76]}: each redshift's
 *                 density made proper n_H (engine/sequence_read.h; docs/inputs.md), read at
 *                 the start of its interval and diluted from there; then material.n_H must
 *                 be left out,
 *               halos {format [ionfront|c2ray|pyc2ray_hdf5|21cmfast, ionfront], pattern,
 *                 f_gamma [> 0, model f_gamma], t_source [Myr > 0, constant accretion],
 *                 model [f_star, f_esc, N_ion, accretion: grid/halo_model.h],
 *                 f_gamma_low_mass [c2ray only, 0], position_unit [ionfront only: comoving
 *                 length of one position unit, '1 Mpc'; cells allowed], mass_unit |
 *                 nbody_mesh [c2ray only], cell_index_base [pyc2ray_hdf5 only, 0]}: each
 *                 interval's halo file read as masses by cell (io/io_halos.h,
 *                 io/io_21cmfast.h) and made sources by the model (by default Ndot =
 *                 f_gamma M Omega_b / (Omega_m m_p t_source)); then sources: must be left out.
 *               Patterns are relative to the config file.  The files of every redshift but the
 *               last (where the run ends) must exist; they are checked before the first step.
 *   synthetic:  (optional) make the run's input files when they do not exist yet:
 *               kind iliev4 [required: the Iliev et al. 2006 Test 4 stand-in, a log-normal
 *               Gaussian random field in material.n_H.file and its densest peaks as
 *               sources in sources.file], seed [integer 0..4294967295, 4],
 *               sigma_8 [0.8], n_s [1.0], redshift [of the density, 9; cosmological runs:
 *               z_initial], peaks [sources, 16], min_separation [cells between peaks, 4],
 *               f_gamma [photons per baryon, 250], t_source [Myr, 3]; the box is
 *               grid.box_size (comoving: times 1 + redshift unless cosmological) and
 *               h, Omega_m, Omega_b, T_cmb come from cosmology:; or
 *               kind eor [the density grids and halo catalogues sequence: names, one
 *               field grown with D(z), haloes from the extended Press-Schechter collapsed
 *               mass per cell], seed [1], sigma_8 [0.8], n_s [0.96], min_halo_mass
 *               [Msun, 1e8], min_source_mass [Msun, = min_halo_mass]
 *   debug:      (optional; the test suite's hooks, for exercising the stop/restart and
 *               failure paths: leave it out of real runs) signal_after_step [step >= 1:
 *               rank 0 raises SIGUSR1 after that step, as a stop signal from outside would
 *               (a checkpoint, exit code 13); -1 = off], fail_trace_rank [rank R's ray
 *               tracing fails with an injected error; -1 = off], fail_load_rank [rank R's
 *               reading of a later redshift's inputs fails (runs with sequence: only);
 *               -1 = off], fail_log_step [rank 0's writing of log.csv's row of that step
 *               fails; -1 = off].  Absent, it does not appear in the effective config.
 *
 * Unknown keys are errors with a "did you mean" suggestion.
 */
#ifndef IONF_CONFIG_H
#define IONF_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/params.h"
#include "core/path.h"
#include "chem/clumping.h"
#include "grid/clumps.h"
#include "grid/halo_model.h"       /* struct halo_model */
#include "io/io_halos.h"           /* enum halo_format */
#include "io/io_sources.h"         /* enum source_format */
#include "rt/mc/mc.h"              /* struct mc_config */
#include "rt/mfp.h"
#include "rt/photo_tables.h"       /* enum spectrum_type */
#include "rt/planar/planar_k.h"

enum backend_kind { BACKEND_AUTO, BACKEND_CPU, BACKEND_CUDA };
/** How point sources' photons are carried (raytracing.method). */
enum rt_method { RT_METHOD_ASORA, RT_METHOD_MONTECARLO };
/** How the ranks' rates are summed and where chemistry runs (mpi.reduction). */
enum reduction_mode {
  REDUCTION_AUTO,      /*!< GPU: nccl when NCCL loads, else allreduce; CPU: scatter */
  REDUCTION_NCCL,      /*!< all-reduce in GPU memory with NCCL, chemistry replicated */
  REDUCTION_SCATTER,   /*!< reduce-scatter by slabs, chemistry on each rank's slab, gather x */
  REDUCTION_REDUCE,    /*!< reduce to rank 0, chemistry there, broadcast x */
  REDUCTION_ALLREDUCE  /*!< all-reduce, chemistry replicated on every rank */
};

/** How the grid is split among ranks (grid.decomposition; grid/decomp.h). */
enum decomposition_mode {
  DECOMPOSITION_AUTO,       /*!< replicated when it fits each rank (or R_max covers the box) */
  DECOMPOSITION_REPLICATED, /*!< every rank holds the whole grid */
  DECOMPOSITION_SLABS       /*!< each rank a slab of i-planes plus a halo of ceil(R_max) */
};

/** A scalar field given as one value or read from an HDF5 dataset. */
struct field_input {
  int from_file;                /*!< 0: uniform `value`; 1: read file/dataset */
  double value;                 /*!< uniform value (unit of the field) */
  char file[IONF_PATH_MAX];     /*!< HDF5 file (absolute, or relative to the config file) */
  char dataset[256];            /*!< dataset path inside the file */
};

/** sequence.density.format: how each redshift's density file is laid out (docs/inputs.md). */
enum sequence_density_format {
  SEQUENCE_DENSITY_HDF5,     /*!< an HDF5 dataset of proper n_H [cm^-3] (the default) */
  SEQUENCE_DENSITY_CUBEP3M,  /*!< CubeP3M / C2-Ray binary (tools21cm's DensityFile) */
  SEQUENCE_DENSITY_21CMFAST  /*!< py21cmfast 4 PerturbedField file: overdensity delta */
};

/** The format's name in messages: "HDF5 n_H", "CubeP3M", "21cmFAST PerturbedField". */
const char *config_sequence_density_format_name(enum sequence_density_format f);
/** sequence.halos.format's value for a format (io_halos.h's enum halo_format): "ionfront",
    "c2ray", "pyc2ray_hdf5", "21cmfast". */
const char *config_sequence_halo_format_name(enum halo_format f);

/** sequence: the inputs of a production run, one set per redshift of a list. */
struct sequence_config {
  int n_redshifts;              /*!< 0: no sequence; else >= 2 */
  double *redshifts;            /*!< strictly descending (malloc'd) */
  double *times_s;              /*!< run time at each redshift: age(z_i) - age(z_0) [s] (malloc'd) */
  int64_t *steps;               /*!< steps of interval i = [z_i, z_i+1], n_redshifts - 1 (malloc'd) */
  char density_pattern[IONF_PATH_MAX]; /*!< printf pattern of the n_H files; "" = material.n_H */
  char density_dataset[256];     /*!< hdf5: the dataset of n_H */
  enum sequence_density_format density_format;
  int64_t density_fine_mesh;     /*!< cubep3m: CubeP3M's fine mesh, cells per side */
  double density_x_h;            /*!< cubep3m: hydrogen mass fraction of the baryons */
  char halo_pattern[IONF_PATH_MAX];    /*!< ... of the halo catalogues; "" = sources: stays */
  double halo_f_gamma;          /*!< photons per baryon over the source lifetime (Eq. 20);
                                     0 when model.f_star is not f_gamma */
  double halo_t_source_s;       /*!< source lifetime t_s [s]; 0 when model.accretion is
                                     exponential */
  double halo_position_unit_cm; /*!< comoving length of one position unit (ionfront layout) [cm] */
  enum halo_format halo_format; /*!< sequence.halos.format (io_halos.h) */
  struct halo_model halo_model; /*!< masses to photon rates: f_gamma, t_source, model:,
                                     f_gamma_low_mass (grid/halo_model.h) */
  double halo_mass_unit_msun;   /*!< c2ray: Msun per mass unit of the lists */
  int halo_cell_index_base;     /*!< pyc2ray_hdf5 source lists: 0 or 1 */
};

/**
 * The file of redshift z for a sequence's `pattern` (printf-style, exactly one
 * number conversion such as %.3f): "" when the pattern is not of that form
 * (config_sequence.c).
 */
void config_sequence_file_name(const char *pattern, double z, char *buf, size_t size);

/** synthetic: what the run makes before it reads its inputs (synth_inputs.h). */
enum synthetic_kind { SYNTHETIC_NONE, SYNTHETIC_ILIEV4, SYNTHETIC_EOR };
struct synthetic_config {
  enum synthetic_kind kind;     /*!< NONE: no synthetic: section */
  uint64_t seed;                /*!< random field seed */
  double sigma_8, n_s;          /*!< linear power spectrum */
  double redshift;              /*!< of the density field */
  int peaks;                    /*!< sources at the densest peaks */
  int min_separation_cells;     /*!< between peaks */
  double f_gamma;               /*!< photons per baryon */
  double t_source_s;            /*!< source lifetime in Ndot = f_γ M Ω_b / (Ω_m m_p t_s) [s] */
  double min_halo_mass_msun;    /*!< eor: smallest halo of the collapsed fraction [Msun] */
  double min_source_mass_msun;  /*!< eor: collapsed mass a cell needs to hold a halo [Msun] */
};

/** debug: test hooks (fault injection); -1: off (config_defaults). */
struct debug_config {
  int64_t signal_after_step;    /*!< rank 0 raises SIGUSR1 after this step (a stop from outside) */
  int fail_trace_rank;          /*!< this rank's ray tracing fails (an injected error) */
  int fail_load_rank;           /*!< this rank's reading of a later interval's inputs fails */
  int64_t fail_log_step;        /*!< rank 0's log.csv row of this step fails (-1: off) */
};

struct ionf_config {
  /* grid */
  int64_t n_cells_1d;           /*!< N: cells per side */
  double box_size_cm;           /*!< side of the (proper) box [cm] */
  int periodic;                 /*!< periodic boundaries for ray tracing */
  enum decomposition_mode decomposition; /*!< grid.decomposition */

  /* material */
  struct field_input n_h_cm3;   /*!< hydrogen number density [cm^-3] */
  double temperature_k;         /*!< initial temperature outside the clumps [K] */
  double x_hii_initial;         /*!< initial ionized fraction */
  int isothermal;               /*!< 1: T stays at its initial value (pyC2Ray); 0: evolves */
  int n_clumps;                 /*!< spherical clumps painted over n_H and the initial T */
  struct clump *clumps;         /*!< n_clumps clumps in list order (malloc'd) */

  /* chemistry */
  double alpha_b_1e4_cm3_s;     /*!< case-B recombination coefficient at 1e4 K [cm^3/s] */
  double alpha_b_power;         /*!< alpha_B(T) = alpha_B (T/1e4 K)^power */
  int collisional_ionization;   /*!< include collisional ionization */
  double abu_c;                 /*!< electron floor n_e = n_H (x + abu_c) */
  struct clumping_model clumping; /*!< chemistry.clumping (kind NONE when absent: C = 1) */

  /* sources: either inline (point and plane sources) or a file */
  int64_t n_sources_inline;     /*!< number of inline point sources (may be 0 with planes) */
  int32_t *source_ijk;          /*!< 3 * n_sources_inline cell indices (malloc'd) */
  double *source_ndot_per_s;    /*!< n_sources_inline photon rates [1/s] (malloc'd) */
  char source_file[IONF_PATH_MAX]; /*!< "" when inline */
  enum source_format source_format;
  int n_planes;                 /*!< plane-parallel sources (inline list only) */
  struct planar_source *planes; /*!< n_planes faces and fluxes (malloc'd) */

  /* spectrum */
  enum spectrum_type spectrum;
  double t_eff_k;               /*!< black-body temperature [K] */
  double spectrum_index;        /*!< powerlaw: L_nu ~ nu^-index */
  double spectrum_e_max_ev;     /*!< powerlaw, blackbody with helium: the spectrum's end [eV] */
  char spectrum_file[IONF_PATH_MAX]; /*!< table: the two-column text or HDF5 file */
  int band_sub_bins[3];         /*!< helium's band tables: sub-bins of the three bands */
  int band_whole;               /*!< spectrum.quadrature: whole_bands (1) or sub_bins (0) */
  int secondary_ionization;     /*!< X-ray photoelectrons ionize and heat (secondary_k.h) */
  double sigma0_cm2;            /*!< HI cross-section at threshold [cm^2] */
  double sigma_power_law_index; /*!< sigma(nu) = sigma0 (nu/nu0)^-index */
  int num_tau;                  /*!< rate-table points */
  double min_log_tau, max_log_tau;

  /* helium (the band tables and the H + He chemistry; absent keys: hydrogen alone) */
  double abundance_he;          /*!< material.abundance_He: n_He / n_H */
  double x_heii_initial;        /*!< material.x_HeII_initial */
  double x_heiii_initial;       /*!< material.x_HeIII_initial */
  int recombination_case_b;     /*!< chemistry.case: 1 B (default), 0 A (runs with helium) */

  /* time */
  double dt_s;                  /*!< time step [s] */
  double t_end_s;               /*!< end time [s] */
  int n_outputs;                /*!< number of output times */
  double *output_times_s;       /*!< sorted output times [s] (malloc'd) */

  /* ray tracing */
  double r_max_cells;           /*!< max photon distance [cells]; 0 = whole box; with
                                     mean_free_path: the largest of the run's steps (capped),
                                     which sizes the halos and buffers */
  struct mfp_model mean_free_path; /*!< raytracing.mean_free_path (kind NONE: R_max fixed) */
  double r_max_cap_cells;       /*!< with mean_free_path: raytracing.R_max as given (0: no cap) */
  double convergence_fraction;  /*!< relative change of sum(x) that ends the iteration */
  int max_iterations;           /*!< ray-tracing/chemistry iterations per step */
  enum backend_kind backend;
  int64_t source_batch_size;    /*!< GPU: sources in flight; 0 = chosen from SMs and memory */
  enum rt_method method;        /*!< ASORA short characteristics or Monte Carlo packets */
  double transmission_cutoff;   /*!< ASORA: no rate behind a column that lets this fraction
                                     through (photo_tables_cut); 0: off (C2-Ray's rays) */
  struct mc_config montecarlo;  /*!< method montecarlo only */

  /* output */
  char output_dir[IONF_PATH_MAX];
  int progress;                 /*!< print one line per step */
  int64_t checkpoint_every;     /*!< write DIR/checkpoint.h5 every this many steps (0: off) */
  int overwrite;                /*!< output.overwrite: remove an earlier run's files first */
  int write_xdmf;               /*!< XDMF + transposed copy per snapshot (VisIt, ParaView) */
  int write_vtkhdf;             /*!< a VTKHDF sidecar (links, no copy) per snapshot (ParaView) */
  int write_c2ray_binary;       /*!< also xfrac3D / IonRates3D / Temper3D files (tools21cm) */
  int write_dtb;                /*!< add /Grid/dTb, the 21-cm brightness temperature (cosmological) */

  /* MPI */
  enum reduction_mode reduction;

  /* cosmology (flat LCDM); when cosmological, grid.box_size is comoving (a = 1),
     material.n_H is the proper density at z_initial, diluted as (1+z)^3 */
  int cosmological;
  double hubble_h, omega_m, omega_b, t_cmb0_k;
  double z_initial;             /*!< redshift at t = 0 of the run */

  /* production runs: density and halo files along a list of redshifts */
  struct sequence_config sequence;
  /* synthetic inputs, made when missing (synthetic:) */
  struct synthetic_config synthetic;
  /* test hooks (debug:) */
  struct debug_config debug;

  /* provenance */
  char config_name[IONF_PATH_MAX]; /*!< file name or "built-in NAME" */
  char *effective_yaml;         /*!< the full effective config as YAML (malloc'd) */
};

/** Set every field to its documented default (no sources, no outputs). */
void config_defaults(struct ionf_config *cfg);

/**
 * Build and validate a config from a parsed tree.  `name` is the file name (or
 * "built-in NAME") used in messages and to resolve relative paths of input
 * files (relative to the config file's directory).
 */
IONF_NODISCARD ionf_err config_from_params(const struct param_node *root, const char *name,
                                           struct ionf_config *cfg);

/** As config_from_params, relative input paths taken from folder `dir` (with '/'; "": the
    working directory) instead of the folder of `name`. */
IONF_NODISCARD ionf_err config_from_params_in(const struct param_node *root, const char *name,
                                              const char *dir, struct ionf_config *cfg);

/**
 * Load a config: from `path`, or when `path` is NULL from the built-in problem
 * `builtin_name`; then apply `n_overrides` "a.b=VALUE" strings; then validate.
 */
IONF_NODISCARD ionf_err config_load(const char *path, const char *builtin_name,
                                    char *const *overrides, int n_overrides,
                                    struct ionf_config *cfg);

/** As config_load, from YAML text; `name` names it in messages (paths relative to the
    working directory). */
IONF_NODISCARD ionf_err config_load_text(const char *text, const char *name,
                                         char *const *overrides, int n_overrides,
                                         struct ionf_config *cfg);

/** Free what config_* allocated. */
void config_free(struct ionf_config *cfg);

#endif /* IONF_CONFIG_H */

/**
 * @file problems.c
 * @brief Built-in problems as complete, commented YAML.
 *
 * "default" and "iliev1" are both Iliev et al. (2006) Test 1; one macro holds the
 * text so the reduced "default" cannot drift from the full "iliev1".
 */
#include "config/problems.h"

#include "config/problems_thermal.h"

#include <string.h>

/* HEADER: comment lines; N, DT, DIR: values padded to 20, 19, 12 characters so
 * the comments line up. */
/* Test 4's steps and outputs (iliev4 and iliev4_particles) */
#define PROBLEMS_ILIEV4_TIME \
  "time:\n" \
  "  dt: 0.01 Myr\n" \
  "  t_end: 0.4 Myr\n" \
  "  outputs: [0.05 Myr, 0.1 Myr, 0.2 Myr, 0.3 Myr, 0.4 Myr]\n"

/* C2-Ray's hydrogen chemistry, explained (the thermal Iliev tests) */
#define PROBLEMS_CHEMISTRY_HI \
  "chemistry:\n" \
  "  alpha_B: 2.59e-13      # case-B recombination coefficient at 1e4 K [cm^3 s^-1]\n" \
  "  alpha_B_power: -0.7    # alpha_B(T) = alpha_B (T / 1e4 K)^power\n" \
  "  collisional_ionization: true  # include collisional ionization of HI\n" \
  "  abu_c: 7.1e-7          # electron floor from carbon: n_e = n_H (x + abu_c)\n"

/* the black-body spectrum section, explained (iliev2 and the thermal plane problem) */
#define PROBLEMS_SPECTRUM_BLACKBODY \
  "spectrum:\n" \
  "  type: blackbody        # grey | blackbody\n" \
  "  T_eff: 1.0e5           # black-body temperature [K]\n" \
  "  sigma_0: 6.30e-18      # HI photoionization cross-section at threshold [cm^2]\n" \
  "  power_law_index: 2.8   # sigma(nu) = sigma_0 (nu / nu_0)^-index\n" \
  "  num_tau: 20000         # points of the rate tables\n" \
  "  min_log_tau: -20       # log10 of the smallest tabulated optical depth\n" \
  "  max_log_tau: 4         # log10 of the largest tabulated optical depth\n"

#define PROBLEMS_TEST1(HEADER, N, DT, DIR)                                                      \
  HEADER                                                                                       \
  "#\n"                                                                                        \
  "# Iliev et al. (2006, MNRAS 371, 1057), Test 1: the H II region of a single\n"              \
  "# steady source in a uniform, pure-hydrogen medium at a fixed T = 1e4 K.  The\n"            \
  "# source sits in the corner cell, so the box holds one octant of the sphere.\n"             \
  "#\n"                                                                                        \
  "# Analytic result: the I-front reaches r_I(t) = r_S (1 - exp(-t / t_rec))^(1/3) with\n"     \
  "#   Stroemgren radius   r_S   = (3 Ndot / (4 pi alpha_B n_H^2))^(1/3) = 5.39 kpc,\n"        \
  "#   recombination time  t_rec = 1 / (alpha_B n_H)                    = 122.4 Myr.\n"       \
  "#\n"                                                                                        \
  "# Lengths accept cm, m, km, au, ly, pc, kpc, Mpc, Gpc; times s, yr, kyr, Myr, Gyr.\n"       \
  "# Any key can be changed from the command line: --set time.dt=2Myr\n"                      \
  "\n"                                                                                         \
  "grid:\n"                                                                                    \
  "  N: " N "# cells per side (integer, 1..4096)\n"                              \
  "  box_size: 6.6 kpc      # side of the box (a bare number is in Mpc)\n"                     \
  "  periodic: false        # periodic boundaries for the ray tracing\n"                       \
  "\n"                                                                                         \
  "material:\n"                                                                                \
  "  n_H: 1.0e-3            # hydrogen number density [cm^-3]; or {file: PATH, dataset: NAME}\n" \
  "  temperature: 1.0e4     # initial (and here fixed) gas temperature [K]\n"                  \
  "  x_HII_initial: 1.2e-3  # initial ionized hydrogen fraction (0 < x <= 1)\n"                \
  "  isothermal: true       # true: T stays fixed (Test 1); false: photo-heating and cooling\n"  \
  "\n"                                                                                         \
  "chemistry:\n"                                                                               \
  "  alpha_B: 2.59e-13      # case-B recombination coefficient at 1e4 K [cm^3 s^-1]\n"         \
  "  alpha_B_power: -0.7    # temperature scaling: alpha_B(T) = alpha_B (T / 1e4 K)^power\n"   \
  "  collisional_ionization: true  # include collisional ionization of hydrogen\n"             \
  "  abu_c: 7.1e-7          # electron floor from carbon: n_e = n_H (x_HII + abu_c)\n"         \
  "  # clumping: 5.0        # sub-grid clumping factor C times every recombination (absent: 1);\n" \
  "  #                      # or {model: redshift} (C(z), Bianco et al. 2021) | {model: density}\n" \
  "\n"                                                                                         \
  "# A list of point sources, or {file: PATH, format: auto|hdf5|text} to read them.\n"        \
  "sources:\n"                                                                                 \
  "  - position: [0, 0, 0]  # 0-based cell indices [i, j, k], each in 0..N-1\n"                \
  "    Ndot: 5.0e48         # ionizing photon rate [s^-1]\n"                                   \
  "\n"                                                                                         \
  "spectrum:\n"                                                                                \
  "  type: grey             # grey (one frequency) | blackbody (needs T_eff)\n"                \
  "  # T_eff: 1.0e5         # black-body temperature [K], only for type: blackbody\n"         \
  "  sigma_0: 6.30e-18      # HI photoionization cross-section at threshold [cm^2]\n"          \
  "  power_law_index: 2.8   # cross-section shape: sigma(nu) = sigma_0 (nu / nu_0)^-index\n"   \
  "  num_tau: 20000         # points of the photoionization-rate table (100..1000000)\n"       \
  "  min_log_tau: -20       # log10 of the smallest tabulated optical depth\n"                 \
  "  max_log_tau: 4         # log10 of the largest tabulated optical depth\n"                  \
  "\n"                                                                                         \
  "time:\n"                                                                                    \
  "  dt: " DT "# time step (a bare number is in Myr)\n"                           \
  "  t_end: 500 Myr         # end of the run (a bare number is in Myr)\n"                      \
  "  outputs: [10 Myr, 30 Myr, 100 Myr, 200 Myr, 500 Myr]  # snapshot times, in (0, t_end]\n"  \
  "\n"                                                                                         \
  "raytracing:\n"                                                                              \
  "  R_max: 0               # photon travel limit: cells, or a length like 3 kpc; 0 = whole box\n" \
  "  convergence_fraction: 1.0e-4  # iterate a step until sum(x_HII) changes by less than this\n" \
  "  max_iterations: 100    # ray-tracing/chemistry iterations per step (1..10000)\n"          \
  "  backend: auto          # cpu | cuda | auto (cuda when a GPU is found)\n"                  \
  "  source_batch_size: 0  # GPU: sources traced at once; 0 = from the SM count and free memory\n" \
  "  # transmission_cutoff: 0  # e.g. 1e-12: no rate behind a column that lets through at most\n" \
  "  #                      # this fraction of the photons; 0 = off (hydrogen-only runs)\n"   \
  "\n"                                                                                         \
  "output:\n"                                                                                  \
  "  directory: " DIR "# snapshots go here (relative to the working directory)\n"         \
  "  progress: true         # print one line per time step\n"                                 \
  "  checkpoint_every: 0    # also write DIR/checkpoint.h5 every this many steps (0: only on\n" \
  "                         # SIGTERM / SIGUSR1); continue with: ionfront run CONFIG --restart FILE\n" \
  "  vtkhdf: true           # snapshot_NNNN.vtk.hdf: the snapshot in ParaView (links, no copy)\n" \
  "  xdmf: false            # snapshot_NNNN.xmf (+ _xdmf.h5, a transposed copy) for VisIt, ParaView\n" \
  "  c2ray_binary: false    # also C2-Ray's xfrac3D_*.bin / IonRates3D_*.bin / Temper3D_*.bin\n" \
  "  dTb: false             # also /Grid/dTb, the 21-cm brightness temperature (cosmological runs)\n" \
  "\n"                                                                                         \
  "mpi:\n"                                                                                     \
  "  reduction: auto        # how ranks sum Gamma: nccl (in GPU memory) | scatter (by slabs,\n"  \
  "                         # chemistry on each rank's slab) | reduce (to rank 0, chemistry\n" \
  "                         # there) | allreduce | auto (GPUs: nccl if NCCL loads, else\n"    \
  "                         # allreduce; CPUs: scatter)\n"

static const char problems_iliev1[] = PROBLEMS_TEST1(
    "# iliev1: Iliev et al. (2006) Test 1 at the paper's resolution, 128^3 cells.\n", "128                ",
    "5 Myr              ", "out/iliev1  ");

static const char problems_default[] = PROBLEMS_TEST1(
    "# default: the problem 'ionfront run' runs without a config.  It is iliev1 at a\n"
    "# reduced resolution (64^3 cells, dt = 10 Myr) for a quick first run; see\n"
    "# 'iliev1' for the paper's set-up.\n",
    "64                 ", "10 Myr             ", "out/default ");

static const char problems_iliev2[] =
    "# iliev2: Iliev et al. (2006, MNRAS 371, 1057), Test 2: the H II region of a\n"
    "# single black-body source (T_eff = 1e5 K, 5e48 photons/s) in a uniform\n"
    "# hydrogen medium that starts cold (100 K) and heats up: photo-heating against\n"
    "# recombination, collisional and free-free cooling.  The front is slower and\n"
    "# wider than in Test 1; the ionized gas settles near 1-2e4 K.  The source sits\n"
    "# in the corner cell.  Published results of the comparison codes: I-front\n"
    "# 2.11, 3.06, 4.40, 5.12, 5.53 kpc (median) at 10, 30, 100, 200, 500 Myr.\n"
    "\n"
    "grid:\n"
    "  N: 128                 # cells per side (integer, 1..4096)\n"
    "  box_size: 6.6 kpc      # side of the box (a bare number is in Mpc)\n"
    "  periodic: false        # periodic boundaries for the ray tracing\n"
    "\n"
    "material:\n"
    "  n_H: 1.0e-3            # hydrogen number density [cm^-3]\n"
    "  temperature: 100       # initial gas temperature [K]\n"
    "  x_HII_initial: 1.2e-3  # initial ionized hydrogen fraction (0 < x <= 1)\n"
    "  isothermal: false      # the temperature evolves: photo-heating and cooling\n"
    "\n"
    PROBLEMS_CHEMISTRY_HI
    "\n"
    "sources:\n"
    "  - {position: [0, 0, 0], Ndot: 5.0e48}  # 0-based cell indices; photons per second\n"
    "\n"
    PROBLEMS_SPECTRUM_BLACKBODY
    "\n"
    "time:\n"
    "  dt: 5 Myr              # time step (a bare number is in Myr)\n"
    "  t_end: 500 Myr         # end of the run\n"
    "  outputs: [10 Myr, 30 Myr, 100 Myr, 200 Myr, 500 Myr]  # snapshot times\n"
    "\n"
    "raytracing:\n"
    "  R_max: 0               # photon travel limit (cells or a length); 0 = whole box\n"
    "  convergence_fraction: 1.0e-4  # iterate a step until sums of x and T settle\n"
    "  max_iterations: 100    # ray-tracing/chemistry iterations per step\n"
    "  backend: auto          # cpu | cuda | auto\n"
    "\n"
    "output:\n"
    "  directory: out/iliev2  # snapshots go here\n"
    "  progress: true         # print one line per time step\n";

static const char problems_expanding[] =
    "# expanding: a Stroemgren sphere in an expanding universe (pyC2Ray's Test 2,\n"
    "# Mellema et al. 2006 Test 4).  A 1e54 photons/s source switches on at z = 9\n"
    "# in gas of n_H = 1.87e-4 cm^-3 (proper, at z = 9) that dilutes as (1+z)^3;\n"
    "# the front first grows, then recombinations weaken as the gas thins.\n"
    "# Analytic solution: Shapiro & Giroux (1987), comoving radius (a = 1 at\n"
    "# switch-on) r_I = r_S,i y(t)^(1/3), r_S,i = 0.96 Mpc.  The box is 7e24 cm\n"
    "# (proper) at z = 9, i.e. 22.685 comoving Mpc.\n"
    "\n"
    "grid:\n"
    "  N: 128                 # cells per side\n"
    "  box_size: 22.685 Mpc   # comoving side (cosmological runs)\n"
    "  periodic: false\n"
    "\n"
    "material:\n"
    "  n_H: 1.87e-4           # proper hydrogen density at z_initial [cm^-3]\n"
    "  temperature: 1.0e4     # [K]\n"
    "  x_HII_initial: 1.2e-3\n"
    "  isothermal: true\n"
    "\n"
    "sources:\n"
    "  - {position: [64, 64, 64], Ndot: 1.0e54}\n"
    "\n"
    "spectrum:\n"
    "  type: grey\n"
    "\n"
    "time:\n"
    "  dt: 5 Myr\n"
    "  t_end: 500 Myr\n"
    "  outputs: [50 Myr, 100 Myr, 200 Myr, 300 Myr, 500 Myr]\n"
    "\n"
    "cosmology:\n"
    "  cosmological: true     # expanding background, comoving box\n"
    "  h: 0.7\n"
    "  Omega_m: 0.27\n"
    "  Omega_b: 0.043\n"
    "  T_cmb: 2.725           # CMB temperature today [K]\n"
    "  z_initial: 9           # redshift when the run starts\n"
    "\n"
    "output:\n"
    "  directory: out/expanding\n"
    "  dTb: true              # the 21-cm brightness temperature in every snapshot\n";

static const char problems_dice[] =
    "# dice: overlapping H II regions (pyC2Ray's Test 3): five black-body sources\n"
    "# of 5e48 photons/s each, in a dice pattern on one plane of a 14 kpc box of\n"
    "# uniform hydrogen at a fixed 1e4 K, 10 Myr.  The fronts meet and merge.\n"
    "# pyC2Ray ran the grey case and T_eff = 5e3, 5e4, 1e5 K: harder spectra give\n"
    "# softer, wider fronts (--set spectrum.T_eff=1e5).\n"
    "\n"
    "grid:\n"
    "  N: 128\n"
    "  box_size: 14 kpc\n"
    "  periodic: false\n"
    "\n"
    "material:\n"
    "  n_H: 1.0e-3\n"
    "  temperature: 1.0e4\n"
    "  x_HII_initial: 1.2e-3\n"
    "  isothermal: true\n"
    "\n"
    "sources:                 # 0-based cells; the plane k = 63\n"
    "  - {position: [63, 63, 63], Ndot: 5.0e48}\n"
    "  - {position: [31, 95, 63], Ndot: 5.0e48}\n"
    "  - {position: [31, 31, 63], Ndot: 5.0e48}\n"
    "  - {position: [95, 31, 63], Ndot: 5.0e48}\n"
    "  - {position: [95, 95, 63], Ndot: 5.0e48}\n"
    "\n"
    "spectrum:\n"
    "  type: blackbody\n"
    "  T_eff: 5.0e4\n"
    "  num_tau: 10000\n"
    "\n"
    "time:\n"
    "  dt: 1 Myr\n"
    "  t_end: 10 Myr\n"
    "  outputs: [1 Myr, 5 Myr, 10 Myr]\n"
    "\n"
    "output:\n"
    "  directory: out/dice\n";

static const char problems_helium[] =
    "# helium: Stroemgren spheres of hydrogen and helium around a hard source.  One\n"
    "# black body of 1e5 K (1e52 photons/s above 13.6 eV) at the centre of an 8 kpc\n"
    "# box of uniform H + He gas (n_H = 0.1 cm^-3, n_He/n_H = 0.08) at a fixed 1e4 K,\n"
    "# case B, to 10 Myr (about nine recombination times of H II): the He III sphere,\n"
    "# fed by the photons above 54.4 eV, sits inside the H II / He II sphere; both\n"
    "# against their Stroemgren radii (validation/helium.py).  Dense enough that both\n"
    "# spheres are many mean free paths thick, so that their fronts are sharp.\n"
    "\n"
    "grid:\n"
    "  N: 64\n"
    "  box_size: 8 kpc\n"
    "  periodic: false\n"
    "\n"
    "material:\n"
    "  n_H: 0.1\n"
    "  abundance_He: 0.08      # n_He / n_H\n"
    "  temperature: 1.0e4\n"
    "  x_HII_initial: 1.2e-3\n"
    "  isothermal: true\n"
    "\n"
    "chemistry:\n"
    "  case: B                 # helium's ground-state recombination photons on the spot\n"
    "\n"
    "sources:                  # the box centre, by length: the same place at any N\n"
    "  - {position: [4 kpc, 4 kpc, 4 kpc], Ndot: 1.0e52}\n"
    "\n"
    "spectrum:\n"
    "  type: blackbody\n"
    "  T_eff: 1.0e5\n"
    "  E_max: 544.16           # eV: 10 times the He II threshold\n"
    "  sub_bins: [1, 26, 20]   # C2-Ray's helium bands: HI-HeI, HeI-HeII, above HeII\n"
    "\n"
    "time:\n"
    "  dt: 0.5 Myr\n"
    "  t_end: 10 Myr\n"
    "  outputs: [2 Myr, 5 Myr, 10 Myr]\n"
    "\n"
    "output:\n"
    "  directory: out/helium\n";

static const char problems_iliev3[] =
    "# iliev3: Iliev et al. (2006, MNRAS 371, 1057), Test 3: I-front trapping in a\n"
    "# dense clump.  A plane-parallel flux of 1e6 photons s^-1 cm^-2 (black body,\n"
    "# T_eff = 1e5 K) enters through the x = 0 face of a 6.6 kpc box of thin hot gas\n"
    "# (n_H = 2e-4 cm^-3, 8000 K) holding a cold dense clump (n_H = 0.04 cm^-3, 40 K,\n"
    "# radius 0.8 kpc, centred at (5, 3.3, 3.3) kpc).  The front crosses the thin gas\n"
    "# in about 0.1 Myr, then slows in the clump, where recombinations balance the\n"
    "# flux: it is trapped, reaching about the clump's centre by 15 Myr, and the\n"
    "# clump casts a neutral shadow behind it.  The temperature evolves.\n"
    "# (The paper's text says the flux enters at y = 0; its figures and the published\n"
    "# data have x = 0.)\n"
    "\n"
    "grid:\n"
    "  N: 128                 # cells per side (integer, 1..4096)\n"
    "  box_size: 6.6 kpc      # side of the box (a bare number is in Mpc)\n"
    "  periodic: false        # plane-parallel sources need a non-periodic box\n"
    "\n"
    "material:\n"
    "  n_H: 2.0e-4            # hydrogen number density outside the clump [cm^-3]\n"
    "  temperature: 8000      # initial gas temperature outside the clump [K]\n"
    "  x_HII_initial: 1.2e-3  # initial ionized hydrogen fraction, everywhere (0 < x <= 1)\n"
    "  isothermal: false      # the temperature evolves: photo-heating and cooling\n"
    "  clumps:                # cells whose centres lie inside get the clump's n_H and T\n"
    "    - center: [5 kpc, 3.3 kpc, 3.3 kpc]  # from the box corner (bare numbers in Mpc)\n"
    "      radius: 0.8 kpc\n"
    "      n_H: 0.04          # 200 times the surrounding density [cm^-3]\n"
    "      temperature: 40    # initial temperature inside [K] (default: material.temperature)\n"
    "\n"
    PROBLEMS_CHEMISTRY_HI
    "\n"
    "# Point sources {position, Ndot} and plane-parallel sources {plane, flux} may be mixed.\n"
    "sources:\n"
    "  - plane: x_low         # the face the photons enter through: x_low | x_high | y_low |\n"
    "                         # y_high | z_low | z_high; they travel normal to it\n"
    "    flux: 1.0e6          # photons s^-1 cm^-2 through that face (here 4.1e50 s^-1 in all)\n"
    "\n"
    PROBLEMS_SPECTRUM_BLACKBODY
    "\n"
    "time:\n"
    "  dt: 0.025 Myr          # time step: the thin gas ionizes in the first 0.1 Myr, and\n"
    "                         # its temperature is set then (see docs/validation.md)\n"
    "  t_end: 15 Myr          # end of the run\n"
    "  outputs: [1 Myr, 2 Myr, 3 Myr, 5 Myr, 15 Myr]  # the paper's snapshot times\n"
    "\n"
    "raytracing:\n"
    "  R_max: 0               # limits point sources only (cells or a length); 0 = whole box\n"
    "  convergence_fraction: 1.0e-4  # iterate a step until sums of x and T settle\n"
    "  max_iterations: 100    # ray-tracing/chemistry iterations per step\n"
    "  backend: auto          # cpu | cuda | auto\n"
    "\n"
    "output:\n"
    "  directory: out/iliev3  # snapshots go here\n"
    "  progress: true         # print one line per time step\n";
static const char problems_iliev4[] =
    "# iliev4: Iliev et al. (2006, MNRAS 371, 1057), Test 4: 16 sources in a\n"
    "# cosmological density field at z = 9, for 0.4 Myr.\n"
    "#\n"
    "# THE DENSITY IS A STAND-IN, NOT THE PAPER'S FIELD.  The paper's 128^3 cube from a\n"
    "# cosmological simulation is not available.  Before the run starts, ionfront makes\n"
    "# the two input files named below when they do not exist yet (synthetic: section):\n"
    "# a log-normal Gaussian random field with the linear LCDM power spectrum\n"
    "# (Eisenstein & Hu, sigma_8 = 0.8) grown to z = 9, at the mean hydrogen density\n"
    "# of the universe (proper, X = 0.76), and the 16 densest peaks (at least 4 cells\n"
    "# apart) as sources with the paper's rates Ndot = f_gamma M Omega_b / (Omega_m m_p\n"
    "# t_s), f_gamma = 250, t_s = 3 Myr, M the matter mass of the 3^3 cells around\n"
    "# the peak.  The box, redshift, source recipe and physics are the paper's; fronts\n"
    "# and temperatures cannot be compared cell by cell with the published codes, their\n"
    "# statistics (histograms of x_HI, x_HII and T; ionized fraction against time) can\n"
    "# be compared in kind (validation/iliev4.py).  Static: no expansion in 0.4 Myr.\n"
    "# The files go next to this config (iliev4_ic/); 'ionfront generate iliev4' makes\n"
    "# them too.\n"
    "\n"
    "grid:\n"
    "  N: 128                 # cells per side\n"
    "  box_size: 71.4285714 kpc  # 0.5/h comoving Mpc at z = 9, proper (h = 0.7)\n"
    "  periodic: false\n"
    "\n"
    "material:\n"
    "  n_H: {file: iliev4_ic/density.h5, dataset: n_H}  # proper n_H [cm^-3] at z = 9\n"
    "  temperature: 100       # initial gas temperature [K]\n"
    "  x_HII_initial: 1.2e-3  # initial ionized fraction\n"
    "  isothermal: false      # photo-heating and cooling\n"
    "\n"
    "sources: {file: iliev4_ic/sources.txt}  # C2-Ray text: 1-based cells, Ndot [1/s]\n"
    "\n"
    "spectrum:\n"
    "  type: blackbody\n"
    "  T_eff: 1.0e5           # black-body temperature [K] (the paper's 'soft' run: 3e4)\n"
    "\n"
    PROBLEMS_ILIEV4_TIME
    "\n"
    "cosmology:                # the field's cosmology; the run itself is static\n"
    "  cosmological: false\n"
    "  h: 0.7\n"
    "  Omega_m: 0.27\n"
    "  Omega_b: 0.043\n"
    "\n"
    "synthetic:                # make the input files above when they are missing\n"
    "  kind: iliev4            # the Test 4 stand-in: density field and peak sources\n"
    "  seed: 4                 # random field seed (integer)\n"
    "  sigma_8: 0.8            # rms linear overdensity in 8 Mpc/h spheres today\n"
    "  n_s: 1.0                # primordial spectral index\n"
    "  redshift: 9             # of the density field\n"
    "  peaks: 16               # sources at the densest peaks\n"
    "  min_separation: 4       # cells between two peaks, at least\n"
    "  f_gamma: 250            # ionizing photons per baryon of a source\n"
    "  t_source: 3 Myr         # source lifetime in Ndot\n"
    "\n"
    "output:\n"
    "  directory: out/iliev4\n";

/* Test 4 on particles: iliev4's stand-in density, one particle per cell. */
static const char problems_iliev4_particles[] =
    "# ionfront: Iliev et al. (2006) Test 4 on SPH particles (reduced size: 32^3 particles;\n"
    "# the paper's 128^3 = 2.1e6 particles with count_1d: 128 and a 128^3 density file,\n"
    "# a GPU run).\n"
    "#\n"
    "# The stand-in density of 'ionfront example iliev4' (a log-normal random field at\n"
    "# z = 9, NOT the paper's field) carried by particles: one per cell at the cell centre\n"
    "# plus a small jitter, mass = n_H m_p V_cell / X_H (unequal masses), smoothing lengths\n"
    "# from the neighbour count and densities from the kernel sum (so n_H is the field\n"
    "# smoothed over ~48 particles).  The 16 sources are the grid run's: each at its cell's\n"
    "# centre with its rate.  Make the two files first, in the folder of this config:\n"
    "#   ionfront generate iliev4 --N 32 --out iliev4_ic32\n"
    "# (the same files the grid run 'ionfront example iliev4 --set grid.N=32' reads with\n"
    "# material.n_H.file and sources.file pointed there).  validation/sph_iliev4.py runs both.\n"
    "\n"
    "particles:\n"
    "  generate:\n"
    "    kind: density_file     # one particle per cell of an n_H grid\n"
    "    file: iliev4_ic32/density.h5  # proper n_H [cm^-3] at z = 9 (ionfront generate iliev4)\n"
    "    dataset: n_H\n"
    "    count_1d: 32           # the file's cells per side (count_1d^3 particles)\n"
    "    box: 71.4285714 kpc    # 0.5/h comoving Mpc at z = 9, proper (h = 0.7)\n"
    "    jitter: 0.1            # random shift of each particle, in cell sizes\n"
    "    neighbours: 48         # particles inside each kernel sphere\n"
    "    seed: 1\n"
    "    periodic: true         # the field is periodic: h and densities wrap\n"
    "  hydrogen_mass_fraction: 0.76  # X_H of the field (n_H = X_H rho / m_p)\n"
    "  rays_per_source: 0       # HEALPix rays, 12 nside^2 (nside a power of 2); 0 = automatic\n"
    "  output_grid: 0           # N > 0: also x_HII and T deposited on an N^3 grid (/Grid)\n"
    "  wrap_rays: false         # rays end at the faces, as in the grid run (true: they wrap\n"
    "                           # across a periodic box; raytracing.R_max must then be a length)\n"
    "  ranks_share: rays        # several ranks: each traces a share of every source's rays\n"
    "                           # (sources: each traces a block of the sources)\n"
    "\n"
    "material:\n"
    "  temperature: 100         # initial gas temperature [K]\n"
    "  x_HII_initial: 1.2e-3    # initial ionized hydrogen fraction\n"
    "  isothermal: false        # photo-heating and cooling\n"
    "\n"
    "sources: {file: iliev4_ic32/sources.txt}  # the grid's source cells (C2-Ray text, 1-based)\n"
    "\n"
    "spectrum:\n"
    "  type: blackbody\n"
    "  T_eff: 1.0e5\n"
    "\n"
    PROBLEMS_ILIEV4_TIME
    "\n"
    "raytracing:\n"
    "  R_max: 0                 # a length like '3 kpc', or 0: rays cross the whole set\n"
    "  backend: auto            # cpu | cuda | auto\n"
    "\n"
    "output:\n"
    "  directory: out/iliev4_particles\n"
    "  progress: true\n"
    "  checkpoint_every: 0     # also DIR/checkpoint.h5 every this many steps (0: only on\n"
    "                          # SIGTERM / SIGUSR1); continue: ionfront run CONFIG --restart FILE\n";

/* eor and eor_helium: the box */
#define PROBLEMS_EOR_GRID \
  "grid:\n"                                      \
  "  N: 128                 # cells per side\n"  \
  "  box_size: 100 Mpc      # comoving side\n"   \
  "  periodic: true\n"                           \
  "\n"
/* eor and eor_helium: the redshifts, the input files and the haloes' photons */
#define PROBLEMS_EOR_SEQUENCE \
  "sequence:                # one density grid and halo catalogue per redshift\n"               \
  "  redshifts: [20.000, 17.097, 15.026, 13.461, 12.229, 11.229, 10.399, 9.697, 9.094,\n"       \
  "              8.569, 8.107, 7.697, 7.330, 7.000]\n"                                          \
  "  density: {pattern: \"eor_inputs/density_z%.3f.h5\", dataset: n_H}  # proper [cm^-3]\n"     \
  "  halos:\n"                                                                                  \
  "    pattern: \"eor_inputs/halos_z%.3f.h5\"  # /halos/position [cMpc], /halos/mass [Msun]\n"  \
  "    f_gamma: 1.5                        # ionizing photons per baryon over t_source\n"       \
  "    t_source: 10 Myr\n"                                                                      \
  "\n"
/* eor and eor_helium: steps, photon travel, cosmology and the synthetic inputs (the same
 * files: a run of either reuses the other's) */
#define PROBLEMS_EOR_TIME_COSMOLOGY \
  "time:\n"                                                                                \
  "  dt: 10 Myr             # each interval takes ceil(interval / dt) equal steps\n"       \
  "\n"                                                                                     \
  "raytracing:\n"                                                                          \
  "  R_max: 10 Mpc          # photons travel at most this far (comoving)\n"                \
  "  # mean_free_path: {model: Worseck2014, A: 210 Mpc, eta: -9}  # R_max from each step's\n" \
  "  #                      # redshift instead (comoving; a given R_max then caps it)\n"   \
  "\n"                                                                                     \
  "cosmology:\n"                                                                           \
  "  cosmological: true     # z_initial is the first redshift of the sequence\n"           \
  "  h: 0.7\n"                                                                             \
  "  Omega_m: 0.27\n"                                                                      \
  "  Omega_b: 0.043\n"                                                                     \
  "\n"                                                                                     \
  "synthetic:               # make the files of sequence: when they are missing\n"         \
  "  kind: eor\n"                                                                          \
  "  seed: 1                # random field seed (integer)\n"                               \
  "  sigma_8: 0.8\n"                                                                       \
  "  n_s: 0.96\n"                                                                          \
  "  min_halo_mass: 1e8     # smallest halo of the collapsed fraction [Msun]\n"            \
  "  min_source_mass: 1e9   # a cell holds a halo when its collapsed mass reaches this\n"  \
  "\n"

static const char problems_eor[] =
    "# eor: a small reionization run.  A 100 comoving Mpc box, 128^3 cells, from\n"
    "# z = 20 to z = 7 along 14 redshifts (equally spaced in cosmic time), each with\n"
    "# its own density grid and halo catalogue, read as the run advances (sequence:),\n"
    "# the way production runs read N-body outputs.  The haloes shine with pyC2Ray's\n"
    "# Ndot = f_gamma M Omega_b / (Omega_m m_p t_s); the density between two redshifts\n"
    "# is diluted as (1+z)^3; a snapshot with the 21-cm brightness temperature is\n"
    "# written at every redshift.\n"
    "#\n"
    "# THE INPUTS ARE SYNTHETIC.  Before the run starts, ionfront makes the files\n"
    "# named below when they do not exist yet (synthetic: section): one Gaussian\n"
    "# random field with the linear LCDM spectrum grown with D(z), log-normal, as the\n"
    "# density; in each cell the extended Press-Schechter collapsed mass in haloes\n"
    "# above 1e8 Msun, a halo where it reaches 1e9 Msun.  Delete the synthetic:\n"
    "# section and point sequence: at your own files for a real run.  The files go\n"
    "# next to this config (eor_inputs/, about 460 MB at 128^3); 'ionfront generate\n"
    "# eor' makes them too.  At 128^3 the run traces up to ~6e5 sources per step: a\n"
    "# GPU run (minutes); on CPUs try --set grid.N=32.\n"
    "\n"
    PROBLEMS_EOR_GRID
    "material:                # n_H comes from sequence.density\n"
    "  temperature: 1.0e4     # [K], fixed (pyC2Ray's isothermal runs)\n"
    "  x_HII_initial: 2.0e-4  # relic ionized fraction at z = 20\n"
    "  isothermal: true\n"
    "\n"
    "chemistry:\n"
    "  collisional_ionization: false  # the neutral IGM is cold, not at the 1e4 K that the\n"
    "                         # isothermal model gives the ionized gas: collisions at 1e4 K\n"
    "                         # would slowly ionize the whole box without photons\n"
    "\n"
    PROBLEMS_EOR_SEQUENCE
    "spectrum:\n"
    "  type: blackbody\n"
    "  T_eff: 5.0e4           # [K]\n"
    "\n"
    PROBLEMS_EOR_TIME_COSMOLOGY
    "output:\n"
    "  directory: out/eor\n"
    "  dTb: true              # /Grid/dTb, the 21-cm brightness temperature [mK]\n";

static const char problems_eor_helium[] =
    "# eor_helium: the eor run with helium and the temperature of the gas.  The box,\n"
    "# redshifts, synthetic density grids and halo catalogues of eor (the same files:\n"
    "# a run of either reuses the other's eor_inputs/), the same photons per halo, now\n"
    "# with helium (n_He/n_H = 0.08, Y = 0.24) and the temperature evolving (photo-heating\n"
    "# per absorber; H + He recombination, collisional ionization and excitation and\n"
    "# free-free cooling; Compton cooling off the CMB; adiabatic cooling by the\n"
    "# expansion).  It shows He II reionization (x_HeIII) lagging hydrogen's, He I ionized\n"
    "# with (a little ahead of) hydrogen, the ionized gas photo-heated to 1-2.5e4 K while\n"
    "# the gas no photon reached keeps cooling adiabatically (validation/eor_helium.py).\n"
    "#\n"
    "# Sources: a 1e5 K black body (hot, metal-poor stars) instead of eor's 5e4 K.  The\n"
    "# halo rate Ndot counts photons from 13.6 eV to E_max = 544 eV as in eor, so the\n"
    "# hydrogen-ionizing budget is eor's; 5.8% of them lie above He II's 54.4 eV (of a\n"
    "# 5e4 K black body: 0.08%, about 1% of a photon per He atom for each per H atom:\n"
    "# too few for He II reionization to start).\n"
    "# At 128^3 a GPU run: helium's band tables cost ~8x hydrogen's tracing, and the work\n"
    "# grows as N^6 (sources in every cell, R_max fixed in Mpc); on 2 CPU cores 24^3 takes\n"
    "# about 2.5 minutes, 32^3 about 15 (--set grid.N=32 --set time.dt=25Myr).\n"
    "\n"
    PROBLEMS_EOR_GRID
    "material:                # n_H comes from sequence.density\n"
    "  temperature: 9         # [K] at z = 20: cooled adiabatically since Compton scattering\n"
    "                         # stopped holding it at T_CMB, T = 2.725 K (1+z)^2 / (1+z_dec),\n"
    "                         # z_dec ~ 130; Compton heating by the relic electrons is slow\n"
    "  x_HII_initial: 2.0e-4  # relic ionized fraction at z = 20\n"
    "  abundance_He: 0.08     # n_He / n_H (Y = 4 A / (1 + 4 A) = 0.24)\n"
    "  x_HeII_initial: 2.0e-4 # He as hydrogen (the default: x_HII_initial)\n"
    "  x_HeIII_initial: 0\n"
    "  isothermal: false      # photo-heating and cooling\n"
    "\n"
    "chemistry:\n"
    "  case: B                # recombinations to the ground state ionize on the spot\n"
    "  collisional_ionization: true  # the neutral gas is cold here: collisions act only in\n"
    "                         # the photo-heated gas (H, He I, He II)\n"
    "\n"
    PROBLEMS_EOR_SEQUENCE
    "spectrum:\n"
    "  type: blackbody\n"
    "  T_eff: 1.0e5           # [K]\n"
    "  E_max: 544.16          # eV: 10 times the He II threshold (the default)\n"
    "  sub_bins: [1, 8, 8]    # HI-HeI, HeI-HeII, above HeII: 2.3x cheaper than the default\n"
    "                         # [1, 26, 20] (24^3 on 2 cores: 140 s against 329 s), the same\n"
    "                         # history to 4e-4 in x_HII, x_HeII, x_HeIII and 1 K in mean T\n"
    "  secondary_ionization: true  # the few photons above 100 eV: their electrons' share\n"
    "\n"
    PROBLEMS_EOR_TIME_COSMOLOGY
    "output:\n"
    "  directory: out/eor_helium\n";

/* iliev1/2_particles: why the source sits at the centre of a wider box */
#define PROBLEMS_PARTICLES_CENTRED \
  "# One difference from the grid set-up: the source sits at the centre of a box twice\n" \
  "# as wide (13.2 kpc), so the box holds the whole sphere rather than one octant.  At a\n" \
  "# corner, particles straddling the octant's faces (kernels reach past them) would catch\n" \
  "# photons of rays that leave the octant, and the front would run ahead (10-20% at 16^3).\n" \
  "\n"
/* iliev1/2_particles: the generated particle set of Test 1's medium */
#define PROBLEMS_PARTICLES_LATTICE \
  "particles:\n" \
  "  generate:\n" \
  "    kind: lattice          # lattice (jittered) | glass (relaxed random start)\n" \
  "    count_1d: 32           # particles per side (count_1d^3 in all)\n" \
  "    n_H: 1.0e-3            # hydrogen number density [cm^-3]\n" \
  "    box: 13.2 kpc          # side of the cube (a bare number is in Mpc)\n" \
  "    jitter: 0.1            # random shift of each site, in lattice spacings\n" \
  "    neighbours: 48         # particles inside each kernel sphere\n" \
  "    seed: 1\n" \
  "    periodic: true         # densities as if the medium went on past the faces (Test 1's box\n" \
  "                           # is an octant of an unbounded medium)\n" \
  "  # file: snap.h5         # or read a Gadget/SWIFT HDF5 snapshot instead of generate:\n" \
  "  hydrogen_mass_fraction: 1.0  # X_H: pure hydrogen (Test 1)\n" \
  "  rays_per_source: 0       # HEALPix rays, 12 nside^2 (nside a power of 2); 0 = automatic\n" \
  "  output_grid: 0           # N > 0: also x_HII and T deposited on an N^3 grid (/Grid)\n" \
  "  wrap_rays: false         # rays end at the faces, as in the grid run (true: they wrap\n" \
  "                           # across a periodic box; raytracing.R_max must then be a length)\n" \
  "  ranks_share: rays        # several ranks: each traces a share of every source's rays\n" \
  "                           # (sources: each traces a block of the sources)\n" \
  "\n"
/* iliev1/2_particles: Test 1's source, at the box's centre */
#define PROBLEMS_PARTICLES_SOURCE \
  "sources:\n" \
  "  - position: [6.6 kpc, 6.6 kpc, 6.6 kpc]  # from the box corner: the centre\n" \
  "    Ndot: 5.0e48           # ionizing photon rate [s^-1]\n" \
  "\n"
/* iliev1/2_particles: the ray tracing */
#define PROBLEMS_PARTICLES_RAYTRACING \
  "raytracing:\n" \
  "  R_max: 0                 # a length like '3 kpc', or 0: rays cross the whole set\n" \
  "  convergence_fraction: 1.0e-4\n" \
  "  max_iterations: 100\n" \
  "  backend: auto            # cpu | cuda | auto\n" \
  "\n"
/* iliev1/2_particles: the output section after its directory */
#define PROBLEMS_PARTICLES_OUTPUT_TAIL \
  "  progress: true\n" \
  "  checkpoint_every: 0     # also DIR/checkpoint.h5 every this many steps (0: only on\n" \
  "                          # SIGTERM / SIGUSR1); continue: ionfront run CONFIG --restart FILE\n"

/* Test 1 on particles: the same physics as iliev1, on a generated particle set. */
static const char problems_iliev1_particles[] =
    "# ionfront: Iliev et al. (2006) Test 1 on SPH particles (reduced size: 32^3 particles).\n"
    "#\n"
    "# The Stroemgren sphere of iliev1, with the density carried by particles of a\n"
    "# jittered lattice instead of cells: a particle's n_H = X_H rho / m_p from its SPH\n"
    "# density, rays from the source cross the particles' kernels (src/sph_trace.h), and each\n"
    "# particle gets C2-Ray's time-averaged chemistry.  Analytic front as for iliev1:\n"
    "#   r_I(t) = r_S (1 - exp(-t / t_rec))^(1/3), r_S = 5.39 kpc, t_rec = 122.4 Myr.\n"
    "#\n"
    PROBLEMS_PARTICLES_CENTRED
PROBLEMS_PARTICLES_LATTICE
    "material:\n"
    "  temperature: 1.0e4       # initial (and here fixed) gas temperature [K]\n"
    "  x_HII_initial: 1.2e-3    # initial ionized hydrogen fraction\n"
    "  isothermal: true\n"
    "\n"
    PROBLEMS_PARTICLES_SOURCE
    "spectrum:\n"
    "  type: grey\n"
    "\n"
    "time:\n"
    "  dt: 10 Myr\n"
    "  t_end: 500 Myr\n"
    "  outputs: [10 Myr, 30 Myr, 100 Myr, 200 Myr, 500 Myr]\n"
    "\n"
    PROBLEMS_PARTICLES_RAYTRACING
    "output:\n"
    "  directory: out/iliev1_particles\n"
    PROBLEMS_PARTICLES_OUTPUT_TAIL;

/* Test 2 on particles: iliev2's thermal physics on the set of iliev1_particles. */
static const char problems_iliev2_particles[] =
    "# ionfront: Iliev et al. (2006) Test 2 on SPH particles (reduced size: 32^3 particles).\n"
    "#\n"
    "# The H II region of iliev2 (gas from 100 K, heated by a 1e5 K black body), with the\n"
    "# density carried by particles of a\n"
    "# jittered lattice instead of cells: a particle's n_H = X_H rho / m_p from its SPH\n"
    "# density, rays from the source cross the particles' kernels (src/sph_trace.h), and each\n"
    "# particle gets C2-Ray's time-averaged chemistry and thermal update.  No analytic\n"
    "# solution: compare with iliev2 on a grid and the comparison project's codes.\n"
    "#\n"
    PROBLEMS_PARTICLES_CENTRED
PROBLEMS_PARTICLES_LATTICE
    "material:\n"
    "  temperature: 100         # initial gas temperature [K]\n"
    "  x_HII_initial: 1.2e-3    # initial ionized hydrogen fraction\n"
    "  isothermal: false        # photo-heating and cooling\n"
    "\n"
    PROBLEMS_PARTICLES_SOURCE
    "spectrum:\n"
    "  type: blackbody\n"
    "  T_eff: 1.0e5\n"
    "\n"
    "time:\n"
    "  dt: 5 Myr\n"
    "  t_end: 500 Myr\n"
    "  outputs: [10 Myr, 30 Myr, 100 Myr, 200 Myr, 500 Myr]\n"
    "\n"
    PROBLEMS_PARTICLES_RAYTRACING
    "output:\n"
    "  directory: out/iliev2_particles\n"
    PROBLEMS_PARTICLES_OUTPUT_TAIL;

struct problems_entry {
  const char *name;
  const char *description;
  const char *yaml;
};

static const struct problems_entry problems_table[] = {
    {"default", "Iliev et al. 2006 Test 1 at 64^3 cells, dt = 10 Myr: a quick first run",
     problems_default},
    {"iliev1",
     "Iliev et al. 2006 Test 1: Stroemgren sphere in uniform hydrogen, 128^3 cells "
     "(r_S = 5.39 kpc, t_rec = 122.4 Myr)",
     problems_iliev1},
    {"iliev1_particles",
     "Iliev et al. 2006 Test 1 on SPH particles: 32^3 generated particles, the source at "
     "the centre of a 13.2 kpc box (r_S = 5.39 kpc, t_rec = 122.4 Myr)",
     problems_iliev1_particles},
    {"iliev2_particles",
     "Iliev et al. 2006 Test 2 on SPH particles: 32^3 generated particles, black body 1e5 K, "
     "T0 = 100 K, the source at the centre of a 13.2 kpc box",
     problems_iliev2_particles},
    {"iliev2",
     "Iliev et al. 2006 Test 2: H II region with temperature evolution (black body 1e5 K, "
     "T0 = 100 K), 128^3 cells",
     problems_iliev2},
    {"expanding",
     "Stroemgren sphere in an expanding universe from z = 9 (pyC2Ray Test 2; Shapiro & "
     "Giroux 1987 solution)",
     problems_expanding},
    {"dice", "Five black-body sources in a dice pattern with overlapping fronts (pyC2Ray Test 3)",
     problems_dice},
    {"helium",
     "Hydrogen and helium Stroemgren spheres around a 1e5 K black body in uniform H + He gas "
     "(n_H = 0.1, n_He/n_H = 0.08, isothermal 1e4 K, case B), 64^3",
     problems_helium},
    {"iliev3",
     "Iliev et al. 2006 Test 3: I-front trapping in a dense clump, plane-parallel flux "
     "through x = 0, temperature evolving, 128^3 cells",
     problems_iliev3},
    {"eor",
     "A small reionization run: 100 cMpc, 128^3, z = 20 -> 7 along a sequence of synthetic "
     "density grids and halo catalogues, with the 21-cm signal (a GPU run)",
     problems_eor},
    {"eor_helium",
     "The eor run with helium (n_He/n_H = 0.08) and the gas temperature evolving, 1e5 K "
     "black-body haloes: He II reionization lagging hydrogen's, the IGM temperature history "
     "(128^3, a GPU run)",
     problems_eor_helium},
    {"iliev4",
     "Iliev et al. 2006 Test 4 set-up: 16 sources in a cosmological field at z = 9, 128^3, on "
     "a stand-in density it makes itself (log-normal random field)",
     problems_iliev4},
    {"iliev4_particles",
     "Iliev et al. 2006 Test 4 on SPH particles: iliev4's stand-in density, one particle per "
     "cell (32^3; reads the files of 'ionfront generate iliev4 --N 32 --out iliev4_ic32')",
     problems_iliev4_particles},
    {"thermal_slab",
     "thermal radiation in a grey 1 m slab (kappa 1/m, T 500 -> 1500 K, black walls; "
     "Silvestri & Pecnik 2019 case 1), 32 x 4 x 4 cells",
     problems_thermal_slab},
    {"thermal_cube",
     "thermal radiation in a grey 1 m cube (kappa 0.5/m, the sin profile, cold black walls; "
     "Silvestri & Pecnik 2019 case 3), 16^3 cells",
     problems_thermal_cube},
    {"thermal_wsgg",
     "thermal radiation in a 1 m H2O-CO2 slab (10% each, 1 atm; WSGG of Bordbar et al. "
     "2014; the parab1 profile, black walls at 500 K), 32 x 4 x 4 cells",
     problems_thermal_wsgg},
};

#define PROBLEMS_N ((int)(sizeof problems_table / sizeof problems_table[0]))

const char *problems_yaml(const char *name) {
  if (!name) return NULL;
  for (int i = 0; i < PROBLEMS_N; ++i)
    if (strcmp(problems_table[i].name, name) == 0) return problems_table[i].yaml;
  return NULL;
}

int problems_count(void) { return PROBLEMS_N; }

const char *problems_name(int i) {
  return i >= 0 && i < PROBLEMS_N ? problems_table[i].name : NULL;
}

const char *problems_description(int i) {
  return i >= 0 && i < PROBLEMS_N ? problems_table[i].description : NULL;
}

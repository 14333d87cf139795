/**
 * @file problems_thermal.c
 * @brief The built-in thermal-radiation problems (problems_thermal.h), as complete,
 *        commented YAML.  Cases and profiles of Silvestri & Pecnik (2019), "A fast GPU Monte
 *        Carlo radiative heat transfer implementation for coupling with direct numerical
 *        simulation", J. Comput. Phys. X 3, 100032: Table 1, eqs. 18-22.
 */
#include "config/problems_thermal.h"

/* What every thermal problem explains the same way: Monte Carlo, output, backend. */
#define PROBLEMS_THERMAL_TAIL(RAYS)                                                            \
  "\n"                                                                                         \
  "montecarlo:\n"                                                                              \
  "  rays_per_element: " RAYS "  # rays from every cell and every wall patch (error ~ 1/sqrt)\n" \
  "  seed: 1                 # Philox key: the same seed, the same bits on any ranks\n"       \
  "  transmissivity_min: 1.0e-6  # a ray ends when its transmissivity falls below this\n"      \
  "  multigrid: {levels: 1, steps_per_level: 5}  # coarser grids far from the emitter\n"        \
  "  sort_gases: false       # group an element's rays by grey gas (WSGG)\n"                    \
  "\n"                                                                                         \
  "output:\n"                                                                                  \
  "  directory: out          # OUTDIR/thermal.h5: /Thermal/Q_R, Q_R_sigma, T_K, Walls/...\n"   \
  "  overwrite: false        # true: remove an earlier run's files first (--overwrite)\n"      \
  "\n"                                                                                         \
  "raytracing:\n"                                                                              \
  "  backend: auto           # cpu | cuda | auto (--backend)\n"

const char problems_thermal_slab[] =
    "# Thermal radiation in a grey slab: Silvestri & Pecnik (2019), Table 1, case 1.\n"
    "# A non-scattering grey gas (kappa = 1/m) between two black walls 1 m apart, T rising\n"
    "# linearly from 500 K to 1500 K (profile lin1, eq. 18), the walls at 500 K and 1500 K;\n"
    "# y and z periodic: a 1D problem on a 3D grid.  Optical thickness 1, transmissivity\n"
    "# 0.368.  The exact Q^R(x) follows from the exponential integrals E1, E2 (grey slab,\n"
    "# black walls): validation/thermal.py compares.\n"
    "#\n"
    "# Read the result:  h5py.File('out/thermal.h5')['Thermal/Q_R'][:].mean(axis=(1, 2))\n"
    "\n"
    "problem: thermal          # a thermal-radiation run (leave the key out: ionization)\n"
    "\n"
    "grid:\n"
    "  cells: [32, 4, 4]       # cells along x, y, z\n"
    "  size_m: [1.0, 0.125, 0.125]  # the box [m]: cubic cells of 1/32 m\n"
    "  periodic: [false, true, true]  # y and z wrap: walls only at x = 0 and x = 1 m\n"
    "\n"
    "walls:                    # exactly the faces of the non-periodic axes\n"
    "  x_lo: {emissivity: 1.0, T_K: 500.0}   # black wall at x = 0\n"
    "  x_hi: {emissivity: 1.0, T_K: 1500.0}  # black wall at x = 1 m\n"
    "\n"
    "gas:\n"
    "  model: grey             # grey | wsgg (H2O-CO2, Bordbar et al. 2014)\n"
    "  kappa_per_m: 1.0        # absorption coefficient [1/m]\n"
    "\n"
    "setup:                    # the medium made here; or fields: {file, T_K, ...} (HDF5)\n"
    "  profile: lin1           # T = 500 + 1000 x/L [K]\n"
    "  axis: x\n" PROBLEMS_THERMAL_TAIL("2000");

const char problems_thermal_cube[] =
    "# Thermal radiation in a grey cube: Silvestri & Pecnik (2019), Table 1, case 3.\n"
    "# A 1 m cube of grey gas (kappa = 0.5/m) with cold (0 K) black walls; T from the sin\n"
    "# profile (eq. 20): sigma T^4 / pi = sin(pi x) sin(pi y) sin(pi z) W/(m^2 sr), so\n"
    "# 4 sigma T^4 peaks at 4 pi W/m^3 in the centre.  Compared there with Sakurai et\n"
    "# al.'s quasi-analytic solution; optical thickness 0.5, transmissivity 0.607.\n"
    "\n"
    "problem: thermal\n"
    "\n"
    "grid:\n"
    "  cells: 16               # 16 x 16 x 16 cells\n"
    "  size_m: 1.0             # a 1 m cube\n"
    "  periodic: false         # walls on every face\n"
    "\n"
    "walls:\n"
    "  x_lo: {emissivity: 1.0, T_K: 0.0}\n"
    "  x_hi: {emissivity: 1.0, T_K: 0.0}\n"
    "  y_lo: {emissivity: 1.0, T_K: 0.0}\n"
    "  y_hi: {emissivity: 1.0, T_K: 0.0}\n"
    "  z_lo: {emissivity: 1.0, T_K: 0.0}\n"
    "  z_hi: {emissivity: 1.0, T_K: 0.0}\n"
    "\n"
    "gas:\n"
    "  model: grey\n"
    "  kappa_per_m: 0.5\n"
    "\n"
    "setup:\n"
    "  profile: sin            # T = (sin(pi x) sin(pi y) sin(pi z) pi / sigma)^(1/4)\n"
    PROBLEMS_THERMAL_TAIL("500");

const char problems_thermal_wsgg[] =
    "# Thermal radiation in an H2O-CO2 slab, non-grey: a weighted sum of grey gases\n"
    "# (WSGG, Bordbar, Wecel & Hyppanen 2014: four grey gases and a transparent one, their\n"
    "# weights a_j(T) and absorption coefficients fitted for molar ratios\n"
    "# Mr = x_H2O / x_CO2 from 0.01 to 4).  Here Mr = 1 (10% H2O, 10% CO2 at 1 atm), 1 m\n"
    "# between black walls at 500 K, T from the parab1 profile (Silvestri & Pecnik 2019,\n"
    "# eq. 19: 500 K at the walls, 1000 K in the middle); y and z periodic.  The exact\n"
    "# slab solution of the same WSGG (src/thermal/thermal_exact.h) is the reference.\n"
    "\n"
    "problem: thermal\n"
    "\n"
    "grid:\n"
    "  cells: [32, 4, 4]\n"
    "  size_m: [1.0, 0.125, 0.125]\n"
    "  periodic: [false, true, true]\n"
    "\n"
    "walls:\n"
    "  x_lo: {emissivity: 1.0, T_K: 500.0}\n"
    "  x_hi: {emissivity: 1.0, T_K: 500.0}\n"
    "\n"
    "gas:\n"
    "  model: wsgg              # H2O-CO2 weighted sum of grey gases (Bordbar et al. 2014)\n"
    "  pressure_atm: 1.0        # total pressure [atm]\n"
    "  x_H2O: 0.1               # mole fractions (or fields: datasets per cell)\n"
    "  x_CO2: 0.1\n"
    "\n"
    "setup:\n"
    "  profile: parab1          # T = 500 - 2000 x^2 + 2000 x [K], x in m\n"
    "  axis: x\n" PROBLEMS_THERMAL_TAIL("1000");

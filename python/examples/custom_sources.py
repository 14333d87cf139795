#!/usr/bin/env python3
"""A custom source model driven from Python, step by step (the pyC²Ray use case).

The model: haloes at random cells whose masses grow exponentially; a halo becomes a
source once it passes a mass threshold, with an ionizing rate proportional to its
mass, Ndot = f_gamma * M * Omega_b / Omega_m / (m_p * t_source) (C²-Ray's mass-to-light
rule).  Every step: recompute the sources, hand them to the engine, step, and read
x_HII back (a NumPy view, no copy) for the analysis.

    IONFRONT_LIBRARY=build/libionfront.so python3 python/examples/custom_sources.py
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ionfront  # noqa: E402

MSUN_G, M_P_G, MYR_S = 1.989e33, 1.6726e-24, 3.15576e13

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--N", type=int, default=32, help="cells per side (32)")
parser.add_argument("--steps", type=int, default=10, help="steps of 10 Myr (10)")
parser.add_argument("--out", default="custom_sources_out", help="output directory")
args = parser.parse_args()

rng = np.random.default_rng(42)
n_halos = 40
halo_cells = rng.integers(0, args.N, size=(n_halos, 3))
halo_mass_msun = 10.0 ** rng.uniform(7.0, 8.5, n_halos)  # at t = 0
growth_per_myr = 0.02                                    # dlnM/dt
threshold_msun = 1e8
f_gamma, omega_b, omega_m, t_source_s = 250.0, 0.043, 0.27, 3.0 * MYR_S


def source_model(t_myr):
    """Positions (cells) and Ndot [1/s] of the haloes above the threshold at t."""
    mass = halo_mass_msun * np.exp(growth_per_myr * t_myr)
    on = mass >= threshold_msun
    ndot = f_gamma * mass[on] * MSUN_G * omega_b / omega_m / (M_P_G * t_source_s)
    return halo_cells[on] + 0.5, ndot


overrides = {"grid.N": args.N, "grid.box_size": "1.5 Mpc", "material.n_H": 2e-4,
             "time.dt": "10 Myr", "time.t_end": f"{10 * args.steps} Myr",
             "time.outputs": f"[{10 * args.steps} Myr]", "output.directory": args.out}
with ionfront.Engine(builtin="default", overrides=overrides) as engine:
    print(f"libionfront {ionfront.version()}; {args.N}^3 cells of {engine.cell_cm:.3g} cm")
    for step in range(args.steps):
        t_myr = engine.time_s / MYR_S
        positions, ndot = source_model(t_myr)
        engine.set_sources(positions, ndot)          # cells; units="cm" for cm
        iterations = engine.step(10 * MYR_S)
        x = engine.x_HII                              # view on the engine's array
        print(f"t = {t_myr + 10:5.0f} Myr: {len(ndot):3d} sources ({ndot.sum():.3g} photons/s), "
              f"{iterations:2d} iterations, <x_HII> = {x.mean():.4f}, "
              f"ionized volume {np.mean(x > 0.5):.4f}")
    path = engine.write_snapshot(1)
    print(f"snapshot: {path}")

#!/usr/bin/env python3
"""A flow solver's coupling loop with thermal radiation (problem: thermal, docs/thermal.md).

A toy "flow solver": a hot blob of gas in a closed box with black walls at 300 K, at rest,
whose only energy equation is radiative cooling,  rho c_p dT/dt = -Q^R,  stepped with
forward Euler.  Every step hands the current T to ionfront (ionf_thermal_solve through
ionfront.Thermal.solve) and takes back Q^R [W/m^3] of this rank's cells, as a DNS or CFD
code would (Silvestri & Pecnik 2019 couple their channel DNS this way).  It prints the
hottest cell, the mean Q^R and the energy balance: the power the gas loses, sum Q V, equals
what the walls absorb, sum q A, within the Monte Carlo error.

    IONFRONT_LIBRARY=build/libionfront.so python3 python/examples/thermal_coupling.py
    mpirun -np 2 python3 python/examples/thermal_coupling.py      (with mpi4py)

With a CUDA build and CuPy the same loop can keep T and Q on the GPU: pass cupy arrays to
solve() with out= and sigma_out= (device arrays), and nothing crosses to the host.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ionfront  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--N", type=int, default=16, help="cells per side of the 1 m box (16)")
parser.add_argument("--steps", type=int, default=5, help="time steps (5)")
parser.add_argument("--dt", type=float, default=0.01, help="time step [s] (0.01)")
parser.add_argument("--rays", type=int, default=200, help="rays per cell and wall patch (200)")
parser.add_argument("--backend", default="auto", help="cpu | cuda | auto")
args = parser.parse_args()

try:  # several ranks under mpirun: each solves its block of cells
    from mpi4py import MPI
    comm = MPI.COMM_WORLD if MPI.COMM_WORLD.Get_size() > 1 else None
except ImportError:
    comm = None

CONFIG = f"""
problem: thermal
grid: {{cells: {args.N}, size_m: 1.0, periodic: false}}
walls:
  x_lo: {{emissivity: 1, T_K: 300}}
  x_hi: {{emissivity: 1, T_K: 300}}
  y_lo: {{emissivity: 1, T_K: 300}}
  y_hi: {{emissivity: 1, T_K: 300}}
  z_lo: {{emissivity: 1, T_K: 300}}
  z_hi: {{emissivity: 1, T_K: 300}}
gas: {{model: grey, kappa_per_m: 1.0}}
setup: {{profile: uniform, T_K: 300}}   # replaced by the flow solver's T every step
montecarlo: {{rays_per_element: {args.rays}, seed: 7}}
raytracing: {{backend: {args.backend}}}
"""
RHO_CP = 0.3 * 1200.0  # J/(m^3 K): hot flue gas, 0.3 kg/m^3, c_p 1200 J/(kg K)

with ionfront.Thermal(yaml=CONFIG, comm=comm) as th:
    n = th.cells
    h = th.cell_m
    first, count = th.cell_range
    x = (np.arange(n[0]) + 0.5) * h[0]
    y = (np.arange(n[1]) + 0.5) * h[1]
    z = (np.arange(n[2]) + 0.5) * h[2]
    r2 = ((x[:, None, None] - 0.5) ** 2 + (y[None, :, None] - 0.5) ** 2
          + (z[None, None, :] - 0.5) ** 2)
    T = 300.0 + 1500.0 * np.exp(-r2 / (2 * 0.15 ** 2))  # the flow solver's field [K]
    volume = h[0] * h[1] * h[2]
    for step in range(args.steps):
        q, sigma = th.solve(T)  # this rank's cells [first, first + count)
        if comm is not None:  # the flow solver needs every cell: gather the blocks
            q = np.concatenate(comm.allgather(q))
            sigma = np.concatenate(comm.allgather(sigma))
        gas_loss = q.sum() * volume
        gas_sigma = np.sqrt((sigma ** 2).sum()) * volume
        walls, walls_var = 0.0, 0.0
        for face in ionfront.thermal.FACES:
            qw, sw = th.wall_flux(face)
            area = h[0] * h[1] * h[2] / h[("x", "y", "z").index(face[0])]
            walls += qw.sum() * area
            walls_var += (sw ** 2).sum() * area ** 2
        if comm is None or comm.Get_rank() == 0:
            print(f"step {step}: T_max = {T.max():7.1f} K, <Q^R> = {q.mean():10.4g} W/m^3, "
                  f"gas loses {gas_loss:10.5g} W, walls absorb {walls:10.5g} W "
                  f"(difference {abs(gas_loss - walls) / np.hypot(gas_sigma, np.sqrt(walls_var)):.2f} "
                  f"sigma), {th.stats()['rays']} rays in {th.stats()['seconds']:.2f} s")
        T = T - args.dt * q.reshape(n) / RHO_CP  # the flow solver's energy update

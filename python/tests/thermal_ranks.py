"""Run by test_thermal_two_ranks_match_one under mpiexec: the thermal_cube built-in solved
over mpi4py's COMM_WORLD, each rank its block of cells; rank 0 saves the gathered Q^R and
the x_lo wall's flux to OUT.npz.
usage: mpiexec -np P python3 thermal_ranks.py OUT.npz"""
import os
import sys

from mpi4py import MPI  # initialises MPI: the library must not finalize it

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy as np  # noqa: E402

import ionfront  # noqa: E402

comm = MPI.COMM_WORLD
with ionfront.Thermal(builtin="thermal_cube", comm=comm,
                      overrides={"grid.cells": 6, "montecarlo.rays_per_element": 40,
                                 "raytracing.backend": "cpu"}) as th:
    first, count = th.cell_range
    q, sigma = th.solve()
    assert q.shape == (count,)
    blocks = comm.gather((first, q), root=0)
    wall, _ = th.wall_flux("x_lo")
if comm.Get_rank() == 0:
    whole = np.concatenate([b for _, b in sorted(blocks, key=lambda fb: fb[0])])
    np.savez(sys.argv[1], q=whole, wall=wall)
    print(f"ranks {comm.Get_size()}: {whole.size} cells")

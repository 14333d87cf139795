"""Run by test_mpi4py_two_ranks_match_one under mpiexec: several sources shared over
the ranks of mpi4py's COMM_WORLD; rank 0 saves x_HII to OUT.npy.
usage: mpiexec -np P python3 mpi_ranks.py OUT.npy OUTPUT_DIR"""
import os
import sys

from mpi4py import MPI  # initialises MPI: the library must not finalize it

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from conftest import SMALL_TEST1, run_to_end  # noqa: E402  (puts python/ on sys.path)
import numpy as np  # noqa: E402

import ionfront  # noqa: E402

comm = MPI.COMM_WORLD
if comm.Get_size() > 1:  # each rank alone on its own communicator: a 1-rank run each
    alone = comm.Split(comm.Get_rank())
    with ionfront.Engine(overrides={**SMALL_TEST1, "output.directory": f"{sys.argv[2]}_{comm.Get_rank()}"},
                         comm=alone) as e:
        assert e.size == 1 and e.rank == 0
        e.set_sources([[2, 3, 4], [12, 5, 9], [8, 8, 8], [3, 13, 11]], [1e49, 3e49, 5e48, 2e49])
        run_to_end(e)
        x_alone = e.x_HII.copy()
    alone.Free()
    np.save(sys.argv[1].replace(".npy", f"_alone{comm.Get_rank()}.npy"), x_alone)
with ionfront.Engine(overrides={**SMALL_TEST1, "output.directory": sys.argv[2]}, comm=comm) as e:
    assert e.size == comm.Get_size() and e.rank == comm.Get_rank()
    e.set_sources([[2, 3, 4], [12, 5, 9], [8, 8, 8], [3, 13, 11]], [1e49, 3e49, 5e48, 2e49])
    run_to_end(e)
    x = e.x_HII.copy()
if comm.Get_rank() == 0:
    np.save(sys.argv[1], x)
    print(f"ranks {comm.Get_size()}: <x_HII> = {x.mean():.10g}")

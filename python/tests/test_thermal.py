"""ionfront.Thermal (problem: thermal) over the C API: the config's medium and the same T
given as an array give the same bits; results land in given arrays; the power the gas
loses equals what the walls absorb within the Monte Carlo error; errors raise with the C
message (NaN T, device arrays on the cpu backend, sizes); 2 MPI ranks (mpi4py) give the
bits of 1; python/examples/thermal_coupling.py runs."""
import os
import subprocess
import sys

import numpy as np
import pytest

import ionfront
from conftest import run_ranks

HERE = os.path.dirname(os.path.abspath(__file__))
FEW = {"montecarlo.rays_per_element": 48, "raytracing.backend": "cpu"}


def lin1(cells):
    x = (np.arange(cells[0]) + 0.5) / cells[0]
    return np.broadcast_to((500.0 + 1000.0 * x)[:, None, None], cells).copy()


def test_config_medium_equals_array():
    with ionfront.Thermal(builtin="thermal_slab", overrides=FEW) as th:
        assert th.cells == (32, 4, 4) and th.cell_range == (0, 512)
        assert th.cell_m[0] == pytest.approx(1 / 32)
        q0, s0 = th.solve()
        q1, s1 = th.solve(lin1(th.cells))
        assert q0.shape == (512,) and np.all(np.isfinite(q0)) and np.all(s0 > 0)
        assert np.array_equal(q0, q1) and np.array_equal(s0, s1)
        out, sout = np.zeros(512), np.zeros(512)
        r = th.solve(lin1(th.cells).ravel(), out=out, sigma_out=sout)
        assert r[0] is out and np.array_equal(out, q0)
        lo, _ = th.wall_flux("x_lo")
        hi, _ = th.wall_flux(1)
        assert lo.shape == (4, 4) and th.wall_shape("y_lo") == (0, 0)
        assert lo.mean() > 0 > hi.mean()  # 500 K wall heated, 1500 K wall cooled
        assert th.stats()["rays"] == 48 * (512 + 32)


def test_energy_balance_closed_box():
    """In a closed box the gas's net emission is the walls' net absorption."""
    with ionfront.Thermal(builtin="thermal_cube", overrides={**FEW, "grid.cells": 8}) as th:
        q, s = th.solve()
        v = np.prod(th.cell_m)
        gas, gas_var = q.sum() * v, (s ** 2).sum() * v * v
        walls, walls_var = 0.0, 0.0
        for face in ionfront.thermal.FACES:
            qw, sw = th.wall_flux(face)
            area = v / th.cell_m[("x", "y", "z").index(face[0])]
            walls += qw.sum() * area
            walls_var += (sw ** 2).sum() * area * area
        assert gas > 0
        assert abs(gas - walls) <= 5 * np.sqrt(gas_var + walls_var), (gas, walls)


class FakeDevice:
    """An object with __cuda_array_interface__ (pointing at host memory: the cpu backend
    must refuse it before any use)."""

    def __init__(self, a):
        self.a = a
        self.__cuda_array_interface__ = {"shape": a.shape, "typestr": "<f8",
                                         "data": (a.ctypes.data, False), "version": 3,
                                         "strides": None}


def test_errors():
    with ionfront.Thermal(builtin="thermal_slab", overrides=FEW) as th:
        t = lin1(th.cells)
        t[3, 1, 2] = np.nan
        with pytest.raises(ionfront.IonfrontError, match=r"T\[54\] = nan"):
            th.solve(t)
        with pytest.raises(ValueError, match="the grid has 512 cells"):
            th.solve(np.ones(10))
        dev = FakeDevice(lin1(th.cells))
        with pytest.raises(ValueError, match="out= and sigma_out="):
            th.solve(dev)
        with pytest.raises(ionfront.IonfrontError, match="device arrays need"):
            th.solve(dev, out=FakeDevice(np.zeros(512)), sigma_out=FakeDevice(np.zeros(512)))
        with pytest.raises(ValueError, match="mix of device and host"):
            th.solve(dev, x_h2o=np.zeros(512), out=FakeDevice(np.zeros(512)),
                     sigma_out=FakeDevice(np.zeros(512)))
    with pytest.raises(ionfront.IonfrontError, match="unknown key 'gas.kapa'"):
        ionfront.Thermal(builtin="thermal_slab", overrides={"gas.kapa": 1})
    with pytest.raises(ionfront.IonfrontError, match="not a thermal-radiation config"):
        ionfront.Thermal(builtin="iliev1")


def test_thermal_two_ranks_match_one(tmp_path):
    res = {}
    for p in (1, 2):
        out = tmp_path / f"q{p}.npz"
        assert f"ranks {p}: 216 cells" in run_ranks("thermal_ranks.py", p, out)
        res[p] = np.load(out)
    assert np.array_equal(res[1]["q"], res[2]["q"]) and np.array_equal(res[1]["wall"], res[2]["wall"])


def test_coupling_example_runs():
    script = os.path.join(HERE, "..", "examples", "thermal_coupling.py")
    done = subprocess.run([sys.executable, script, "--N", "8", "--steps", "3", "--rays", "50",
                           "--backend", "cpu"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    t_max = [float(line.split("T_max =")[1].split("K")[0]) for line in done.stdout.splitlines()
             if line.startswith("step")]
    assert len(t_max) == 3 and t_max[0] > t_max[1] > t_max[2] > 300.0, done.stdout

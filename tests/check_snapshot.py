#!/usr/bin/env python3
"""Open an ionfront snapshot the way users do (h5py) and check its layout.

usage: check_snapshot.py SNAPSHOT.h5 N TIME_MYR
"""
import sys

import h5py
import numpy as np

path, n, t_myr = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
with h5py.File(path, "r") as f:
    expected_units = {"x_HII": "1", "Gamma_HI": "s^-1", "n_H": "cm^-3", "T": "K"}
    for name, unit in expected_units.items():
        d = f["Grid/" + name]
        assert d.shape == (n, n, n), (name, d.shape)
        assert d.dtype == np.float64, (name, d.dtype)
        assert d.attrs["units"] == unit, (name, d.attrs["units"])
    x = f["Grid/x_HII"][...]
    gamma = f["Grid/Gamma_HI"][...]
    assert np.all(np.isfinite(x)) and x.min() > 0 and x.max() <= 1, (x.min(), x.max())
    # source at the corner (0,0,0): ionized there, neutral far away, Gamma falls with distance
    assert x[0, 0, 0] > 0.99 and x[-1, -1, -1] < 0.5, (x[0, 0, 0], x[-1, -1, -1])
    assert gamma[0, 0, 0] > gamma[n // 2, 0, 0] > gamma[-1, 0, 0] >= 0
    # C order [i][j][k]: the problem is symmetric under axis swaps
    assert np.allclose(x, x.transpose(1, 0, 2)) and np.allclose(x, x.transpose(2, 1, 0))
    assert abs(f.attrs["time_s"] / 3.15576e13 - t_myr) < 1e-6 * t_myr, f.attrs["time_s"]
    assert int(f.attrs["N"]) == n
    assert abs(f.attrs["box_size_cm"] - 6.6 * 3.0856775814913673e21) < 1e-6 * f.attrs["box_size_cm"]
    assert "grid:" in f.attrs["config"]
print("snapshot ok:", path)

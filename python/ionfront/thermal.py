"""Thermal radiation (`problem: thermal`) from Python: ionfront.Thermal over the C API's
ionf_thermal_* calls (include/ionfront.h; docs/thermal.md).

    import numpy as np, ionfront
    with ionfront.Thermal(builtin="thermal_slab") as th:
        T = np.full(th.cells, 1000.0)            # K, the whole grid, C order
        q, sigma = th.solve(T)                   # W/m^3, this rank's cells (1-D)
        q_wall, q_wall_sigma = th.wall_flux("x_lo")   # W/m^2, [n_u, n_v]

Fields are whole-grid float64 arrays (any shape of nx*ny*nz values in C order [nx][ny][nz])
on every rank; the results are this rank's block of cells (cell_range: first, count), the
whole grid on one rank.  Host arrays are NumPy arrays (or anything np.asarray takes);
device arrays are objects with __cuda_array_interface__ (CuPy, Numba, PyTorch CUDA
tensors): their pointers go to the GPU solver as they are (the cuda backend only), and
then the outputs must be given too (out=, sigma_out=: device arrays of `count` float64).
"""
import ctypes

import numpy as np

from . import _LIB, _check, _create_handle, _lib, _live, _Handle

FACES = ("x_lo", "x_hi", "y_lo", "y_hi", "z_lo", "z_hi")
MEMORY_HOST = _lib.MEMORY_HOST
MEMORY_DEVICE = _lib.MEMORY_DEVICE


def _device_pointer(a, count, name):
    """The device pointer of a __cuda_array_interface__ array of `count` C-contiguous
    float64 values (ValueError otherwise)."""
    iface = a.__cuda_array_interface__
    if iface.get("typestr") not in ("<f8", "=f8"):
        raise ValueError(f"{name}: a device array of float64 (typestr '<f8'), got {iface.get('typestr')}")
    shape = tuple(iface.get("shape", ()))
    size = int(np.prod(shape)) if shape else 1
    if size != count:
        raise ValueError(f"{name}: {size} values; expected {count}")
    strides = iface.get("strides")
    if strides is not None and strides != tuple(int(np.prod(shape[i + 1:])) * 8 for i in range(len(shape))):
        raise ValueError(f"{name}: the device array must be C-contiguous")
    return ctypes.c_void_p(int(iface["data"][0]))


def _is_device(a):
    return a is not None and hasattr(a, "__cuda_array_interface__")


class Thermal(_Handle):
    """A thermal-radiation solver.  Use as a context manager, or call close().

    Thermal(config="thermal.yaml") | Thermal(yaml="problem: thermal ...") |
    Thermal(builtin="thermal_slab"), with overrides={"montecarlo.rays_per_element": 500}
    (or "a.b=VALUE" strings) and comm=an mpi4py communicator.  Collective.
    """

    def __init__(self, config=None, *, yaml=None, builtin=None, overrides=None, comm=None):
        if sum(x is not None for x in (config, yaml, builtin)) != 1:
            raise ValueError("give one of config (a file), yaml (text) and builtin (a name)")
        self._handle = None
        handle = _create_handle("ionf_thermal", config, yaml, builtin, overrides, comm)
        self._handle = handle
        self._comm = comm
        _live.add(self)
        n = (ctypes.c_int64 * 3)()
        d = (ctypes.c_double * 3)()
        _check(_LIB.ionf_thermal_grid(handle, n, d))
        self.cells = tuple(int(v) for v in n)
        self.cell_m = tuple(float(v) for v in d)
        first, count = ctypes.c_int64(), ctypes.c_int64()
        _check(_LIB.ionf_thermal_cell_range(handle, ctypes.byref(first), ctypes.byref(count)))
        self.cell_range = (int(first.value), int(count.value))

    _destroy = "ionf_thermal_destroy"
    _what = "the thermal solver"

    def close(self):
        """Free the solver (collective)."""
        _Handle.close(self)

    @property
    def n_cells(self):
        """Cells of the whole grid."""
        return self.cells[0] * self.cells[1] * self.cells[2]

    # -- solving
    def _host_in(self, a, name):
        if a is None:
            return None, None
        v = np.ascontiguousarray(a, dtype=np.float64)
        if v.size != self.n_cells:
            raise ValueError(f"{name}: {v.size} values; the grid has {self.n_cells} cells {self.cells}")
        return v, v.ctypes.data_as(ctypes.c_void_p)

    @staticmethod
    def _host_out(out, count, name):
        if out is None:
            out = np.empty(count, dtype=np.float64)
        if not (isinstance(out, np.ndarray) and out.dtype == np.float64 and out.flags.c_contiguous
                and out.size == count and out.flags.writeable):
            raise ValueError(f"{name}: a writable C-contiguous float64 NumPy array of {count} values")
        return out, out.ctypes.data_as(ctypes.c_void_p)

    def solve(self, T=None, x_h2o=None, x_co2=None, p=None, *, out=None, sigma_out=None):
        """Q^R [W/m^3] and its standard error for the medium T [K], x_H2O, x_CO2, p [atm]
        (whole-grid arrays; None: the config's medium for that field).  Returns (q, sigma)
        for this rank's cells (cell_range), 1-D; with out= / sigma_out= the results land
        there (and those are returned).  Device arrays (__cuda_array_interface__) in and out
        on the cuda backend.  Collective."""
        first, count = self.cell_range
        inputs = {"T": T, "p": p, "x_h2o": x_h2o, "x_co2": x_co2}
        device = [k for k, v in inputs.items() if _is_device(v)]
        if device:
            if len(device) != sum(v is not None for v in inputs.values()):
                raise ValueError("mix of device and host arrays: give all fields in one memory")
            if not (_is_device(out) and _is_device(sigma_out)):
                raise ValueError("device inputs: pass out= and sigma_out= device arrays of "
                                 f"{count} float64 (e.g. cupy.empty({count}))")
            ptr = {k: (_device_pointer(v, self.n_cells, k) if v is not None else None)
                   for k, v in inputs.items()}
            q_p = _device_pointer(out, count, "out")
            s_p = _device_pointer(sigma_out, count, "sigma_out")
            keep = ()
            memory = MEMORY_DEVICE
        else:
            keep, ptr = [], {}
            for k, v in inputs.items():
                arr, p_ = self._host_in(v, k)
                keep.append(arr)
                ptr[k] = p_
            out, q_p = self._host_out(out, count, "out")
            sigma_out, s_p = self._host_out(sigma_out, count, "sigma_out")
            memory = MEMORY_HOST
        _check(_LIB.ionf_thermal_solve(self._h, ptr["T"], ptr["p"], ptr["x_h2o"], ptr["x_co2"],
                                       q_p, s_p, memory))
        del keep
        return out, sigma_out

    def wall_shape(self, face):
        """(n_u, n_v) of a face's wall patches ((0, 0) on a periodic axis)."""
        i = FACES.index(face) if isinstance(face, str) else int(face)
        dims = (ctypes.c_int64 * 2)()
        _check(_LIB.ionf_thermal_wall_shape(self._h, i, dims))
        return int(dims[0]), int(dims[1])

    def wall_flux(self, face):
        """The last solve's net flux into a face's wall [W/m^2] (absorbed - emitted) and its
        standard error, NumPy arrays of wall_shape(face) (every rank)."""
        i = FACES.index(face) if isinstance(face, str) else int(face)
        shape = self.wall_shape(i)
        q = np.empty(shape, dtype=np.float64)
        s = np.empty(shape, dtype=np.float64)
        _check(_LIB.ionf_thermal_wall_flux(self._h, i, q.ctypes.data_as(ctypes.c_void_p),
                                           s.ctypes.data_as(ctypes.c_void_p), q.size))
        return q, s

    def stats(self):
        """The last solve: {'rays': all ranks' rays, 'steps': cell crossings, 'seconds'}."""
        rays, steps, secs = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_double()
        _check(_LIB.ionf_thermal_stats(self._h, ctypes.byref(rays), ctypes.byref(steps),
                                       ctypes.byref(secs)))
        return {"rays": rays.value, "steps": steps.value, "seconds": secs.value}

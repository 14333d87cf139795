"""ionfront.Thermal with device arrays (objects with __cuda_array_interface__, here a
minimal one over memory from the CUDA runtime through ctypes, as CuPy or PyTorch hand
over): T and the WSGG's mole fractions on the GPU, Q and sigma into GPU arrays, against
the same solver's solve on NumPy arrays: the same bits.  Exit 0 pass, 1 fail, 77 skip (no
usable GPU or CUDA runtime; with IONFRONT_REQUIRE_GPU=1 that fails instead).
usage: IONFRONT_LIBRARY=.../libionfront.so python3 thermal_device_gpu.py"""
import ctypes
import os
import sys

try:
    import numpy as np

    import ionfront
except ImportError as exc:  # the CPU test suite's Python may lack numpy
    print(f"no numpy or ionfront ({exc}): skipped")
    sys.exit(77)


def skip(why):
    if os.environ.get("IONFRONT_REQUIRE_GPU") == "1":
        print(f"FAIL: no usable GPU ({why}) and IONFRONT_REQUIRE_GPU=1")
        sys.exit(1)
    print(f"no usable GPU ({why}): skipped")
    sys.exit(77)


def cudart():
    for name in ("libcudart.so", "libcudart.so.13", "libcudart.so.12"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            pass
    skip("no CUDA runtime library")


class DeviceArray:
    """float64 values in GPU memory, shown through __cuda_array_interface__ (version 3)."""

    def __init__(self, rt, host):
        self.rt, self.n = rt, host.size
        self.ptr = ctypes.c_void_p()
        if rt.cudaMalloc(ctypes.byref(self.ptr), ctypes.c_size_t(8 * self.n)) != 0:
            raise RuntimeError("cudaMalloc failed")
        src = np.ascontiguousarray(host, dtype=np.float64)
        rt.cudaMemcpy(self.ptr, src.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(8 * self.n), 1)

    @property
    def __cuda_array_interface__(self):
        return {"shape": (self.n,), "typestr": "<f8", "data": (self.ptr.value, False),
                "version": 3, "strides": None}

    def get(self):
        out = np.empty(self.n)
        self.rt.cudaMemcpy(out.ctypes.data_as(ctypes.c_void_p), self.ptr,
                           ctypes.c_size_t(8 * self.n), 2)
        return out

    def free(self):
        self.rt.cudaFree(self.ptr)


def main():
    rt = cudart()
    count = ctypes.c_int(0)
    if rt.cudaGetDeviceCount(ctypes.byref(count)) != 0 or count.value < 1:
        skip("cudaGetDeviceCount found none")
    failures = 0
    over = {"montecarlo.rays_per_element": 64, "raytracing.backend": "cuda",
            "output.directory": "thermal_device_gpu_out"}
    for builtin, wsgg in (("thermal_slab", False), ("thermal_wsgg", True)):
        with ionfront.Thermal(builtin=builtin, overrides=over) as th:
            nx, ny, nz = th.cells
            x = (np.arange(nx) + 0.5) / nx
            T = np.broadcast_to((500.0 + 2800.0 * x * (1 - x))[:, None, None], th.cells).ravel().copy()
            T += 30.0 * (np.arange(T.size) % 7)
            xw = np.broadcast_to((0.1 + 0.05 * x)[:, None, None], th.cells).ravel().copy()
            xc = np.full(T.size, 0.1)
            kw = {"x_h2o": xw, "x_co2": xc} if wsgg else {}
            qh, sh = th.solve(T, **kw)
            wh, _ = th.wall_flux("x_lo")
            d = {k: DeviceArray(rt, v) for k, v in (("T", T), ("xw", xw), ("xc", xc))}
            q_d, s_d = DeviceArray(rt, np.zeros(T.size)), DeviceArray(rt, np.zeros(T.size))
            kd = {"x_h2o": d["xw"], "x_co2": d["xc"]} if wsgg else {}
            th.solve(d["T"], **kd, out=q_d, sigma_out=s_d)
            wd, _ = th.wall_flux("x_lo")
            same = (np.array_equal(q_d.get(), qh) and np.array_equal(s_d.get(), sh)
                    and np.array_equal(wd, wh))
            print(f"{builtin}: mean Q {qh.mean():.6g} W/m^3; device arrays "
                  f"{'give' if same else 'DO NOT give'} the NumPy arrays' bits")
            failures += 0 if same and qh.mean() != 0 else 1
            for a in list(d.values()) + [q_d, s_d]:
                a.free()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

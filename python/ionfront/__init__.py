"""ionfront: Python interface to libionfront (radiative transfer of ionizing photons).

    import ionfront
    with ionfront.Engine(builtin="iliev1", overrides={"grid.N": 32}) as e:
        while e.time_s < e.t_end_s:
            e.step(e.dt_s)
        print(e.x_HII.mean())        # a NumPy view of the engine's x_HII, no copy

Why ctypes: the package is pure Python over the stable C API (include/ionfront.h), so
installing it needs no compiler and no Python headers, one wheel-less source tree works
with any Python 3 and any build of libionfront (CPU or CUDA) whose IONF_API_VERSION
matches, and the C API stays the one interface to keep stable.  The calls are coarse
(a step is milliseconds to minutes), so ctypes' per-call overhead does not matter; the
arrays cross without copies: fields are NumPy views on the engine's host arrays
(np.ctypeslib.as_array) and inputs are passed by pointer when already C-contiguous
float64.

The library is found at $IONFRONT_LIBRARY, next to this package (libionfront.so, where
`pip install .` from the repository's root puts it), in the prefix `cmake --install` put
it in, or on the system's library path.

A pyC2Ray script's workflow (python/examples/pyc2ray_tutorial.py): e.z, e.cosmology,
e.hubble_per_s(z), e.age_at_redshift(z), e.redshift_at_time(t); per redshift slice
e.set_density(n_H, z=zi) (a NumPy density of that redshift) and
e.evolve_to(zf, steps=k, sources=fn) (k equal steps, fn(engine, z, dt_s) -> (positions,
Ndot) before each); fields e.x_HII, e.Gamma_HI, e.T, e.n_H as NumPy views.

Thermal radiation (problem: thermal; docs/thermal.md): ionfront.Thermal(builtin=
"thermal_slab") and .solve(T, x_h2o=, x_co2=, p=) -> (Q^R, sigma) for a flow solver's
coupling loop, with NumPy arrays or GPU arrays (__cuda_array_interface__);
python/examples/thermal_coupling.py.

Messages: the library prints nothing itself.  Its progress lines (output.progress) and
warnings go to the `logging` logger "ionfront" (INFO and WARNING records) unless
set_log_handler(fn) sends them elsewhere (or None drops them).

MPI: with mpi4py, pass a communicator (comm=MPI.COMM_WORLD); mpi4py then owns MPI.
Without it, the library starts MPI itself (a single rank unless run under mpirun) and
finalizes it at exit.  Calls marked collective in the C header must be made on every
rank.
"""
import atexit
import ctypes
import json
import logging
import os
import weakref

import numpy as np

from . import _lib

__all__ = ["Engine", "Thermal", "IonfrontError", "version", "library_path", "POSITION_CELLS", "POSITION_CM",
           "MYR_S", "KPC_CM", "set_log_handler", "log_to_logging", "LOG_INFO", "LOG_RANK_INFO",
           "LOG_WARNING"]

_LIB, _LIB_PATH = _lib.load()
API_VERSION = 2
if _LIB.ionf_api_version() != API_VERSION:
    raise ImportError(f"ionfront: {_LIB_PATH} has C API version {_LIB.ionf_api_version()}, "
                      f"this package needs {API_VERSION}")

MYR_S = 3.15576e13              # megayear [s] (src/core/constants.h)
KPC_CM = 3.0856775814913673e21  # kiloparsec [cm]
POSITION_CELLS = _lib.POSITION_CELLS
POSITION_CM = _lib.POSITION_CM
LOG_INFO = _lib.LOG_INFO            # about the whole run (progress lines), on rank 0 only
LOG_RANK_INFO = _lib.LOG_RANK_INFO  # about one rank
LOG_WARNING = _lib.LOG_WARNING

_logger = logging.getLogger("ionfront")


def log_to_logging(level, text):
    """The default log handler: a record of the "ionfront" logger, WARNING for warnings
    and INFO otherwise."""
    _logger.log(logging.WARNING if level >= LOG_WARNING else logging.INFO, text)


_log_callback = None  # the C callback the library holds: kept alive here


def set_log_handler(fn):
    """Where libionfront's messages go from now on: fn(level, text) with level LOG_INFO,
    LOG_RANK_INFO or LOG_WARNING and text one line (str), called during the library's
    calls (it must not call into ionfront; an exception it raises is printed and
    ignored); None drops them.  The default is log_to_logging."""
    global _log_callback
    if fn is None:
        callback = _lib.LOG_HANDLER()  # NULL: the library drops its messages
    else:
        def callback_py(level, text, _user):
            fn(level, text.decode("utf-8", errors="replace"))
        callback = _lib.LOG_HANDLER(callback_py)
    _LIB.ionf_set_log_handler(callback, None)
    _log_callback = callback


set_log_handler(log_to_logging)


class IonfrontError(RuntimeError):
    """A failed libionfront call: .status (the C code), .status_name, .message (the C text)."""

    def __init__(self, status, message):
        self.status = status
        self.status_name = _LIB.ionf_status_name(status).decode()
        self.message = message
        super().__init__(f"{message} [{self.status_name}]")


def version():
    """libionfront's version and git commit."""
    return _LIB.ionf_version_string().decode()


def library_path():
    """The libionfront.so this package loaded."""
    return _LIB_PATH


def _check(status, handle=None):
    if status != _lib.STATUS_OK:
        raise IonfrontError(status, _LIB.ionf_last_error_message(handle).decode(errors="replace"))


def _override_text(key, value):
    """'section.key=VALUE' with VALUE as YAML (JSON is YAML) unless already text."""
    if isinstance(value, str):
        return f"{key}={value}"
    if isinstance(value, bool):
        return f"{key}={'true' if value else 'false'}"
    if isinstance(value, np.ndarray):
        value = value.tolist()
    return f"{key}={json.dumps(value)}"


def _comm_handle(comm):
    if comm is None:
        return _lib.COMM_WORLD
    if hasattr(comm, "py2f"):  # mpi4py
        return int(comm.py2f())
    return int(comm)  # a Fortran handle already


def _create_handle(prefix, config, yaml, builtin, overrides, comm):
    """A library handle from PREFIX_create_from_yaml / _builtin / _from_file (config None:
    the file call's NULL, the default problem) with the overrides (a dict or "a.b=V"
    strings) on the communicator; raises IonfrontError on failure."""
    if isinstance(overrides, dict):
        items = [_override_text(k, v) for k, v in overrides.items()]
    else:
        items = list(overrides or [])
    arr = (ctypes.c_char_p * max(len(items), 1))(*[s.encode() for s in items])
    handle = ctypes.c_void_p()
    comm_f = _comm_handle(comm)
    if yaml is not None:
        rc = getattr(_LIB, prefix + "_create_from_yaml")(yaml.encode(), arr, len(items), comm_f,
                                                          ctypes.byref(handle))
    elif builtin is not None:
        rc = getattr(_LIB, prefix + "_create_builtin")(builtin.encode(), arr, len(items), comm_f,
                                                        ctypes.byref(handle))
    else:
        path = os.fspath(config).encode() if config is not None else None
        rc = getattr(_LIB, prefix + "_create_from_file")(path, arr, len(items), comm_f,
                                                          ctypes.byref(handle))
    _check(rc)
    return handle


class _Handle:
    """A library handle's life cycle: close() (collective) through the class's _destroy
    call, a context manager, closed when collected; _h raises once closed."""

    _destroy = None
    _what = "the handle"

    def close(self):
        if getattr(self, "_handle", None) is not None:
            getattr(_LIB, self._destroy)(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    @property
    def _h(self):
        if self._handle is None:
            raise IonfrontError(11, f"{self._what} is closed")
        return self._handle


class Engine(_Handle):
    """One ionfront engine (a grid run).  Use as a context manager, or call close().

    Engine(config="run.yaml") | Engine(yaml="grid: {N: 32} ...") | Engine(builtin="iliev1"),
    with overrides={"grid.N": 64, "time.dt": "10 Myr"} (or a list of "a.b=VALUE" strings)
    and comm=an mpi4py communicator (MPI_COMM_WORLD; default).  Collective.
    """

    def __init__(self, config=None, *, yaml=None, builtin=None, overrides=None, comm=None):
        if sum(x is not None for x in (config, yaml, builtin)) > 1:
            raise ValueError("give one of config, yaml and builtin")
        self._handle = None
        self._handle = _create_handle("ionf_engine", config, yaml, builtin, overrides, comm)
        self._comm = comm
        _live.add(self)

    _destroy = "ionf_engine_destroy"
    _what = "the engine"

    def close(self):
        """Free the engine (collective).  Field views taken from it must not be used after."""
        _Handle.close(self)

    # -- kind, grid and time
    @property
    def is_particles(self):
        """True for a run on SPH particles (a particles: section in the config)."""
        kind = ctypes.c_int()
        _check(_LIB.ionf_engine_kind(self._h, ctypes.byref(kind), None), self._h)
        return kind.value == 1

    @property
    def particle_count(self):
        """Number of particles (0 for a grid run)."""
        count = ctypes.c_int64()
        _check(_LIB.ionf_engine_kind(self._h, None, ctypes.byref(count)), self._h)
        return count.value

    @property
    def n(self):
        """Cells per side."""
        n = ctypes.c_int64()
        _check(_LIB.ionf_engine_grid(self._h, ctypes.byref(n), None, None), self._h)
        return n.value

    @property
    def local_box(self):
        """The cells this rank holds: (first, extent, halo), first and extent per axis in
        global cell indices (halo included).  The fields are arrays of `extent`; today every
        rank holds the whole grid, first (0, 0, 0) and extent (n, n, n)."""
        first, extent = (ctypes.c_int64 * 3)(), (ctypes.c_int64 * 3)()
        halo = ctypes.c_int64()
        _check(_LIB.ionf_engine_local_box(self._h, first, extent, ctypes.byref(halo)), self._h)
        return tuple(first), tuple(extent), halo.value

    @property
    def cell_cm(self):
        """Cell size [cm], proper at the current time."""
        c = ctypes.c_double()
        _check(_LIB.ionf_engine_grid(self._h, None, None, ctypes.byref(c)), self._h)
        return c.value

    @property
    def box_cm(self):
        return self.cell_cm * self.n

    def _time(self):
        t, dt, t_end = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
        step = ctypes.c_int64()
        _check(_LIB.ionf_engine_time(self._h, ctypes.byref(t), ctypes.byref(step), ctypes.byref(dt),
                                     ctypes.byref(t_end)), self._h)
        return t.value, step.value, dt.value, t_end.value

    @property
    def time_s(self):
        return self._time()[0]

    @property
    def steps(self):
        return self._time()[1]

    @property
    def dt_s(self):
        """The config's time.dt [s]."""
        return self._time()[2]

    @property
    def t_end_s(self):
        """The config's time.t_end [s]."""
        return self._time()[3]

    @property
    def rank(self):
        r, s = ctypes.c_int(), ctypes.c_int()
        _check(_LIB.ionf_engine_rank(self._h, ctypes.byref(r), ctypes.byref(s)), self._h)
        return r.value

    @property
    def size(self):
        r, s = ctypes.c_int(), ctypes.c_int()
        _check(_LIB.ionf_engine_rank(self._h, ctypes.byref(r), ctypes.byref(s)), self._h)
        return s.value

    # -- fields
    def field(self, name):
        """The engine's float64 array `name` (n_H, T, x_HII, Gamma_HI, ...) over this rank's
        local box (shape: local_box's extent) as a NumPy view, no copy; valid until close().  Particle runs: (count,) arrays (x_HII, T,
        Gamma_HI, n_H, h_cm, mass_g) and position_cm (count, 3).  After writing into it call
        field_modified(name).  Collective (synchronizes the GPU)."""
        ptr = _lib._c_double_p()
        dims = (ctypes.c_int64 * 3)()
        _check(_LIB.ionf_engine_field(self._h, name.encode(), ctypes.byref(ptr), dims), self._h)
        if self.is_particles:  # (count,) per particle, (count, 3) for position_cm
            shape = (dims[0],) if dims[1] == 1 else (dims[0], dims[1])
        else:
            shape = (dims[0], dims[1], dims[2])
        return np.ctypeslib.as_array(ptr, shape=shape)

    def field_modified(self, name):
        """Take the caller's writes into field `name` (n_H, T, x_*) in.  Collective."""
        _check(_LIB.ionf_engine_field_modified(self._h, name.encode()), self._h)

    def set_field(self, name, values):
        """Copy an array of the local box's shape (or its cell count of values) into field
        `name`; refused values leave the field as it was.  Passed by pointer
        without a copy when already C-contiguous float64.  Collective."""
        a = np.ascontiguousarray(values, dtype=np.float64)
        _check(_LIB.ionf_engine_set_field(self._h, name.encode(),
                                          a.ctypes.data_as(_lib._c_double_p), a.size), self._h)

    @property
    def x_HII(self):
        return self.field("x_HII")

    @property
    def Gamma_HI(self):
        return self.field("Gamma_HI")

    @property
    def n_H(self):
        return self.field("n_H")

    @property
    def T(self):
        return self.field("T")

    # -- sources
    def set_sources(self, positions, ndot_per_s, units="cells"):
        """Replace the point sources: positions (count, 3) in cells (0-based, truncated) or
        cm (units="cm"), rates ndot_per_s (count,) [photons/s].  Collective: every rank
        passes the same sources."""
        pos = np.ascontiguousarray(positions, dtype=np.float64).reshape(-1, 3)
        ndot = np.ascontiguousarray(ndot_per_s, dtype=np.float64).reshape(-1)
        if len(ndot) != len(pos):
            raise ValueError(f"{len(pos)} positions but {len(ndot)} rates")
        code = {"cells": POSITION_CELLS, "cm": POSITION_CM}.get(units)
        if code is None:
            raise ValueError(f"units {units!r}: 'cells' or 'cm'")
        _check(_LIB.ionf_engine_set_sources(self._h, len(ndot), pos.ctypes.data_as(_lib._c_double_p),
                                            code, ndot.ctypes.data_as(_lib._c_double_p)), self._h)

    @property
    def source_count(self):
        c = ctypes.c_int64()
        _check(_LIB.ionf_engine_source_count(self._h, ctypes.byref(c)), self._h)
        return c.value

    # -- stepping and outputs
    def step(self, dt_s):
        """Advance by dt_s seconds; returns the ray-tracing/chemistry iterations.  Collective."""
        it = ctypes.c_int()
        _check(_LIB.ionf_engine_step(self._h, float(dt_s), ctypes.byref(it)), self._h)
        return it.value

    def run(self):
        """Run to time.t_end with the config's outputs, as `ionfront run`.  Collective.

        output.directory must not hold another run's files unless output.overwrite is
        true or the engine was restarted from a checkpoint there (include/ionfront.h)."""
        _check(_LIB.ionf_engine_run(self._h), self._h)

    def write_snapshot(self, index):
        """Write output.directory/snapshot_NNNN.h5 now; returns its path.  Collective."""
        buf = ctypes.create_string_buffer(4096)
        _check(_LIB.ionf_engine_write_snapshot(self._h, int(index), buf, len(buf)), self._h)
        return buf.value.decode()

    def write_checkpoint(self):
        """Write output.directory/checkpoint.h5; returns its path.  Collective."""
        buf = ctypes.create_string_buffer(4096)
        _check(_LIB.ionf_engine_write_checkpoint(self._h, buf, len(buf)), self._h)
        return buf.value.decode()

    def restart(self, checkpoint_path):
        """Continue from a checkpoint (right after creation).  Collective."""
        _check(_LIB.ionf_engine_restart(self._h, os.fspath(checkpoint_path).encode()), self._h)

    # -- redshifts and cosmology (grid runs): a pyC2Ray script's workflow
    #
    # Every grid run has a flat LCDM background (the config's cosmology: section or its
    # defaults) that dates its times, time 0 being cosmology.z_initial; the box expands
    # only when cosmology.cosmological is true (a static run's dates change nothing, as in
    # pyC2Ray's test runs).  None of these calls is collective, except set_density and
    # evolve_to.
    def _cosmology(self):
        flag = ctypes.c_int()
        vals = [ctypes.c_double() for _ in range(6)]
        _check(_LIB.ionf_engine_cosmology(self._h, ctypes.byref(flag),
                                          *[ctypes.byref(v) for v in vals]), self._h)
        return flag.value, [v.value for v in vals]

    @property
    def cosmological(self):
        """True when the box expands (cosmology.cosmological)."""
        return bool(self._cosmology()[0])

    @property
    def cosmology(self):
        """The run's flat LCDM: a dict of h, Omega_m, Omega_b, Omega_Lambda, T_cmb [K] (today)
        and z_initial (the redshift at time 0)."""
        _, (h, om, ob, ol, tcmb, z0) = self._cosmology()
        return {"h": h, "Omega_m": om, "Omega_b": ob, "Omega_Lambda": ol, "T_cmb": tcmb,
                "z_initial": z0}

    @property
    def z(self):
        """The redshift now (a production run standing on a listed redshift: that one)."""
        z = ctypes.c_double()
        _check(_LIB.ionf_engine_redshift(self._h, ctypes.byref(z)), self._h)
        return z.value

    def _scalar_call(self, fn, x):
        out = ctypes.c_double()
        _check(fn(self._h, float(x), ctypes.byref(out)), self._h)
        return out.value

    def _map(self, fn, x):
        """fn of a number, or elementwise of an array (same shape)."""
        if np.ndim(x) == 0:
            return self._scalar_call(fn, x)
        a = np.asarray(x, dtype=np.float64)
        return np.array([self._scalar_call(fn, v) for v in a.ravel()]).reshape(a.shape)

    def age_at_redshift(self, z):
        """Cosmic age [s] at redshift z (a number or an array)."""
        return self._map(_LIB.ionf_engine_age_at_redshift, z)

    def redshift_at_age(self, age_s):
        """The redshift at cosmic age age_s [s] (a number or an array)."""
        return self._map(_LIB.ionf_engine_redshift_at_age, age_s)

    def time_at_redshift(self, z):
        """The simulation time [s] of redshift z: age(z) - age(z_initial)."""
        return self.age_at_redshift(z) - self.age_at_redshift(self.cosmology["z_initial"])

    def redshift_at_time(self, time_s):
        """The redshift at simulation time time_s [s] (a number or an array); pyC2Ray's
        list of redshifts equally spaced in time is redshift_at_time(dt * np.arange(n))."""
        return self.redshift_at_age(np.asarray(time_s, dtype=np.float64) +
                                    self.age_at_redshift(self.cosmology["z_initial"]))

    @property
    def age_s(self):
        """The cosmic age now [s]: age(z_initial) + time_s."""
        return self.age_at_redshift(self.cosmology["z_initial"]) + self.time_s

    def hubble_per_s(self, z=None):
        """The Hubble rate H(z) [1/s] (z: a number or an array; default the redshift now)."""
        return self._map(_LIB.ionf_engine_hubble, self.z if z is None else z)

    def set_density(self, n_H, z=None, comoving=False):
        """Set n_H [cm^-3] of this rank's cells (local_box's shape) as the density of redshift
        z (default: the redshift now), proper at z, or comoving (at a = 1) with comoving=True
        (multiplied by (1 + z)^3 here): a pyC2Ray script's density of a redshift, set before
        that redshift's steps.  In an expanding box the following steps dilute it from z, each
        to the redshift of its middle; in a static run this is set_field("n_H", n_H).  Values
        that are refused leave n_H as it was.  Collective."""
        z = self.z if z is None else float(z)
        a = np.ascontiguousarray(n_H, dtype=np.float64)
        if comoving:
            a = a * (1.0 + z) ** 3
        _check(_LIB.ionf_engine_set_density(self._h, a.ctypes.data_as(_lib._c_double_p), a.size,
                                            z), self._h)

    def evolve_to(self, z, steps=1, sources=None, units="cells", on_step=None):
        """Advance to redshift z in `steps` equal steps of time, as a pyC2Ray script does
        between two redshifts (dt = (t(z) - t(now)) / steps, its set_timestep; then, per step,
        its cosmo_evolve and evolve3D): in an expanding box each step stands at the redshift of
        its middle (n_H diluted, proper cell size, T_CMB and H for the thermal terms), and ray
        tracing and chemistry iterate to convergence.  The last step ends on z's time exactly.

        sources: None keeps the sources; or sources(engine, z, dt_s), called before each step
        with the redshift at the step's start and its length [s], returns (positions, ndot_per_s)
        (positions (n, 3) in `units`, "cells" or "cm"; photons/s), or None to keep the last ones.
        on_step: on_step(engine, iterations), called after each step (analysis, outputs).
        Returns the iterations of the steps (a list).  Collective: under MPI every rank calls
        it, and its source function returns the same sources on every rank."""
        steps = int(steps)
        if steps < 1:
            raise ValueError(f"steps = {steps}: at least 1")
        t_end = self.time_at_redshift(z)
        t_now = self.time_s
        if not t_end - t_now > 1e-12 * self.age_at_redshift(z):
            raise ValueError(f"z = {z} is not later than the engine's redshift {self.z}")
        dt = (t_end - t_now) / steps
        iterations = []
        for k in range(steps):
            dt_k = dt if k < steps - 1 else t_end - self.time_s
            if sources is not None:
                got = sources(self, self.z, dt_k)
                if got is not None:
                    self.set_sources(got[0], got[1], units=units)
            iterations.append(self.step(dt_k))
            if on_step is not None:
                on_step(self, iterations[-1])
        return iterations


_live = weakref.WeakSet()  # engines still open at exit are closed before MPI ends

from .thermal import Thermal  # noqa: E402  (it uses the names above)


@atexit.register
def _finalize():
    for engine in list(_live):
        engine.close()
    # finalizes MPI only if the library started it (not when mpi4py or the caller did)
    _LIB.ionf_finalize()
    set_log_handler(None)  # no calls into Python while the interpreter goes down

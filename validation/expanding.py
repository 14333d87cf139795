#!/usr/bin/env python3
"""Validation: a Stroemgren sphere in an expanding universe (pyC2Ray Test 2).

Runs ionfront on the built-in `expanding` problem (a 1e54 s^-1 grey source
switched on at z = 9 in hydrogen of n_H = 1.87e-4 cm^-3 (proper at z = 9) that
dilutes as (1+z)^3; T = 1e4 K; flat LCDM with h = 0.7, Omega_m = 0.27; 500 Myr)
and compares the ionization front with the analytic solution of Shapiro &
Giroux (1987):

  r_I = r_S,i y^(1/3)   (comoving, a = 1 at switch-on)
  y(t) = lambda e^(lambda t_i/t) [ (t/t_i) E_2(lambda t_i/t) - E_2(lambda) ]
  r_S,i = (3 Ndot / (4 pi alpha n_i^2))^(1/3),  lambda = t_i / t_rec,i,
  t_rec,i = 1 / (alpha n_i),  t, t_i cosmic ages (t_i at z = 9).

The cosmic age is t(z) = 2/(3 H0 sqrt(Omega_L)) asinh(sqrt(Omega_L/Omega_m)
(1+z)^(-3/2)); ionfront's front (ifront.csv: proper kpc along +x from the source
cell centre) is brought to the solution's normalisation as r (1+z)/(1+z_i), with
z from inverting that formula at t = t_i + time.

Writes, into --out:
  expanding_ifront.png  r_I(t) of ionfront, Shapiro & Giroux and the static-medium
                        Stroemgren curve; r_I / r_SG87 below
  expanding_numbers.md  the numbers table (also printed)

Exit code: 0 pass; 1 if r_I / r_SG87 leaves 0.95..1.05 at any time from 20 Myr
on (or the run failed); 77 if numpy, h5py or matplotlib cannot be imported
(ctest reports a skip). E_2 comes from scipy when it is installed, else from a
Gauss-Legendre quadrature of E_2(x) = int_0^1 exp(-x/u) du.

Run with /usr/bin/python3.
"""
import datetime
import glob
import math
import os
import re
import shlex
import sys

try:
    import numpy as np
    import h5py
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as exc:  # reported by main(), exit code 77
    IMPORT_ERROR = exc
else:
    IMPORT_ERROR = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vutil import (REPO, fmt, front_along_x, obtain_run, read_csv, rel,  # noqa: E402
                   run_ionfront, run_provenance, same_time, skip_missing_modules)
from vutil import parse_validation_args  # noqa: E402

try:
    from scipy.special import expn as _scipy_expn
except ImportError:
    _scipy_expn = None

NAME = "expanding"

KPC = 3.0856775814913673e21   # cm
MPC = 1e3 * KPC
MYR = 3.15576e13          # s (Julian year, as ionfront)

# The problem (pyC2Ray Test 2; ionfront's `expanding` example).
NDOT = 1.0e54             # s^-1
N_I = 1.87e-4             # cm^-3, proper at z_i
ALPHA = 2.59e-13          # cm^3 s^-1 (case B at 1e4 K)
Z_I = 9.0
H = 0.7
OMEGA_M = 0.27
N_DEFAULT = 128           # the built-in source sits at cell 64 of 128

CHECK_FROM = 20.0         # Myr: the ratio is checked at t >= 20 Myr
TOLERANCE = 0.05
TABLE_TIMES = [10, 20, 30, 50, 100, 150, 200, 250, 300, 400, 500]   # Myr


# ---------------------------------------------------------------- the analytic solution

class Cosmology:
    """Flat LCDM, matter + Lambda (as ionfront's cosmology module)."""

    def __init__(self, h, omega_m):
        self.h, self.omega_m, self.omega_l = h, omega_m, 1.0 - omega_m
        self.h0 = 100.0 * h * 1e5 / MPC      # s^-1

    def age_s(self, z):
        sl = math.sqrt(self.omega_l)
        return 2.0 / (3.0 * self.h0 * sl) * np.arcsinh(
            math.sqrt(self.omega_l / self.omega_m) * (1.0 + np.asarray(z, float)) ** -1.5)

    def redshift(self, t_s):
        sl = math.sqrt(self.omega_l)
        a32 = np.sinh(1.5 * self.h0 * sl * np.asarray(t_s, float)) / math.sqrt(
            self.omega_l / self.omega_m)
        return a32 ** (-2.0 / 3.0) - 1.0


_GL_U, _GL_W = None, None


def expint_e2(x):
    """E_2(x) for x > 0: scipy's expn(2, x), else 400-point Gauss-Legendre of
    int_0^1 exp(-x/u) du (the substitution u = 1/t in int_1^inf exp(-x t)/t^2 dt)."""
    x = np.asarray(x, dtype=float)
    if _scipy_expn is not None:
        return _scipy_expn(2, x)
    global _GL_U, _GL_W
    if _GL_U is None:
        u, w = np.polynomial.legendre.leggauss(400)
        _GL_U, _GL_W = 0.5 * (u + 1.0), 0.5 * w
    xs = np.atleast_1d(x)
    out = np.exp(-xs[:, None] / _GL_U[None, :]) @ _GL_W
    return out.reshape(x.shape)


class Solution:
    """Shapiro & Giroux (1987): comoving front with a = 1 at switch-on."""

    def __init__(self, ndot, n_i, alpha, z_i, cosmo):
        self.cosmo, self.z_i = cosmo, z_i
        self.t_i = float(cosmo.age_s(z_i))                   # s
        self.t_rec = 1.0 / (alpha * n_i)                     # s
        self.lam = self.t_i / self.t_rec
        self.r_s = (3.0 * ndot / (4.0 * math.pi * alpha * n_i ** 2)) ** (1.0 / 3.0) / MPC   # Mpc

    def y(self, time_myr):
        t = self.t_i + np.asarray(time_myr, float) * MYR
        x = self.lam * self.t_i / t
        return self.lam * np.exp(x) * ((t / self.t_i) * expint_e2(x) - expint_e2(self.lam))

    def r_front(self, time_myr):
        """Comoving r_I (a = 1 at switch-on) [Mpc] at time_myr after switch-on."""
        return self.r_s * np.cbrt(np.maximum(self.y(time_myr), 0.0))

    def r_static(self, time_myr):
        """The Stroemgren front of a static medium at the initial density [Mpc]."""
        return self.r_s * (1.0 - np.exp(-np.asarray(time_myr, float) * MYR / self.t_rec)) ** (1 / 3)

    def z(self, time_myr):
        return self.cosmo.redshift(self.t_i + np.asarray(time_myr, float) * MYR)


# ---------------------------------------------------------------- running ionfront


def run_problem(ionfront, n, dt, run_dir):
    """Run the expanding problem into run_dir (command.txt, elapsed_s.txt, ionfront.log besides)."""
    overrides = [f"grid.N={n}", f"time.dt={dt}"]
    if n != N_DEFAULT:   # the built-in source sits at cell 64: keep it in the middle
        c = n // 2
        overrides.append(f"sources=[{{position: [{c}, {c}, {c}], Ndot: {NDOT:.1e}}}]")
    run_ionfront(ionfront, NAME, overrides + ["output.xdmf=false"], run_dir)


# ---------------------------------------------------------------- reading the run


def front_along_x_cells(x_hi_row, i0):
    """x_HI = 0.5 crossing along +x from the source cell i0's centre, in cells."""
    return front_along_x(x_hi_row[i0:], 1.0)


def config_value(config, key, default=None):
    m = re.search(rf"^\s*{key}:\s*([^#\n]*?)\s*(#.*)?$", config, re.M)
    return m.group(1).strip('"\'') if m else default


class Run:
    def __init__(self, run_dir):
        self.dir = run_dir
        paths = sorted(glob.glob(os.path.join(run_dir, "snapshot_[0-9]*.h5")))
        if not paths:
            raise RuntimeError(f"no snapshot_NNNN.h5 in {run_dir}")
        self.snap_z = {}        # t [Myr] -> redshift attribute
        self.snap_front = {}    # t [Myr] -> comoving front (a_i = 1) from the snapshot [Mpc]
        self.created = None
        self.config = None
        for p in paths:
            with h5py.File(p, "r") as f:
                if self.config is None:
                    self.config = f.attrs["config"]
                    if isinstance(self.config, bytes):
                        self.config = self.config.decode()
                    self.n = int(f.attrs["N"])
                    self.box_cm = float(f.attrs["box_size_cm"])   # comoving (z = 0)
                    m = re.search(r"position:\s*\[\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\]",
                                  self.config)
                    self.src = tuple(int(v) for v in m.groups()) if m else None
                t = float(f.attrs["time_s"]) / MYR
                self.created = f.attrs.get("created", self.created)
                if "redshift" in f.attrs:
                    self.snap_z[t] = float(f.attrs["redshift"])
                if t > 0 and self.src is not None:
                    i, j, k = self.src
                    row = 1.0 - f["Grid/x_HII"][:, j, k]
                    self.snap_front[t] = front_along_x_cells(row, i)
        if config_value(self.config, "cosmological") != "true":
            raise RuntimeError(f"{run_dir}: not a cosmological run")
        self.z_i = float(config_value(self.config, "z_initial", Z_I))
        self.h = float(config_value(self.config, "h", H))
        self.omega_m = float(config_value(self.config, "Omega_m", OMEGA_M))
        self.n_i = float(config_value(self.config, "n_H", N_I))
        self.ndot = float(config_value(self.config, "Ndot", NDOT))
        self.alpha = float(config_value(self.config, "alpha_B", ALPHA))
        self.dt = config_value(self.config, "dt", "?")
        for name, v, want in (("z_initial", self.z_i, Z_I), ("h", self.h, H),
                              ("Omega_m", self.omega_m, OMEGA_M), ("n_H", self.n_i, N_I),
                              ("Ndot", self.ndot, NDOT), ("alpha_B", self.alpha, ALPHA)):
            if abs(v - want) > 1e-6 * abs(want):
                raise RuntimeError(f"{run_dir}: {name} = {v:g}, not the {want:g} of the "
                                   "expanding-universe test")
        if re.search(r"^\s*isothermal:\s*false", self.config, re.M):
            raise RuntimeError(f"{run_dir}: the temperature evolves; the analytic solution "
                               "needs an isothermal run")
        # comoving cell with a = 1 at switch-on
        self.cell_mpc = self.box_cm / self.n / (1.0 + self.z_i) / MPC
        for t in list(self.snap_front):
            self.snap_front[t] = self.snap_front[t] * self.cell_mpc

        csv = os.path.join(run_dir, "ifront.csv")
        if not os.path.exists(csv):
            raise RuntimeError(f"no ifront.csv in {run_dir} (ionfront writes it for one source)")
        c = read_csv(csv)
        order = np.argsort(c["time_Myr"])
        self.t = c["time_Myr"][order]
        self.r_proper_kpc = np.where(c["r_numeric_kpc"] >= 0, c["r_numeric_kpc"], np.nan)[order]

        info = run_provenance(run_dir)   # command, wall time and version of the run
        self.wall_s, self.command = info["wall_s"], info["command"]
        self.elapsed, self.version = info["elapsed"], info["version"]

    def dt_myr(self):
        m = re.fullmatch(r"([0-9.eE+-]+)\s*(Myr)?", self.dt or "")
        return float(m.group(1)) if m else None

    def analyse(self, sol):
        """Comoving front (a_i = 1) and ratio at every ifront.csv row; consistency notes."""
        self.z = sol.z(self.t)
        self.r_com = self.r_proper_kpc / 1e3 * (1.0 + self.z) / (1.0 + self.z_i)
        self.r_sg = sol.r_front(self.t)
        self.ratio = self.r_com / self.r_sg
        self.notes = []
        dz = [abs(z - float(sol.z(t))) for t, z in self.snap_z.items()]
        if dz and max(dz) > 1e-6:
            self.notes.append(f"the snapshots' redshift attribute differs from z(t) of the "
                              f"age formula by up to {max(dz):.2e}")
        self.z_check = max(dz) if dz else None
        dr, z_used = [], []
        for t, r in self.snap_front.items():
            k = np.nonzero(np.isclose(self.t, t, rtol=1e-6, atol=1e-9))[0]
            if len(k) and np.isfinite(r) and r > 0:
                dr.append(abs(self.r_com[k[0]] / r - 1.0))
                # the redshift that ifront.csv's proper radius implies
                z_used.append((t, r * 1e3 * (1.0 + self.z_i) / self.r_proper_kpc[k[0]] - 1.0))
        if dr and max(dr) > 1e-4:
            msg = (f"ifront.csv's proper radius times (1+z)/(1+z_i) differs from the front "
                   f"measured in the snapshots (cells x comoving cell / (1+z_i)) by up to "
                   f"{100 * max(dr):.3f}%")
            dt = self.dt_myr()
            if dt and all(abs(z - float(sol.z(t - 0.5 * dt))) < 1e-6 for t, z in z_used):
                msg += (f": its proper radii were converted with the redshift at the middle of "
                        f"the step, z(t - dt/2), not with z(t) of the row's time (checked at "
                        f"{len(z_used)} snapshot times to 1e-6 in z)")
            self.notes.append(msg)
        self.front_check = max(dr) if dr else None


# ---------------------------------------------------------------- figure

def sci(v):
    """1.87e-4 -> 1.87$\\times$10$^{-4}$ (mathtext), 1e54 -> 10$^{54}$."""
    e = int(math.floor(math.log10(abs(v))))
    m = v / 10 ** e
    mant = "" if abs(m - 1) < 1e-9 else f"{m:.3g}$\\times$"
    return f"{mant}10$^{{{e}}}$"


def plot_front(run, sol, out_png):
    fig, (ax, axr) = plt.subplots(2, 1, sharex=True, figsize=(8, 7.5),
                                  gridspec_kw=dict(height_ratios=[3, 2], hspace=0.06))
    tg = np.linspace(0.0, max(500.0, float(run.t[-1])), 1001)
    ax.plot(tg, sol.r_front(tg), color="k", lw=1.6, ls=(0, (4, 2)), zorder=3,
            label="Shapiro & Giroux (1987)")
    ax.plot(tg, sol.r_static(tg), color="0.55", lw=1.2, ls="-.", zorder=2,
            label=r"static medium: $r_{S,i}(1-e^{-t/t_{rec,i}})^{1/3}$")
    ax.axhline(sol.r_s, color="0.7", lw=0.8, ls=":", zorder=1,
               label=rf"$r_{{S,i}}$ = {sol.r_s:.3f} Mpc")
    ok = np.isfinite(run.r_com)
    ax.plot(run.t[ok], run.r_com[ok], color="tab:red", lw=1.8, marker="o", ms=2.5, zorder=4,
            label=f"ionfront, N = {run.n}$^3$, dt = {run.dt}")
    ax.set_ylabel(r"comoving I-front radius $r_I$ [Mpc] ($a$ = 1 at switch-on)")
    ax.set_ylim(0, 1.15 * sol.r_s)
    ax.set_xlim(0, tg[-1] + 5)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=9, framealpha=0.95)

    # top axis: redshift
    top = ax.secondary_xaxis("top", functions=(
        lambda t: np.asarray(sol.z(np.maximum(t, 0.0))),
        lambda z: (sol.cosmo.age_s(z) - sol.t_i) / MYR))
    top.set_xlabel("redshift z")
    top.set_xticks([9, 8.5, 8, 7.5, 7, 6.5, 6])
    top.set_xticklabels(["9", "8.5", "8", "7.5", "7", "6.5", "6"])

    axr.axhspan(1 - TOLERANCE, 1 + TOLERANCE, color="0.88", zorder=0, label="±5%")
    axr.axhline(1.0, color="k", lw=1.0, ls=(0, (4, 2)), zorder=1)
    axr.axvspan(0, CHECK_FROM, color="0.96", zorder=0, hatch="//", ec="0.8", lw=0,
                label=f"not checked (t < {CHECK_FROM:g} Myr)")
    pos = tg > 0
    axr.plot(tg[pos], sol.r_static(tg[pos]) / sol.r_front(tg[pos]), color="0.55", lw=1.2,
             ls="-.", zorder=2, label="static medium / S&G")
    axr.plot(run.t[ok], run.ratio[ok], color="tab:red", lw=1.8, marker="o", ms=2.5, zorder=4,
             label="ionfront / S&G")
    if run.snap_front:
        ts = np.array(sorted(run.snap_front))
        rs = np.array([run.snap_front[t] for t in ts])
        axr.plot(ts, rs / sol.r_front(ts), ls="none", marker="s", ms=5, mfc="none",
                 mec="tab:red", zorder=5, label="ionfront snapshots / S&G")
    axr.set_ylabel(r"$r_I\,/\,r_{I,\mathrm{SG87}}$")
    axr.set_xlabel("time since switch-on t [Myr]")
    axr.set_ylim(0.85, 1.15)
    axr.grid(alpha=0.3)
    axr.legend(loc="upper right", ncol=2, fontsize=8, framealpha=0.95)
    ax.set_title("Expanding-universe Strömgren sphere (pyC$^2$Ray Test 2), switch-on at "
                 f"z = {run.z_i:g}\n"
                 rf"$\dot N$ = {sci(run.ndot)} s$^{{-1}}$, $n_i$ = {sci(run.n_i)} cm$^{{-3}}$, "
                 rf"$t_{{rec,i}}$ = {sol.t_rec / MYR:.0f} Myr, $\lambda$ = {sol.lam:.3f}; "
                 r"front: $x_{HI}$ = 0.5 along +x", fontsize=10, pad=12)
    fig.savefig(out_png, dpi=130, bbox_inches="tight")
    plt.close(fig)


# ---------------------------------------------------------------- numbers


def numbers(run, sol):
    failures = []
    late = run.t >= CHECK_FROM - 1e-9
    if not np.any(late):
        failures.append(f"no ionfront front at or after {CHECK_FROM:g} Myr")
    bad = late & ~(np.abs(run.ratio - 1.0) <= TOLERANCE)    # nan counts as bad
    for t, q in zip(run.t[bad], run.ratio[bad]):
        failures.append(f"r_I / r_SG87 = {q:.4f} at {t:g} Myr, outside "
                        f"{1 - TOLERANCE:.2f}..{1 + TOLERANCE:.2f}")
    sel = late & np.isfinite(run.ratio)
    worst = (run.t[sel][np.argmax(np.abs(run.ratio[sel] - 1))],
             run.ratio[sel][np.argmax(np.abs(run.ratio[sel] - 1))]) if np.any(sel) else None

    rows = []
    for tt in TABLE_TIMES:
        k = np.nonzero(np.isclose(run.t, tt, rtol=1e-6, atol=1e-9))[0]
        if not len(k):
            continue
        k = k[0]
        t = run.t[k]
        check = ""
        if t >= CHECK_FROM - 1e-9:
            check = "ok" if abs(run.ratio[k] - 1.0) <= TOLERANCE else "**FAIL**"
        snap = next((r for ts, r in run.snap_front.items() if same_time(ts, t)), np.nan)
        ra = float(sol.r_front(t))
        rows.append(f"| {t:g} | {run.z[k]:.3f} | {fmt(run.r_proper_kpc[k], '.1f')} "
                    f"| {fmt(run.r_com[k], '.4f')} | {ra:.4f} | {fmt(run.ratio[k], '.4f')} "
                    f"| {fmt(snap, '.4f')} | {fmt(snap / ra, '.4f')} "
                    f"| {float(sol.r_static(t)):.4f} | {check} |")

    md = ["# Strömgren sphere in an expanding universe: ionfront validation", ""]
    md += ["pyC2Ray Test 2 (Mellema et al. 2006 Test 4): Ndot = 1e54 s^-1 (grey) switched on at "
           f"z_i = {run.z_i:g} in hydrogen of n_H = {run.n_i:.3e} cm^-3 (proper at z_i) diluting as "
           "(1+z)^3, T = 1e4 K fixed, box 22.685 comoving Mpc, 500 Myr. Flat LCDM, "
           f"h = {run.h:g}, Omega_m = {run.omega_m:g}. Analytic front: Shapiro & Giroux (1987), "
           "comoving with a = 1 at switch-on, r_I = r_S,i y^(1/3), "
           "y = lambda e^(lambda t_i/t) [(t/t_i) E_2(lambda t_i/t) - E_2(lambda)].", ""]
    md += ["| parameter | value |", "| --- | --- |",
           f"| alpha_B | {run.alpha:g} cm^3 s^-1 |",
           f"| t_i = t(z_i) | {sol.t_i / MYR:.2f} Myr |",
           f"| t_rec,i = 1/(alpha n_i) | {sol.t_rec / MYR:.2f} Myr |",
           f"| lambda = t_i / t_rec,i | {sol.lam:.4f} |",
           f"| r_S,i | {sol.r_s:.4f} Mpc |",
           f"| E_2 | {'scipy.special.expn' if _scipy_expn is not None else 'Gauss-Legendre quadrature (no scipy)'} |",
           ""]
    md += ["| run | |", "| --- | --- |"]
    md += [f"| command | `{run.command}` |" if run.command else
           f"| command | (not recorded; existing run in `{rel(run.dir)}`) |"]
    md += [f"| made by | `{shlex.join([f'validation/{NAME}.py'] + sys.argv[1:])}` |"]
    if run.version:
        md += [f"| version | {run.version} |"]
    md += [f"| N | {run.n}^3 (cell {1e3 * run.cell_mpc:.2f} kpc comoving with a_i = 1); "
           f"source in cell {list(run.src)} |",
           f"| dt | {run.dt} |",
           f"| wall time | {run.wall_s:.1f} s (sum of log.csv wall_s: the time steps, without output)"
           + (f"; {run.elapsed:.1f} s for the whole ionfront run" if run.elapsed else "") + " |",
           f"| date | {run.created or datetime.date.today().isoformat()} |",
           "| ionfront front | x_HI = 0.5 along +x from the source cell centre (ifront.csv, proper "
           "kpc), times (1+z)/(1+z_i) |",
           ""]
    md += ["## I-front radius", "",
           "t: time since switch-on; z from the age formula at t_i + t. Radii in Mpc comoving "
           "(a = 1 at switch-on) except the proper one. ionfront: ifront.csv's proper radius times "
           "(1+z)/(1+z_i) (the checked one); snapshot: the x_HI = 0.5 crossing along +x in the "
           "snapshot at that time, in cells times the comoving cell / (1+z_i), where there is "
           "one. Static: the Strömgren front of a "
           f"non-expanding medium at n_i, for contrast. Check: |ratio - 1| <= 5% from "
           f"{CHECK_FROM:g} Myr on (every ifront.csv row, not only these).", "",
           "| t [Myr] | z | ionfront, proper [kpc] | ionfront [Mpc] | Shapiro & Giroux [Mpc] "
           "| ratio | snapshot [Mpc] | snapshot ratio | static [Mpc] | check |",
           "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: |"] + rows + [""]
    md += ["## Result", ""]
    if failures:
        md += [f"FAIL: {m}" for m in failures[:20]]
        if len(failures) > 20:
            md += [f"... and {len(failures) - 20} more"]
    else:
        md += [f"PASS: r_I / r_SG87 within {1 - TOLERANCE:.2f}..{1 + TOLERANCE:.2f} at all "
               f"{int(np.sum(late))} steps from {CHECK_FROM:g} Myr on"
               + (f"; largest deviation {worst[1]:.4f} at {worst[0]:g} Myr." if worst else ".")]
    md += [""]
    checks = []
    if run.z_check is not None and run.z_check <= 1e-6:
        checks.append(f"the snapshots' redshift attribute agrees with z(t) of the age formula "
                      f"to {run.z_check:.1e}")
    if run.front_check is not None and run.front_check <= 1e-4:
        checks.append("ifront.csv's proper radius times (1+z)/(1+z_i) agrees with the front "
                      f"measured in the snapshots (cells x comoving cell / (1+z_i)) to "
                      f"{100 * run.front_check:.3f}%")
    if checks:
        md += ["Consistency: " + "; ".join(checks) + ".", ""]
    md += [f"Note: {n}." for n in run.notes] + ([""] if run.notes else [])
    md += [f"Figure: [{NAME}_ifront.png]({NAME}_ifront.png)", ""]
    return "\n".join(md), failures


# ---------------------------------------------------------------- main

def parse_args(argv):
    return parse_validation_args(
        argv, NAME,
        "Expanding-universe Strömgren sphere (pyC2Ray Test 2) validation of ionfront "
        "against Shapiro & Giroux (1987): runs it, writes a figure and a numbers table,"
        " exits 1 if the front is off by > 5% after 20 Myr.",
        full=(N_DEFAULT, "5 Myr"), quick=(64, "10 Myr"), n_note="; the source goes to cell N/2")


def main(argv=None):
    if IMPORT_ERROR is not None:
        return skip_missing_modules(f"{NAME}.py", IMPORT_ERROR)
    args = parse_args(argv)
    run = obtain_run(args, NAME, run_problem, Run)
    if run is None:
        return 1

    sol = Solution(run.ndot, run.n_i, run.alpha, run.z_i, Cosmology(run.h, run.omega_m))
    run.analyse(sol)
    os.makedirs(args.out, exist_ok=True)
    files = [os.path.join(args.out, f"{NAME}_{s}") for s in ("ifront.png", "numbers.md")]
    plot_front(run, sol, files[0])
    md, failures = numbers(run, sol)
    with open(files[1], "w") as f:
        f.write(md)
    print()
    print(md)
    print(f"wrote {', '.join(files)}")
    if failures:
        for m in failures[:20]:
            print(f"{NAME}.py: FAIL: {m}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

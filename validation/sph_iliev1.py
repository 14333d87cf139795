#!/usr/bin/env python3
"""Validation: Iliev et al. (2006) Test 1 on SPH particles.

Runs ionfront on the built-in `iliev1_particles` problem (n_H = 1e-3 cm^-3,
T = 1e4 K, Ndot = 5e48 s^-1, grey; a jittered lattice of count_1d^3 particles
in a 13.2 kpc box with the source at its centre, so that the box holds the
whole sphere) and compares the ionization front with the analytic solution
r_I(t) = r_S (1 - exp(-t/t_rec))^(1/3).

The front: particles binned in radius from the source (shells of 0.2 kpc), the
mass-weighted x_HII of each shell, and the radius where that profile falls
through 0.5 (linear between shell centres).  Also shown: the radius of a
sphere holding the ionized mass, r_vol = (3 M_HII / (4 pi rho))^(1/3).

Writes, into --out:
  sph_iliev1_ifront.png    r_I(t) from the particles and the analytic front; their ratio
  sph_iliev1_profiles.png  x_HI of every particle against r, with the shell means
  sph_iliev1_numbers.md    the numbers table (also printed)

Exit code: 0 pass; 1 if the front is off the analytic one by more than 5% at
30 or 100 Myr (and 200, 500 Myr in full mode), or the run failed; 77 if
numpy, h5py or matplotlib cannot be imported (ctest reports a skip).

--N is count_1d (particles per side).  Run with /usr/bin/python3.
"""
import datetime
import glob
import os
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
from vutil import (fmt, obtain_run, parse_validation_args, read_csv, rel,  # noqa: E402
                   run_ionfront, run_provenance, skip_missing_modules)

NAME = "sph_iliev1"
PROBLEM = "iliev1_particles"

KPC = 3.0856775814913673e21   # cm
MYR = 3.15576e13              # s
NDOT = 5.0e48                 # s^-1
N_H = 1.0e-3                  # cm^-3
ALPHA_B = 2.59e-13            # cm^3 s^-1 at 1e4 K
SOURCE_KPC = np.array([6.6, 6.6, 6.6]) if IMPORT_ERROR is None else None
SHELL_KPC = 0.2
TOLERANCE = 0.05

FULL = (32, "10 Myr")
QUICK = (16, "10 Myr")
FULL_TIMES = [10, 30, 100, 200, 500]
QUICK_TIMES = [10, 30, 100]
FULL_CHECK = [30, 100, 200, 500]
QUICK_CHECK = [30, 100]


def analytic_front_kpc(t_myr):
    r_s = (3.0 * NDOT / (4.0 * np.pi * ALPHA_B * N_H ** 2)) ** (1.0 / 3.0)
    t_rec = 1.0 / (ALPHA_B * N_H)
    return r_s * (1.0 - np.exp(-np.asarray(t_myr) * MYR / t_rec)) ** (1.0 / 3.0) / KPC


def run_problem(ionfront, n, dt, run_dir, times):
    outs = "[" + ", ".join(f"{t} Myr" for t in times) + "]"
    overrides = [f"particles.generate.count_1d={n}", f"time.dt={dt}",
                 f"time.t_end={times[-1]} Myr", f"time.outputs={outs}"]
    run_ionfront(ionfront, PROBLEM, overrides, run_dir)


class Snapshot:
    def __init__(self, path):
        with h5py.File(path, "r") as f:
            self.t_myr = float(f["Header"].attrs["Time"]) / MYR
            p = f["PartType0"]
            pos = p["Coordinates"][...] / KPC
            self.r_kpc = np.linalg.norm(pos - SOURCE_KPC, axis=1)
            self.x = p["IonizedFraction"][...]
            self.mass = p["Masses"][...]

    def profile(self):
        """Shell centres [kpc] and mass-weighted x_HII of the non-empty shells."""
        edges = np.arange(0.0, 6.6 + 1e-9, SHELL_KPC)
        idx = np.digitize(self.r_kpc, edges) - 1
        ok = (idx >= 0) & (idx < len(edges) - 1)
        num = np.bincount(idx[ok], weights=(self.mass * self.x)[ok], minlength=len(edges) - 1)
        den = np.bincount(idx[ok], weights=self.mass[ok], minlength=len(edges) - 1)
        centre = 0.5 * (edges[1:] + edges[:-1])
        good = den > 0
        return centre[good], num[good] / den[good]

    def front_kpc(self):
        r, x = self.profile()
        below = np.nonzero(x < 0.5)[0]
        if len(below) == 0 or below[0] == 0:
            return np.nan
        i = below[0]
        return r[i - 1] + (x[i - 1] - 0.5) / (x[i - 1] - x[i]) * (r[i] - r[i - 1])

    def volume_front_kpc(self, box_kpc=13.2):
        frac = np.sum(self.mass * self.x) / np.sum(self.mass)
        return (3.0 / (4.0 * np.pi) * frac * box_kpc ** 3) ** (1.0 / 3.0)


class Run:
    def __init__(self, run_dir):
        self.dir = run_dir
        files = sorted(glob.glob(os.path.join(run_dir, "snapshot_*.h5")))
        if len(files) < 2:
            raise RuntimeError(f"no snapshots after the initial one in {run_dir}")
        self.snaps = [Snapshot(f) for f in files[1:]]
        with h5py.File(files[0], "r") as f:
            self.n_particles = f["PartType0/Coordinates"].shape[0]
        self.log = read_csv(os.path.join(run_dir, "log.csv"))


def plot_front(run, out):
    t = np.array([s.t_myr for s in run.snaps])
    r = np.array([s.front_kpc() for s in run.snaps])
    rv = np.array([s.volume_front_kpc() for s in run.snaps])
    tt = np.linspace(0.0, t.max(), 300)
    fig, (a, b) = plt.subplots(2, 1, figsize=(6, 6), sharex=True,
                               gridspec_kw={"height_ratios": [2, 1]})
    a.plot(tt, analytic_front_kpc(tt), "k-", label="analytic")
    a.plot(t, r, "o", label="particles: shell x_HII = 0.5")
    a.plot(t, rv, "x", label="particles: ionized-mass sphere")
    a.set_ylabel("r_I [kpc]")
    a.legend()
    a.set_title(f"Test 1 on {run.n_particles} SPH particles")
    b.axhline(1.0, color="k", lw=0.8)
    b.axhspan(1 - TOLERANCE, 1 + TOLERANCE, color="0.9")
    b.plot(t, r / analytic_front_kpc(t), "o")
    b.plot(t, rv / analytic_front_kpc(t), "x")
    b.set_ylabel("r_I / analytic")
    b.set_xlabel("t [Myr]")
    fig.tight_layout()
    path = os.path.join(out, f"{NAME}_ifront.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_profiles(run, out):
    fig, ax = plt.subplots(figsize=(6, 4))
    for s in run.snaps:
        line, = ax.plot(*(lambda rx: (rx[0], 1.0 - rx[1]))(s.profile()), "-",
                        label=f"{s.t_myr:g} Myr")
        ax.scatter(s.r_kpc, 1.0 - s.x, s=1, alpha=0.15, color=line.get_color())
        ax.axvline(analytic_front_kpc(s.t_myr), color=line.get_color(), ls=":", lw=0.8)
    ax.set_yscale("log")
    ax.set_ylim(1e-5, 1.5)
    ax.set_xlim(0, 6.6)
    ax.set_xlabel("r [kpc]")
    ax.set_ylabel("x_HI")
    ax.legend(fontsize=8)
    ax.set_title("x_HI: particles (dots), shell means (lines), analytic fronts (dotted)")
    ax.title.set_fontsize(8)
    fig.tight_layout()
    path = os.path.join(out, f"{NAME}_profiles.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv):
    if IMPORT_ERROR is not None:
        return skip_missing_modules(NAME + ".py", IMPORT_ERROR)
    args = parse_validation_args(argv, NAME, __doc__.splitlines()[0], FULL, QUICK,
                                 n_note=" (particles per side)")
    times = QUICK_TIMES if args.quick else FULL_TIMES
    check = QUICK_CHECK if args.quick else FULL_CHECK
    run = obtain_run(args, NAME, lambda exe, n, dt, d: run_problem(exe, n, dt, d, times), Run)
    if run is None:
        return 1
    rows, failed = [], []
    for s in run.snaps:
        r, rv, ra = s.front_kpc(), s.volume_front_kpc(), analytic_front_kpc(s.t_myr)
        checked = any(abs(s.t_myr - c) < 1e-6 for c in check)
        ok = np.isfinite(r) and abs(r / ra - 1.0) <= TOLERANCE
        if checked and not ok:
            failed.append(s.t_myr)
        rows.append((s.t_myr, r, rv, ra, checked, ok))
    prov = run_provenance(run.dir)
    lines = [f"# Iliev et al. (2006) Test 1 on SPH particles ({'quick' if args.quick else 'full'})",
             "",
             f"{run.n_particles} particles (jittered lattice, 13.2 kpc box, source at the "
             f"centre), dt = {args.dt}; {datetime.date.today().isoformat()}.",
             f"Command: `{prov['command']}`; {prov['version'] or ''}; time steps "
             f"{fmt(prov['wall_s'], '.1f')} s of wall clock.",
             "",
             "| t [Myr] | r_I (shell x = 0.5) [kpc] | r (ionized mass) [kpc] | analytic [kpc] "
             "| ratio | checked (5%) |",
             "|---|---|---|---|---|---|"]
    for t, r, rv, ra, checked, ok in rows:
        lines.append(f"| {t:g} | {fmt(r, '.3f')} | {fmt(rv, '.3f')} | {ra:.3f} | "
                     f"{fmt(r / ra, '.3f')} | {('pass' if ok else 'FAIL') if checked else '—'} |")
    lines.append("")
    lines.append(f"Iterations per step: mean {np.mean(run.log['iterations']):.1f}, "
                 f"max {int(np.max(run.log['iterations']))}.")
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, f"{NAME}_numbers.md"), "w") as f:
        f.write(text)
    for p in (plot_front(run, args.out), plot_profiles(run, args.out)):
        print("wrote", rel(p))
    if failed:
        print(f"{NAME}: FAIL: the front is off the analytic one by more than "
              f"{TOLERANCE:.0%} at t = {failed} Myr", file=sys.stderr)
        return 1
    print(f"{NAME}: PASS: the front is within {TOLERANCE:.0%} of the analytic one at "
          f"{check} Myr")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Validation: Iliev et al. (2006) Test 2 on SPH particles, against ionfront on a grid.

Runs the built-in `iliev2_particles` (Test 2: gas from 100 K heated by a 1e5 K black
body of 5e48 photons/s, n_H = 1e-3 cm^-3; count_1d^3 particles of a jittered lattice,
the source at the centre of a 13.2 kpc box) and the grid's `iliev2` (the same physics,
the source in the corner cell of a 6.6 kpc box), and compares the fronts: particles
binned in radius (0.2 kpc shells, mass-weighted x_HII falling through 0.5, as in
sph_iliev1.py) against the grid's ifront.csv (x_HI = 0.5 along x).  Test 2 has no
analytic solution; the two discretisations of one problem must agree.

Writes, into --out:
  sph_iliev2_ifront.png    r_I(t): particles and grid; their ratio
  sph_iliev2_profiles.png  x_HI and T of the particles against r, with shell means
  sph_iliev2_numbers.md    the numbers table (also printed)

Exit code: 0 pass; 1 if the particle front differs from the grid's by more than 5%
at 30 or 100 Myr (also 200, 500 Myr in full mode), or a run failed; 77 if numpy,
h5py or matplotlib cannot be imported.

--N is count_1d (particles per side); the grid runs at 48^3 (quick) or 64^3 (full).
Run with /usr/bin/python3.
"""
import datetime
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
from vutil import (fmt, parse_validation_args, read_csv, rel,  # noqa: E402
                   run_ionfront, run_provenance, skip_missing_modules)

NAME = "sph_iliev2"
PROBLEM = "iliev2_particles"
TOLERANCE = 0.05
FULL = (32, "10 Myr")
QUICK = (16, "10 Myr")
FULL_TIMES = [10, 30, 100, 200, 500]
QUICK_TIMES = [10, 30, 100]
FULL_CHECK = [30, 100, 200, 500]
QUICK_CHECK = [30, 100]
GRID_N = {True: 48, False: 64}  # 128^3 takes hours on 2 CPU cores


def outputs(times):
    return "[" + ", ".join(f"{t} Myr" for t in times) + "]"


def grid_front(grid_dir, t_myr):
    c = read_csv(os.path.join(grid_dir, "ifront.csv"))
    r = np.where(c["r_numeric_kpc"] >= 0, c["r_numeric_kpc"], np.nan)
    return float(np.interp(t_myr, c["time_Myr"], r))


def main(argv):
    if IMPORT_ERROR is not None:
        return skip_missing_modules(NAME + ".py", IMPORT_ERROR)
    from sph_iliev1 import Run  # the particle snapshots, shells and fronts
    args = parse_validation_args(argv, NAME, __doc__.splitlines()[0], FULL, QUICK,
                                 n_note=" (particles per side)")
    if args.use_existing:
        print(f"{NAME}.py: error: --use-existing is not supported (two runs)", file=sys.stderr)
        return 1
    times = QUICK_TIMES if args.quick else FULL_TIMES
    check = QUICK_CHECK if args.quick else FULL_CHECK
    base = os.path.abspath(args.run_dir or os.path.join("build", f"validation_{NAME}"))
    part_dir, grid_dir = os.path.join(base, "particles"), os.path.join(base, "grid")
    exe = os.path.abspath(args.ionfront)
    try:
        run_ionfront(exe, PROBLEM, [f"particles.generate.count_1d={args.N}", f"time.dt={args.dt}",
                                    f"time.t_end={times[-1]} Myr",
                                    f"time.outputs={outputs(times)}"], part_dir)
        run_ionfront(exe, "iliev2", [f"grid.N={GRID_N[bool(args.quick)]}", f"time.dt={args.dt}",
                                     f"time.t_end={times[-1]} Myr",
                                     f"time.outputs={outputs(times)}", "output.xdmf=false"],
                     grid_dir)
        run = Run(part_dir)
    except (RuntimeError, OSError) as e:
        print(f"{NAME}.py: error: {e}", file=sys.stderr)
        return 1
    rows, failed = [], []
    for s in run.snaps:
        r, rg = s.front_kpc(), grid_front(grid_dir, s.t_myr)
        checked = any(abs(s.t_myr - c) < 1e-6 for c in check)
        ok = np.isfinite(r) and np.isfinite(rg) and abs(r / rg - 1.0) <= TOLERANCE
        if checked and not ok:
            failed.append(s.t_myr)
        rows.append((s.t_myr, r, rg, checked, ok))
    prov = run_provenance(part_dir)
    gn = GRID_N[bool(args.quick)]
    lines = [f"# Iliev et al. (2006) Test 2 on SPH particles against the grid "
             f"({'quick' if args.quick else 'full'})", "",
             f"{run.n_particles} particles (13.2 kpc box, source at the centre) against "
             f"ionfront's grid at {gn}^3 (source in the corner cell), dt = {args.dt}; "
             f"{datetime.date.today().isoformat()}.",
             f"Particle run: `{prov['command']}`; {prov['version'] or ''}; time steps "
             f"{fmt(prov['wall_s'], '.1f')} s of wall clock.", "",
             "| t [Myr] | particles r_I [kpc] | grid r_I [kpc] | ratio | checked (5%) |",
             "|---|---|---|---|---|"]
    for t, r, rg, checked, ok in rows:
        lines.append(f"| {t:g} | {fmt(r, '.3f')} | {fmt(rg, '.3f')} | {fmt(r / rg, '.3f')} | "
                     f"{('pass' if ok else 'FAIL') if checked else '—'} |")
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, f"{NAME}_numbers.md"), "w") as f:
        f.write(text)

    t = np.array([row[0] for row in rows])
    r = np.array([row[1] for row in rows])
    c = read_csv(os.path.join(grid_dir, "ifront.csv"))
    fig, (a, b) = plt.subplots(2, 1, figsize=(6, 6), sharex=True,
                               gridspec_kw={"height_ratios": [2, 1]})
    a.plot(c["time_Myr"], np.where(c["r_numeric_kpc"] >= 0, c["r_numeric_kpc"], np.nan), "k-",
           label=f"grid {gn}^3")
    a.plot(t, r, "o", label=f"{run.n_particles} particles")
    a.set_ylabel("r_I [kpc]")
    a.legend()
    a.set_title("Test 2 (black body, T evolving): particles and grid")
    b.axhline(1.0, color="k", lw=0.8)
    b.axhspan(1 - TOLERANCE, 1 + TOLERANCE, color="0.9")
    b.plot(t, r / np.array([row[2] for row in rows]), "o")
    b.set_ylabel("particles / grid")
    b.set_xlabel("t [Myr]")
    fig.tight_layout()
    p1 = os.path.join(args.out, f"{NAME}_ifront.png")
    fig.savefig(p1, dpi=110)
    plt.close(fig)

    fig, (ax, at) = plt.subplots(1, 2, figsize=(10, 4))
    snaps = sorted(f for f in os.listdir(part_dir)
                   if f.startswith("snapshot_") and f.endswith(".h5"))[1:]
    for k, (s, name) in enumerate(zip(run.snaps, snaps)):
        with h5py.File(os.path.join(part_dir, name), "r") as f:
            temp = f["PartType0/Temperature"][...]
        color = f"C{k}"
        ax.scatter(s.r_kpc, 1.0 - s.x, s=1, alpha=0.2, color=color, label=f"{s.t_myr:g} Myr")
        at.scatter(s.r_kpc, temp, s=1, alpha=0.2, color=color)
    ax.set_yscale("log")
    ax.set_ylim(1e-5, 1.5)
    at.set_yscale("log")
    for axis in (ax, at):
        axis.set_xlim(0, 6.6)
        axis.set_xlabel("r [kpc]")
    ax.set_ylabel("x_HI")
    at.set_ylabel("T [K]")
    ax.legend(fontsize=8, markerscale=8)
    fig.suptitle("Test 2 on particles: every particle's x_HI and T")
    fig.tight_layout()
    p2 = os.path.join(args.out, f"{NAME}_profiles.png")
    fig.savefig(p2, dpi=110)
    plt.close(fig)
    for p in (p1, p2):
        print("wrote", rel(p))
    if failed:
        print(f"{NAME}: FAIL: the particle front is off the grid's by more than "
              f"{TOLERANCE:.0%} at t = {failed} Myr", file=sys.stderr)
        return 1
    print(f"{NAME}: PASS: the particle front is within {TOLERANCE:.0%} of the grid's at "
          f"{check} Myr")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

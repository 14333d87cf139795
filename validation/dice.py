#!/usr/bin/env python3
"""Figure: five overlapping H II regions (pyC2Ray Test 3, the `dice` problem).

Runs ionfront on the built-in `dice` problem (five 5e48 s^-1 black-body sources in
a dice pattern in the mid-plane of a 14 kpc box of n_H = 1e-3 cm^-3, T = 1e4 K,
10 Myr) and draws the ionized fraction in the sources' plane at 1, 5 and 10 Myr,
with the x_HII = 0.5 contour and, dashed, the Stroemgren front each source would
have alone, r_S (1 - e^(-t/t_rec))^(1/3).  The fronts merge where the single-source
circles overlap.

No published per-cell data exist to compare with, so the checks are the ones the
physics fixes: the plane keeps the pattern's mirror symmetries (x -> -x, y -> -y
and x <-> y about the centre source) to 1e-10, and until the fronts meet each one
follows the single-source solution: the x_HII = 0.5 crossing along +-x and +-y
from every source within 5% of r_S(t) at 5 and 10 Myr (reported at 1 Myr, the
end of the first 1 Myr step, where the front is 10 cells out).  (At 128^3 the
fronts only touch by 10 Myr; tests/test_dice.c checks merging on a smaller box.)

Writes, into --out: dice_slices.png and dice_numbers.md (also printed).
Exit code: 0 pass; 1 if a check fails or the run failed; 77 without numpy, h5py or
matplotlib (ctest reports a skip).  Run with /usr/bin/python3.
"""
import datetime
import math
import os
import sys

try:
    import numpy as np
    import h5py
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    IMPORT_ERROR = None
except ImportError as exc:
    IMPORT_ERROR = exc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vutil import (KPC_CM, MYR_S, REPO, front_along_x, obtain_run, read_csv,  # noqa: E402
                   rel, run_ionfront, skip_missing_modules)
from vutil import parse_validation_args  # noqa: E402

NAME = "dice"
TIMES = [1, 5, 10]            # Myr, the built-in problem's outputs
NDOT = 5.0e48                 # s^-1 per source
N_H = 1.0e-3                  # cm^-3
ALPHA_B = 2.59e-13            # cm^3 s^-1 at 1e4 K
SYMMETRY_TOL = 1e-10
FRONT_TOL = 0.05
FRONT_CHECK_TIMES = [5, 10]


def strömgren_kpc(t_myr):
    r_s = (3.0 * NDOT / (4.0 * math.pi * ALPHA_B * N_H ** 2)) ** (1.0 / 3.0) / KPC_CM
    t_rec = 1.0 / (ALPHA_B * N_H) / MYR_S
    return r_s * (1.0 - math.exp(-t_myr / t_rec)) ** (1.0 / 3.0)


def run_problem(ionfront, n, dt, run_dir):
    run_ionfront(ionfront, NAME, [f"grid.N={n}", f"time.dt={dt}", "output.xdmf=false"], run_dir)


class Run:
    """The sources' plane (k of the centre source) at each output time."""

    def __init__(self, run_dir):
        import glob
        import re
        self.dir = run_dir
        self.planes = {}
        paths = sorted(glob.glob(os.path.join(run_dir, "snapshot_[0-9]*.h5")))
        if not paths:
            raise RuntimeError(f"no snapshot_NNNN.h5 in {run_dir}")
        for p in paths:
            with h5py.File(p, "r") as f:
                t = float(f.attrs["time_s"]) / MYR_S
                self.n = int(f.attrs["N"])
                self.box_kpc = float(f.attrs["box_size_cm"]) / KPC_CM
                config = f.attrs["config"]
                config = config.decode() if isinstance(config, bytes) else config
                src = [tuple(int(v) for v in m) for m in re.findall(
                    r"position:\s*\[\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\]", config)]
                if len(src) != 5:
                    raise RuntimeError(f"{run_dir}: {len(src)} sources, not the dice's five")
                self.sources = src
                k = src[0][2]
                if t > 0:
                    self.planes[t] = np.array(f["Grid/x_HII"][:, :, k])
        self.cell_kpc = self.box_kpc / self.n
        log = os.path.join(run_dir, "log.csv")
        self.wall_s = float(np.sum(read_csv(log)["wall_s"])) if os.path.exists(log) else float("nan")
        cmd = os.path.join(run_dir, "command.txt")
        self.command = open(cmd).read().strip() if os.path.exists(cmd) else "?"


def symmetry_error(plane, centre):
    """Largest |x - mirror(x)| over the square about the centre source that fits the box."""
    c = centre
    h = min(c, plane.shape[0] - 1 - c)
    sq = plane[c - h:c + h + 1, c - h:c + h + 1]
    return max(np.max(np.abs(sq - sq[::-1, :])), np.max(np.abs(sq - sq[:, ::-1])),
               np.max(np.abs(sq - sq.T)))


def plot(run, out_png):
    fig, axes = plt.subplots(1, len(TIMES), figsize=(4.0 * len(TIMES), 4.0), sharey=True)
    extent = [0, run.box_kpc, 0, run.box_kpc]
    for ax, t in zip(axes, TIMES):
        plane = run.planes.get(t)
        if plane is None:
            ax.set_axis_off()
            continue
        # plane[i, j]: i along x, j along y -> imshow wants rows = y
        im = ax.imshow(plane.T, origin="lower", extent=extent, vmin=0, vmax=1, cmap="viridis")
        g = (np.arange(run.n) + 0.5) * run.cell_kpc
        ax.contour(g, g, plane.T, levels=[0.5], colors="white", linewidths=1.0)
        r = strömgren_kpc(t)
        for (i, j, _) in run.sources:
            ax.add_patch(plt.Circle(((i + 0.5) * run.cell_kpc, (j + 0.5) * run.cell_kpc), r,
                                    fill=False, ls="--", color="orange", lw=0.9))
        ax.set_title(f"t = {t:g} Myr")
        ax.set_xlabel("x [kpc]")
    axes[0].set_ylabel("y [kpc]")
    fig.colorbar(im, ax=axes, shrink=0.85, label="x_HII (sources' plane)")
    fig.suptitle(f"dice: five 5e48 s$^{{-1}}$ sources, {run.n}$^3$; white: x_HII = 0.5, "
                 "orange dashed: one source alone (Strömgren)", fontsize=10)
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def source_fronts(run, plane):
    """x_HII = 0.5 crossings [kpc] along +x, -x, +y, -y from every source's cell centre."""
    out = []
    for (i, j, _) in run.sources:
        x_hi = 1.0 - plane
        rows = [x_hi[i:, j], x_hi[i::-1, j], x_hi[i, j:], x_hi[i, j::-1]]
        out += [front_along_x(r, run.cell_kpc) for r in rows]
    return np.array(out)


def numbers(run):
    failures = []
    centre = run.sources[0][0]
    md = ["# dice (pyC2Ray Test 3): ionfront figure and checks", "",
          f"Command: `{run.command}`; {run.n}^3, cell {run.cell_kpc:.4f} kpc; "
          f"wall time of the steps {run.wall_s:.1f} s; "
          f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}.", "",
          "Fronts: the x_HII = 0.5 crossing along +-x and +-y from each of the five sources "
          "(20 fronts) against one source alone, r_S (1 - e^(-t/t_rec))^(1/3).", "",
          "| t [Myr] | r_S(t) [kpc] | fronts / r_S: min | max | mirror-symmetry error | "
          "ionized area of the plane |",
          "| ---: | ---: | ---: | ---: | ---: | ---: |"]
    for t in TIMES:
        plane = run.planes.get(t)
        if plane is None:
            failures.append(f"no snapshot at {t} Myr")
            continue
        sym = symmetry_error(plane, centre)
        ratio = source_fronts(run, plane) / strömgren_kpc(t)
        area = float(np.mean(plane > 0.5))
        md.append(f"| {t:g} | {strömgren_kpc(t):.3f} | {np.min(ratio):.4f} | {np.max(ratio):.4f} "
                  f"| {sym:.1e} | {area:.4f} |")
        if not sym <= SYMMETRY_TOL:
            failures.append(f"mirror symmetry broken by {sym:.2e} at {t} Myr")
        if t in FRONT_CHECK_TIMES and not np.all(np.abs(ratio - 1.0) <= FRONT_TOL):
            failures.append(f"a front is off the single-source solution by "
                            f"{100 * np.nanmax(np.abs(ratio - 1.0)):.1f}% at {t} Myr")
    md += ["", "Checks: symmetry error <= 1e-10 at every time; every front within 5% of r_S(t) "
           "at 5 and 10 Myr.", "",
           ("FAIL: " + "; ".join(failures)) if failures else "PASS", "",
           "Figure: [dice_slices.png](dice_slices.png)", ""]
    return "\n".join(md), failures


def parse_args(argv):
    return parse_validation_args(
        argv, NAME,
        "dice (pyC2Ray Test 3): figure of the merging fronts and symmetry checks.",
        full=(128, "1 Myr"), quick=None)


def main(argv=None):
    if IMPORT_ERROR is not None:
        return skip_missing_modules(f"{NAME}.py", IMPORT_ERROR)
    args = parse_args(argv)
    if args.N != 128:
        print(f"{NAME}.py: error: the dice sources sit at fixed cells of the 128^3 grid; "
              f"--N {args.N} is not supported", file=sys.stderr)
        return 1
    run = obtain_run(args, NAME, run_problem, Run)
    if run is None:
        return 1
    os.makedirs(args.out, exist_ok=True)
    png = os.path.join(args.out, "dice_slices.png")
    plot(run, png)
    md, failures = numbers(run)
    with open(os.path.join(args.out, "dice_numbers.md"), "w") as f:
        f.write(md)
    print(md)
    print(f"wrote {rel(png)}, {rel(os.path.join(args.out, 'dice_numbers.md'))}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

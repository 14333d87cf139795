#!/usr/bin/env python3
"""Validation: thermal radiation by ERMC (problem: thermal; issue 26, seed 003).

Silvestri & Pecnik (2019), "A fast GPU Monte Carlo radiative heat transfer implementation
for coupling with direct numerical simulation" (the seed), Table 1 cases 1-4.

--quick (CI, ~2 s): the built-in `thermal_slab` (seed case 1: grey gas, kappa 1/m, 1 m,
  lin1 temperatures, black walls at 500 and 1500 K; 32 x 4 x 4 cells) with 1000 rays per
  element through the command line; every cell's Q^R and every wall patch's net flux
  against the exact solution of the slab with the run's own cell temperatures
  (thermal_exact.c, through tests/thermal_tool), as z-scores with the run's sigma.
  Fails (exit 1) when a value is more than 5 sigma off or chi^2 per value is outside
  [0.75, 1.3] (544 values: its standard deviation is 0.06).

Full mode, besides:
  - the slab, cases 1 (lin1) and 2 (parab1), at 250 to 16000 rays per element: the RMS
    error against the exact Q^R and the mean sigma against 1/sqrt(N)
    (thermal_convergence.png), the profiles (thermal_slab.png);
  - the 3D grey cube of cases 3 and 4 (1 m, kappa 0.5 and 5/m, sigma T^4/pi =
    sin(pi x) sin(pi y) sin(pi z), cold black walls): Q^R on the centre line (0.5, 0.5, z)
    by Monte Carlo (65^3 and 129^3 cells, 20000 rays) against a deterministic reference,
    computed here by Gauss-Legendre quadrature over the six walls (every direction from
    the point hits one wall point; the faces are split around the point's foot so that
    the 1/r^3 peak is resolved) and along each path (converged to 8 digits); multigrid
    (4 levels, 5 steps per level: the coarse cells smooth the sin field, a bias that the
    check bounds by 4% of the peak Q^R) against one level (thermal_cube.png);
  - the Bordbar 2014 WSGG slab (built-in `thermal_wsgg`: H2O 10%, CO2 10%, parab1, black
    walls at 500 K) with gases drawn and sorted, against the exact WSGG slab
    (thermal_wsgg.png).
Writes the figures and thermal_numbers.md into --out (default docs/).

Exit code: 0 pass; 1 a check failed or a run failed; 77 without numpy, h5py, matplotlib,
scipy or PyYAML.  Run with /usr/bin/python3.
"""
import argparse
import math
import os
import subprocess
import sys

try:
    import numpy as np
    import h5py
    import yaml
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as exc:
    IMPORT_ERROR = exc
else:
    IMPORT_ERROR = None

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "thermal"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ionfront", default=os.path.join(REPO, "build", "ionfront"),
                   help="the ionfront executable (default: build/ionfront)")
    p.add_argument("--tool", default=None,
                   help="tests/thermal_tool of the same build (default: beside --ionfront)")
    p.add_argument("--run-dir", default=None,
                   help="run ionfront into this directory (default: build/validation_thermal)")
    p.add_argument("--out", default=os.path.join(REPO, "docs"),
                   help="where the figures and the numbers go (default: docs)")
    p.add_argument("--quick", action="store_true", help="the slab check only (for CI)")
    a = p.parse_args(argv)
    a.ionfront = os.path.abspath(a.ionfront)
    if a.tool is None:
        a.tool = os.path.join(os.path.dirname(a.ionfront), "tests", "thermal_tool")
    a.run_dir = os.path.abspath(a.run_dir or os.path.join(REPO, "build", "validation_thermal"))
    return a


# ---------------------------------------------------------------- runs and references

def run_problem(args, problem, tag, overrides):
    """Run built-in `problem` with --set overrides into run_dir/tag; -> thermal.h5 path."""
    for exe in (args.ionfront, args.tool):
        if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
            raise RuntimeError(f"executable not found: {exe} (build the targets ionfront "
                               "and thermal_tool, or pass --ionfront / --tool)")
    run = os.path.join(args.run_dir, tag)
    os.makedirs(run, exist_ok=True)
    config = os.path.join(run, f"{problem}.yaml")
    with open(config, "w") as f:
        subprocess.run([args.ionfront, "example", problem], stdout=f, check=True)
    cmd = [args.ionfront, "run", config, "--set", "output.progress=false", "--overwrite"]
    for o in overrides:
        cmd += ["--set", o]
    cmd += ["--output", os.path.join(run, "out")]
    print("running:", " ".join(cmd[1:]), flush=True)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(os.path.join(run, "ionfront.log"), "w") as log:
        log.write(r.stdout)
    if r.returncode != 0:
        raise RuntimeError(f"ionfront exited with {r.returncode}:\n{r.stdout[-2000:]}")
    return os.path.join(run, "out", "thermal.h5")


def read_run(path):
    """A run's results and the exact slab for its cells (row y = z = 0)."""
    with h5py.File(path, "r") as f:
        q = f["Thermal/Q_R"][...]
        qs = f["Thermal/Q_R_sigma"][...]
        t = f["Thermal/T_K"][...]
        walls = {face: (f[f"Thermal/Walls/{face}/q_net"][...],
                        f[f"Thermal/Walls/{face}/q_net_sigma"][...])
                 for face in f["Thermal/Walls"]}
        cfg = yaml.safe_load(f.attrs["config"])
    nx = q.shape[0]
    dx = cfg["grid"]["size_m"][0] / nx
    gas = cfg["gas"]
    model = "wsgg" if gas["model"] == "wsgg" else "grey"
    lines = "".join(f"{t[i, 0, 0]!r} {float(gas.get('pressure_atm', 1.0))!r} "
                    f"{float(gas.get('x_H2O', 0.0))!r} {float(gas.get('x_CO2', 0.0))!r}\n"
                    for i in range(nx))
    w = cfg["walls"]
    cmd = [ARGS.tool, "exact-slab", model, str(float(gas.get("kappa_per_m", 0.0))), repr(dx),
           str(w["x_lo"]["emissivity"]), str(w["x_lo"]["T_K"]),
           str(w["x_hi"]["emissivity"]), str(w["x_hi"]["T_K"])]
    out = subprocess.run(cmd, input=lines, stdout=subprocess.PIPE, text=True, check=True).stdout
    rows = [ln.split() for ln in out.splitlines()]
    exact = np.array([float(r[1]) for r in rows if r[0] != "wall"])
    wexact = {r[1]: float(r[2]) for r in rows if r[0] == "wall"}
    return {"q": q, "qs": qs, "x": (np.arange(nx) + 0.5) * dx, "exact": exact,
            "walls": walls, "wexact": wexact, "rays": cfg["montecarlo"]["rays_per_element"]}


def zscores(r):
    """z of every cell and wall patch against the exact values."""
    z = ((r["q"] - r["exact"][:, None, None]) / r["qs"]).ravel()
    for face, (v, s) in r["walls"].items():
        z = np.concatenate([z, ((v - r["wexact"][face]) / s).ravel()])
    return z


def check_z(label, z, zmax=5.0, lo=0.75, hi=1.3):
    """Print and judge a set of z-scores (NaN fails)."""
    m, chi2 = float(np.max(np.abs(z))), float(np.mean(z * z))
    ok = np.all(np.isfinite(z)) and m <= zmax and lo <= chi2 <= hi
    print(f"{label}: {z.size} values, max |z| {m:.2f}, chi^2 per value {chi2:.3f}"
          f" -> {'ok' if ok else 'FAIL'}")
    return ok, m, chi2


# ---------------------------------------------------------------- the cube's reference

def cube_ib(x, y, z):
    return np.sin(np.pi * x) * np.sin(np.pi * y) * np.sin(np.pi * z)


def _face_nodes(c, d, n):
    """Gauss-Legendre nodes on [0, 1], split at c +- d (0.25 ... 32) to resolve the peak."""
    br = {0.0, 1.0, min(max(c, 0.0), 1.0)}
    for f in (0.25, 0.5, 1, 2, 4, 8, 16, 32):
        for s in (-1, 1):
            v = c + s * f * d
            if 0.0 < v < 1.0:
                br.add(v)
    br = sorted(br)
    x, w = np.polynomial.legendre.leggauss(n)
    xs = [0.5 * (b - a) * x + 0.5 * (a + b) for a, b in zip(br[:-1], br[1:])]
    ws = [0.5 * (b - a) * w for a, b in zip(br[:-1], br[1:])]
    return np.concatenate(xs), np.concatenate(ws)


def cube_q_reference(p, kappa, n_uv=8, n_s=32):
    """Q^R = kappa (4 pi I_b(p) - G(p)) at p in the unit cube with cold black walls:
    G = sum over walls of the integral over the wall of cos(theta)/r^2 dA times the path
    integral of kappa I_b exp(-kappa s) from p to the wall point."""
    p = np.asarray(p, float)
    xs, ws = np.polynomial.legendre.leggauss(n_s)
    g = 0.0
    for a in range(3):
        b, c = [i for i in range(3) if i != a]
        for side in (0.0, 1.0):
            d = abs(p[a] - side)
            u, wu = _face_nodes(p[b], d, n_uv)
            v, wv = _face_nodes(p[c], d, n_uv)
            uu, vv = np.meshgrid(u, v, indexing="ij")
            q = np.zeros(uu.shape + (3,))
            q[..., a], q[..., b], q[..., c] = side, uu, vv
            r = q - p
            rr = np.linalg.norm(r, axis=-1)
            s = 0.5 * rr[..., None] * (xs + 1.0)
            pts = p + s[..., None] * (r / rr[..., None])[..., None, :]
            f = kappa * cube_ib(pts[..., 0], pts[..., 1], pts[..., 2]) * np.exp(-kappa * s)
            path = (f * 0.5 * rr[..., None] * ws).sum(-1)
            g += (np.outer(wu, wv) * d / rr ** 3 * path).sum()
    return kappa * (4.0 * np.pi * cube_ib(*p) - g)


def cube_line(kappa, n, rays, seed=1, levels=1):
    out = subprocess.run([ARGS.tool, "cube-line", str(kappa), str(n), str(rays), str(seed),
                          str(levels), "0"], stdout=subprocess.PIPE, text=True,
                         check=True).stdout.splitlines()
    d = np.array([[float(v) for v in ln.split()] for ln in out[:-1]])
    tail = out[-1].split()
    return d, {"rays": int(tail[1]), "steps": int(tail[3]), "seconds": float(tail[5])}


# ---------------------------------------------------------------- the parts

def quick_slab(args, notes):
    r = read_run(run_problem(args, "thermal_slab", "quick",
                             ["montecarlo.rays_per_element=1000", "raytracing.backend=cpu"]))
    ok, m, chi2 = check_z("slab case 1 (lin1), 1000 rays", zscores(r))
    notes.append(f"| slab case 1, 32x4x4 cells, 1000 rays, all 512 cells + 32 wall patches "
                 f"| max abs z {m:.2f} | chi^2/value {chi2:.3f} |")
    return ok


def slab_convergence(args, notes):
    ok = True
    ns = [250, 1000, 4000, 16000]
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    conv = {}
    for case, (profile, t_hi) in {1: ("lin1", 1500.0), 2: ("parab1", 500.0)}.items():
        err, sig = [], []
        for n in ns:
            r = read_run(run_problem(args, "thermal_slab", f"slab{case}_{n}", [
                f"montecarlo.rays_per_element={n}", f"setup.profile={profile}",
                f"walls.x_hi.T_K={t_hi}", "raytracing.backend=cpu"]))
            d = r["q"] - r["exact"][:, None, None]
            err.append(math.sqrt(float(np.mean(d * d))))
            sig.append(math.sqrt(float(np.mean(r["qs"] ** 2))))
            good, m, chi2 = check_z(f"slab case {case}, {n} rays", zscores(r))
            ok &= good
            if n == 4000:
                ax[0].plot(r["x"], r["exact"] / 1e3, "-", label=f"case {case} exact")
                ax[0].errorbar(r["x"], r["q"][:, 0, 0] / 1e3, yerr=r["qs"][:, 0, 0] / 1e3,
                               fmt="o", ms=3, label=f"case {case} ERMC, {n} rays")
                notes.append(f"| slab case {case}, {n} rays | max abs z {m:.2f} | "
                             f"chi^2/value {chi2:.3f} |")
        conv[case] = (err, sig)
        ax[1].loglog(ns, err, "o-", label=f"case {case}: RMS error")
        ax[1].loglog(ns, sig, "s--", label=f"case {case}: mean sigma")
        ratio = err[0] / err[-1]
        notes.append(f"| slab case {case}: RMS error 250 -> 16000 rays | "
                     f"{err[0]:.4g} -> {err[-1]:.4g} W/m^3 | ratio {ratio:.2f} (1/sqrt(N): 8) |")
        ok &= 5.0 <= ratio <= 12.8
    ax[1].loglog(ns, [conv[1][0][0] * math.sqrt(ns[0] / n) for n in ns], "k:",
                 label="1/sqrt(N)")
    ax[0].set_xlabel("x [m]")
    ax[0].set_ylabel("Q^R [kW/m^3]")
    ax[0].legend(fontsize=8)
    ax[1].set_xlabel("rays per element N")
    ax[1].set_ylabel("W/m^3")
    ax[1].legend(fontsize=8)
    fig.suptitle("Grey slab (Silvestri & Pecnik 2019 cases 1-2) against the exact Q^R")
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "thermal_slab.png"), dpi=110)
    plt.close(fig)
    return ok


def cube(args, notes):
    ok = True
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    for k, (kappa, n) in enumerate(((0.5, 65), (5.0, 129))):
        d, info = cube_line(kappa, n, 20000)
        ref = np.array([cube_q_reference((0.5, 0.5, z), kappa) for z in d[:, 0]])
        z = (d[:, 1] - ref) / d[:, 2]
        good, m, chi2 = check_z(f"cube kappa {kappa}, {n}^3, 20000 rays, centre line", z,
                                zmax=4.5, lo=0.5, hi=1.6)
        ok &= good
        c = n // 2
        notes.append(f"| cube kappa {kappa}/m, {n}^3, 20000 rays, {n} cells of the centre "
                     f"line | max abs z {m:.2f}, chi^2/cell {chi2:.2f} | centre Q "
                     f"{d[c, 1]:.4f} +- {d[c, 2]:.4f} (reference {ref[c]:.4f}) W/m^3 |")
        dm, im = cube_line(kappa, n, 20000, seed=2, levels=4)
        peak = float(np.max(np.abs(ref)))
        dev1 = float(np.max(np.abs(d[:, 1] - ref))) / peak
        dev4 = float(np.max(np.abs(dm[:, 1] - ref))) / peak
        good = bool(np.all(np.isfinite(dm[:, 1]))) and dev4 <= 0.04
        print(f"cube kappa {kappa}, 4 multigrid levels: largest deviation {dev4:.4f} of the peak"
              f" (1 level: {dev1:.4f}) -> {'ok' if good else 'FAIL'}")
        ok &= good
        notes.append(f"| cube kappa {kappa}/m, {n}^3, 4 levels x 5 steps (coarse cells smooth "
                     f"the sin field) | largest deviation {100 * dev4:.2f}% of the peak Q (1 "
                     f"level: {100 * dev1:.2f}%) | steps per ray "
                     f"{info['steps'] / info['rays']:.1f} -> {im['steps'] / im['rays']:.1f}, time "
                     f"{info['seconds']:.2f} -> {im['seconds']:.2f} s |")
        zz = np.linspace(0.005, 0.995, 199)
        ax[k].plot(zz, [cube_q_reference((0.5, 0.5, v), kappa) for v in zz], "k-",
                   label="quadrature reference")
        ax[k].errorbar(d[::2, 0], d[::2, 1], yerr=d[::2, 2], fmt="o", ms=3,
                       label=f"ERMC {n}^3, 1 level")
        ax[k].errorbar(dm[1::2, 0], dm[1::2, 1], yerr=dm[1::2, 2], fmt="s", ms=3,
                       label="ERMC, 4 levels")
        ax[k].set_title(f"kappa = {kappa}/m")
        ax[k].set_xlabel("z [m] on the line (0.5, 0.5, z)")
        ax[k].set_ylabel("Q^R [W/m^3]")
        ax[k].legend(fontsize=8)
    fig.suptitle("Grey cube, sin profile, cold black walls (seed cases 3-4)")
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "thermal_cube.png"), dpi=110)
    plt.close(fig)
    return ok


def wsgg(args, notes):
    ok = True
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for sort in ("false", "true"):
        r = read_run(run_problem(args, "thermal_wsgg", f"wsgg_sort_{sort}", [
            "montecarlo.rays_per_element=4000", f"montecarlo.sort_gases={sort}",
            "raytracing.backend=cpu"]))
        good, m, chi2 = check_z(f"WSGG slab, sort_gases {sort}", zscores(r))
        ok &= good
        notes.append(f"| WSGG slab (Bordbar 2014, parab1), 4000 rays, sort_gases {sort} | "
                     f"max abs z {m:.2f}, chi^2/value {chi2:.3f} | mean sigma "
                     f"{float(np.mean(r['qs'])):.4g} W/m^3 |")
        if sort == "false":
            ax.plot(r["x"], r["exact"] / 1e3, "k-", label="exact (sum of grey gases)")
        ax.errorbar(r["x"], r["q"][:, 0, 0] / 1e3, yerr=r["qs"][:, 0, 0] / 1e3, fmt="o",
                    ms=3, label=f"ERMC, gases {'sorted' if sort == 'true' else 'drawn'}")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("Q^R [kW/m^3]")
    ax.set_title("H2O 10% + CO2 10%, parab1, black walls at 500 K")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "thermal_wsgg.png"), dpi=110)
    plt.close(fig)
    return ok


def main(argv):
    global ARGS
    if IMPORT_ERROR is not None:
        print(f"{NAME}.py: SKIP: {IMPORT_ERROR} (needs numpy, h5py, matplotlib, PyYAML)",
              file=sys.stderr)
        return 77
    ARGS = args = parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    notes = []
    try:
        ok = quick_slab(args, notes)
        if not args.quick:
            ok &= slab_convergence(args, notes)
            ok &= cube(args, notes)
            ok &= wsgg(args, notes)
    except (RuntimeError, OSError, subprocess.CalledProcessError) as e:
        print(f"{NAME}.py: error: {e}", file=sys.stderr)
        return 1
    if not args.quick:
        with open(os.path.join(args.out, "thermal_numbers.md"), "w") as f:
            f.write("# Thermal radiation (ERMC): validation numbers\n\n"
                    "Written by `validation/thermal.py` (CPU, this build).\n\n"
                    "| case | result | detail |\n|---|---|---|\n" + "\n".join(notes) + "\n")
    print(f"{NAME}.py: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


ARGS = None

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

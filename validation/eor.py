#!/usr/bin/env python3
"""Figures: a small reionization run (the built-in `eor` problem).

Runs ionfront on the built-in `eor` problem: a 100 comoving Mpc box, 128^3, with a
synthetic density sequence (a Gaussian random field with the linear LCDM spectrum,
grown with D(z), log-normal) and halo catalogues (extended Press-Schechter
collapsed mass per cell) at 14 redshifts from z = 20 to 7, the halos' photon rates
from pyC2Ray's Eq. 20.  The inputs are made by ionfront itself on the first run
(the config's `synthetic:` section); real N-body inputs replace them one for one.

Draws the ionization history (volume- and mass-weighted x_HII against z), slices
of x_HII and of the 21-cm brightness temperature dT_b at four redshifts, and the
spherically averaged 21-cm power spectrum Delta^2(k) = k^3 P(k) / (2 pi^2) [mK^2]
at those redshifts.

No published result exists for this synthetic universe, so the checks are those
the physics fixes, and each could fail:
  * the ionized fraction never decreases from one redshift to the next once
    sources shine (before, the relic ionization may recombine);
  * reionization is inside-out: the mass-weighted x_HII exceeds the volume-weighted
    one while 0.02 < x_v < 0.98 (sources sit in dense regions);
  * the snapshot's dT_b agrees with pyC2Ray's Eq. 21 recomputed here from x_HII
    and n_H (1e-10);
  * the photons emitted so far exceed the hydrogen atoms ionized (no free photons):
    sum over steps of Ndot_total dt >= sum(n_H x_HII) V (proper) at each redshift
    (the problem has no collisional ionization, so photons are the only source);
  * (full size) the large-scale 21-cm power (k < 0.3/Mpc) near x_v = 0.5 exceeds
    that of the nearly neutral start: ionized bubbles add power, the signature
    every reionization simulation shows.

Writes, into --out: eor_history.png, eor_slices.png, eor_ps.png, eor_numbers.md.
Exit code: 0 pass; 1 if a check fails or the run failed; 77 without numpy, h5py or
matplotlib (ctest reports a skip).  Run with /usr/bin/python3.
"""
import datetime
import glob
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
from vutil import (REPO, fmt, obtain_run, read_csv, rel, run_ionfront,  # noqa: E402
                   skip_missing_modules)
from vutil import parse_validation_args  # noqa: E402

NAME = "eor"
MPC_CM = 3.0856775814913673e24
DTB_TOL = 1e-9              # relative: the snapshot's dT_b against Eq. 21 here
LARGE_SCALE_K = 0.3         # 1/Mpc (comoving): "large scales" of the power check


def run_problem(ionfront, n, dt, run_dir):
    run_ionfront(ionfront, NAME, [f"grid.N={n}", f"time.dt={dt}", "output.xdmf=false"], run_dir)


def power_spectrum(field, box_mpc, n_bins=12):
    """Spherically averaged Delta^2(k) = k^3 P(k) / (2 pi^2) of `field` (its unit
    squared) in log bins of k [1/Mpc]: -> (k centres, Delta^2, modes per bin)."""
    n = field.shape[0]
    cell = box_mpc / n
    fk = np.fft.rfftn(field - field.mean()) * cell ** 3
    power = np.abs(fk) ** 2 / box_mpc ** 3
    kx = 2 * np.pi * np.fft.fftfreq(n, d=cell)
    kz = 2 * np.pi * np.fft.rfftfreq(n, d=cell)
    k = np.sqrt(kx[:, None, None] ** 2 + kx[None, :, None] ** 2 + kz[None, None, :] ** 2)
    # the half-spectrum holds each mode of 0 < kz < k_Nyquist once for two
    weight = np.full(kz.shape, 2.0)
    weight[0] = 1.0
    if n % 2 == 0:
        weight[-1] = 1.0
    weight = np.broadcast_to(weight[None, None, :], k.shape)
    k_f, k_ny = 2 * np.pi / box_mpc, np.pi / cell
    edges = np.geomspace(k_f, k_ny, n_bins + 1)
    idx = np.digitize(k.ravel(), edges) - 1
    ok = (idx >= 0) & (idx < n_bins)
    w = weight.ravel()[ok]
    sum_w = np.bincount(idx[ok], weights=w, minlength=n_bins)
    sum_p = np.bincount(idx[ok], weights=w * power.ravel()[ok], minlength=n_bins)
    sum_k = np.bincount(idx[ok], weights=w * k.ravel()[ok], minlength=n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        k_mean = sum_k / sum_w
        p_mean = sum_p / sum_w
    return k_mean, k_mean ** 3 * p_mean / (2 * np.pi ** 2), sum_w


def tb21_prefactor_mk(omega_m, omega_b, h, z):
    """pyC2Ray Eq. 21: dT_b of a neutral mean-density cell [mK]."""
    h2 = h * h
    return 27.0 * math.sqrt(0.15 / (omega_m * h2) * (1.0 + z) / 10.0) * (omega_b * h2 / 0.023)


def config_number(config, section, key):
    import re
    m = re.search(rf"(?ms)^{section}:\s*\n(.*?)(?=^\S)", config + "\nend:\n")
    if not m:
        return None
    k = re.search(rf"(?m)^\s+{key}:\s*([-+0-9.eE]+)", m.group(1))
    return float(k.group(1)) if k else None


class Run:
    """The snapshots of a finished eor run (one per listed redshift) and its log."""

    def __init__(self, run_dir):
        self.dir = run_dir
        paths = sorted(glob.glob(os.path.join(run_dir, "snapshot_[0-9]*.h5")))
        if len(paths) < 2:
            raise RuntimeError(f"fewer than two snapshot_NNNN.h5 in {run_dir}")
        self.snaps = []
        for p in paths:
            with h5py.File(p, "r") as f:
                config = f.attrs["config"]
                config = config.decode() if isinstance(config, bytes) else config
                s = dict(path=p, z=float(f.attrs["redshift"]), t_s=float(f.attrs["time_s"]),
                         z_density=float(f.attrs.get("density_redshift", f.attrs["redshift"])),
                         n_sources=int(f.attrs.get("n_sources", -1)))
                x = f["Grid/x_HII"][...]
                n_h = f["Grid/n_H"][...]
                s["x_v"] = float(x.mean())
                s["x_m"] = float((x * n_h).sum() / n_h.sum())
                s["has_dtb"] = "dTb" in f["Grid"]
            self.snaps.append(s)
        with h5py.File(paths[0], "r") as f:
            self.n = int(f.attrs["N"])
            self.box_cm = float(f.attrs["box_size_cm"])   # comoving
        self.box_mpc = self.box_cm / MPC_CM
        self.config = config
        self.h = config_number(config, "cosmology", "h")
        self.omega_m = config_number(config, "cosmology", "Omega_m")
        self.omega_b = config_number(config, "cosmology", "Omega_b")
        self.x_initial = config_number(config, "material", "x_HII_initial")
        self.log = read_csv(os.path.join(run_dir, "log.csv"))

    def fields(self, s):
        with h5py.File(s["path"], "r") as f:
            return (f["Grid/x_HII"][...], f["Grid/n_H"][...],
                    f["Grid/dTb"][...] if "dTb" in f["Grid"] else None)


def photons_emitted(run, t_s):
    """Photons the sources emitted from the start to t [s], from log.csv (each row's
    photon rate holds over that row's step)."""
    t = np.concatenate([[0.0], run.log["time_s"]])
    ndot = run.log["Ndot_total_per_s"]
    done = t[1:] <= t_s * (1 + 1e-6)   # log.csv holds 10 significant digits
    return float(np.sum(ndot[done] * np.diff(t)[done]))


def atoms(run, s):
    """(hydrogen atoms, ionized ones) in the box at snapshot s (proper volume)."""
    x, n_h, _ = run.fields(s)
    cell_cm3 = (run.box_cm / (1.0 + s["z_density"]) / run.n) ** 3
    return float(n_h.sum() * cell_cm3), float((x * n_h).sum() * cell_cm3)


def pick_redshifts(run, count=4):
    """Snapshots to draw: the first with x_v > 0.01, then about x_v = 0.25, 0.5, 0.75."""
    xs = np.array([s["x_v"] for s in run.snaps])
    chosen = []
    for target in (0.02, 0.25, 0.5, 0.8):
        i = int(np.argmin(np.abs(xs - target)))
        if i not in chosen:
            chosen.append(i)
    return sorted(chosen)[:count]


def plot_history(run, out_png):
    fig, ax = plt.subplots(figsize=(5.5, 4))
    z = np.array([s["z"] for s in run.snaps])
    ax.plot(run.log["redshift"], run.log["x_HII_mean_volume"], "-", color="tab:blue",
            label="volume-weighted (every step)")
    ax.plot(run.log["redshift"], run.log["x_HII_mean_mass"], "--", color="tab:red",
            label="mass-weighted (every step)")
    ax.plot(z, [s["x_v"] for s in run.snaps], "o", color="tab:blue", ms=4)
    ax.plot(z, [s["x_m"] for s in run.snaps], "s", color="tab:red", ms=4, mfc="none")
    ax.set_xlabel("redshift z")
    ax.set_ylabel("ionized fraction x_HII")
    ax.set_yscale("log")
    ax.set_ylim(1e-4, 1.2)
    ax.invert_xaxis()
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title(f"eor: {run.n}^3, {run.box_mpc:.0f} cMpc, synthetic inputs", fontsize=10)
    fig.tight_layout()
    fig.savefig(out_png, dpi=120)
    plt.close(fig)


def plot_slices(run, chosen, out_png):
    fig, axes = plt.subplots(2, len(chosen), figsize=(3.1 * len(chosen), 6.2), squeeze=False)
    k = run.n // 2
    for c, i in enumerate(chosen):
        s = run.snaps[i]
        x, n_h, dtb = run.fields(s)
        extent = [0, run.box_mpc, 0, run.box_mpc]
        im = axes[0][c].imshow(x[:, :, k].T, origin="lower", extent=extent, vmin=0, vmax=1,
                               cmap="viridis")
        axes[0][c].set_title(f"z = {s['z']:.2f}, x_v = {s['x_v']:.2f}", fontsize=9)
        if dtb is not None:
            im2 = axes[1][c].imshow(dtb[:, :, k].T, origin="lower", extent=extent, cmap="magma",
                                    vmin=0, vmax=max(1e-9, np.percentile(dtb[:, :, k], 99)))
            fig.colorbar(im2, ax=axes[1][c], fraction=0.046, label="dT_b [mK]")
        for r in range(2):
            axes[r][c].set_xlabel("x [cMpc]", fontsize=8)
            axes[r][c].tick_params(labelsize=7)
        fig.colorbar(im, ax=axes[0][c], fraction=0.046, label="x_HII")
    axes[0][0].set_ylabel("y [cMpc]")
    axes[1][0].set_ylabel("y [cMpc]")
    fig.suptitle(f"eor: mid-plane slices (k = {k}) of x_HII and the 21-cm dT_b", fontsize=10)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)


def plot_power(run, spectra, out_png):
    fig, ax = plt.subplots(figsize=(5.5, 4))
    for (s, k, d2) in spectra:
        ok = np.isfinite(d2) & (d2 > 0)
        ax.loglog(k[ok], d2[ok], "-o", ms=3, label=f"z = {s['z']:.2f} (x_v = {s['x_v']:.2f})")
    ax.set_xlabel("k [1/cMpc]")
    ax.set_ylabel("Δ²_21(k) [mK²]")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    ax.set_title("eor: 21-cm power spectrum (no redshift-space distortions)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out_png, dpi=120)
    plt.close(fig)


def check_and_report(run, spectra, chosen):
    failures, md = [], []
    md += [f"# eor: a small reionization run ({run.n}^3, {run.box_mpc:.0f} comoving Mpc)", "",
           f"Written by `validation/eor.py` on {datetime.date.today().isoformat()} from "
           f"`{rel(run.dir)}`.", ""]
    cmd = os.path.join(run.dir, "command.txt")
    if os.path.exists(cmd):
        md += ["Command: `" + open(cmd).read().strip() + "`"]
    el = os.path.join(run.dir, "elapsed_s.txt")
    if os.path.exists(el):
        md += [f"Wall time: {float(open(el).read()):.0f} s"]
    md += ["", "| z | sources | x_HII by volume | by mass | photons emitted / H atoms | "
           "ionized / H atoms |", "|---:|---:|---:|---:|---:|---:|"]
    # 1. monotone history; 2. inside-out; 3. photon budget
    prev = -1.0
    for s in run.snaps:
        n_atoms, n_ion = atoms(run, s)
        emitted = photons_emitted(run, s["t_s"])
        gained = n_ion - run.x_initial * n_atoms
        md.append(f"| {s['z']:.3f} | {s['n_sources']} | {s['x_v']:.4f} | {s['x_m']:.4f} | "
                  f"{emitted / n_atoms:.3f} | {n_ion / n_atoms:.4f} |")
        if s["n_sources"] > 0 and s["x_v"] < prev * (1 - 1e-9):
            failures.append(f"x_HII by volume fell from {prev:.6f} to {s['x_v']:.6f} at "
                            f"z = {s['z']:.3f}")
        prev = s["x_v"]
        if 0.02 < s["x_v"] < 0.98 and not s["x_m"] > s["x_v"]:
            failures.append(f"not inside-out at z = {s['z']:.3f}: x_m = {s['x_m']:.4f} <= "
                            f"x_v = {s['x_v']:.4f}")
        if gained > emitted * (1 + 1e-3) and gained > 1e-6 * n_atoms:
            failures.append(f"photon budget at z = {s['z']:.3f}: {gained:.4g} atoms ionized "
                            f"but only {emitted:.4g} photons emitted")
    # 4. dT_b against Eq. 21
    worst = 0.0
    for s in run.snaps:
        if not s["has_dtb"]:
            continue
        x, n_h, dtb = run.fields(s)
        expect = tb21_prefactor_mk(run.omega_m, run.omega_b, run.h, s["z"]) * (1 - x) * \
            n_h / n_h.mean()
        worst = max(worst, float(np.max(np.abs(dtb - expect)) / np.max(np.abs(expect))))
    md += ["", f"dT_b against pyC²Ray's Eq. 21 recomputed from x_HII and n_H: largest "
           f"relative difference {worst:.2e} (limit {DTB_TOL:g})."]
    if not worst <= DTB_TOL:
        failures.append(f"dT_b differs from Eq. 21 by {worst:.3g} (relative)")
    # 5. bubbles add large-scale 21-cm power
    md += ["", "21-cm power Δ² [mK²] at the snapshots drawn:", "",
           "| z | x_v | " + " | ".join(f"k={k:.2f}" for k in spectra[0][1]) + " |",
           "|---:|---:|" + "---:|" * len(spectra[0][1])]
    for (s, k, d2) in spectra:
        md.append(f"| {s['z']:.2f} | {s['x_v']:.3f} | " + " | ".join(fmt(v, ".3g") for v in d2)
                  + " |")
    early = [sp for sp in spectra if sp[0]["x_v"] < 0.05]
    mid = [sp for sp in spectra if 0.3 <= sp[0]["x_v"] <= 0.7]
    if early and mid:
        def large(sp):
            k, d2 = sp[1], sp[2]
            sel = np.isfinite(d2) & (k < LARGE_SCALE_K)
            return float(np.mean(d2[sel])) if sel.any() else float("nan")
        a, b = large(early[0]), large(mid[0])
        md += ["", f"Large-scale power (k < {LARGE_SCALE_K}/cMpc): {a:.3g} mK² at "
               f"x_v = {early[0][0]['x_v']:.3f}, {b:.3g} mK² at x_v = {mid[0][0]['x_v']:.3f}."]
        if not b > a:
            failures.append(f"the ionized bubbles did not raise the large-scale 21-cm power "
                            f"({a:.3g} -> {b:.3g} mK²)")
    else:
        md += ["", "(No snapshot pair with x_v < 0.05 and 0.3 <= x_v <= 0.7: the power check "
               "was not made.)"]
    md += ["", "Checks: x_HII never falls once sources shine; inside-out (mass-weighted above volume-weighted "
           "while 0.02 < x_v < 0.98); no more atoms ionized than photons emitted (1e-3); "
           "dT_b = Eq. 21; ionized bubbles raise the large-scale 21-cm power.",
           "", "Result: " + ("PASS" if not failures else "FAIL: " + "; ".join(failures)), ""]
    return "\n".join(md), failures


def parse_args(argv):
    return parse_validation_args(
        argv, NAME,
        "The eor built-in (a small reionization run): runs it, draws the ionization "
        "history, slices and the 21-cm power spectrum, checks what the physics fixes.",
        full=(128, "10 Myr"), quick=(24, "25 Myr"))


def main(argv=None):
    if IMPORT_ERROR is not None:
        return skip_missing_modules(f"{NAME}.py", IMPORT_ERROR)
    args = parse_args(argv)
    run = obtain_run(args, NAME, run_problem, Run)
    if run is None:
        return 1
    chosen = pick_redshifts(run)
    spectra = []
    for i in chosen:
        s = run.snaps[i]
        _, _, dtb = run.fields(s)
        if dtb is None:
            print(f"{NAME}.py: error: {s['path']} has no /Grid/dTb (output.dTb: true)",
                  file=sys.stderr)
            return 1
        k, d2, _ = power_spectrum(dtb, run.box_mpc, n_bins=max(4, min(12, run.n // 8)))
        spectra.append((s, k, d2))
    os.makedirs(args.out, exist_ok=True)
    files = [os.path.join(args.out, f"{NAME}_{s}") for s in
             ("history.png", "slices.png", "power.png", "numbers.md")]
    plot_history(run, files[0])
    plot_slices(run, chosen, files[1])
    plot_power(run, spectra, files[2])
    md, failures = check_and_report(run, spectra, chosen)
    with open(files[3], "w") as f:
        f.write(md)
    print()
    print(md)
    print(f"wrote {', '.join(files)}")
    for m in failures:
        print(f"{NAME}.py: FAIL: {m}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

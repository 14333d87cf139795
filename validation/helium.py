#!/usr/bin/env python3
"""Validation: the hydrogen and helium Stroemgren spheres of the `helium` problem.

Runs ionfront on the built-in `helium` problem (a 1e5 K black body of 1e52 photons/s
above 13.6 eV at the centre of an 8 kpc box of H + He gas, n_H = 0.1 cm^-3,
n_He/n_H = 0.08, isothermal 1e4 K, case B) to 10 Myr, about nine recombination times
of H II, and compares the fronts with the equilibrium Stroemgren radii:

  He III: (4 pi / 3) r3^3 n_He n_e3 alpha_B(HeIII) = Q(> 54.4 eV),  n_e3 = n_H (1 + 2 A)
  H II:   Q(> 13.6 eV) = (4 pi / 3) [r3^3 n_e3 (n_H alpha_B(HII) + n_He (alpha_B(HeIII) - g3))
                          + (r^3 - r3^3) n_e2 (n_H alpha_B(HII) + n_He (1 - p) alpha_B(HeII))],
          n_e2 = n_H (1 + A): helium singly ionized between r3 and r; a fraction p = 0.96
          of He II's case-B recombinations give back a photon that ionizes hydrogen, and
          He III's give g3 = alpha_B(HeIII) (v l + (1 - v) f) + alpha_2 (Friedrich et al.
          2012, chem_he_k.h: two-photon decays v = 0.285 with l = 1.425 photons above
          13.6 eV, He II Lyman alpha with f = 0.01 absorbed in gas this ionized, Balmer
          continuum alpha_2 = 3.4e-13 cm^3/s; no He I inside r3, so hydrogen takes them all)

(every photon absorbed inside, case B recombination coefficients at 1e4 K: chemistry's
alpha_B for H II, Hui & Gnedin 1997 for He II and He III as the code's chem_he_k.h;
Q(> E) from the black body between 13.598 eV and E_max = 544.16 eV, normalised as the
code normalises it).  A front is where the fraction (x_HII; x_HeIII) crosses 1/2,
averaged over the six axis directions from the source.  The analytic radii neglect the
ground-state photons that another element takes on the spot and the hard photons that
reach beyond the fronts, so a few per cent are expected.

Writes, into --out: helium_profiles.png and helium_numbers.md (also printed).
Exit code: 0 pass; 1 if a front is off by more than the tolerance or the run failed;
77 without numpy, h5py or matplotlib (ctest reports a skip).  Run with /usr/bin/python3.
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
from vutil import KPC_CM, MYR_S, rel, run_ionfront, skip_missing_modules, trapezoid  # noqa: E402
from vutil import parse_validation_args  # noqa: E402

NAME = "helium"
N_H, A_HE, T_K, NDOT = 0.1, 0.08, 1.0e4, 1.0e52
T_EFF, E_MAX = 1.0e5, 544.16
E_HI, E_HEII = 13.598, 54.416
K_B_EV = 8.617333262e-5
ALPHA_HII_B = 2.59e-13                     # chemistry.alpha_B at 1e4 K
# measured (2026-11-27): 64^3 He III +1.3%, H II +1.9%; 32^3 (--quick) +0.7%, +2.6%: the
# code's H II sphere is larger by the He recombination photons it gives hydrogen on the
# spot, which the analytic radius leaves out.  Tolerance 4% (1.5x the largest).
# 2026-11-28, He III's excited-state photons in the code and in r (g3): 64^3 +1.3%, +1.7%;
# 32^3 +0.8%, +2.0% (the code's H II front moved out by 1.3%, as the analytic radius did).
TOL = {"HeIII": 0.04, "HII": 0.04}


P_CASCADE = 0.96  # He I recombinations to excited states ending in an H-ionizing photon
# He III's excited-state recombinations at 1e4 K (Friedrich et al. 2012): the two-photon
# fraction, its photons above 13.6 eV, the Lyman alpha absorbed where x_HI < 1e-3, and
# recombinations straight to n = 2 [cm^3/s]
V_TWO_PHOTON, L_TWO_PHOTON, F_LYA, ALPHA_HEIII_N2 = 0.285, 1.425, 0.01, 3.4e-13


def alpha_heii_rad_b(t):  # Hui & Gnedin 1997, case B, HeII -> HeI, radiative
    return 1.26e-14 * (2.0 * 285335.0 / t) ** 0.750


def alpha_heii_b(t):   # ... plus dielectronic
    diel = 1.9e-3 * t ** -1.5 * math.exp(-4.7e5 / t) * (1.0 + 0.3 * math.exp(-9.4e4 / t))
    return alpha_heii_rad_b(t) + diel


def alpha_heiii_b(t):  # Hui & Gnedin 1997, case B, hydrogenic with Z = 2
    lam = 2.0 * 631515.0 / t
    return 2.0 * 2.753e-14 * lam ** 1.5 / (1.0 + (lam / 2.740) ** 0.407) ** 2.242


def photons_above(e_lo):
    """Fraction of the source's photons (13.598 eV to E_max) above e_lo."""
    kt = K_B_EV * T_EFF
    e = np.linspace(E_HI, E_MAX, 200001)
    n = e * e / np.expm1(e / kt)
    total = trapezoid(n, e)
    sel = e >= e_lo
    return trapezoid(n[sel], e[sel]) / total


def stroemgren_kpc():
    n_he = A_HE * N_H
    ne2, ne3 = N_H * (1.0 + A_HE), N_H * (1.0 + 2.0 * A_HE)
    q3 = NDOT * photons_above(E_HEII)
    a3 = alpha_heiii_b(T_K)
    r3_cm3 = 3.0 * q3 / (4.0 * math.pi * n_he * ne3 * a3)
    g3 = a3 * (V_TWO_PHOTON * L_TWO_PHOTON + (1.0 - V_TWO_PHOTON) * F_LYA) + ALPHA_HEIII_N2
    inner = r3_cm3 * ne3 * (N_H * ALPHA_HII_B + n_he * (a3 - g3))
    per_vol2 = ne2 * (N_H * ALPHA_HII_B + n_he * (alpha_heii_b(T_K) - P_CASCADE * alpha_heii_rad_b(T_K)))
    r_cm3 = r3_cm3 + (3.0 * NDOT / (4.0 * math.pi) - inner) / per_vol2
    return r_cm3 ** (1.0 / 3.0) / KPC_CM, r3_cm3 ** (1.0 / 3.0) / KPC_CM, q3 / NDOT


def front_kpc(profile, cell_kpc):
    """Distance from the source's cell centre where the profile first drops below 1/2."""
    below = np.nonzero(profile < 0.5)[0]
    if below.size == 0 or below[0] == 0:
        return float("nan")
    i = below[0]
    f0, f1 = profile[i - 1], profile[i]
    return (i - 1 + (f0 - 0.5) / (f0 - f1)) * cell_kpc


def axis_profiles(field, c):
    return [field[c:, c, c], field[c::-1, c, c], field[c, c:, c], field[c, c::-1, c],
            field[c, c, c:], field[c, c, c::-1]]


def main(argv):
    if IMPORT_ERROR is not None:
        return skip_missing_modules(NAME, IMPORT_ERROR)
    args = parse_validation_args(argv, NAME, __doc__.splitlines()[0], (64, None),
                                 quick=(32, "1 Myr"))
    run_dir = args.use_existing or args.run_dir or os.path.join("build", f"validation_{NAME}")
    if not args.use_existing:
        sets = [f"grid.N={args.N}", "output.vtkhdf=false"]
        if args.dt:
            sets.append(f"time.dt={args.dt}")
        try:
            run_ionfront(args.ionfront, NAME, sets, run_dir)
        except (RuntimeError, OSError) as exc:
            print(f"FAIL: {exc}")
            return 1
    snaps = sorted(p for p in os.listdir(run_dir) if p.startswith("snapshot_") and p.endswith(".h5"))
    with h5py.File(os.path.join(run_dir, snaps[-1])) as f:
        t_myr = float(f.attrs["time_s"]) / MYR_S
        n = int(f.attrs["N"])
        box_kpc = float(f.attrs["box_size_cm"]) / KPC_CM
        g = f["Grid"]
        x, y1, y2 = g["x_HII"][()], g["x_HeII"][()], g["x_HeIII"][()]
    cell = box_kpc / n
    c = int(4.0 / cell)  # the source's cell: 4 kpc from the corner
    r_h, r3, f3 = stroemgren_kpc()
    meas = {"HII": np.nanmean([front_kpc(p, cell) for p in axis_profiles(x, c)]),
            "HeIII": np.nanmean([front_kpc(p, cell) for p in axis_profiles(y2, c)])}
    want = {"HII": r_h, "HeIII": r3}
    rows, ok = [], True
    for k in ("HeIII", "HII"):
        d = meas[k] / want[k] - 1.0
        good = abs(d) <= TOL[k]
        ok = ok and good
        rows.append(f"| {k} | {want[k]:.3f} | {meas[k]:.3f} | {d:+.2%} | {TOL[k]:.0%} | "
                    f"{'pass' if good else 'FAIL'} |")
    he_sum = float(np.max(y1 + y2))
    ok = ok and he_sum <= 1.0 + 1e-12
    text = "\n".join([
        f"# Helium Stroemgren spheres ({NAME})",
        "",
        f"{n}^3 cells of {cell:.3f} kpc, t = {t_myr:.0f} Myr; photons above 54.4 eV: "
        f"{f3:.4f} of the source's; run: `{rel(run_dir)}`; "
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%MZ}.",
        "",
        "| front | Stroemgren radius [kpc] | measured [kpc] | difference | tolerance | |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        f"Largest x_HeII + x_HeIII: {he_sum:.12f} (must not exceed 1).",
        ""])
    print(text)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "helium_numbers.md"), "w") as fh:
        fh.write(text)
    r = (np.arange(n - c) + 0.0) * cell
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.plot(r, x[c:, c, c], label="x_HII")
    ax.plot(r, y1[c:, c, c], label="x_HeII")
    ax.plot(r, y2[c:, c, c], label="x_HeIII")
    ax.axvline(r_h, color="C0", ls="--", lw=0.8, label="Stroemgren H II")
    ax.axvline(r3, color="C2", ls="--", lw=0.8, label="Stroemgren He III")
    ax.set_xlabel("distance from the source along +x [kpc]")
    ax.set_ylabel("ionized fraction")
    ax.set_title(f"helium: {n}^3, t = {t_myr:.0f} Myr")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "helium_profiles.png"), dpi=120)
    print(f"wrote {rel(os.path.join(args.out, 'helium_profiles.png'))}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

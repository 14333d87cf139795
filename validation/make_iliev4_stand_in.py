#!/usr/bin/env python3
"""Initial conditions for a stand-in of Iliev et al. (2006) Test 4.

The original Test 4 density cube (a cosmological simulation at z = 9 in a
0.5/h comoving Mpc box, 128^3) is not available here.  This writes a stand-in
with the same box, redshift and source recipe:

* a Gaussian random field with the linear LambdaCDM power spectrum (BBKS
  transfer function with Sugiyama's shape parameter, n_s = 1, sigma_8 = 0.8,
  linear growth to z = 9), turned log-normal (rho / <rho> = exp(delta -
  sigma^2 / 2)) so that the density is positive with the field's mean;
* the mean hydrogen density of the universe at z = 9 (X = 0.76), proper;
* 16 sources at the 16 densest local maxima (at least 4 cells apart), each with
  Ndot = f_gamma M Omega_b / (Omega_m m_p t_s), f_gamma = 250, t_s = 3 Myr, M the
  matter mass of the 3^3 cells around the peak (Iliev et al.'s recipe, with this
  block standing in for a halo).

usage: make_iliev4_stand_in.py [--N 128] [--seed 4] [--out DIR]
writes DIR/iliev4_density.h5 (dataset n_H, (N, N, N), C order, cm^-3) and
DIR/iliev4_sources.txt (C2-Ray text format: count, then 'i j k Ndot 1', 1-based).
"""
import argparse
import math
import os
import sys

try:
    import h5py
    import numpy as np
except ImportError as exc:  # the CI skips (77) without numpy / h5py
    print(f"needs numpy and h5py: {exc}")
    sys.exit(77)

H, OMEGA_M, OMEGA_B, SIGMA_8, Z = 0.7, 0.27, 0.043, 0.8, 9.0
BOX_COMOVING_MPC = 0.5 / H
MPC_CM = 3.0856775814913673e24
M_P_G, M_SUN_G, MYR_S = 1.67262192e-24, 1.98847e33, 3.15576e13
G_CGS = 6.67430e-8


def bbks(k_h_mpc):
    """BBKS transfer function; k in h/Mpc."""
    gamma = OMEGA_M * H * math.exp(-OMEGA_B * (1.0 + math.sqrt(2.0 * H) / OMEGA_M))
    q = k_h_mpc / gamma
    return (np.log(1.0 + 2.34 * q) / (2.34 * q)
            * (1.0 + 3.89 * q + (16.1 * q) ** 2 + (5.46 * q) ** 3 + (6.71 * q) ** 4) ** -0.25)


def growth(z):
    """Linear growth factor normalised to 1 today (Carroll, Press & Turner 1992 fit)."""
    def g(zz):
        a3 = (1.0 + zz) ** 3
        om = OMEGA_M * a3 / (OMEGA_M * a3 + 1.0 - OMEGA_M)
        ol = 1.0 - om
        return 2.5 * om / (om ** (4.0 / 7.0) - ol + (1.0 + om / 2.0) * (1.0 + ol / 70.0))
    return g(z) / g(0.0) / (1.0 + z)


def power(k, amplitude):
    return amplitude * k * bbks(k) ** 2


def sigma8_amplitude():
    k = np.logspace(-4, 3, 20000)
    x = k * 8.0
    w = 3.0 * (np.sin(x) - x * np.cos(x)) / x ** 3
    integrand = power(k, 1.0) * w ** 2 * k ** 2 / (2.0 * math.pi ** 2)
    return SIGMA_8 ** 2 / np.trapz(integrand, k)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--N", type=int, default=128)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    n = args.N
    box_h = BOX_COMOVING_MPC * H  # Mpc/h
    rng = np.random.default_rng(args.seed)
    kf = 2.0 * math.pi / box_h
    k1 = np.fft.fftfreq(n, d=1.0 / n) * kf
    kz = np.fft.rfftfreq(n, d=1.0 / n) * kf
    kk = np.sqrt(k1[:, None, None] ** 2 + k1[None, :, None] ** 2 + kz[None, None, :] ** 2)
    kk[0, 0, 0] = 1.0
    pk = power(kk, sigma8_amplitude()) * growth(Z) ** 2  # (Mpc/h)^3
    pk[0, 0, 0] = 0.0
    volume = box_h ** 3
    noise = rng.normal(size=kk.shape) + 1j * rng.normal(size=kk.shape)
    delta_k = noise * np.sqrt(pk / (2.0 * volume)) * n ** 3
    delta = np.fft.irfftn(delta_k, s=(n, n, n))
    sigma = delta.std()
    rho = np.exp(delta - 0.5 * sigma ** 2)
    rho /= rho.mean()

    h0 = 100.0 * H * 1e5 / MPC_CM
    rho_crit = 3.0 * h0 ** 2 / (8.0 * math.pi * G_CGS)
    n_h_mean = 0.76 * OMEGA_B * rho_crit * (1.0 + Z) ** 3 / M_P_G
    n_h = n_h_mean * rho

    # 16 densest local maxima, at least 4 cells apart (periodic)
    padded = np.pad(rho, 1, mode="wrap")
    peaks = np.ones_like(rho, dtype=bool)
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            for dk in (-1, 0, 1):
                if di or dj or dk:
                    peaks &= rho >= padded[1 + di:n + 1 + di, 1 + dj:n + 1 + dj, 1 + dk:n + 1 + dk]
    cand = np.argwhere(peaks)
    cand = cand[np.argsort(-rho[peaks])]
    chosen = []
    for c in cand:
        if all(np.max(np.minimum(np.abs(c - o), n - np.abs(c - o))) >= 4 for o in chosen):
            chosen.append(c)
        if len(chosen) == 16:
            break
    cell_cm = BOX_COMOVING_MPC * MPC_CM / n  # comoving
    rho_m_mean = OMEGA_M * rho_crit  # comoving mean matter density
    sources = []
    for c in chosen:
        block = rho[np.ix_(*[[(c[a] + d) % n for d in (-1, 0, 1)] for a in range(3)])]
        mass_g = rho_m_mean * block.sum() * cell_cm ** 3
        ndot = 250.0 * mass_g * OMEGA_B / (OMEGA_M * M_P_G * 3.0 * MYR_S)
        sources.append((c, ndot))

    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "iliev4_density.h5")
    with h5py.File(path + ".tmp", "w") as f:
        d = f.create_dataset("n_H", data=n_h)
        d.attrs["units"] = "cm^-3"
        d.attrs["description"] = ("stand-in for the Iliev et al. 2006 Test 4 density: log-normal "
                                  "Gaussian random field, LambdaCDM BBKS spectrum, z = 9, proper")
    os.replace(path + ".tmp", path)
    with open(os.path.join(args.out, "iliev4_sources.txt"), "w") as f:
        f.write(f"{len(sources)}\n")
        for c, ndot in sources:
            f.write(f"{c[0] + 1} {c[1] + 1} {c[2] + 1} {ndot:.6e} 1\n")
    print(f"{path}: N = {n}, <n_H> = {n_h.mean():.4e} cm^-3, sigma(delta_lin) = {sigma:.3f}, "
          f"max/mean = {rho.max():.1f}; {len(sources)} sources, "
          f"Ndot {min(s[1] for s in sources):.3e} .. {max(s[1] for s in sources):.3e} 1/s")


if __name__ == "__main__":
    main()

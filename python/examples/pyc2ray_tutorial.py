#!/usr/bin/env python3
"""pyC²Ray's tutorial, end to end, in ionfront terms.

Two parts, as pyC²Ray's documentation has them (the same steps and physical set-up;
sizes reduced by default so that both run on a laptop core in seconds):

ifront  pyC²Ray's I-front test (docs/examples/ifront.ipynb, whose script is
        examples/paper_tests/test1_Ifront/run_test.py; Mellema et al. 2006): one source
        of 1e54 photons/s at the centre of a static 1.62 Mpc box of n_H = 1.87e-4 cm^-3
        at 10^4 K with a clumping factor of 5, for 500 Myr in slices of equal time between
        redshifts; the front against the analytic r_S (1 - exp(-t/t_rec))^(1/3).
cosmo   pyC²Ray's cosmological tutorial (docs/tutorials/make_sim.ipynb, cosmo_sim.ipynb):
        an expanding 128 Mpc box from z = 12 to 10, a density set per redshift from NumPy,
        and a source model called every step (random haloes, stellar mass -> photons).

pyC²Ray                                    ionfront (an Engine e)
-----------------------------------------  ------------------------------------------------
C2Ray_Test(paramfile) / C2Ray(paramfile)   e = ionfront.Engine(yaml=...)  (the parameter
                                           file's keys mapped: docs/pyc2ray.md)
sim.cosmology.H0, .age(z); sim.zred        e.cosmology, e.hubble_per_s(z), e.age_at_redshift(z); e.z
generate_redshift_array(n, dt)             e.redshift_at_time(dt * np.arange(n))
set_timestep(zi, zf, k)                    (t(zf) - t(zi)) / k: e.evolve_to(zf, steps=k) does it
density_init(zi) / read_density(z)         e.set_density(n_H, z=zi)  (NumPy, proper cm^-3 at zi)
read_sources(...) -> srcpos, flux          a function returning (positions, Ndot [photons/s])
cosmo_evolve(dt); evolve3D(dt, flux, pos)  e.evolve_to(zf, steps=k, sources=fn): k steps, each
                                           at the redshift of its middle (or e.step(dt))
cosmo_evolve_to_now()                      nothing: the next slice's set_density(z=zi) sets
                                           the density where the time stands
write_output(z)                            e.write_snapshot(i)  (HDF5; /Grid/x_HII, Gamma_HI, ...)
sim.xh, sim.phi_ion, sim.ndens, sim.temp   e.x_HII, e.Gamma_HI, e.n_H, e.T  (NumPy views)

    python3 python/examples/pyc2ray_tutorial.py                      # both parts, small
    python3 python/examples/pyc2ray_tutorial.py ifront --N 256 --slices 100   # pyC²Ray's "fine"
(from a source tree without `pip install .`: IONFRONT_LIBRARY=build/libionfront.so)
"""
import argparse
import os
import sys

import numpy as np

try:
    import ionfront
except ImportError:  # a source tree: python/ionfront beside this folder
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import ionfront

MYR_S = ionfront.MYR_S
KPC_CM = ionfront.KPC_CM
MSUN_G = 1.98847e33        # solar mass [g] (IAU 2015 nominal, as astropy)
M_P_G = 1.67262192e-24     # proton mass [g] (CODATA 2018)

# ---------------------------------------------------------------------------------------
# Part 1: the I-front test.  pyC²Ray's docs/examples/parameters_ifront.yml, key by key as
# docs/pyc2ray.md maps it; the source is the script's (src_ifront.txt), set from NumPy.
# ---------------------------------------------------------------------------------------
IFRONT_NDOT = 1e54         # photons/s (src_ifront.txt)
IFRONT_N_H = 1.87e-4       # Material.avg_dens 1.87e-7 x (1 + zred_0)^3 [cm^-3]
ALPHA_B = 2.59e-13         # CGS.bh00 [cm^3/s] at 10^4 K
CLUMPING = 5.0             # Sinks.clumping: chemistry.clumping (recombinations x C)


def ifront_config(n, out):
    return f"""
grid: {{N: {n}, box_size: 1.62022035 Mpc, periodic: false}}   # Grid.boxsize, meshsize
material:
  n_H: {IFRONT_N_H}
  temperature: 1.0e4          # Material.temp0
  x_HII_initial: 1.2e-3       # Material.xh0
  isothermal: true            # pyC2Ray's chemistry keeps T fixed
chemistry: {{alpha_B: {ALPHA_B}, alpha_B_power: -0.7, abu_c: 7.1e-7, clumping: {CLUMPING}}}
spectrum: {{type: grey, sigma_0: 6.30e-18, num_tau: 20000, min_log_tau: -20, max_log_tau: 4}}
raytracing: {{R_max: 15 Mpc, convergence_fraction: 1.0e-4}}   # Sinks.R_max_cMpc
cosmology: {{cosmological: false, h: 1.0, Omega_m: 0.27, Omega_b: 0.044, T_cmb: 2.726, z_initial: 9.0}}
sources: [{{position: [{n // 2 - 1}, {n // 2 - 1}, {n // 2 - 1}], Ndot: {IFRONT_NDOT}}}]
time: {{dt: 50 Myr, t_end: 500 Myr}}
output: {{directory: {out}, progress: false}}
"""


def ifront_radius_cm(x_hii, src, cell_cm):
    """The front along +x from the source cell: where x_HII falls through 0.5, linearly
    interpolated between cell centres (pyC²Ray's notebook: np.interp along the same line)."""
    line = x_hii[src[0]:, src[1], src[2]]
    below = np.nonzero(line < 0.5)[0]
    if len(below) == 0:
        return np.nan  # the front left the box
    i = below[0]
    if i == 0:
        return 0.0
    frac = (line[i - 1] - 0.5) / (line[i - 1] - line[i])
    return (i - 1 + frac) * cell_cm


def ifront_analytic_cm(t_s):
    """Strömgren's front in a static medium: r_S (1 - e^{-t/t_rec})^{1/3}, with the
    clumped recombination coefficient C alpha_B."""
    alpha = CLUMPING * ALPHA_B
    r_s = (3.0 * IFRONT_NDOT / (4.0 * np.pi * alpha * IFRONT_N_H ** 2)) ** (1.0 / 3.0)
    t_rec = 1.0 / (alpha * IFRONT_N_H)
    return r_s * (1.0 - np.exp(-np.asarray(t_s) / t_rec)) ** (1.0 / 3.0)


def run_ifront(n=32, slices=10, steps_per_slice=1, t_evol_myr=500.0, out="pyc2ray_ifront",
               backend=None, verbose=True):
    """The I-front test; returns times [s], numerical and analytic radii [cm] per slice."""
    overrides = {"raytracing.backend": backend} if backend else None
    with ionfront.Engine(yaml=ifront_config(n, out), overrides=overrides) as e:
        # the script's sources (read_sources: 1-based cell 128 of 256 = the centre)
        srcpos = np.array([[n // 2 - 1] * 3], dtype=float)
        ndot = np.array([IFRONT_NDOT])
        # generate_redshift_array(numzred + 1, t_evol / numzred): equal times from zred_0
        zred = e.redshift_at_time(t_evol_myr / slices * MYR_S * np.arange(slices + 1))
        n_h = np.full(e.local_box[1], IFRONT_N_H)
        times, r_num = [0.0], [0.0]
        for k in range(slices):
            zi, zf = zred[k], zred[k + 1]
            e.write_snapshot(k)                          # write_output(zi)
            e.set_density(n_h, z=zi)                     # density_init(zi)
            e.evolve_to(zf, steps=steps_per_slice,       # set_timestep, cosmo_evolve, evolve3D
                        sources=lambda eng, z, dt: (srcpos, ndot))
            times.append(e.time_s)
            r_num.append(ifront_radius_cm(e.x_HII, (n // 2 - 1,) * 3, e.cell_cm))
            if verbose:
                print(f"  z {zi:.4f} -> {zf:.4f}: t = {e.time_s / MYR_S:6.1f} Myr, "
                      f"<x_HII> = {e.x_HII.mean():.4f}, r_I = {r_num[-1] / KPC_CM:6.1f} kpc")
        e.write_snapshot(slices)                         # write_output(zf)
    times = np.array(times)
    return times, np.array(r_num), ifront_analytic_cm(times)


# ---------------------------------------------------------------------------------------
# Part 2: the cosmological tutorial.  docs/tutorials/parameters.yml mapped, and the
# notebook's own read_density and read_sources (a subclass of C2Ray there; functions here).
# ---------------------------------------------------------------------------------------
def cosmo_config(n, out):
    return f"""
grid: {{N: {n}, box_size: 128 Mpc, periodic: true}}   # comoving (cosmological)
material: {{n_H: 1.0e-6, temperature: 1.0e4, x_HII_initial: 1.2e-3, isothermal: true}}
chemistry: {{alpha_B: {ALPHA_B}, alpha_B_power: -0.7, abu_c: 7.1e-7}}   # Sinks.clumping: 1
spectrum: {{type: blackbody, T_eff: 5.0e4, power_law_index: 2.8, sigma_0: 6.30e-18,
           num_tau: 10000, min_log_tau: -20, max_log_tau: 4}}
raytracing: {{R_max: 15 Mpc, convergence_fraction: 1.0e-4}}
cosmology: {{cosmological: true, h: 0.6766, Omega_m: 0.30966, Omega_b: 0.04897, T_cmb: 2.7255,
            z_initial: 12.0}}
sources: [{{position: [0, 0, 0], Ndot: 1.0e50}}]   # replaced by the model before the first step
time: {{dt: 1 Myr, t_end: 200 Myr}}
output: {{directory: {out}, progress: false}}
"""


def read_density(e, z):
    """The notebook's read_density: 1e-6 cm^-3 everywhere at every redshift (a real script
    reads its N-body density of redshift z here: proper n_H, or comoving with
    set_density(..., comoving=True))."""
    return np.full(e.local_box[1], 1.0e-6)


def read_sources(e, z, dt_s, nsrc=10, box_mpc=128.0):
    """The notebook's read_sources: nsrc haloes at random places (the same every call, seed
    918) with masses uniform in 1e8..1e14 Msun; stellar mass f_star M and escape fraction
    f_esc; every escaping baryon one photon over the step: Ndot = f_esc f_star M / (m_p dt).
    Sources in one cell are merged by the engine (pyC²Ray's bin_sources)."""
    rng = np.random.default_rng(918)
    pos_mpc = rng.uniform(0.0, box_mpc, size=(nsrc, 3))
    m_halo_msun = rng.uniform(1e8, 1e14, nsrc)
    f_star, f_esc = 0.1, 0.1
    ndot = f_esc * f_star * m_halo_msun * MSUN_G / (M_P_G * dt_s)
    return np.floor(pos_mpc / box_mpc * e.n), ndot


def run_cosmo(n=32, redshifts=None, steps_per_slice=4, out="pyc2ray_cosmo", backend=None,
              verbose=True):
    """The cosmological tutorial; returns (z, <x_HII>) after each slice."""
    if redshifts is None:
        redshifts = np.linspace(12.0, 10.0, 6)  # the notebook: np.linspace(12, 10, 20)
    overrides = {"raytracing.backend": backend} if backend else None
    history = []
    with ionfront.Engine(yaml=cosmo_config(n, out), overrides=overrides) as e:
        if verbose:
            c = e.cosmology
            print(f"  H0 = {e.hubble_per_s(0.0):.4g} /s, age at z = 12: "
                  f"{e.age_at_redshift(12.0) / MYR_S:.1f} Myr (h = {c['h']}, Omega_m = {c['Omega_m']})")
        for k in range(len(redshifts) - 1):
            zi, zf = redshifts[k], redshifts[k + 1]
            e.set_density(read_density(e, zi), z=zi)     # read_density(z=zi)
            e.evolve_to(zf, steps=steps_per_slice, sources=read_sources)
            e.write_snapshot(k)                          # write_output(z=zi)
            history.append((e.z, float(e.x_HII.mean())))
            if verbose:
                print(f"  z {zi:.3f} -> {zf:.3f}: {e.source_count} sources, <x_HII> = "
                      f"{history[-1][1]:.4f}, Gamma max = {e.Gamma_HI.max():.3g} /s")
    return history


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", nargs="?", choices=["ifront", "cosmo", "both"], default="both")
    parser.add_argument("--N", type=int, default=None, help="cells per side (32)")
    parser.add_argument("--slices", type=int, default=10, help="I-front: redshift slices (10)")
    parser.add_argument("--steps", type=int, default=None,
                        help="steps between slices (ifront 1, cosmo 4; pyC2Ray's cosmo: 20)")
    parser.add_argument("--out", default="pyc2ray_tutorial_out", help="output directory")
    parser.add_argument("--backend", default=None, help="cpu or cuda (default: the config's auto)")
    args = parser.parse_args()
    print(f"libionfront {ionfront.version()}")
    if args.part in ("ifront", "both"):
        print("I-front test (pyC2Ray docs/examples/ifront.ipynb):")
        t, r, r_an = run_ifront(n=args.N or 32, slices=args.slices, steps_per_slice=args.steps or 1,
                                out=os.path.join(args.out, "ifront"), backend=args.backend)
        print("     t [Myr]   r_I [kpc]  analytic [kpc]  ratio")
        for ti, ri, ai in zip(t[1:], r[1:], r_an[1:]):
            print(f"  {ti / MYR_S:10.1f}  {ri / KPC_CM:10.1f}  {ai / KPC_CM:14.1f}  {ri / ai:.4f}")
    if args.part in ("cosmo", "both"):
        print("Cosmological run (pyC2Ray docs/tutorials/cosmo_sim.ipynb):")
        run_cosmo(n=args.N or 32, steps_per_slice=args.steps or 4,
                  out=os.path.join(args.out, "cosmo"), backend=args.backend)


if __name__ == "__main__":
    main()

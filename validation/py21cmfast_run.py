#!/usr/bin/env python3
"""A small 21cmFAST run, then ionfront on its boxes (docs/inputs.md, "21cmFAST").

Makes initial conditions with py21cmfast 4 (HII_DIM = N, BOX_LEN = 1.5 N Mpc, DIM =
3 N), and at z = 9.0, 8.5, 8.0 a PerturbedField and a PerturbedHaloCatalog, each saved
with py21cmfast.write_output_to_hdf5 as pf_z%.3f.h5 / ph_z%.3f.h5; then runs ionfront
on them (sequence.density.format and sequence.halos.format: 21cmfast, the cosmology
taken from the files) and checks what ionfront made of the files:
  * n_H at z = 9 (snapshot 0) is (1 + delta) (1 - Y_He) Omega_b rho_crit,0 (1 + z)^3
    / m_p in every cell to 1e-12 (delta and Y_He as py21cmfast holds them);
  * each interval's source count is the number of distinct cells of the catalogue's
    halos (mass > 0, floor(x / BOX_LEN N) per axis), and its total photon rate is
    sum f_gamma M Omega_b / (Omega_m m_p t_s) (to 1e-8: log.csv's 10 digits);
  * the run ends at z = 8 with x_HII rising from the start.

Needs a Python with py21cmfast (pip install 21cmFAST, in a virtual environment: it
compiles its C code with FFTW and GSL), numpy and h5py; exits 77 (skip) without them.
Writes py21cmfast_numbers.md into --out.  Exit code 0 pass, 1 fail, 77 skip.

    python -m venv venv && venv/bin/pip install 21cmFAST
    venv/bin/python validation/py21cmfast_run.py --ionfront build/ionfront
"""
import argparse
import datetime
import os
import shutil
import subprocess
import sys
import time

try:
    import numpy as np
    import h5py
    import py21cmfast as p21
    IMPORT_ERROR = None
except ImportError as exc:
    IMPORT_ERROR = exc

REDSHIFTS = (9.0, 8.5, 8.0)
F_GAMMA, T_SOURCE_MYR = 2.0, 10.0
MYR_S, MSUN_G, M_P_G = 3.15576e13, 1.98847e33, 1.67262192369e-24
MPC_CM, G_CGS = 3.0856775814913673e24, 6.67430e-8


def make_boxes(run_dir, n, seed):
    """The 21cmFAST files of every redshift; -> (inputs, seconds)."""
    start = time.time()
    inputs = p21.InputParameters(random_seed=seed).evolve_input_structs(
        HII_DIM=n, BOX_LEN=1.5 * n, DIM=3 * n, N_THREADS=2)
    ics = p21.compute_initial_conditions(inputs=inputs)
    for z in REDSHIFTS:
        pf = p21.perturb_field(redshift=z, initial_conditions=ics)
        p21.write_output_to_hdf5(pf, os.path.join(run_dir, f"pf_z{z:.3f}.h5"))
        halos = p21.determine_halo_catalog(redshift=z, initial_conditions=ics)
        ph = p21.perturb_halo_catalog(initial_conditions=ics, halo_catalog=halos)
        p21.write_output_to_hdf5(ph, os.path.join(run_dir, f"ph_z{z:.3f}.h5"))
    return inputs, time.time() - start


def write_config(run_dir, inputs, n):
    cp = inputs.cosmo_params
    text = f"""# ionfront on a py21cmfast {p21.__version__} run (validation/py21cmfast_run.py)
grid: {{N: {n}, box_size: "{1.5 * n!r} Mpc", periodic: true}}
material: {{temperature: 1.0e4, x_HII_initial: 2.0e-4, isothermal: true}}
chemistry: {{collisional_ionization: false}}
spectrum: {{type: grey}}
time: {{dt: 10 Myr}}
raytracing: {{R_max: "{0.25 * 1.5 * n!r} Mpc"}}
cosmology: {{cosmological: true, h: {cp.hlittle!r}, Omega_m: {cp.OMm!r}, Omega_b: {cp.OMb!r}}}
sequence:
  redshifts: [{", ".join(repr(z) for z in REDSHIFTS)}]
  density: {{format: 21cmfast, pattern: "pf_z%.3f.h5"}}
  halos: {{format: 21cmfast, pattern: "ph_z%.3f.h5", f_gamma: {F_GAMMA!r}, t_source: {T_SOURCE_MYR!r} Myr}}
"""
    path = os.path.join(run_dir, "run.yaml")
    with open(path, "w") as f:
        f.write(text)
    return path


def expected_sources(path, n, box_mpc, cosmo):
    with h5py.File(path) as f:
        of = f["PerturbedHaloCatalog/OutputFields"]
        k = int(of.attrs["n_halos"])
        mass = of["halo_masses"][:k].astype(float)
        pos = of["halo_coords"][:k].astype(float)
    emit = mass > 0
    cells = np.floor(pos[emit] / box_mpc * n).astype(int) % n
    ndot = F_GAMMA * mass[emit] * MSUN_G * cosmo.OMb / (cosmo.OMm * M_P_G * T_SOURCE_MYR * MYR_S)
    return len({tuple(c) for c in cells}), float(ndot.sum())


def check(run_dir, out_dir, n, inputs):
    """The checks; -> (failures, lines of the numbers table)."""
    failures, lines = [], []
    cp = inputs.cosmo_params
    with h5py.File(os.path.join(run_dir, "pf_z9.000.h5")) as f:
        delta = f["PerturbedField/OutputFields/density"][:].astype(float)
    rho_crit = 3 * (cp.hlittle * 1e7 / MPC_CM) ** 2 / (8 * np.pi * G_CGS)
    mean = (1 - cp.Y_He) * cp.OMb * rho_crit * (1 + 9.0) ** 3 / M_P_G
    with h5py.File(os.path.join(out_dir, "snapshot_0000.h5")) as f:
        n_h = f["Grid/n_H"][:]
    worst = float(np.max(np.abs(n_h - (1 + delta) * mean) / ((1 + delta) * mean)))
    lines.append(f"| n_H at z = 9 against (1 + delta) n_H,mean | worst relative difference {worst:.2e} | 1e-12 |")
    if not worst <= 1e-12:
        failures.append(f"n_H at z = 9 differs from the file's by {worst:.3g}")
    rows = np.genfromtxt(os.path.join(out_dir, "log.csv"), delimiter=",", names=True)
    for z in REDSHIFTS[:-1]:
        k, s = expected_sources(os.path.join(run_dir, f"ph_z{z:.3f}.h5"), n, 1.5 * n, cp)
        first = rows[rows["redshift"] < z][0]
        r = abs(first["Ndot_total_per_s"] / s - 1)
        lines.append(f"| sources at z = {z} | {int(first['n_sources'])} (expected {k}); "
                     f"Ndot {first['Ndot_total_per_s']:.6g} /s (relative difference {r:.1e}) | exact; 1e-8 |")
        if first["n_sources"] != k or not r <= 1e-8:
            failures.append(f"z = {z}: {first['n_sources']} sources, Ndot {first['Ndot_total_per_s']:.10g}; "
                            f"expected {k}, {s:.10g}")
    x_end = rows["x_HII_mean_volume"][-1]
    lines.append(f"| <x_HII> at z = {rows['redshift'][-1]:.3f} | {x_end:.4f} (start 2e-4) | rises |")
    if not (abs(rows["redshift"][-1] - REDSHIFTS[-1]) < 1e-6 and x_end > 2e-4):
        failures.append(f"the run did not end at z = 8 with x_HII risen (z {rows['redshift'][-1]}, x {x_end})")
    return failures, lines


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ionfront", default="build/ionfront")
    ap.add_argument("--run-dir", default="build/validation_py21cmfast")
    ap.add_argument("--out", default="docs")
    ap.add_argument("--N", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if IMPORT_ERROR is not None:
        print(f"py21cmfast_run.py: skipped: {IMPORT_ERROR} (needs py21cmfast, numpy and h5py; "
              "pip install 21cmFAST in a virtual environment)")
        return 77
    shutil.rmtree(args.run_dir, ignore_errors=True)
    os.makedirs(args.run_dir)
    inputs, t_boxes = make_boxes(args.run_dir, args.N, args.seed)
    cfg = write_config(args.run_dir, inputs, args.N)
    out_dir = os.path.join(args.run_dir, "out")
    start = time.time()
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"))
    run = subprocess.run([args.ionfront, "run", cfg, "--output", out_dir], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    t_run = time.time() - start
    with open(os.path.join(args.run_dir, "ionfront.log"), "w") as f:
        f.write(run.stdout)
    if run.returncode != 0:
        print(run.stdout)
        print(f"FAIL: ionfront exited {run.returncode}")
        return 1
    failures, lines = check(args.run_dir, out_dir, args.N, inputs)
    os.makedirs(args.out, exist_ok=True)
    table = "\n".join([
        f"# ionfront on a py21cmfast {p21.__version__} run",
        "",
        f"{datetime.date.today()}: HII_DIM {args.N}, BOX_LEN {1.5 * args.N} Mpc, seed {args.seed}, "
        f"z = {', '.join(str(z) for z in REDSHIFTS)}; 21cmFAST boxes in {t_boxes:.1f} s, "
        f"ionfront run in {t_run:.1f} s (OMP_NUM_THREADS={env['OMP_NUM_THREADS']}).",
        "",
        "| check | result | tolerance |", "| --- | --- | --- |", *lines, ""])
    with open(os.path.join(args.out, "py21cmfast_numbers.md"), "w") as f:
        f.write(table)
    print(table)
    for msg in failures:
        print("FAIL:", msg)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

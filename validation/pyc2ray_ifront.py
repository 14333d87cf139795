#!/usr/bin/env python3
"""Validation: a pyC2Ray I-front parameter file, converted by `ionfront convert` and run.

pyC2Ray's I-front test (its docs/examples/parameters_ifront.yml, or
examples/paper_tests/test1_Ifront/parameters.yml) is Iliev et al. (2006) Test 1's
problem at other numbers: one steady source at the centre of a static box of hydrogen at
a fixed 1e4 K.  This script converts the file given on the command line with
`ionfront convert` (the source list and time steps that pyC2Ray's driving script
supplies come from the options: by default its test's 1e54 photons/s at the centre cell,
500 Myr), runs it at a reduced size (--N) and compares the I-front with Test 1's analytic
front

    r_I(t) = r_S (1 - exp(-t / t_rec))^(1/3),  r_S = (3 Ndot / (4 pi C alpha n_H^2))^(1/3),
    t_rec = 1 / (C alpha n_H),

with n_H, alpha (alpha_B at the temperature) and the clumping factor C
(chemistry.clumping, which the conversion writes from Sinks.clumping) read from the
converted config, by Test 1's check (validation/iliev1.py): |r_I / r_analytic - 1| <= 5%
at 30, 100, 200 and 500 Myr (those before the end).  The analytic front needs a uniform
clumping factor: a file with pyC2Ray's redshift or density model is refused.

Exit code: 0 pass; 1 outside the tolerance, or the conversion or run failed; 77 without
a parameter file (none is shipped: pyC2Ray's are its own) or without numpy.

usage: validation/pyc2ray_ifront.py PARAMS.yml [--N 64] [--dt "10 Myr"] [--t-end "500 Myr"]
                                    [--ndot 1e54] [--ionfront build/ionfront] [--run-dir DIR]
                                    [--png docs/pyc2ray_ifront.png]
"""
import argparse
import math
import os
import re
import shlex
import subprocess
import sys
import time

try:
    import numpy as np
except ImportError as exc:  # reported by main(), exit code 77
    IMPORT_ERROR = exc
else:
    IMPORT_ERROR = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from iliev1 import CHECK_TIMES, TOLERANCE  # noqa: E402  Test 1's check, reused
from vutil import REPO, fmt, read_csv, rel, same_time  # noqa: E402

MPC_KPC = 1000.0
MYR_S = 3.15576e13            # Julian year, as ionfront
KPC_CM = 3.0856775814913673e21


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("params", nargs="?", help="a pyC2Ray I-front parameter file")
    p.add_argument("--N", type=int, default=64, help="cells per side (default 64; the file's "
                   "meshsize is pyC2Ray's, 256)")
    p.add_argument("--dt", default="10 Myr", help='time step (default "10 Myr")')
    p.add_argument("--t-end", default="500 Myr", help='end (default "500 Myr", the test\'s)')
    p.add_argument("--png", help="also draw r_I(t), the analytic front and their ratio "
                   "into this PNG (matplotlib)")
    p.add_argument("--ndot", type=float, default=1e54,
                   help="photons/s of the source at the centre (default 1e54, pyC2Ray's test)")
    p.add_argument("--ionfront", default=os.path.join(REPO, "build", "ionfront"),
                   help="the ionfront executable (default build/ionfront)")
    p.add_argument("--run-dir", default=os.path.join(REPO, "build", "validation_pyc2ray_ifront"),
                   help="where the config, source list and run go")
    return p.parse_args(argv)


def number_of(config_text, key):
    """The value of `  key: NUMBER` in the converted config (live lines only); None if absent."""
    m = re.search(rf"^  {key}: ([-+0-9.eE]+)\b", config_text, re.M)
    return float(m.group(1)) if m else None


def run(cmd, log=None):
    print("running:", shlex.join(rel(c) if os.path.exists(c) else c for c in cmd), flush=True)
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if log:
        with open(log, "w") as f:
            f.write(out.stdout)
    return out


def convert(args, run_dir):
    """-> (config path, text) of the converted file, its source list written beside."""
    os.makedirs(run_dir, exist_ok=True)
    config = os.path.join(run_dir, "config.yaml")
    c = args.N // 2           # pyC2Ray's test: cell 128 of 256, 1-based: the centre
    with open(os.path.join(run_dir, "sources.txt"), "w") as f:
        f.write(f"1\n{c} {c} {c} {args.ndot:g} 1\n")
    out = run([args.ionfront, "convert", os.path.abspath(args.params), "--sources", "sources.txt",
               "--dt", args.dt, "--t-end", args.t_end, "-o", config])
    if out.returncode != 0:
        raise RuntimeError(f"ionfront convert failed ({out.returncode}): {out.stdout.strip()}")
    with open(config) as f:
        return config, f.read()


def analytic(text, ndot):
    """(r_S [kpc], t_rec [Myr], description) from the converted config's numbers."""
    n_h = number_of(text, "n_H")
    alpha_b = number_of(text, "alpha_B") or 2.59e-13
    power = number_of(text, "alpha_B_power") or -0.7
    temp = number_of(text, "temperature") or 1e4
    if re.search(r"^  clumping: \{", text, re.M):
        raise RuntimeError("the converted file's chemistry.clumping is a model, not a uniform "
                           "factor: the analytic front needs Sinks.clumping_model: constant")
    clumping = number_of(text, "clumping") or 1.0
    alpha = clumping * alpha_b * (temp / 1e4) ** power
    r_s = (3.0 * ndot / (4.0 * math.pi * alpha * n_h ** 2)) ** (1.0 / 3.0) / KPC_CM
    t_rec = 1.0 / (alpha * n_h) / MYR_S
    return (r_s, t_rec,
            f"n_H = {n_h:g} cm^-3, alpha = {clumping:g} x {alpha_b:g} x (T/1e4 K)^{power:g} "
            f"= {alpha:.4g} cm^3/s at T = {temp:g} K, Ndot = {ndot:g} s^-1")


def plot(args, t, r, ra, r_s):
    """r_I(t) with the analytic front, and their ratio with Test 1's band, into args.png."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6, 6), sharex=True,
                                      gridspec_kw={"height_ratios": [2, 1]})
    top.plot(t, ra / r_s, "k-", label="analytic (Test 1)")
    top.plot(t, np.where(r > 0, r, np.nan) / r_s, "o", ms=3, label=f"ionfront, N = {args.N}")
    top.set_ylabel("r_I / r_S")
    top.legend(loc="lower right")
    top.set_title(f"pyC2Ray's {os.path.basename(args.params)}, converted by ionfront convert")
    bottom.axhspan(1 - TOLERANCE, 1 + TOLERANCE, color="0.9", label="Test 1's 5%")
    bottom.plot(t, np.where(r > 0, r, np.nan) / ra, "o-", ms=3)
    bottom.set_xlabel("t [Myr]")
    bottom.set_ylabel("r_I / analytic")
    bottom.set_ylim(0.9, 1.1)
    bottom.legend(loc="lower right")
    fig.savefig(args.png, dpi=120, bbox_inches="tight")
    plt.close(fig)
    print(f"figure: {args.png}")


def main(argv=None):
    args = parse_args(argv)
    if not args.params:
        print("pyc2ray_ifront.py: SKIP: no pyC2Ray parameter file given (pyC2Ray's "
              "docs/examples/parameters_ifront.yml, for instance)", file=sys.stderr)
        return 77
    if not os.path.isfile(args.params):
        print(f"pyc2ray_ifront.py: SKIP: no parameter file at {args.params}", file=sys.stderr)
        return 77
    if IMPORT_ERROR is not None:
        print(f"pyc2ray_ifront.py: SKIP: {IMPORT_ERROR} (needs numpy)", file=sys.stderr)
        return 77
    args.ionfront = os.path.abspath(args.ionfront)
    run_dir = os.path.abspath(args.run_dir)
    out_dir = os.path.join(run_dir, "out")
    try:
        config, text = convert(args, run_dir)
        overrides = ["--set", f"grid.N={args.N}", "--output", out_dir, "--overwrite", "--quiet"]
        analytic(text, args.ndot)  # a uniform clumping factor, before the run
        start = time.monotonic()
        done = run([args.ionfront, "run", config] + overrides, os.path.join(run_dir, "ionfront.log"))
        elapsed = time.monotonic() - start
        if done.returncode != 0:
            raise RuntimeError(f"ionfront run failed ({done.returncode}): "
                               f"{done.stdout.strip()[-2000:]}")
    except (RuntimeError, OSError) as e:
        print(f"pyc2ray_ifront.py: error: {e}", file=sys.stderr)
        return 1

    r_s, t_rec, what = analytic(text, args.ndot)
    box_kpc = (number_of(text, "box_size") or float("nan")) * MPC_KPC
    csv = read_csv(os.path.join(out_dir, "ifront.csv"))
    t, r = csv["time_Myr"], csv["r_numeric_kpc"]
    ra = r_s * (1.0 - np.exp(-t / t_rec)) ** (1.0 / 3.0)
    print(f"\npyC2Ray I-front file {args.params}, converted and run at N = {args.N}^3 "
          f"(cell {box_kpc / args.N:.2f} kpc), dt = {args.dt}, {elapsed:.1f} s")
    print(f"analytic: {what}: r_S = {r_s:.2f} kpc, t_rec = {t_rec:.2f} Myr; "
          f"distance to the box's face {box_kpc / 2:.1f} kpc")
    print(f"\n| t [Myr] | r_I [kpc] | analytic [kpc] | ratio | check |")
    print("| ---: | ---: | ---: | ---: | :---: |")
    failures = []
    for ti, ri, rai in zip(t, r, ra):
        ratio = ri / rai if ri > 0 else float("nan")
        check = ""
        if any(same_time(ti, tc) for tc in CHECK_TIMES):
            ok = np.isfinite(ratio) and abs(ratio - 1.0) <= TOLERANCE
            check = "ok" if ok else "FAIL"
            if not ok:
                failures.append(f"r_I / r_analytic = {fmt(ratio, '.4f')} at {ti:g} Myr")
        print(f"| {ti:g} | {fmt(ri if ri > 0 else float('nan'), '.2f')} | {rai:.2f} | "
              f"{fmt(ratio, '.4f')} | {check} |")
    checked = [tc for tc in CHECK_TIMES if any(same_time(ti, tc) for ti in t)]
    if not checked:
        failures.append("no output at Test 1's check times (30, 100, 200, 500 Myr): choose "
                        "--dt so that they are step ends")
    if args.png:
        plot(args, t, r, ra, r_s)
    if failures:
        for m in failures:
            print(f"pyc2ray_ifront.py: FAIL: {m} (tolerance {100 * TOLERANCE:g}%)", file=sys.stderr)
        return 1
    print(f"\nPASS: within {100 * TOLERANCE:g}% of the analytic front at "
          + ", ".join(f"{tc:g}" for tc in checked) + " Myr")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Validation: Iliev et al. (2006) Test 1 with Monte Carlo photon packets.

Runs the built-in `iliev1` problem once with ASORA and with raytracing.method:
montecarlo at several packet counts N (same seed), and compares:
  - the I-front (x_HI = 0.5 of the shell-averaged profile, shells one cell wide
    around the source) with the analytic r_S (1 - e^(-t/t_rec))^(1/3) and with ASORA's;
  - the noise: the RMS relative difference of x_HI between Monte Carlo and ASORA in
    the ionized interior (x_HII > 0.9 in the ASORA run; there x_HI ~ 1/Gamma, so it
    carries Gamma's error) at the last output, against a 1/sqrt(N) line, beside the
    median of the run's own estimate (/Grid/Gamma_HI_relative_error) in that region;
  - the spread between two seeds at the largest N (the front noise, measured).

Full mode also compares case B on the spot with case A and the re-emitted ground-state
recombination photons (montecarlo.recombination_emission) for Test 1's source at the
centre of a 13.2 kpc box (in the corner set-up the box faces are symmetry planes, and
diffuse photons leaving through them would be lost): the front radii, the neutral
fraction inside, and photon conservation, Ndot t = ionized atoms + case-B
recombinations integrated over time (the re-emitted photons ionize again).

Writes, into --out: mc_convergence.png and mc_numbers.md.

Exit code: 0 pass; 1 if, at the largest N, the front is off the analytic one by more
than 5% at 30-500 Myr (Test 1's criterion), or off ASORA's by more than one cell,
or the x_HI noise did not fall by at least a factor 0.75 per 4x packets on average
(1/sqrt(N) gives 0.5; 0.75 leaves room for the part of the MC-ASORA difference that is
not noise: ASORA's interpolation), or the run failed; 77 without numpy, h5py or
matplotlib.  Run with /usr/bin/python3.
"""
import math
import os
import sys

try:
    import numpy as np
    import h5py
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as exc:
    IMPORT_ERROR = exc
else:
    IMPORT_ERROR = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vutil import (REPO, front_of_profile, parse_validation_args, rel, run_ionfront,  # noqa: E402
                   run_provenance, skip_missing_modules)

NAME = "mc_iliev1"
NDOT, N_H, ALPHA_B = 5.0e48, 1.0e-3, 2.59e-13
KPC, MYR = 3.0856775814913673e21, 3.15576e13
R_S = (3.0 * NDOT / (4.0 * math.pi * ALPHA_B * N_H ** 2)) ** (1.0 / 3.0) / KPC
T_REC = 1.0 / (ALPHA_B * N_H) / MYR
TIMES = [10, 30, 100, 200, 500]       # Myr
CHECK_TIMES = [30, 100, 200, 500]     # Myr: |r / r_analytic - 1| <= 5% (as iliev1.py)
TOLERANCE = 0.05
PACKETS_FULL = [4000, 16000, 64000, 256000]
PACKETS_QUICK = [4000, 16000]
SEED, SEED2 = 1, 2


def r_analytic(t_myr):
    return R_S * (1.0 - math.exp(-t_myr / T_REC)) ** (1.0 / 3.0)


def run_one(ionfront, n, dt, run_dir, method, packets=None, seed=SEED):
    outputs = "[" + ", ".join(f"{t} Myr" for t in TIMES) + "]"
    sets = [f"grid.N={n}", f"time.dt={dt}", f"time.outputs={outputs}",
            f"raytracing.method={method}"]
    if method == "montecarlo":
        sets.append(f"montecarlo={{packets_per_source: {packets}, seed: {seed}}}")
    run_ionfront(ionfront, "iliev1", sets, run_dir)


def snapshots(run_dir):
    """t [Myr] -> path of each snapshot after the start."""
    out = {}
    for name in sorted(os.listdir(run_dir)):
        if name.startswith("snapshot_") and name.endswith(".h5"):
            p = os.path.join(run_dir, name)
            with h5py.File(p, "r") as f:
                t = float(f.attrs["time_s"]) / MYR
            if t > 0:
                out[round(t, 6)] = p
    return out


def shell_front(x_hi, cell_kpc):
    """Front of the profile averaged over shells one cell wide around the source cell."""
    n = x_hi.shape[0]
    i = np.arange(n, dtype=float)
    d = np.sqrt(i[:, None, None] ** 2 + i[None, :, None] ** 2 + i[None, None, :] ** 2)
    shell = np.floor(d).astype(np.int64).ravel()
    keep = shell < n
    sums = np.bincount(shell[keep], weights=x_hi.ravel()[keep], minlength=n)
    counts = np.bincount(shell[keep], minlength=n)
    mean = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    return front_of_profile(mean, (np.arange(n) + 0.5) * cell_kpc)


class Result:
    def __init__(self, run_dir):
        self.dir = run_dir
        self.snap = snapshots(run_dir)
        self.front = {}
        for t, p in self.snap.items():
            with h5py.File(p, "r") as f:
                n = int(f.attrs["N"])
                self.cell_kpc = float(f.attrs["box_size_cm"]) / KPC / n
                self.front[t] = shell_front(1.0 - f["Grid/x_HII"][...], self.cell_kpc)
        self.info = run_provenance(run_dir)

    def fields(self, t):
        with h5py.File(self.snap[t], "r") as f:
            x_hi = 1.0 - f["Grid/x_HII"][...]
            err = f["Grid/Gamma_HI_relative_error"][...] if "Grid/Gamma_HI_relative_error" in f else None
        return x_hi, err


def noise(mc, asora, t):
    """RMS relative x_HI difference MC vs ASORA and the median estimated Gamma error,
    over the interior (x_HII > 0.9 in ASORA) away from the source (> 3 cells)."""
    x_mc, err = mc.fields(t)
    x_as, _ = asora.fields(t)
    n = x_as.shape[0]
    i = np.arange(n, dtype=float)
    d = np.sqrt(i[:, None, None] ** 2 + i[None, :, None] ** 2 + i[None, None, :] ** 2)
    inner = (x_as < 0.1) & (d > 3.0)
    rms = float(np.sqrt(np.mean((x_mc[inner] / x_as[inner] - 1.0) ** 2)))
    est, unhit = float("nan"), float("nan")
    if err is not None:   # cells no packet reached have no estimate (written 0)
        hit = inner & (err > 0)
        est = float(np.median(err[hit])) if hit.any() else float("nan")
        unhit = 1.0 - hit.sum() / inner.sum()
    return rms, est, unhit, int(inner.sum())


DIFFUSE_N, DIFFUSE_PACKETS = 48, 100000


def diffuse_comparison(ionfront, dt, base, run=True):
    """Case B vs case A with re-emission, source at the centre: (lines, failures);
    run=False: analyse the runs already in base."""
    c = DIFFUSE_N // 2
    cell_kpc = 2 * 6.6 / DIFFUSE_N
    outputs = "[" + ", ".join(f"{t} Myr" for t in range(10, 501, 10)) + "]"
    res = {}
    for case, flag in (("B", "false"), ("A", "true")):
        d = os.path.join(base, f"diffuse_case{case}")
        res[case] = d
        if not run:
            continue
        run_ionfront(ionfront, "iliev1", [
            f"grid.N={DIFFUSE_N}", "grid.box_size=13.2 kpc", f"time.dt={dt}",
            f"time.outputs={outputs}", f"sources=[{{position: [{c}, {c}, {c}], Ndot: {NDOT}}}]",
            "raytracing.method=montecarlo",
            f"montecarlo={{packets_per_source: {DIFFUSE_PACKETS}, seed: 1, "
            f"recombination_emission: {flag}}}"], d)
    i = np.arange(DIFFUSE_N, dtype=float) - c
    dist = np.sqrt(i[:, None, None] ** 2 + i[None, :, None] ** 2 + i[None, None, :] ** 2)
    shell = np.floor(dist).astype(np.int64).ravel()
    vol = (cell_kpc * KPC) ** 3
    lines = ["", f"## Case A with re-emission against case B on the spot ({DIFFUSE_N}^3, "
             f"13.2 kpc box, source at the centre, {DIFFUSE_PACKETS} packets per source and "
             "as many diffuse packets per pass)", "",
             "| case | t [Myr] | r_I [kpc] | r_I / r_analytic (case B) | mean x_HI, r < 0.5 r_S | "
             "photons: (ionized atoms + case-B recombinations) / (Ndot t) |", "|---|---|---|---|---|---|"]
    out = {}
    for case, d in res.items():
        snaps = snapshots(d)
        ts = sorted(snaps)
        n_ion, rec_rate = [], []
        for t in ts:
            with h5py.File(snaps[t], "r") as f:
                x = f["Grid/x_HII"][...]
            n_ion.append(np.sum(N_H * x) * vol)
            rec_rate.append(np.sum(ALPHA_B * N_H * N_H * (x + 7.1e-7) * x) * vol)
        tt = np.array([0.0] + ts) * MYR
        rr = np.array([0.0] + rec_rate)   # t = 0: x = 1.2e-3, negligible
        recs = np.concatenate([[0.0], np.cumsum(0.5 * (rr[1:] + rr[:-1]) * np.diff(tt))])[1:]
        for k, t in enumerate(ts):
            if t not in (100, 500):
                continue
            with h5py.File(snaps[t], "r") as f:
                x_hi = 1.0 - f["Grid/x_HII"][...]
            sums = np.bincount(shell, weights=x_hi.ravel(), minlength=DIFFUSE_N)
            counts = np.bincount(shell, minlength=DIFFUSE_N)
            prof = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)[:c]
            r = front_of_profile(prof, (np.arange(c) + 0.5) * cell_kpc)
            inner = x_hi[(dist * cell_kpc < 0.5 * R_S) & (dist > 2)].mean()
            budget = (n_ion[k] - N_H * 1.2e-3 * vol * DIFFUSE_N ** 3 + recs[k]) / (NDOT * t * MYR)
            out[(case, t)] = (r, inner, budget)
            lines.append(f"| {case} | {t} | {r:.3f} | {r / r_analytic(t):.4f} | {inner:.3e} | {budget:.4f} |")
    failures = []
    rb, ra = out[("B", 500)][0], out[("A", 500)][0]
    lines.append("")
    lines.append(f"Front radius case A / case B at 500 Myr: {ra / rb:.4f}; inner x_HI case A / "
                 f"case B: {out[('A', 500)][1] / out[('B', 500)][1]:.3f} (alpha_A / alpha_B = "
                 f"{4.18 / 2.59:.3f}).")
    if not abs(ra / rb - 1.0) <= TOLERANCE:
        failures.append(f"case A front {ra:.3f} kpc vs case B {rb:.3f} kpc at 500 Myr")
    for key, (_, _, budget) in out.items():
        if not abs(budget - 1.0) <= 0.03:
            failures.append(f"photon budget {budget:.4f} in case {key[0]} at {key[1]} Myr")
    return lines, failures


def main(argv=None):
    if IMPORT_ERROR is not None:
        return skip_missing_modules("mc_iliev1.py", IMPORT_ERROR)
    args = parse_validation_args(
        argv, NAME, "Iliev Test 1 with Monte Carlo packets: convergence with packets.",
        full=(64, "10 Myr"), quick=(32, "10 Myr"))
    packets = PACKETS_QUICK if args.quick else PACKETS_FULL
    base = os.path.abspath(args.use_existing or args.run_dir
                           or os.path.join(REPO, "build", f"validation_{NAME}"))
    ionfront = os.path.abspath(args.ionfront)
    dirs = {"asora": os.path.join(base, "asora"), "seed2": os.path.join(base, f"mc{packets[-1]}_seed2")}
    for p in packets:
        dirs[p] = os.path.join(base, f"mc{p}")
    try:
        if not args.use_existing:
            run_one(ionfront, args.N, args.dt, dirs["asora"], "asora")
            for p in packets:
                run_one(ionfront, args.N, args.dt, dirs[p], "montecarlo", p)
            run_one(ionfront, args.N, args.dt, dirs["seed2"], "montecarlo", packets[-1], SEED2)
        res = {k: Result(v) for k, v in dirs.items()}
    except (RuntimeError, OSError) as e:
        print(f"mc_iliev1.py: error: {e}", file=sys.stderr)
        return 1
    asora = res["asora"]
    cell = asora.cell_kpc
    t_last = TIMES[-1]
    failures = []

    lines = [f"# Iliev Test 1 with Monte Carlo packets (N = {args.N}^3, dt = {args.dt})", "",
             "Generated by `validation/mc_iliev1.py`"
             + (" --quick" if args.quick else "") + f"; run in `{rel(base)}`.",
             "Front: x_HI = 0.5 of the profile averaged over shells one cell wide "
             f"(cell = {cell:.4f} kpc). Seed {SEED} unless said.", "",
             "| packets per source | " + " | ".join(f"r/r_an {t} Myr" for t in TIMES)
             + " | max abs(r_MC - r_ASORA) [cells] | x_HI noise at 500 Myr | estimated Gamma error (median) | cells no packet reached | wall [s] |",
             "|---|" + "---|" * (len(TIMES) + 5)]
    row = "| ASORA | " + " | ".join(f"{asora.front[t] / r_analytic(t):.4f}" for t in TIMES) \
        + f" | — | — | — | — | {asora.info['wall_s']:.1f} |"
    lines.append(row)
    rms_list, est_list = [], []
    for p in packets + ["seed2"]:
        r = res[p]
        dmax = max(abs(r.front[t] - asora.front[t]) for t in TIMES) / cell
        rms, est, unhit, cells = noise(r, asora, t_last)
        if p != "seed2":
            rms_list.append(rms)
            est_list.append(est)
        label = f"{packets[-1]} (seed {SEED2})" if p == "seed2" else f"{p}"
        lines.append(f"| {label} | " + " | ".join(f"{r.front[t] / r_analytic(t):.4f}" for t in TIMES)
                     + f" | {dmax:.3f} | {rms:.4f} | {est:.4f} | {100 * unhit:.1f}% | {r.info['wall_s']:.1f} |")
    top = res[packets[-1]]
    spread = max(abs(top.front[t] - res["seed2"].front[t]) for t in TIMES) / cell
    lines += ["", f"Interior cells used for the noise: {cells} (x_HII > 0.9 in the ASORA run, "
              "more than 3 cells from the source); the estimated error is the median over "
              "those a packet reached in the last pass.",
              f"Two seeds at {packets[-1]} packets: fronts differ by at most {spread:.3f} cells."]
    slopes = [math.log(rms_list[k + 1] / rms_list[k]) / math.log(packets[k + 1] / packets[k])
              for k in range(len(packets) - 1)]
    lines.append("Noise slope d log(x_HI noise) / d log(packets) per step: "
                 + ", ".join(f"{s:.2f}" for s in slopes) + " (1/sqrt(N): -0.5).")

    for t in CHECK_TIMES:
        ratio = top.front[t] / r_analytic(t)
        if not abs(ratio - 1.0) <= TOLERANCE:
            failures.append(f"{packets[-1]} packets: r/r_analytic = {ratio:.4f} at {t} Myr")
    for t in TIMES:
        d = abs(top.front[t] - asora.front[t]) / cell
        if not d <= 1.0:
            failures.append(f"{packets[-1]} packets: front {d:.2f} cells from ASORA's at {t} Myr")
    per_4x = (rms_list[-1] / rms_list[0]) ** (math.log(4.0) / math.log(packets[-1] / packets[0]))
    lines.append(f"Noise factor per 4x packets (geometric mean): {per_4x:.3f} (1/sqrt(N): 0.5; "
                 "required <= 0.75).")
    if not per_4x <= 0.75:
        failures.append(f"x_HI noise falls by only {per_4x:.3f} per 4x packets")

    have = all(os.path.isdir(os.path.join(base, f"diffuse_case{c}")) for c in "AB")
    if not args.quick and (not args.use_existing or have):
        try:
            more, fails = diffuse_comparison(ionfront, args.dt, base, run=not args.use_existing)
        except (RuntimeError, OSError) as e:
            print(f"mc_iliev1.py: error: {e}", file=sys.stderr)
            return 1
        lines += more
        failures += fails

    os.makedirs(args.out, exist_ok=True)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
    pk = np.array(packets, dtype=float)
    a1.loglog(pk, rms_list, "o-", label="RMS x_HI(MC)/x_HI(ASORA) - 1, interior, 500 Myr")
    a1.loglog(pk, est_list, "s--", label="median estimated Gamma error (cells reached)")
    front_err = [max(abs(res[p].front[t] - asora.front[t]) for t in TIMES) / asora.front[t_last]
                 for p in packets]
    a1.loglog(pk, front_err, "^-", label="max |r_MC - r_ASORA| / r_ASORA(500 Myr)")
    # anchored at the most packets: few packets leave cells unreached (x_HI ~ 1/Gamma blows up)
    a1.loglog(pk, rms_list[-1] * np.sqrt(pk[-1] / pk), "k:", label="1/sqrt(N)")
    a1.set_xlabel("packets per source")
    a1.set_ylabel("relative error")
    a1.legend(fontsize=7)
    a1.set_title(f"Test 1, {args.N}^3: noise against packets")
    for p in packets:
        r = res[p]
        a2.plot(TIMES, [r.front[t] / r_analytic(t) for t in TIMES], "o-", ms=3, label=f"MC {p}")
    a2.plot(TIMES, [asora.front[t] / r_analytic(t) for t in TIMES], "k--", label="ASORA")
    a2.axhline(1.0, color="0.6", lw=0.8)
    a2.set_xscale("log")
    a2.set_xlabel("t [Myr]")
    a2.set_ylabel("r_I / r_analytic (shell-averaged)")
    a2.legend(fontsize=7)
    fig.tight_layout()
    png = os.path.join(args.out, "mc_convergence.png")
    fig.savefig(png, dpi=120)
    md = "\n".join(lines) + "\n"
    if failures:
        md += "\nFAILED:\n" + "\n".join(f"- {m}" for m in failures) + "\n"
    with open(os.path.join(args.out, "mc_numbers.md"), "w") as f:
        f.write(md)
    print(md)
    print(f"wrote {png}, {os.path.join(args.out, 'mc_numbers.md')}")
    for m in failures:
        print(f"mc_iliev1.py: FAIL: {m}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Validation: Iliev et al. (2006) Test 1, the isothermal H II region.

Runs ionfront on the built-in `iliev1` problem (6.6 kpc box, n_H = 1e-3 cm^-3,
T = 1e4 K, Ndot = 5e48 s^-1 at the corner cell, grey, 500 Myr) with outputs
every 10 Myr, and compares the ionization front with the analytic solution
r_I(t) = r_S (1 - exp(-t/t_rec))^(1/3) and with the published results of the
comparison project (read from --reference when that folder exists).

Writes, into --out:
  iliev1_ifront.png    r_I(t) and r_I / r_analytic for ionfront, analytic, references
  iliev1_profiles.png  shell-averaged x_HI(r) at 10, 30, 100, 200, 500 Myr
  iliev1_numbers.md    the numbers table (also printed)

Exit code: 0 pass; 1 if the ionfront front is off the analytic one by more
than 5% at 30, 100, 200 or 500 Myr (or the run failed); 77 if numpy, h5py
or matplotlib cannot be imported (ctest reports a skip).

Needs only numpy, h5py and matplotlib (Debian: python3-numpy python3-h5py
python3-matplotlib). Run with /usr/bin/python3.
"""
import datetime
import glob
import math
import os
import re
import shlex
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
from vutil import (REPO, C2RAY, CornerSourceRun, code_name, fmt, front_of_profile,  # noqa: E402
                   obtain_run, read_csv, ref_front_at, ref_styles, rel, run_ionfront,
                   run_provenance, same_time, skip_missing_modules)
from vutil import parse_validation_args  # noqa: E402


# Test 1 parameters (Iliev et al. 2006; ionfront's `iliev1` example).
NDOT = 5.0e48             # s^-1
N_H = 1.0e-3              # cm^-3
ALPHA_B = 2.59e-13        # cm^3 s^-1 at 1e4 K
KPC = 3.0856775814913673e21   # cm
MYR = 3.15576e13          # s (Julian year, as ionfront)
R_S = (3.0 * NDOT / (4.0 * math.pi * ALPHA_B * N_H ** 2)) ** (1.0 / 3.0) / KPC  # 5.39 kpc
T_REC = 1.0 / (ALPHA_B * N_H) / MYR                                            # 122.4 Myr
BOX_KPC = 6.6
NAME = "iliev1"
N_REF = 128               # the references' grid; profile shells are L/128 wide

PROFILE_TIMES = [10, 30, 100, 200, 500]   # Myr, the comparison project's outputs
CHECK_TIMES = [30, 100, 200, 500]         # Myr, where |ratio - 1| <= 5% is required
TOLERANCE = 0.05
OUTPUT_TIMES = list(PROFILE_TIMES)    # Myr; the smooth r_I(t) comes from ifront.csv (every step)


def r_analytic(t_myr):
    return R_S * (1.0 - np.exp(-np.asarray(t_myr, dtype=float) / T_REC)) ** (1.0 / 3.0)


# ---------------------------------------------------------------- running ionfront


def run_problem(ionfront, n, dt, run_dir):
    """Run the iliev1 problem into run_dir (command.txt, elapsed_s.txt, ionfront.log besides)."""
    outputs = "[" + ", ".join(f"{t} Myr" for t in OUTPUT_TIMES) + "]"
    run_ionfront(ionfront, NAME,
                 [f"grid.N={n}", f"time.dt={dt}", f"time.outputs={outputs}"], run_dir)


# ---------------------------------------------------------------- reading the run


def shell_profile(x_hi, cell_kpc, box_kpc):
    """Mean x_HI per reference shell: d = distance of a cell centre from the source
    cell centre, shell floor(d / (L/128)), only d < L (as the references)."""
    n = x_hi.shape[0]
    i = np.arange(n, dtype=np.int64)
    d2 = i[:, None, None] ** 2 + i[None, :, None] ** 2 + i[None, None, :] ** 2
    d = np.sqrt(d2.astype(float)) * cell_kpc
    delta = box_kpc / N_REF
    shell = np.floor(d / delta).astype(np.int64).ravel()
    keep = shell < N_REF
    sums = np.bincount(shell[keep], weights=x_hi.ravel()[keep], minlength=N_REF)
    counts = np.bincount(shell[keep], minlength=N_REF)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    return mean


class Run(CornerSourceRun):
    """What the analysis needs from a finished ionfront run directory."""

    def __init__(self, run_dir):
        super().__init__(run_dir, "Test 1")

        # The front: ionfront's own ifront.csv when there, else from the snapshots.
        csv = os.path.join(run_dir, "ifront.csv")
        self.notes = []
        if os.path.exists(csv):
            c = read_csv(csv)
            self.t = c["time_Myr"]
            self.r = c["r_numeric_kpc"]
            self.front_source = "ifront.csv"
            diff = [abs(r - self.front_x[t]) for t, r in zip(self.t, self.r)
                    if t in self.front_x and np.isfinite(self.front_x[t])]
            if diff and max(diff) > 1e-3:
                self.notes.append(f"ifront.csv differs from the front recomputed from the "
                                  f"snapshots by up to {max(diff):.4f} kpc")
            da = np.max(np.abs(c["r_analytic_kpc"] / r_analytic(self.t) - 1.0))
            if da > 1e-3:
                self.notes.append(f"ifront.csv's r_analytic differs from r_S (1 - e^(-t/t_rec))^(1/3) "
                                  f"(r_S = {R_S:.3f} kpc, t_rec = {T_REC:.1f} Myr) by up to {100 * da:.2f}%")
        else:
            self.t = np.array(sorted(self.front_x))
            self.r = np.array([self.front_x[t] for t in self.t])
            self.front_source = "snapshots"
        order = np.argsort(self.t)
        self.t, self.r = self.t[order], self.r[order]

        info = run_provenance(run_dir)   # command, wall time and version of the run
        self.wall_s, self.command = info["wall_s"], info["command"]
        self.elapsed, self.version = info["elapsed"], info["version"]

    def snapshot_at(self, t_myr):
        for t, p in self.snapshots.items():
            if same_time(t, t_myr):
                return p
        return None

    def profile(self, t_myr):
        p = self.snapshot_at(t_myr)
        if p is None:
            return None
        with h5py.File(p, "r") as f:
            x_hi = 1.0 - f["Grid/x_HII"][...]
        return shell_profile(x_hi, self.cell_kpc, self.box_kpc)


# ---------------------------------------------------------------- reference data


def load_references(path):
    """-> (fronts {code: (t, r)}, profiles {code: {t: mean[128]}}); empty without data."""
    fronts, profiles = {}, {}
    if not path:
        return fronts, profiles
    folder = os.path.join(path, "test1") if os.path.isdir(os.path.join(path, "test1")) else path
    if not os.path.isdir(folder):
        return fronts, profiles
    for f in sorted(glob.glob(os.path.join(folder, "*_Ifront.dat"))):
        d = np.genfromtxt(f, comments="#", ndmin=2)
        ok = np.isfinite(d[:, 0]) & np.isfinite(d[:, 1])
        t, r = d[ok, 0], d[ok, 1]
        order = np.argsort(t)
        fronts[code_name(os.path.basename(f)[:-len("_Ifront.dat")])] = (t[order], r[order])
    for f in sorted(glob.glob(os.path.join(folder, "*Myr_profile_xHI.dat"))):
        m = re.fullmatch(r"(.+)_(\d+)Myr_profile_xHI\.dat", os.path.basename(f))
        if not m:
            continue
        d = np.loadtxt(f, delimiter=",", ndmin=2)
        profiles.setdefault(code_name(m.group(1)), {})[int(m.group(2))] = d[:, 0]
    return fronts, profiles


# ---------------------------------------------------------------- figures


def plot_front(run, fronts, out_png):
    styles = ref_styles(sorted(fronts))
    fig, (ax, axr) = plt.subplots(2, 1, sharex=True, figsize=(8, 7.5),
                                  gridspec_kw=dict(height_ratios=[3, 2], hspace=0.06))
    ta = np.linspace(0, 500, 1001)
    ra = r_analytic(ta)
    for code in sorted(fronts, key=lambda c: (c == C2RAY, c)):
        t, r = fronts[code]
        st = styles[code]
        z = 5 if code == C2RAY else 2     # C2-Ray on top of ionfront: they nearly coincide
        ax.plot(t, r, label=code, zorder=z, **st)
        pos = t > 0
        axr.plot(t[pos], r[pos] / r_analytic(t[pos]), zorder=z, **st)
    ax.plot(ta, ra, color="k", lw=1.6, ls=(0, (4, 2)), label="analytic", zorder=3)
    ok = np.isfinite(run.r)
    ax.plot(run.t[ok], run.r[ok], color="tab:red", lw=2.0, marker="o", ms=3,
            label="ionfront", zorder=4)
    axr.plot(run.t[ok], run.r[ok] / r_analytic(run.t[ok]), color="tab:red", lw=2.0,
             marker="o", ms=3, zorder=4)
    axr.axhspan(1 - TOLERANCE, 1 + TOLERANCE, color="0.88", zorder=0, label="±5%")
    axr.axhline(1.0, color="k", lw=1.0, ls=(0, (4, 2)), zorder=1)
    for k, tc in enumerate(CHECK_TIMES):
        axr.axvline(tc, color="tab:red", lw=0.6, ls=":", zorder=1,
                    label="checked times" if k == 0 else None)

    ax.set_ylabel(r"I-front radius $r_I$ [kpc]")
    ax.set_ylim(0, 6.2)
    ax.set_xlim(0, 505)
    ax.grid(alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    ours = [k for k, lab in enumerate(labels) if lab in ("ionfront", "analytic")][::-1]
    refs = [k for k, lab in enumerate(labels) if lab not in ("ionfront", "analytic")]
    leg = ax.legend([handles[k] for k in ours], [labels[k] for k in ours], loc="upper left",
                    fontsize=9, framealpha=0.95)
    if refs:
        ax.add_artist(leg)
        ax.legend([handles[k] for k in refs], [labels[k] for k in refs], loc="lower right",
                  ncol=2 if len(refs) > 4 else 1, fontsize=8, framealpha=0.95,
                  title="Iliev et al. 2006 codes", title_fontsize=8)
    axr.set_ylabel(r"$r_I / r_{I,\mathrm{analytic}}$")
    axr.set_xlabel("time t [Myr]")
    axr.set_ylim(0.88, 1.12)
    axr.grid(alpha=0.3)
    axr.legend(loc="lower right", ncol=2, fontsize=8, framealpha=0.95)
    ax.set_title("Iliev et al. 2006 Test 1 (isothermal H II region): ionfront "
                 f"N = {run.n}$^3$, dt = {run.dt}\n"
                 rf"analytic $r_S (1-e^{{-t/t_{{rec}}}})^{{1/3}}$, $r_S$ = {R_S:.2f} kpc, "
                 rf"$t_{{rec}}$ = {T_REC:.2f} Myr; front: $x_{{HI}}$ = 0.5 along +x",
                 fontsize=10)
    fig.savefig(out_png, dpi=130, bbox_inches="tight")
    plt.close(fig)


def plot_profiles(run, ion_profiles, ref_profiles, out_png):
    styles = ref_styles(sorted(ref_profiles))
    r_over_l = (np.arange(N_REF) + 0.5) / N_REF
    fig, axes = plt.subplots(2, 3, sharex=True, sharey=True, figsize=(12, 7.5),
                             gridspec_kw=dict(hspace=0.08, wspace=0.1))
    axes = axes.ravel()
    handles = {}
    for ax, t in zip(axes, PROFILE_TIMES):
        for code in sorted(ref_profiles, key=lambda c: (c == C2RAY, c)):
            prof = ref_profiles[code].get(t)
            if prof is None:
                continue
            y = np.where(prof > 0, prof, np.nan)
            st = dict(styles[code])
            if code == C2RAY:
                st.update(lw=1.4, ls="--")
                h, = ax.plot(r_over_l, y, zorder=5, **st)
                handles[C2RAY] = h
            else:
                st.update(lw=0.7, alpha=0.55, ls="-")
                h, = ax.plot(r_over_l, y, zorder=2, **st)
                handles.setdefault("other codes", h)
        prof = ion_profiles.get(t)
        if prof is not None:
            ok = np.isfinite(prof) & (prof > 0)
            h, = ax.plot(r_over_l[ok], prof[ok], color="tab:red", lw=2.2, zorder=4)
            handles["ionfront"] = h
        else:
            ax.text(0.5, 0.5, f"no ionfront snapshot at {t} Myr", transform=ax.transAxes,
                    ha="center", fontsize=9)
        h = ax.axvline(float(r_analytic(t)) / BOX_KPC, color="k", lw=0.8, ls=":", zorder=1)
        handles["analytic $r_I(t)$"] = h
        ax.text(0.04, 0.95, f"t = {t} Myr", transform=ax.transAxes, va="top", fontsize=11,
                bbox=dict(facecolor="white", edgecolor="none", alpha=0.8))
        ax.set_yscale("log")
        ax.set_ylim(1e-6, 2)
        ax.set_xlim(0, 1)
        ax.grid(alpha=0.3, which="major")
    for ax in axes[3:]:
        ax.set_xlabel(r"$r / L_\mathrm{box}$")
    axes[2].tick_params(labelbottom=True)
    axes[2].set_xlabel(r"$r / L_\mathrm{box}$")
    for ax in axes[::3]:
        ax.set_ylabel(r"neutral fraction $x_\mathrm{HI}$ (shell mean)")
    leg = axes[5]
    leg.axis("off")
    order = [k for k in ("ionfront", C2RAY, "other codes", "analytic $r_I(t)$") if k in handles]
    labels = {"ionfront": f"ionfront, N = {run.n}$^3$, dt = {run.dt}",
              C2RAY: "C2-Ray (Iliev et al. 2006)",
              "other codes": "other codes: " + ", ".join(c for c in sorted(ref_profiles) if c != C2RAY),
              "analytic $r_I(t)$": "analytic $r_I(t)$"}
    if "other codes" in handles:
        labels["other codes"] = "\n".join(_wrap(labels["other codes"], 34))
    leg.legend([handles[k] for k in order], [labels[k] for k in order], loc="center",
               fontsize=9, frameon=False)
    note = ("mean $x_\\mathrm{HI}$ in shells of width $L/128$;\n"
            "ionfront: cell distance from the source cell centre;\n")
    if ref_profiles:
        note += "references: from the box corner, which moves them\nout by about $0.75\\,L/128$ = 0.04 kpc; "
    leg.text(0.5, 0.02, note + r"$L_\mathrm{box}$ = 6.6 kpc",
             transform=leg.transAxes, ha="center", va="bottom", fontsize=8)
    fig.suptitle("Iliev et al. 2006 Test 1: spherically averaged neutral fraction", y=0.93)
    fig.savefig(out_png, dpi=120, bbox_inches="tight")
    plt.close(fig)


def _wrap(text, width):
    lines, cur = [], ""
    for word in text.split(" "):
        if cur and len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    return lines + [cur]


# ---------------------------------------------------------------- numbers


def numbers(run, fronts, ref_profiles, ion_profiles):
    """-> (markdown text, list of failure messages)."""
    failures = []
    for tc in CHECK_TIMES:
        if not any(same_time(t, tc) for t in run.t):
            failures.append(f"no ionfront output at {tc} Myr")
    rows = []
    for t, r in zip(run.t, run.r):
        ra = float(r_analytic(t))
        ratio = r / ra
        refs = np.array([ref_front_at(fronts[c], t) for c in fronts])
        refs = refs[np.isfinite(refs)]
        c2 = ref_front_at(fronts[C2RAY], t) / ra if C2RAY in fronts else np.nan
        check = ""
        if any(same_time(t, tc) for tc in CHECK_TIMES):
            ok = np.isfinite(ratio) and abs(ratio - 1.0) <= TOLERANCE
            check = "ok" if ok else "**FAIL**"
            if not ok:
                failures.append(f"ionfront r_I / r_analytic = {ratio:.4f} at {t:g} Myr, "
                                f"outside {1 - TOLERANCE:.2f}..{1 + TOLERANCE:.2f}")
        span = (f"{np.median(refs):.3f} [{refs.min():.3f}, {refs.max():.3f}] ({len(refs)})"
                if len(refs) else "—")
        rows.append(f"| {t:g} | {ra:.3f} | {fmt(r, '.3f')} | {fmt(ratio, '.4f')} | {span} "
                    f"| {fmt(c2, '.4f')} | {check} |")

    md = ["# Iliev et al. 2006 Test 1: ionfront validation", ""]
    md += ["Isothermal H II region: 6.6 kpc box, n_H = 1e-3 cm^-3, T = 1e4 K, x_HII(0) = 1.2e-3, "
           "Ndot = 5e48 s^-1 in the corner cell, grey (13.6 eV), 500 Myr. Analytic front "
           f"r_I = r_S (1 - exp(-t/t_rec))^(1/3) with alpha_B = {ALPHA_B:g} cm^3 s^-1, "
           f"r_S = {R_S:.3f} kpc, t_rec = {T_REC:.2f} Myr.", ""]
    md += ["| run | |", "| --- | --- |"]
    md += [f"| command | `{run.command}` |" if run.command else
           f"| command | (not recorded; existing run in `{rel(run.dir)}`) |"]
    md += [f"| made by | `{shlex.join(['validation/iliev1.py'] + sys.argv[1:])}` |"]
    if run.version:
        md += [f"| version | {run.version} |"]
    md += [f"| N | {run.n}^3 (cell {1000 * run.cell_kpc:.2f} pc) |",
           f"| dt | {run.dt} |",
           f"| wall time | {run.wall_s:.1f} s (sum of log.csv wall_s: the time steps, without output)"
           + (f"; {run.elapsed:.1f} s for the whole ionfront run" if run.elapsed else "") + " |",
           f"| date | {run.created or datetime.date.today().isoformat()} |",
           f"| ionfront front | x_HI = 0.5 along +x from the source cell centre, from {run.front_source} |",
           f"| references | {', '.join(sorted(fronts)) if fronts else 'none (reference folder not found)'} |",
           ""]
    md += ["## I-front radius", "",
           "r_I in kpc. References: each code's `*_Ifront.dat` interpolated at t (codes whose record "
           "covers t within 3%), median [min, max] (number of codes). C2-Ray ratio = "
           "C2-Ray r_I / analytic. Check: |ionfront ratio - 1| <= 5% at 30, 100, 200, 500 Myr.", "",
           "| t [Myr] | analytic | ionfront | ionfront / analytic | references | C2-Ray / analytic | check |",
           "| ---: | ---: | ---: | ---: | ---: | ---: | :---: |"] + rows + [""]

    # The front from the shell-averaged profiles, as the references' profiles define it.
    prow = []
    r_shell = (np.arange(N_REF) + 0.5) * BOX_KPC / N_REF
    for t in PROFILE_TIMES:
        ra = float(r_analytic(t))
        rx = next((r for tt, r in zip(run.t, run.r) if same_time(tt, t)), np.nan)
        rp = front_of_profile(ion_profiles[t], r_shell) if ion_profiles.get(t) is not None else np.nan
        c2f = ref_front_at(fronts[C2RAY], t) if C2RAY in fronts else np.nan
        c2p = (front_of_profile(ref_profiles[C2RAY][t], r_shell)
               if t in ref_profiles.get(C2RAY, {}) else np.nan)
        prow.append(f"| {t} | {ra:.3f} | {fmt(rx, '.3f')} | {fmt(rp, '.3f')} | {fmt(c2f, '.3f')} "
                    f"| {fmt(c2p, '.3f')} |")
    md += ["## Front definitions", "",
           "r_I in kpc by two definitions: x_HI = 0.5 along +x (ionfront's ifront.csv), and the "
           "x_HI = 0.5 crossing of the shell-averaged profile (shells of width L/128, linear "
           "interpolation between shell centres), for ionfront and for C2-Ray's published profile. "
           "ionfront's shells are about the source cell centre; the published profiles were binned "
           "about the box corner, half a cell from the source along each axis, which moves a front "
           "outward by about 0.75 L/128 = 0.04 kpc: the 'C2-Ray, shells' column lies about 0.03 kpc "
           "above C2-Ray's own Ifront file for this reason.", "",
           "| t [Myr] | analytic | ionfront, +x | ionfront, shells | C2-Ray, Ifront file | C2-Ray, shells |",
           "| ---: | ---: | ---: | ---: | ---: | ---: |"] + prow + [""]
    md += ["## Result", ""]
    if failures:
        md += [f"FAIL: {m}" for m in failures]
    else:
        md += ["PASS: the ionfront front is within 5% of the analytic one at "
               + ", ".join(f"{t}" for t in CHECK_TIMES) + " Myr."]
    md += [""] + [f"Note: {n}." for n in run.notes] + ([""] if run.notes else [])
    md += ["Figures: [iliev1_ifront.png](iliev1_ifront.png), "
           "[iliev1_profiles.png](iliev1_profiles.png)"
           + ("; reference data: Iliev et al. 2006, MNRAS 371, 1057 (comparison project "
              "results as reduced in SWIFTSIM/swiftsim-rt-tools)." if fronts else "."), ""]
    return "\n".join(md), failures


# ---------------------------------------------------------------- main

def parse_args(argv):
    return parse_validation_args(
        argv, NAME,
        "Iliev et al. 2006 Test 1 validation of ionfront: runs it, writes figures and a"
        " numbers table, exits 1 if the I-front is off by > 5%.",
        full=(128, "5 Myr"), quick=(64, "10 Myr"), reference=True)


def main(argv=None):
    if IMPORT_ERROR is not None:
        return skip_missing_modules("iliev1.py", IMPORT_ERROR)
    args = parse_args(argv)
    run = obtain_run(args, NAME, run_problem, Run)
    if run is None:
        return 1

    fronts, ref_profiles = load_references(args.reference)
    if not fronts:
        print(f"iliev1.py: no reference data at {args.reference}: plotting the analytic curve only")
    ion_profiles = {t: run.profile(t) for t in PROFILE_TIMES}

    os.makedirs(args.out, exist_ok=True)
    plot_front(run, fronts, os.path.join(args.out, "iliev1_ifront.png"))
    plot_profiles(run, ion_profiles, ref_profiles, os.path.join(args.out, "iliev1_profiles.png"))
    md, failures = numbers(run, fronts, ref_profiles, ion_profiles)
    with open(os.path.join(args.out, "iliev1_numbers.md"), "w") as f:
        f.write(md)
    print()
    print(md)
    print(f"wrote {', '.join(os.path.join(args.out, n) for n in ('iliev1_ifront.png', 'iliev1_profiles.png', 'iliev1_numbers.md'))}")
    if failures:
        for m in failures:
            print(f"iliev1.py: FAIL: {m}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

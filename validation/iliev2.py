#!/usr/bin/env python3
"""Validation: Iliev et al. (2006) Test 2, the H II region with temperature evolution.

Runs ionfront on the built-in `iliev2` problem (6.6 kpc box, n_H = 1e-3 cm^-3,
gas starting at 100 K and heated by a 1e5 K black body of Ndot = 5e48 s^-1 in
the corner cell, 500 Myr) and compares the ionization front and the radial
x_HI and T profiles with the published results of the comparison project
(read from --reference when that folder exists). There is no analytic
solution: the spread of the published codes is the yardstick.

Writes, into --out:
  iliev2_ifront.png    r_I(t) of ionfront and the codes; ionfront / median of the codes
  iliev2_profiles.png  shell-averaged x_HI(r) and T(r) at 10, 30, 100, 200, 500 Myr
  iliev2_numbers.md    the numbers table (also printed)

Exit code: 0 pass; 1 if the ionfront front at 30, 100, 200 or 500 Myr lies
outside the codes' [min, max] widened by 5% (0.95 min .. 1.05 max), or the run
failed; 77 if numpy, h5py or matplotlib cannot be imported (ctest reports a
skip), or if the reference data is absent (nothing can be checked; the figures are
still drawn).

Needs only numpy, h5py and matplotlib (Debian: python3-numpy python3-h5py
python3-matplotlib). Run with /usr/bin/python3.
"""
import datetime
import glob
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
    import matplotlib.ticker
except ImportError as exc:  # reported by main(), exit code 77
    IMPORT_ERROR = exc
else:
    IMPORT_ERROR = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vutil import (REPO, C2RAY, CornerSourceRun, code_name, fmt, front_of_profile,  # noqa: E402
                   obtain_run, read_csv, ref_front_at, ref_styles, rel, run_ionfront,
                   run_provenance, same_time, skip_missing_modules, skip_missing_reference)
from vutil import parse_validation_args  # noqa: E402

NAME = "iliev2"

KPC = 3.0856775814913673e21   # cm
MYR = 3.15576e13          # s (Julian year, as ionfront)
BOX_KPC = 6.6
N_REF = 128               # the references' grid; profile shells are L/128 wide
SHELL_KPC = BOX_KPC / N_REF

PROFILE_TIMES = [10, 30, 100, 200, 500]   # Myr, the comparison project's outputs
CHECK_TIMES = [30, 100, 200, 500]         # Myr, front inside the codes' widened spread
WIDEN = 0.05                              # the spread is widened to 0.95 min .. 1.05 max
OUTPUT_TIMES = list(PROFILE_TIMES)        # snapshots; the smooth r_I(t) comes from ifront.csv
TABLE_TIMES = [5, 10, 20, 30, 50, 75, 100, 150, 200, 250, 300, 400, 500]   # Myr, front table
T_SHELLS = [25, 37, 49]   # reference shells for the temperature table (r = 1.31, 1.92, 2.55 kpc)


# ---------------------------------------------------------------- running ionfront


def run_problem(ionfront, n, dt, run_dir):
    """Run the iliev2 problem into run_dir (command.txt, elapsed_s.txt, ionfront.log besides)."""
    outputs = "[" + ", ".join(f"{t} Myr" for t in OUTPUT_TIMES) + "]"
    run_ionfront(ionfront, NAME, [f"grid.N={n}", f"time.dt={dt}", f"time.outputs={outputs}",
                                  "output.xdmf=false"], run_dir)


# ---------------------------------------------------------------- reading the run


def shell_index(n, cell_kpc):
    """Reference shell of every cell: d = distance of the cell centre from the source
    cell centre, shell floor(d / (L/128)); cells with shell >= 128 are dropped later."""
    i = np.arange(n, dtype=np.int64)
    d2 = i[:, None, None] ** 2 + i[None, :, None] ** 2 + i[None, None, :] ** 2
    d = np.sqrt(d2.astype(float)) * cell_kpc
    return np.floor(d / SHELL_KPC).astype(np.int64).ravel()


def shell_means(field, shell):
    keep = shell < N_REF
    sums = np.bincount(shell[keep], weights=field.ravel()[keep], minlength=N_REF)
    counts = np.bincount(shell[keep], minlength=N_REF)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


class Run(CornerSourceRun):
    """What the analysis needs from a finished ionfront run directory."""

    def __init__(self, run_dir):
        super().__init__(run_dir, "Test 2")
        if re.search(r"^\s*isothermal:\s*true", self.config, re.M):
            raise RuntimeError(f"{run_dir}: an isothermal run, not Iliev Test 2")

        # The front: ionfront's own ifront.csv when there, else from the snapshots.
        csv = os.path.join(run_dir, "ifront.csv")
        self.notes = []
        if os.path.exists(csv):
            c = read_csv(csv)
            self.t = c["time_Myr"]
            self.r = np.where(c["r_numeric_kpc"] >= 0, c["r_numeric_kpc"], np.nan)
            self.front_source = "ifront.csv"
            diff = [abs(r - self.front_x[t]) for t, r in zip(self.t, self.r)
                    if t in self.front_x and np.isfinite(self.front_x[t])]
            if diff and max(diff) > 1e-3:
                self.notes.append(f"ifront.csv differs from the front recomputed from the "
                                  f"snapshots by up to {max(diff):.4f} kpc")
            if np.any(np.isfinite(c["r_analytic_kpc"])):
                self.notes.append("ifront.csv has analytic radii for Test 2, which has no "
                                  "analytic solution")
        else:
            self.t = np.array(sorted(self.front_x))
            self.r = np.array([self.front_x[t] for t in self.t])
            self.front_source = "snapshots"
        order = np.argsort(self.t)
        self.t, self.r = self.t[order], self.r[order]

        info = run_provenance(run_dir)   # command, wall time and version of the run
        self.wall_s, self.command = info["wall_s"], info["command"]
        self.elapsed, self.version = info["elapsed"], info["version"]
        self._shell = None

    def front_at(self, t_myr):
        """ionfront's r_I at t: the ifront.csv row, else linear interpolation (nan outside)."""
        for t, r in zip(self.t, self.r):
            if same_time(t, t_myr):
                return float(r)
        if len(self.t) == 0 or t_myr < self.t[0] or t_myr > self.t[-1]:
            return np.nan
        return float(np.interp(t_myr, self.t, self.r))

    def has_row(self, t_myr):
        return any(same_time(t, t_myr) for t in self.t)

    def snapshot_at(self, t_myr):
        for t, p in self.snapshots.items():
            if same_time(t, t_myr):
                return p
        return None

    def profiles(self, t_myr):
        """-> (x_HI shell means, T shell means) at t, or None without a snapshot."""
        p = self.snapshot_at(t_myr)
        if p is None:
            return None
        if self._shell is None:
            self._shell = shell_index(self.n, self.cell_kpc)
        with h5py.File(p, "r") as f:
            x_hi = 1.0 - f["Grid/x_HII"][...]
            temp = f["Grid/T"][...]
        return shell_means(x_hi, self._shell), shell_means(temp, self._shell)


# ---------------------------------------------------------------- reference data


def load_references(path):
    """-> (fronts {code: (t, r)}, profiles {code: {t: (xHI[128], T[128])}}, notes);
    empty without data."""
    fronts, profiles, notes = {}, {}, []
    if not path:
        return fronts, profiles, notes
    folder = os.path.join(path, "test2") if os.path.isdir(os.path.join(path, "test2")) else path
    if not os.path.isdir(folder):
        return fronts, profiles, notes
    for f in sorted(glob.glob(os.path.join(folder, "*_Ifront.dat"))):
        d = np.genfromtxt(f, comments="#", ndmin=2)
        ok = np.isfinite(d[:, 0]) & np.isfinite(d[:, 1])
        t, r = d[ok, 0], d[ok, 1]
        order = np.argsort(t)
        fronts[code_name(os.path.basename(f)[:-len("_Ifront.dat")])] = (t[order], r[order])
    raw = {}
    for f in sorted(glob.glob(os.path.join(folder, "*Myr_profile_xHI.dat"))):
        m = re.fullmatch(r"(.+)_(\d+)Myr_profile_xHI\.dat", os.path.basename(f))
        if not m:
            continue
        ft = f[:-len("xHI.dat")] + "T.dat"
        x = np.loadtxt(f, delimiter=",", ndmin=2)[:, 0]
        temp = np.loadtxt(ft, delimiter=",", ndmin=2)[:, 0] if os.path.exists(ft) else None
        raw.setdefault(code_name(m.group(1)), {})[int(m.group(2))] = (x, temp)
    for code, by_t in raw.items():
        # RSPH's "500 Myr" files are byte-identical to its 300 Myr ones (reference
        # README, section 7): a profile equal to an earlier one is not used.
        times = sorted(by_t)
        for k, t in enumerate(times):
            dup = next((s for s in times[:k] if np.array_equal(by_t[s][0], by_t[t][0])), None)
            if dup is not None:
                notes.append(f"{code}'s {t} Myr profiles equal its {dup} Myr ones and are not used")
                continue
            if t in PROFILE_TIMES:
                profiles.setdefault(code, {})[t] = by_t[t]
    return fronts, profiles, notes


def ref_fronts_at(fronts, t_myr):
    """The codes' fronts at t (those whose record covers t), as an array."""
    v = np.array([ref_front_at(fronts[c], t_myr) for c in sorted(fronts)])
    return v[np.isfinite(v)]


# ---------------------------------------------------------------- figures


def plot_front(run, fronts, out_png):
    styles = ref_styles(sorted(fronts))
    fig, (ax, axr) = plt.subplots(2, 1, sharex=True, figsize=(8, 7.5),
                                  gridspec_kw=dict(height_ratios=[3, 2], hspace=0.06))
    for code in sorted(fronts, key=lambda c: (c == C2RAY, c)):
        t, r = fronts[code]
        z = 5 if code == C2RAY else 2
        ax.plot(t, r, label=code, zorder=z, **styles[code])
    ok = np.isfinite(run.r)
    ax.plot(run.t[ok], run.r[ok], color="tab:red", lw=2.0, marker="o", ms=2.5,
            label="ionfront", zorder=4)
    for k, tc in enumerate(CHECK_TIMES):
        for a in (ax, axr):
            a.axvline(tc, color="tab:red", lw=0.6, ls=":", zorder=1,
                      label="checked times" if (k == 0 and a is axr) else None)

    if fronts:
        # the codes' spread about their median, on a fine time grid (>= 2 codes)
        tg = np.linspace(1.0, 500.0, 999)
        med, lo, hi = (np.full(tg.shape, np.nan) for _ in range(3))
        for k, tt in enumerate(tg):
            v = ref_fronts_at(fronts, tt)
            if len(v) >= 2:
                med[k], lo[k], hi[k] = np.median(v), v.min(), v.max()
        axr.fill_between(tg, (1 - WIDEN) * lo / med, (1 + WIDEN) * hi / med, color="0.93",
                         lw=0, zorder=0, label="codes' [min, max] widened by 5%")
        axr.fill_between(tg, lo / med, hi / med, color="0.78", lw=0, zorder=0.5,
                         label="codes' [min, max]")
        axr.axhline(1.0, color="k", lw=1.0, ls=(0, (4, 2)), zorder=1, label="median of codes")
        if C2RAY in fronts:
            tc2, rc2 = fronts[C2RAY]
            m2 = np.interp(tc2, tg, med, left=np.nan, right=np.nan)
            axr.plot(tc2, rc2 / m2, zorder=3, **styles[C2RAY])
        rr = np.array([np.median(v) if len(v := ref_fronts_at(fronts, tt)) >= 2 else np.nan
                       for tt in run.t])
        sel = ok & np.isfinite(rr)
        axr.plot(run.t[sel], run.r[sel] / rr[sel], color="tab:red", lw=2.0, marker="o", ms=2.5,
                 zorder=4)
        for code in sorted(fronts):           # a code whose record stops early
            t_end = fronts[code][0][-1]
            if 1.03 * t_end < 500.0:
                axr.annotate(f"{code}'s record ends at {t_end:.0f} Myr:\nmedian and spread jump",
                             xy=(1.03 * t_end, 0.93), xytext=(1.03 * t_end - 8, 0.83),
                             ha="right", va="center", fontsize=7,
                             arrowprops=dict(arrowstyle="->", color="0.4", lw=0.7))
        axr.set_ylabel(r"$r_I$ / median of codes")
        axr.set_ylim(0.8, 1.2)
        axr.legend(loc="upper left", ncol=2, fontsize=8, framealpha=0.95)
    else:
        axr.text(0.5, 0.5, "no reference data: no comparison", transform=axr.transAxes,
                 ha="center", va="center")
        axr.set_yticks([])
    ax.set_ylabel(r"I-front radius $r_I$ [kpc]")
    ax.set_ylim(0, 6.6)
    ax.set_xlim(0, 505)
    ax.grid(alpha=0.3)
    axr.grid(alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    ours = [k for k, lab in enumerate(labels) if lab == "ionfront"]
    refs = [k for k, lab in enumerate(labels) if lab != "ionfront"]
    leg = ax.legend([handles[k] for k in ours], [labels[k] for k in ours], loc="upper left",
                    fontsize=9, framealpha=0.95)
    if refs:
        ax.add_artist(leg)
        ax.legend([handles[k] for k in refs], [labels[k] for k in refs], loc="lower right",
                  ncol=2 if len(refs) > 4 else 1, fontsize=8, framealpha=0.95,
                  title="Iliev et al. 2006 codes", title_fontsize=8)
    axr.set_xlabel("time t [Myr]")
    ax.set_title("Iliev et al. 2006 Test 2 (H II region, T evolving): ionfront "
                 f"N = {run.n}$^3$, dt = {run.dt}\n"
                 r"front: $x_{HI}$ = 0.5 along +x (ionfront); each code's own definition "
                 "(references)", fontsize=10)
    fig.savefig(out_png, dpi=130, bbox_inches="tight")
    plt.close(fig)


def plot_profiles(run, ion_profiles, ref_profiles, out_png):
    styles = ref_styles(sorted(ref_profiles))
    r_over_l = (np.arange(N_REF) + 0.5) / N_REF
    fig, axes = plt.subplots(2, len(PROFILE_TIMES), sharex=True, sharey="row",
                             figsize=(17, 7.2), gridspec_kw=dict(hspace=0.06, wspace=0.06))
    handles = {}
    for col, t in enumerate(PROFILE_TIMES):
        for row in (0, 1):
            ax = axes[row, col]
            for code in sorted(ref_profiles, key=lambda c: (c == C2RAY, c)):
                prof = ref_profiles[code].get(t)
                if prof is None or prof[row] is None:
                    continue
                y = np.where(prof[row] > 0, prof[row], np.nan)
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
                y = prof[row]
                ok = np.isfinite(y) & (y > 0)
                h, = ax.plot(r_over_l[ok], y[ok], color="tab:red", lw=2.0, zorder=4)
                handles["ionfront"] = h
            else:
                ax.text(0.5, 0.5, f"no ionfront\nsnapshot at {t} Myr", transform=ax.transAxes,
                        ha="center", fontsize=9)
            rf = run.front_at(t)
            if np.isfinite(rf):
                h = ax.axvline(rf / BOX_KPC, color="tab:red", lw=0.8, ls=":", zorder=1)
                handles["front"] = h
            ax.set_yscale("log")
            ax.set_xlim(0, 1)
            ax.set_xticks([0, 0.2, 0.4, 0.6, 0.8])    # no 1.0: it would run into the next 0
            ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
            ax.grid(alpha=0.3, which="major")
            if row == 0:
                ax.set_ylim(1e-6, 2)
                ax.set_title(f"t = {t} Myr", fontsize=11)
            else:
                ax.set_ylim(50, 2e5)
                ax.set_xlabel(r"$r / L_\mathrm{box}$")
    axes[0, 0].set_ylabel(r"neutral fraction $x_\mathrm{HI}$ (shell mean)")
    axes[1, 0].set_ylabel("temperature T [K] (shell mean)")
    order = [k for k in ("ionfront", C2RAY, "other codes", "front") if k in handles]
    labels = {"ionfront": f"ionfront, N = {run.n}$^3$, dt = {run.dt}",
              C2RAY: "C2-Ray (Iliev et al. 2006)",
              "other codes": "other codes: " + ", ".join(c for c in sorted(ref_profiles)
                                                         if c != C2RAY),
              "front": r"ionfront's front ($x_\mathrm{HI}$ = 0.5 along +x)"}
    fig.legend([handles[k] for k in order], [labels[k] for k in order], loc="upper center",
               bbox_to_anchor=(0.5, 0.045), ncol=len(order), fontsize=9, frameon=False)
    note = ("shells of width $L/128$ ($L_\\mathrm{box}$ = 6.6 kpc); ionfront: cell distance "
            "from the source cell centre")
    if ref_profiles:
        note += "; references: from the box corner (moves them out by about 0.04 kpc)"
    fig.text(0.5, -0.005, note, ha="center", va="top", fontsize=8)
    fig.suptitle("Iliev et al. 2006 Test 2: spherically averaged neutral fraction and "
                 "temperature", y=0.95)
    fig.savefig(out_png, dpi=110, bbox_inches="tight")
    plt.close(fig)


# ---------------------------------------------------------------- numbers


def numbers(run, fronts, ref_profiles, ion_profiles, ref_notes):
    """-> (markdown text, list of failure messages)."""
    failures = []
    for tc in CHECK_TIMES:
        if not run.has_row(tc):
            failures.append(f"no ionfront front at {tc} Myr")
    rows = []
    r_shell = (np.arange(N_REF) + 0.5) * SHELL_KPC
    for t in TABLE_TIMES:
        r = run.front_at(t)
        refs = ref_fronts_at(fronts, t)
        med = np.median(refs) if len(refs) else np.nan
        c2 = ref_front_at(fronts[C2RAY], t) if C2RAY in fronts else np.nan
        check = ""
        if t in CHECK_TIMES and len(refs):
            lo, hi = (1 - WIDEN) * refs.min(), (1 + WIDEN) * refs.max()
            ok = np.isfinite(r) and lo <= r <= hi
            inside = np.isfinite(r) and refs.min() <= r <= refs.max()
            check = ("ok (inside)" if inside else "ok (widened)") if ok else "**FAIL**"
            if not ok:
                failures.append(f"ionfront r_I = {r:.3f} kpc at {t:g} Myr, outside the codes' "
                                f"[{refs.min():.3f}, {refs.max():.3f}] widened by 5% "
                                f"({lo:.3f}..{hi:.3f})")
        span = (f"{med:.3f} [{refs.min():.3f}, {refs.max():.3f}] ({len(refs)})"
                if len(refs) else "—")
        interp = "" if run.has_row(t) or not np.isfinite(r) else " (interp.)"
        rows.append(f"| {t:g} | {fmt(r, '.3f')}{interp} | {span} | {fmt(r / med, '.4f')} "
                    f"| {fmt(c2, '.3f')} | {check} |")

    prow = []
    for t in PROFILE_TIMES:
        rx = run.front_at(t)
        rp = (front_of_profile(ion_profiles[t][0], r_shell)
              if ion_profiles.get(t) is not None else np.nan)
        codes_p = np.array([front_of_profile(ref_profiles[c][t][0], r_shell)
                            for c in sorted(ref_profiles) if t in ref_profiles[c]])
        codes_p = codes_p[np.isfinite(codes_p)]
        c2p = (front_of_profile(ref_profiles[C2RAY][t][0], r_shell)
               if t in ref_profiles.get(C2RAY, {}) else np.nan)
        span = (f"{np.median(codes_p):.3f} [{codes_p.min():.3f}, {codes_p.max():.3f}] "
                f"({len(codes_p)})" if len(codes_p) else "—")
        prow.append(f"| {t} | {fmt(rx, '.3f')} | {fmt(rp, '.3f')} | {span} | {fmt(c2p, '.3f')} |")

    trow = []
    for t in PROFILE_TIMES:
        for s in T_SHELLS:
            ion = ion_profiles[t][1][s] if ion_profiles.get(t) is not None else np.nan
            vals = np.array([ref_profiles[c][t][1][s] for c in sorted(ref_profiles)
                             if t in ref_profiles[c] and ref_profiles[c][t][1] is not None])
            vals = vals[np.isfinite(vals)]
            c2 = (ref_profiles[C2RAY][t][1][s] if t in ref_profiles.get(C2RAY, {})
                  and ref_profiles[C2RAY][t][1] is not None else np.nan)
            if len(vals):
                span = f"{np.median(vals):,.0f} [{vals.min():,.0f}, {vals.max():,.0f}] ({len(vals)})"
                inside = "yes" if np.isfinite(ion) and vals.min() <= ion <= vals.max() else "**no**"
            else:
                span, inside = "—", ""
            trow.append(f"| {t} | {s} ({(s + 0.5) * SHELL_KPC:.2f} kpc) | {fmt(ion, ',.0f')} "
                        f"| {span} | {fmt(c2, ',.0f')} | {inside} |")

    md = ["# Iliev et al. 2006 Test 2: ionfront validation", ""]
    md += ["H II region with temperature evolution: 6.6 kpc box, n_H = 1e-3 cm^-3, gas at 100 K "
           "and x_HII(0) = 1.2e-3 to start, Ndot = 5e48 s^-1 of a 1e5 K black body in the corner "
           "cell, photo-heating against recombination, collisional and free-free cooling, "
           "500 Myr. No analytic solution: the published codes' spread is the yardstick.", ""]
    md += ["| run | |", "| --- | --- |"]
    md += [f"| command | `{run.command}` |" if run.command else
           f"| command | (not recorded; existing run in `{rel(run.dir)}`) |"]
    md += [f"| made by | `{shlex.join([f'validation/{NAME}.py'] + sys.argv[1:])}` |"]
    if run.version:
        md += [f"| version | {run.version} |"]
    md += [f"| N | {run.n}^3 (cell {1000 * run.cell_kpc:.2f} pc) |",
           f"| dt | {run.dt} |",
           f"| wall time | {run.wall_s:.1f} s (sum of log.csv wall_s: the time steps, without output)"
           + (f"; {run.elapsed:.1f} s for the whole ionfront run" if run.elapsed else "") + " |",
           f"| date | {run.created or datetime.date.today().isoformat()} |",
           f"| ionfront front | x_HI = 0.5 along +x from the source cell centre, from {run.front_source} |",
           f"| references, fronts | {', '.join(sorted(fronts)) if fronts else 'none (reference folder not found)'} |",
           f"| references, profiles | {', '.join(sorted(ref_profiles)) if ref_profiles else 'none'} |",
           ""]
    md += ["## I-front radius", "",
           "r_I in kpc. References: each code's `*_Ifront.dat` interpolated at t (codes whose "
           "record covers t within 3%), median [min, max] (number of codes); each code used its "
           "own front definition. Check at 30, 100, 200, 500 Myr: ionfront inside the codes' "
           "[0.95 min, 1.05 max].", "",
           "| t [Myr] | ionfront | references | ionfront / median | C2-Ray | check |",
           "| ---: | ---: | ---: | ---: | ---: | :---: |"] + rows + [""]
    md += ["## Front from the shell-averaged profiles", "",
           "r_I in kpc: x_HI = 0.5 along +x (ionfront's ifront.csv), and the x_HI = 0.5 crossing "
           "of the shell-averaged x_HI profile (shells of width L/128, linear interpolation "
           "between shell centres) for ionfront and for the codes' published profiles, median "
           "[min, max] (number of codes). ionfront's shells are about the source cell centre; "
           "the published profiles were binned about the box corner, which moves their fronts "
           "out by about 0.04 kpc.", "",
           "| t [Myr] | ionfront, +x | ionfront, shells | codes, shells | C2-Ray, shells |",
           "| ---: | ---: | ---: | ---: | ---: |"] + prow + [""]
    md += ["## Temperature", "",
           "Shell-mean T [K] in reference shells (width L/128; r = shell centre). References: "
           "median [min, max] (number of codes) of the published T profiles. Not part of the "
           "pass/fail check.", "",
           "| t [Myr] | shell (r) | ionfront | references | C2-Ray | inside |",
           "| ---: | --- | ---: | ---: | ---: | :---: |"] + trow + [""]
    md += ["## Result", ""]
    if not fronts:
        md += ["NOT CHECKED: no reference data, so there is nothing to compare the front with."]
    elif failures:
        md += [f"FAIL: {m}" for m in failures]
    else:
        md += ["PASS: the ionfront front lies inside the codes' [min, max] widened by 5% at "
               + ", ".join(f"{t}" for t in CHECK_TIMES) + " Myr."]
    notes = run.notes + ref_notes
    md += [""] + [f"Note: {n}." for n in notes] + ([""] if notes else [])
    md += [f"Figures: [{NAME}_ifront.png]({NAME}_ifront.png), "
           f"[{NAME}_profiles.png]({NAME}_profiles.png)"
           + ("; reference data: Iliev et al. 2006, MNRAS 371, 1057 (comparison project "
              "results as reduced in SWIFTSIM/swiftsim-rt-tools)." if fronts else "."), ""]
    return "\n".join(md), failures


# ---------------------------------------------------------------- main

def parse_args(argv):
    return parse_validation_args(
        argv, NAME,
        "Iliev et al. 2006 Test 2 validation of ionfront: runs it, writes figures and a"
        " numbers table, exits 1 if the I-front leaves the published codes' spread "
        "(widened by 5%).",
        full=(128, "5 Myr"), quick=(48, "10 Myr"), reference=True)


def main(argv=None):
    if IMPORT_ERROR is not None:
        return skip_missing_modules(f"{NAME}.py", IMPORT_ERROR)
    args = parse_args(argv)
    run = obtain_run(args, NAME, run_problem, Run)
    if run is None:
        return 1

    fronts, ref_profiles, ref_notes = load_references(args.reference)
    if not fronts:
        print(f"{NAME}.py: no reference data at {args.reference}: plotting ionfront only, "
              "nothing is checked")
    ion_profiles = {t: run.profiles(t) for t in PROFILE_TIMES}

    os.makedirs(args.out, exist_ok=True)
    files = [os.path.join(args.out, f"{NAME}_{s}") for s in ("ifront.png", "profiles.png",
                                                             "numbers.md")]
    plot_front(run, fronts, files[0])
    plot_profiles(run, ion_profiles, ref_profiles, files[1])
    md, failures = numbers(run, fronts, ref_profiles, ion_profiles, ref_notes)
    with open(files[2], "w") as f:
        f.write(md)
    print()
    print(md)
    print(f"wrote {', '.join(files)}")
    if failures:
        for m in failures:
            print(f"{NAME}.py: FAIL: {m}", file=sys.stderr)
        return 1
    if not fronts:
        return skip_missing_reference(f"{NAME}.py", args.reference,
                                      "the comparison of the front with the codes'")
    return 0


if __name__ == "__main__":
    sys.exit(main())

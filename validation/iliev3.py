#!/usr/bin/env python3
"""Validation: Iliev et al. (2006) Test 3, I-front trapping in a dense clump.

Runs ionfront on the built-in `iliev3` problem (6.6 kpc box of n_H = 2e-4 cm^-3 at
8000 K; a clump of radius 0.8 kpc centred at (5, 3.3, 3.3) kpc with n_H = 0.04 cm^-3
at 40 K; a plane-parallel flux of 1e6 photons s^-1 cm^-2 of a 1e5 K black body
entering through the x = 0 face; the temperature evolves; 15 Myr) and compares it
with the published codes of the comparison project (read from --reference when that
folder exists): C2-Ray, Coral, CRASH, FFTE, Flash, IFT and RSPH on the axis
y = z = L/2, and C2-Ray's mid-plane slices.

Writes, into --out:
  iliev3_profiles.png  x_HI and T on the axis (mean of the 4 cells around it) at 1, 3,
                       5 and 15 Myr, with the codes
  iliev3_slices.png    x_HI and T in the mid-plane (k = N/2) at 1, 3, 5, 15 Myr beside
                       C2-Ray's (k = 64)
  iliev3_clump.png     clump-averaged x_HII and T against time, and the front on the
                       axis in the clump
  iliev3_numbers.md    the numbers and the checks (also printed)

Checks (exit code 1 when one fails, or the run fails):
  - the clump is in the initial conditions: n_H = 0.04 in the cells whose centres lie
    inside it, 2e-4 elsewhere;
  - the shadow stays neutral at 1, 2, 3 and 5 Myr: x_HI >= 0.99 on the axis behind
    the clump (cell centres beyond its far edge plus one cell) and in the mid-plane
    behind it within half its radius of the axis (the codes: >= 0.998 on the axis);
  - the front is trapped: at 15 Myr the x_HI = 0.5 crossing on the axis lies inside
    the clump, and (with the references) inside the codes' [min, max] widened by one
    cell (the larger of the run's and the references' L/128) each way;
  - the thin gas in front of the clump (axis cells nearer the face than the clump's
    near edge minus one cell) is fully ionized, x_HI < 1e-3 (codes: at most 2e-4),
    and (with the references) its mean T lies inside the codes' [min, max] at 1, 3, 5
    and 15 Myr.
Without the reference data the checks against the codes cannot be made: the rest still
run (1 if one fails), then the exit code is 77 (ctest: skip; never 0, which would read
as all checked).  77 also if numpy, h5py or matplotlib cannot be imported.

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
    from matplotlib.colors import LogNorm
except ImportError as exc:  # reported by main(), exit code 77
    IMPORT_ERROR = exc
else:
    IMPORT_ERROR = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vutil import (KPC_CM, MYR_S, REPO, C2RAY, code_name, fmt, obtain_run,  # noqa: E402
                   ref_styles, rel, run_ionfront, run_provenance, same_time,
                   skip_missing_modules, skip_missing_reference)
from vutil import parse_validation_args  # noqa: E402

NAME = "iliev3"

BOX_KPC = 6.6
N_REF = 128                          # the references' grid
D_REF_KPC = BOX_KPC / N_REF          # their cell, 51.56 pc
CLUMP_CENTRE_KPC = (5.0, 3.3, 3.3)
CLUMP_R_KPC = 0.8
N_OUT, N_CLUMP = 2.0e-4, 0.04        # cm^-3

REF_TIMES = [1, 2, 3, 5, 15]         # Myr, the comparison project's outputs
PROFILE_TIMES = [1, 3, 5, 15]        # Myr, the profile and slice figures
SHADOW_TIMES = [1, 2, 3, 5]          # Myr, the shadow must stay neutral
LOW_T_TIMES = [1, 3, 5, 15]          # Myr, the thin gas's temperature against the codes
FRONT_CHECK_TIME = 15                # Myr, the trapped front against the codes
OUTPUT_TIMES = [0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 12, 15]
SHADOW_MIN_X_HI = 0.99
LOW_MAX_X_HI = 1e-3


# ---------------------------------------------------------------- geometry

def cell_centres(n, cell_kpc):
    return (np.arange(n) + 0.5) * cell_kpc


def clump_mask(n, cell_kpc):
    """Cells whose centres lie inside the clump (the engine's rule)."""
    c = cell_centres(n, cell_kpc)
    d2 = ((c[:, None, None] - CLUMP_CENTRE_KPC[0]) ** 2 + (c[None, :, None] - CLUMP_CENTRE_KPC[1]) ** 2
          + (c[None, None, :] - CLUMP_CENTRE_KPC[2]) ** 2)
    return d2 <= CLUMP_R_KPC ** 2


def slice_disc_mask(n, cell_kpc, k):
    """Cells (i, j) of the plane k whose centres lie inside the clump."""
    c = cell_centres(n, cell_kpc)
    z = (k + 0.5) * cell_kpc
    d2 = ((c[:, None] - CLUMP_CENTRE_KPC[0]) ** 2 + (c[None, :] - CLUMP_CENTRE_KPC[1]) ** 2
          + (z - CLUMP_CENTRE_KPC[2]) ** 2)
    return d2 <= CLUMP_R_KPC ** 2


def front_on_axis(x_hi, cell_kpc):
    """First x_HI = 0.5 crossing from the face, between cell centres [kpc]; nan if none."""
    above = np.nonzero(x_hi >= 0.5)[0]
    if len(above) == 0:
        return np.nan
    i = above[0]
    if i == 0:
        return 0.5 * cell_kpc
    a, b = x_hi[i - 1], x_hi[i]
    return cell_kpc * (i - 0.5 + (0.5 - a) / (b - a))


def low_region(n, cell_kpc):
    """Axis cells in front of the clump: centres nearer the face than its near edge minus a cell."""
    return cell_centres(n, cell_kpc) < CLUMP_CENTRE_KPC[0] - CLUMP_R_KPC - cell_kpc


def behind_region(n, cell_kpc):
    """Axis cells behind the clump: centres beyond its far edge plus a cell."""
    return cell_centres(n, cell_kpc) > CLUMP_CENTRE_KPC[0] + CLUMP_R_KPC + cell_kpc


def slice_shadow_mask(n, cell_kpc):
    """Mid-plane cells (i, j) behind the clump within half its radius of the axis."""
    c = cell_centres(n, cell_kpc)
    behind = c > CLUMP_CENTRE_KPC[0] + CLUMP_R_KPC + cell_kpc
    near = np.abs(c - CLUMP_CENTRE_KPC[1]) <= 0.5 * CLUMP_R_KPC
    return behind[:, None] & near[None, :]


# ---------------------------------------------------------------- running ionfront

def run_problem(ionfront, n, dt, run_dir):
    """Run the iliev3 problem into run_dir (command.txt, elapsed_s.txt, ionfront.log besides)."""
    outputs = "[" + ", ".join(f"{t:g} Myr" for t in OUTPUT_TIMES) + "]"
    run_ionfront(ionfront, NAME, [f"grid.N={n}", f"time.dt={dt}", f"time.outputs={outputs}",
                                  "output.xdmf=false"], run_dir)


class Run:
    """What the analysis needs from a finished ionfront run of iliev3."""

    def __init__(self, run_dir):
        self.dir = run_dir
        paths = sorted(glob.glob(os.path.join(run_dir, "snapshot_[0-9]*.h5")))
        if not paths:
            raise RuntimeError(f"no snapshot_NNNN.h5 in {run_dir}")
        self.t = []
        self.axis = {}        # t -> (x_HI[n], T[n]) on the axis, mean of the 4 cells around it
        self.slice = {}       # t -> (x_HI[n, n], T[n, n]) in the plane k = n/2
        self.clump = {}       # t -> (x_HII, T) averaged over the clump's cells
        self.clump_slice = {} # t -> (x_HII, T) averaged over the clump's disc in the plane k
        self.density_errors = None
        self.created = None
        for p in paths:
            with h5py.File(p, "r") as f:
                t = float(f.attrs["time_s"]) / MYR_S
                self.n = n = int(f.attrs["N"])
                self.box_kpc = float(f.attrs["box_size_cm"]) / KPC_CM
                config = f.attrs["config"]
                self.config = config.decode() if isinstance(config, bytes) else config
                self.created = f.attrs.get("created", self.created)
                self.cell_kpc = self.box_kpc / n
                if abs(self.box_kpc - BOX_KPC) > 1e-6 * BOX_KPC or n % 2:
                    raise RuntimeError(f"{run_dir}: box {self.box_kpc:g} kpc, N = {n}: not the "
                                       "6.6 kpc box of Test 3 with an even N")
                if not hasattr(self, "_mask"):
                    self._mask = clump_mask(n, self.cell_kpc)
                    self.k_mid = n // 2
                    self._disc = slice_disc_mask(n, self.cell_kpc, self.k_mid)
                x_hii = f["Grid/x_HII"][...]
                temp = f["Grid/T"][...]
                if self.density_errors is None:
                    n_h = f["Grid/n_H"][...]
                    want = np.where(self._mask, N_CLUMP, N_OUT)
                    self.density_errors = int(np.sum(np.abs(n_h - want) > 1e-12 * want))
                    self.clump_cells = int(self._mask.sum())
            if t <= 0:
                continue
            a = slice(n // 2 - 1, n // 2 + 1)
            self.t.append(t)
            self.axis[t] = (1.0 - x_hii[:, a, a].mean(axis=(1, 2)), temp[:, a, a].mean(axis=(1, 2)))
            self.slice[t] = (1.0 - x_hii[:, :, self.k_mid], temp[:, :, self.k_mid].copy())
            self.clump[t] = (float(x_hii[self._mask].mean()), float(temp[self._mask].mean()))
            self.clump_slice[t] = (float(x_hii[:, :, self.k_mid][self._disc].mean()),
                                   float(temp[:, :, self.k_mid][self._disc].mean()))
        if not self.t:
            raise RuntimeError(f"only the initial snapshot in {run_dir}")
        self.t = sorted(self.t)
        if not re.search(r"plane:\s*x_low", self.config) or "clumps:" not in self.config:
            raise RuntimeError(f"{run_dir}: no plane source through x_low or no clump: not an "
                               "iliev3 run")
        m = re.search(r"^\s+dt:\s*([^#\n]*?)\s*(#.*)?$", self.config, re.M)
        self.dt = m.group(1).strip('"\'') if m else "?"
        self.info = run_provenance(run_dir)

    def at(self, t_myr):
        """The output time equal to t_myr, or None."""
        for t in self.t:
            if same_time(t, t_myr):
                return t
        return None

    def front(self, t):
        return front_on_axis(self.axis[t][0], self.cell_kpc)


# ---------------------------------------------------------------- reference data

def load_references(path):
    """-> (profiles {code: {t: (xHI[128], T[128])}}, slices {code: {t: (xHI, T)[128, 128]}});
    empty without data."""
    profiles, slices = {}, {}
    if not path:
        return profiles, slices
    folder = os.path.join(path, "test3") if os.path.isdir(os.path.join(path, "test3")) else path
    if not os.path.isdir(folder):
        return profiles, slices
    for f in sorted(glob.glob(os.path.join(folder, "*Myr_profile_xHI.dat"))):
        m = re.fullmatch(r"(.+)_(\d+)Myr_profile_xHI\.dat", os.path.basename(f))
        ft = f[:-len("xHI.dat")] + "T.dat"
        if not m or not os.path.exists(ft):
            continue
        profiles.setdefault(code_name(m.group(1)), {})[int(m.group(2))] = (
            np.loadtxt(f).ravel(), np.loadtxt(ft).ravel())
    for f in sorted(glob.glob(os.path.join(folder, "*Myr_slice_xHI_z=64.dat"))):
        m = re.fullmatch(r"(.+)_(\d+)Myr_slice_xHI_z=64\.dat", os.path.basename(f))
        ft = f.replace("_slice_xHI_", "_slice_T_")
        if not m or not os.path.exists(ft):
            continue
        slices.setdefault(code_name(m.group(1)), {})[int(m.group(2))] = (
            np.loadtxt(f, delimiter=","), np.loadtxt(ft, delimiter=","))
    return profiles, slices


def ref_values(profiles, t, fn):
    """{code: fn(xHI, T)} over the codes with a profile at t."""
    return {c: fn(*by_t[t]) for c, by_t in sorted(profiles.items()) if t in by_t}


def spread_text(vals, spec):
    v = np.array([x for x in vals if np.isfinite(x)])
    if not len(v):
        return "—"
    return (f"{format(np.median(v), spec)} [{format(v.min(), spec)}, {format(v.max(), spec)}] "
            f"({len(v)})")


# ---------------------------------------------------------------- figures

def shade_clump(ax):
    ax.axvspan(CLUMP_CENTRE_KPC[0] - CLUMP_R_KPC, CLUMP_CENTRE_KPC[0] + CLUMP_R_KPC,
               color="0.92", zorder=0)


def plot_profiles(run, profiles, out_png):
    styles = ref_styles(sorted(profiles))
    x_ref = cell_centres(N_REF, D_REF_KPC)
    x_run = cell_centres(run.n, run.cell_kpc)
    fig, axes = plt.subplots(2, len(PROFILE_TIMES), sharex=True, sharey="row",
                             figsize=(16, 7.2), gridspec_kw=dict(hspace=0.06, wspace=0.06))
    handles = {}
    for col, tt in enumerate(PROFILE_TIMES):
        t = run.at(tt)
        for row in (0, 1):
            ax = axes[row, col]
            shade_clump(ax)
            for code in sorted(profiles, key=lambda c: (c == C2RAY, c)):
                prof = profiles[code].get(tt)
                if prof is None:
                    continue
                st = dict(styles[code])
                st.update(lw=1.4, ls="--", zorder=5) if code == C2RAY else st.update(
                    lw=0.8, alpha=0.6, ls="-", zorder=2)
                h, = ax.plot(x_ref, np.where(prof[row] > 0, prof[row], np.nan), **st)
                handles.setdefault(C2RAY if code == C2RAY else "other codes", h)
            if t is not None:
                y = run.axis[t][row]
                h, = ax.plot(x_run, np.where(y > 0, y, np.nan), color="tab:red", lw=2.0, zorder=4)
                handles["ionfront"] = h
            ax.set_yscale("log")
            ax.set_xlim(0, BOX_KPC)
            ax.grid(alpha=0.3)
            if row == 0:
                ax.set_ylim(1e-6, 2)
                ax.set_title(f"t = {tt} Myr", fontsize=11)
            else:
                ax.set_ylim(20, 3e5)
                ax.set_xlabel("x [kpc] (from the illuminated face)")
    axes[0, 0].set_ylabel(r"neutral fraction $x_\mathrm{HI}$ on the axis")
    axes[1, 0].set_ylabel("temperature T [K] on the axis")
    order = [k for k in ("ionfront", C2RAY, "other codes") if k in handles]
    labels = {"ionfront": f"ionfront, N = {run.n}$^3$, dt = {run.dt}",
              C2RAY: "C2-Ray (Iliev et al. 2006)",
              "other codes": "other codes: " + ", ".join(c for c in sorted(profiles) if c != C2RAY)}
    fig.legend([handles[k] for k in order], [labels[k] for k in order], loc="upper center",
               bbox_to_anchor=(0.5, 0.045), ncol=len(order), fontsize=9, frameon=False)
    fig.text(0.5, -0.005, "mean of the 4 cells around the axis y = z = L/2; grey band: the clump "
             "(4.2 to 5.8 kpc)", ha="center", va="top", fontsize=8)
    fig.suptitle("Iliev et al. 2006 Test 3: neutral fraction and temperature along the axis "
                 "through the clump", y=0.95)
    fig.savefig(out_png, dpi=110, bbox_inches="tight")
    plt.close(fig)


def plot_slices(run, slices, out_png):
    c2 = slices.get(C2RAY, {})
    rows = [("ionfront", 0), (C2RAY, 0), ("ionfront", 1), (C2RAY, 1)] if c2 else \
        [("ionfront", 0), ("ionfront", 1)]
    fig, axes = plt.subplots(len(rows), len(PROFILE_TIMES), figsize=(3.3 * len(PROFILE_TIMES) + 1.2,
                                                                     3.1 * len(rows)),
                             sharex=True, sharey=True, squeeze=False)
    extent = [0, BOX_KPC, 0, BOX_KPC]
    norms = [LogNorm(1e-6, 1.0), LogNorm(30, 1e5)]
    images = [None, None]
    for r, (who, q) in enumerate(rows):
        for col, tt in enumerate(PROFILE_TIMES):
            ax = axes[r, col]
            if who == "ionfront":
                t = run.at(tt)
                data = None if t is None else run.slice[t][q]
            else:
                data = c2.get(tt, (None, None))[q]
            if data is None:
                ax.text(0.5, 0.5, "no data", transform=ax.transAxes, ha="center")
            else:
                data = np.clip(data, norms[q].vmin, None)
                images[q] = ax.imshow(data.T, origin="lower", extent=extent, norm=norms[q],
                                      cmap="viridis" if q == 0 else "inferno",
                                      interpolation="nearest")
            circle = plt.Circle(CLUMP_CENTRE_KPC[:2], CLUMP_R_KPC, fill=False, color="w", lw=0.6,
                                ls=":")
            ax.add_patch(circle)
            if r == 0:
                ax.set_title(f"t = {tt} Myr", fontsize=11)
            if col == 0:
                label = "ionfront" if who == "ionfront" else "C2-Ray"
                ax.set_ylabel(f"{label}: {'$x_{HI}$' if q == 0 else 'T'}\ny [kpc]")
            if r == len(rows) - 1:
                ax.set_xlabel("x [kpc]")
    for q, label in ((0, r"$x_\mathrm{HI}$"), (1, "T [K]")):
        if images[q] is not None:
            ax_list = [axes[r, c] for r, (w, qq) in enumerate(rows) if qq == q
                       for c in range(len(PROFILE_TIMES))]
            fig.colorbar(images[q], ax=ax_list, shrink=0.9, label=label, pad=0.01)
    top = max(a.get_position().y1 for a in axes[0])
    fig.text(
        0.45, top + 0.03, f"Iliev et al. 2006 Test 3: the mid-plane (ionfront: k = N/2 of N = {run.n}; "
        "C2-Ray: k = 64 of 128); dotted: the clump", ha="center", va="bottom", fontsize=12,
        transform=fig.transFigure)
    fig.savefig(out_png, dpi=100, bbox_inches="tight")
    plt.close(fig)


def plot_clump(run, profiles, slices, out_png):
    codes_p, codes_s = sorted(profiles), sorted(slices)
    styles = ref_styles(sorted(set(codes_p) | set(codes_s)))
    markers = dict(zip(sorted(set(codes_p) | set(codes_s)), "osD^v<>ph"))
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.6))
    t = np.array(run.t)
    for q, ax in enumerate(axes[:2]):
        ax.plot(t, [run.clump[x][q] for x in t], color="tab:red", lw=2, marker=".",
                label=f"ionfront, whole clump ({run.clump_cells} cells)")
        ax.plot(t, [run.clump_slice[x][q] for x in t], color="tab:red", lw=1, ls="--",
                label="ionfront, the clump's disc in the mid-plane")
        for code in codes_s:
            tv = [tt for tt in REF_TIMES if tt in slices[code]]
            disc = slice_disc_mask(N_REF, D_REF_KPC, 64)
            vals = [(1.0 - slices[code][tt][0][disc]).mean() if q == 0 else
                    slices[code][tt][1][disc].mean() for tt in tv]
            st = styles[code]
            ax.plot(tv, vals, ls="none", marker=markers[code], color=st["color"],
                    mfc="none" if code != C2RAY else st["color"], ms=6,
                    label=f"{code}, the disc in its mid-plane slice")
        ax.set_xlabel("t [Myr]")
        ax.set_xlim(0, 15.5)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(r"clump-averaged $x_\mathrm{HII}$")
    axes[0].set_ylim(0, 1)
    axes[1].set_ylabel("clump-averaged T [K]")
    axes[1].set_yscale("log")
    axes[0].legend(fontsize=7, loc="lower right")
    ax = axes[2]
    ax.plot(t, [run.front(x) for x in t], color="tab:red", lw=2, marker=".", label="ionfront")
    for code in codes_p:
        tv = [tt for tt in REF_TIMES if tt in profiles[code]]
        st = styles[code]
        ax.plot(tv, [front_on_axis(profiles[code][tt][0], D_REF_KPC) for tt in tv], ls="none",
                marker=markers[code], color=st["color"],
                mfc="none" if code != C2RAY else st["color"], ms=6, label=code)
    for y, label in ((CLUMP_CENTRE_KPC[0] - CLUMP_R_KPC, "near edge"),
                     (CLUMP_CENTRE_KPC[0], "centre"), (CLUMP_CENTRE_KPC[0] + CLUMP_R_KPC, "far edge")):
        ax.axhline(y, color="0.5", lw=0.8, ls=":")
        ax.text(8.5, y, label, fontsize=8, va="bottom", ha="left", color="0.4")
    ax.set_xlabel("t [Myr]")
    ax.set_ylabel(r"front on the axis ($x_\mathrm{HI}$ = 0.5) [kpc]")
    ax.set_xlim(0, 15.5)
    ax.set_ylim(4.0, 6.0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", ncol=2)
    fig.suptitle(f"Iliev et al. 2006 Test 3: the clump (ionfront N = {run.n}$^3$, dt = {run.dt})")
    fig.tight_layout()
    fig.savefig(out_png, dpi=110, bbox_inches="tight")
    plt.close(fig)


# ---------------------------------------------------------------- numbers and checks

def numbers(run, profiles, slices):
    """-> (markdown text, failures, notes)."""
    failures, notes = [], []
    have_refs = bool(profiles)
    pad = max(run.cell_kpc, D_REF_KPC)
    low, behind = low_region(run.n, run.cell_kpc), behind_region(run.n, run.cell_kpc)
    low_ref, behind_ref = low_region(N_REF, D_REF_KPC), behind_region(N_REF, D_REF_KPC)
    shadow_slice = slice_shadow_mask(run.n, run.cell_kpc)

    if run.density_errors:
        failures.append(f"{run.density_errors} cells have the wrong initial n_H (clump 0.04, "
                        "outside 2e-4)")

    # the front on the axis
    front_rows = []
    for tt in REF_TIMES:
        t = run.at(tt)
        r = run.front(t) if t is not None else np.nan
        refs = ref_values(profiles, tt, lambda x, T: front_on_axis(x, D_REF_KPC))
        v = np.array(list(refs.values()))
        check = ""
        if tt == FRONT_CHECK_TIME:
            if t is None:
                failures.append(f"no ionfront snapshot at {tt} Myr")
            inside = np.isfinite(r) and abs(r - CLUMP_CENTRE_KPC[0]) < CLUMP_R_KPC
            if not inside:
                failures.append(f"the front at {tt} Myr ({r:.3f} kpc) is not inside the clump")
            if len(v):
                lo, hi = v.min() - pad, v.max() + pad
                ok = np.isfinite(r) and lo <= r <= hi
                check = ("ok (inside)" if v.min() <= r <= v.max() else "ok (within a cell)") \
                    if ok else "**FAIL**"
                if not ok:
                    failures.append(f"the front at {tt} Myr, {r:.3f} kpc, is outside the codes' "
                                    f"[{v.min():.3f}, {v.max():.3f}] widened by {pad:.4f} kpc")
            else:
                check = "in the clump" if inside else "**FAIL**"
        front_rows.append(f"| {tt} | {fmt(r, '.3f')} | {fmt(r - CLUMP_CENTRE_KPC[0], '+.3f')} | "
                          f"{spread_text(v, '.3f')} | {fmt(refs.get(C2RAY, np.nan), '.3f')} | {check} |")

    # the clump's averages: whole (ionfront), and the disc in the mid-plane (both)
    disc_ref = slice_disc_mask(N_REF, D_REF_KPC, 64)
    clump_rows = []
    for tt in REF_TIMES:
        t = run.at(tt)
        ion = run.clump[t] if t is not None else (np.nan, np.nan)
        ion_s = run.clump_slice[t] if t is not None else (np.nan, np.nan)
        cells = []
        for q in (0, 1):
            vals = {c: ((1.0 - s[tt][0][disc_ref]).mean() if q == 0 else s[tt][1][disc_ref].mean())
                    for c, s in sorted(slices.items()) if tt in s}
            spec = ".3f" if q == 0 else ",.0f"
            cells += [fmt(ion[q], spec), fmt(ion_s[q], spec), spread_text(list(vals.values()), spec),
                      fmt(vals.get(C2RAY, np.nan), spec)]
        clump_rows.append(f"| {tt} | " + " | ".join(cells) + " |")

    # the thin gas in front of the clump
    low_rows = []
    for tt in REF_TIMES:
        t = run.at(tt)
        if t is None:
            continue
        x_hi, temp = run.axis[t]
        x_mean, x_max, t_mean = x_hi[low].mean(), x_hi[low].max(), temp[low].mean()
        rx = ref_values(profiles, tt, lambda x, T: x[low_ref].mean())
        rt = ref_values(profiles, tt, lambda x, T: T[low_ref].mean())
        vt = np.array(list(rt.values()))
        check = []
        if not x_max < LOW_MAX_X_HI:
            failures.append(f"the thin gas in front of the clump is not fully ionized at {tt} Myr: "
                            f"x_HI up to {x_max:.3g}")
            check.append("**x_HI FAIL**")
        if tt in LOW_T_TIMES and len(vt):
            if vt.min() <= t_mean <= vt.max():
                check.append("T inside")
            else:
                check.append("**T FAIL**")
                failures.append(f"the thin gas's mean T at {tt} Myr, {t_mean:,.0f} K, is outside "
                                f"the codes' [{vt.min():,.0f}, {vt.max():,.0f}] K")
        low_rows.append(f"| {tt} | {x_mean:.2e} | {x_max:.2e} | {spread_text(rx.values(), '.2e')} | "
                        f"{t_mean:,.0f} | {spread_text(vt, ',.0f')} | "
                        f"{fmt(rt.get(C2RAY, np.nan), ',.0f')} | {', '.join(check) or 'ok'} |")

    # the shadow
    shadow_rows = []
    for tt in REF_TIMES:
        t = run.at(tt)
        if t is None:
            if tt in SHADOW_TIMES:
                failures.append(f"no ionfront snapshot at {tt} Myr")
            continue
        on_axis = run.axis[t][0][behind].min()
        in_slice = run.slice[t][0][shadow_slice].min()
        t_max = run.axis[t][1][behind].max()
        rv = ref_values(profiles, tt, lambda x, T: x[behind_ref].min())
        rs = {c: s[tt][0][slice_shadow_mask(N_REF, D_REF_KPC)].min()
              for c, s in sorted(slices.items()) if tt in s}
        check = ""
        if tt in SHADOW_TIMES:
            ok = on_axis >= SHADOW_MIN_X_HI and in_slice >= SHADOW_MIN_X_HI
            check = "ok" if ok else "**FAIL**"
            if not ok:
                failures.append(f"the shadow is not neutral at {tt} Myr: x_HI down to "
                                f"{min(on_axis, in_slice):.4f} (< {SHADOW_MIN_X_HI})")
        shadow_rows.append(f"| {tt} | {on_axis:.4f} | {in_slice:.4f} | {t_max:,.0f} | "
                           f"{spread_text(rv.values(), '.4f')} | {spread_text(rs.values(), '.4f')} "
                           f"| {check} |")

    info = run.info
    md = ["# Iliev et al. 2006 Test 3: ionfront validation", ""]
    md += ["I-front trapping in a dense clump: a 6.6 kpc box of n_H = 2e-4 cm^-3 at 8000 K with a "
           "clump of radius 0.8 kpc at (5, 3.3, 3.3) kpc, n_H = 0.04 cm^-3 at 40 K; x_HII(0) = "
           "1.2e-3; a plane-parallel flux of 1e6 photons s^-1 cm^-2 of a 1e5 K black body through "
           "the x = 0 face; the temperature evolves; 15 Myr. No analytic solution: the published "
           "codes' spread is the yardstick.", ""]
    md += ["| run | |", "| --- | --- |"]
    md += [f"| command | `{info['command']}` |" if info["command"] else
           f"| command | (not recorded; existing run in `{rel(run.dir)}`) |"]
    md += [f"| made by | `{shlex.join([f'validation/{NAME}.py'] + sys.argv[1:])}` |"]
    if info["version"]:
        md += [f"| version | {info['version']} |"]
    md += [f"| N | {run.n}^3 (cell {1000 * run.cell_kpc:.2f} pc; {run.clump_cells} cells in the clump) |",
           f"| dt | {run.dt} |",
           f"| wall time | {info['wall_s']:.1f} s (sum of log.csv wall_s: the time steps, without "
           "output)" + (f"; {info['elapsed']:.1f} s for the whole ionfront run" if info["elapsed"]
                        else "") + " |",
           f"| date | {run.created or datetime.date.today().isoformat()} |",
           f"| references, axis profiles | {', '.join(sorted(profiles)) if profiles else 'none (reference folder not found)'} |",
           f"| references, mid-plane slices | {', '.join(sorted(slices)) if slices else 'none'} |",
           ""]
    md += ["## The front on the axis", "",
           "x_HI = 0.5 crossing from the illuminated face along the axis profile (mean of the 4 "
           "cells around y = z = L/2; linear between cell centres), kpc; the clump spans 4.2 to "
           "5.8 kpc, its centre is at 5 kpc. Codes: the same crossing of their published axis "
           f"profiles, median [min, max] (number of codes). Check at {FRONT_CHECK_TIME} Myr: "
           f"inside the clump, and inside the codes' [min, max] widened by {pad * 1000:.1f} pc (one "
           "cell, the run's or the references' L/128, whichever is larger).", "",
           "| t [Myr] | ionfront | from the centre | codes | C2-Ray | check |",
           "| ---: | ---: | ---: | ---: | ---: | :---: |"] + front_rows + [""]
    md += ["## Clump averages", "",
           "Volume-averaged over the cells whose centres lie inside the clump (ionfront, 'whole'), "
           "and over the clump's disc in the mid-plane slice (ionfront: k = N/2; codes: their "
           "k = 64 slices, median [min, max] (number of codes)).", "",
           "| t [Myr] | x_HII whole | x_HII disc | codes, disc | C2-Ray, disc | T whole [K] | "
           "T disc | codes, disc | C2-Ray, disc |",
           "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"] + clump_rows + [""]
    md += ["## The thin gas in front of the clump", "",
           "Axis cells from the face to the clump's near edge less one cell: mean and largest x_HI, "
           f"mean T. Checks: x_HI < {LOW_MAX_X_HI:g} everywhere there (fully ionized), and the mean T "
           "inside the codes' [min, max] at " + ", ".join(str(t) for t in LOW_T_TIMES) + " Myr.", "",
           "| t [Myr] | x_HI mean | x_HI max | codes, x_HI mean | T mean [K] | codes, T mean | "
           "C2-Ray | check |",
           "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: |"] + low_rows + [""]
    md += ["## The shadow", "",
           "Smallest x_HI behind the clump: on the axis (cells beyond its far edge plus one cell) "
           "and in the mid-plane within half the clump's radius of the axis; largest T on the axis "
           f"there. Check at {', '.join(str(t) for t in SHADOW_TIMES)} Myr: x_HI >= "
           f"{SHADOW_MIN_X_HI} (neutral).", "",
           "| t [Myr] | x_HI min, axis | x_HI min, mid-plane | T max, axis [K] | codes, axis | "
           "codes, mid-plane | check |",
           "| ---: | ---: | ---: | ---: | ---: | ---: | :---: |"] + shadow_rows + [""]
    md += ["## Result", ""]
    if failures:
        md += [f"FAIL: {m}" for m in failures]
    else:
        md += ["PASS: the clump is in the initial conditions; the shadow stays neutral at "
               + ", ".join(str(t) for t in SHADOW_TIMES) + " Myr; the thin gas in front is fully "
               f"ionized; the front at {FRONT_CHECK_TIME} Myr is trapped in the clump"
               + (" within the codes' spread (widened by one cell), and the thin gas's temperature "
                  "lies inside the codes' range." if have_refs else ".")]
    if not have_refs:
        notes.append("no reference data: the comparisons with the published codes were not made")
    md += [""] + [f"Note: {n}." for n in notes] + ([""] if notes else [])
    md += [f"Figures: [{NAME}_profiles.png]({NAME}_profiles.png), "
           f"[{NAME}_slices.png]({NAME}_slices.png), [{NAME}_clump.png]({NAME}_clump.png)"
           + ("; reference data: Iliev et al. 2006, MNRAS 371, 1057 (comparison project results "
              "as reduced in SWIFTSIM/swiftsim-rt-tools)." if have_refs else "."), ""]
    return "\n".join(md), failures, notes


# ---------------------------------------------------------------- main

def parse_args(argv):
    return parse_validation_args(
        argv, NAME,
        "Iliev et al. 2006 Test 3 validation of ionfront: runs it, writes figures and a"
        " numbers table, exits 1 if a check fails.",
        full=(128, None), quick=(48, "0.1 Myr"), reference=True, n_note=", even")


def builtin_dt(ionfront):
    """The built-in problem's time step, as its YAML writes it."""
    import subprocess
    text = subprocess.run([ionfront, "example", NAME], capture_output=True, text=True,
                          check=True).stdout
    m = re.search(r"^\s+dt:\s*([^#\n]*?)\s*(#.*)?$", text, re.M)
    if not m:
        raise RuntimeError(f"no time.dt in 'ionfront example {NAME}'")
    return m.group(1)


def main(argv=None):
    if IMPORT_ERROR is not None:
        return skip_missing_modules(f"{NAME}.py", IMPORT_ERROR)
    args = parse_args(argv)
    if args.N % 2:
        print(f"{NAME}.py: error: --N must be even (the axis is the 4 cells around y = z = L/2)",
              file=sys.stderr)
        return 1
    if args.dt is None and not args.use_existing:
        try:
            args.dt = builtin_dt(os.path.abspath(args.ionfront))
        except (OSError, RuntimeError) as e:
            print(f"{NAME}.py: error: {e}", file=sys.stderr)
            return 1
    run = obtain_run(args, NAME, run_problem, Run)
    if run is None:
        return 1

    profiles, slices = load_references(args.reference)
    if not profiles:
        print(f"{NAME}.py: no reference data at {args.reference}: plotting ionfront only; the "
              "comparisons with the published codes are skipped")

    os.makedirs(args.out, exist_ok=True)
    files = [os.path.join(args.out, f"{NAME}_{s}") for s in ("profiles.png", "slices.png",
                                                             "clump.png", "numbers.md")]
    plot_profiles(run, profiles, files[0])
    plot_slices(run, slices, files[1])
    plot_clump(run, profiles, slices, files[2])
    md, failures, _ = numbers(run, profiles, slices)
    with open(files[3], "w") as f:
        f.write(md)
    print()
    print(md)
    print(f"wrote {', '.join(files)}")
    if failures:
        for m in failures:
            print(f"{NAME}.py: FAIL: {m}", file=sys.stderr)
        return 1
    if not profiles:
        return skip_missing_reference(f"{NAME}.py", args.reference,
                                      "the comparisons with the published codes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

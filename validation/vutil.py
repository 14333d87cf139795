"""What the validation scripts share: running ionfront into a folder with its log,
reading its CSV files, finding a front, and the reference codes' names and styles.

Imported by iliev1.py, iliev2.py, iliev3.py, expanding.py and dice.py after they have
checked that numpy is installed (they exit 77 without it).
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import time

try:
    import numpy as np
except ImportError:   # the scripts report it and exit 77 (skip) before using vutil
    np = None

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The comparison project's file prefixes -> the names the paper uses
CODE_NAMES = {"art": "ART", "c2ray": "C2-Ray", "crash": "CRASH", "ffte": "FFTE",
              "flash": "Flash", "ift": "IFT", "otvet": "OTVET", "rsph": "RSPH",
              "zeus": "Zeus"}
C2RAY = "C2-Ray"


def rel(path):
    """Path relative to the repository root when inside it (for the report)."""
    path = os.path.abspath(path)
    r = os.path.relpath(path, REPO)
    return path if r.startswith("..") else r


def same_time(a, b):
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1.0)


def trapezoid(y, x):
    """The trapezoid rule: numpy 2's np.trapezoid, or np.trapz where numpy is older
    (Debian 12's 1.24 has no trapezoid; numpy 2.4 and later no trapz)."""
    rule = getattr(np, "trapezoid", None) or np.trapz
    return rule(y, x)


def fmt(v, spec):
    return "—" if v is None or not np.isfinite(v) else format(v, spec)


# ---------------------------------------------------------------- the scripts' options

REFERENCE_DEFAULT = os.path.join(REPO, "..", "shared", "reference", "iliev2006")


def parse_validation_args(argv, name, description, full, quick=None, reference=False,
                          n_note="", extra=None):
    """The options every validation script takes.  `full` and `quick` are (N, dt)
    (dt None: the built-in problem's own); no `quick`: no --quick option;
    `reference`: a --reference folder of the comparison project's data; `extra`, if
    given, adds a script's own options to the parser."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--ionfront", default=os.path.join(REPO, "build", "ionfront"),
                   help="the ionfront executable (default: build/ionfront)")
    dt_full = f'"{full[1]}"' if full[1] else "the built-in problem's"
    p.add_argument("--N", type=int, default=None,
                   help=f"cells per side (default {full[0]}"
                        + (f"; --quick {quick[0]}" if quick else "") + f"){n_note}")
    p.add_argument("--dt", default=None,
                   help=f"time step, e.g. \"5 Myr\" (default {dt_full}"
                        + (f'; --quick "{quick[1]}"' if quick else "") + ")")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--run-dir", default=None,
                       help=f"run ionfront into this directory (default: build/validation_{name})")
    where.add_argument("--use-existing", metavar="DIR", default=None,
                       help="analyse a finished run in DIR instead of running ionfront")
    if reference:
        p.add_argument("--reference", default=REFERENCE_DEFAULT,
                       help="folder of the published results (default: "
                            "../shared/reference/iliev2006 from the repository root); optional")
    p.add_argument("--out", default=os.path.join(REPO, "docs"),
                   help="where the figures and the table go (default: docs)")
    if quick:
        p.add_argument("--quick", action="store_true",
                       help=f"N = {quick[0]}, dt = {quick[1]} (for CI)")
    if extra:
        extra(p)
    a = p.parse_args(argv)
    use = quick if quick and a.quick else full
    if a.N is None:
        a.N = use[0]
    if a.dt is None:
        a.dt = use[1]
    return a


# ---------------------------------------------------------------- running ionfront

def skip_missing_modules(script, import_error):
    """The message and exit code (77: ctest's skip) without numpy, h5py or matplotlib."""
    print(f"{script}: SKIP: {import_error} (needs numpy, h5py and matplotlib; Debian: "
          "apt-get install python3-numpy python3-h5py python3-matplotlib)", file=sys.stderr)
    return 77


def skip_missing_reference(script, path, what):
    """The message and exit code (77: ctest's skip) when the comparison project's data
    (--reference, by default ../shared/reference/iliev2006) is absent and `what` (the
    checks that need it) could not be made: never 0, which would read as checked."""
    print(f"{script}: SKIP: no reference data at {path}: {what} not made (pass --reference "
          "PATH: the Iliev et al. 2006 comparison project's data)", file=sys.stderr)
    return 77


def obtain_run(args, name, run_problem, run_class):
    """Run the problem (or take --use-existing) and read it: -> run object, or None
    after printing why not."""
    try:
        if args.use_existing:
            run_dir = args.use_existing
        else:
            run_dir = args.run_dir or os.path.join(REPO, "build", f"validation_{name}")
            run_problem(os.path.abspath(args.ionfront), args.N, args.dt, os.path.abspath(run_dir))
        return run_class(run_dir)
    except (RuntimeError, OSError, subprocess.CalledProcessError) as e:
        print(f"{name}.py: error: {e}", file=sys.stderr)
        return None


def clean_run_dir(run_dir, name):
    """Remove what an earlier run left, so no stale snapshot is analysed."""
    for f in os.listdir(run_dir):
        if re.fullmatch(r"\.?snapshot_\d+\.(h5(\.tmp)?|xmf|vtk\.hdf)", f) or f in (
                "log.csv", "ifront.csv", "command.txt", "ionfront.log", f"{name}.yaml",
                "elapsed_s.txt"):
            os.remove(os.path.join(run_dir, f))


def run_ionfront(ionfront, name, overrides, run_dir):
    """Run built-in problem `name` with `--set` overrides into run_dir; its output is
    echoed and kept in ionfront.log, with command.txt and elapsed_s.txt beside."""
    if not (os.path.isfile(ionfront) and os.access(ionfront, os.X_OK)):
        raise RuntimeError(f"ionfront executable not found: {ionfront} "
                           "(build it with 'cmake --build build', or pass --ionfront)")
    os.makedirs(run_dir, exist_ok=True)
    clean_run_dir(run_dir, name)
    config = os.path.join(run_dir, f"{name}.yaml")
    with open(config, "w") as f:
        subprocess.run([ionfront, "example", name], stdout=f, check=True)
    cmd = [ionfront, "run", config]
    for o in overrides:
        cmd += ["--set", o]
    cmd += ["--output", run_dir]
    shown = shlex.join([rel(cmd[0])] + cmd[1:2] + [rel(config)] + cmd[3:-1] + [rel(run_dir)])
    with open(os.path.join(run_dir, "command.txt"), "w") as f:
        f.write(shown + "\n")
    print("running:", shown, flush=True)
    start = time.monotonic()
    with open(os.path.join(run_dir, "ionfront.log"), "w") as log, \
            subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, bufsize=1) as proc:
        for line in proc.stdout:
            log.write(line)
            sys.stdout.write("  | " + line)
            sys.stdout.flush()
        rc = proc.wait()
    elapsed = time.monotonic() - start
    with open(os.path.join(run_dir, "elapsed_s.txt"), "w") as f:
        f.write(f"{elapsed:.1f}\n")
    if rc != 0:
        raise RuntimeError(f"ionfront exited with code {rc} "
                           f"(output in {os.path.join(run_dir, 'ionfront.log')})")


# ---------------------------------------------------------------- reading the run

def run_provenance(run_dir):
    """How a run directory was made, for the numbers tables: a dict with 'command'
    (command.txt), 'elapsed' (elapsed_s.txt: the whole ionfront run, s), 'version'
    (ionfront.log's first line: version and git id) and 'wall_s' (the sum of log.csv's
    wall_s: the time steps, without output); None (wall_s: nan) where a file is missing."""
    info = {"command": None, "elapsed": None, "version": None, "wall_s": float("nan")}
    path = os.path.join(run_dir, "log.csv")
    if os.path.exists(path):
        info["wall_s"] = float(np.sum(read_csv(path)["wall_s"]))
    path = os.path.join(run_dir, "command.txt")
    if os.path.exists(path):
        info["command"] = open(path).read().strip()
    path = os.path.join(run_dir, "elapsed_s.txt")
    if os.path.exists(path):
        info["elapsed"] = float(open(path).read())
    path = os.path.join(run_dir, "ionfront.log")
    if os.path.exists(path):
        with open(path) as f:
            first = f.readline().strip()
        if first.startswith("ionfront"):
            info["version"] = first.split(":")[0]
    return info


def read_csv(path):
    """A CSV with a header line -> dict of column name -> float array."""
    data = np.genfromtxt(path, delimiter=",", names=True, ndmin=1)
    return {name: np.atleast_1d(data[name]).astype(float) for name in data.dtype.names}


def front_along_x(x_hi_row, cell):
    """x_HI = 0.5 crossing along +x from the first cell's centre (linear
    interpolation), in the units of `cell`; nan when the front left the row."""
    above = np.nonzero(x_hi_row >= 0.5)[0]
    if len(above) == 0:
        return np.nan
    i = above[0]
    if i == 0:
        return 0.0
    a, b = x_hi_row[i - 1], x_hi_row[i]
    return cell * (i - 1 + (0.5 - a) / (b - a))


def front_of_profile(mean, r_kpc):
    """x_HI = 0.5 crossing of a shell-averaged profile, between shell centres."""
    ok = np.isfinite(mean)
    mean, r_kpc = mean[ok], r_kpc[ok]
    above = np.nonzero(mean >= 0.5)[0]
    if len(above) == 0 or above[0] == 0:
        return np.nan
    i = above[0]
    a, b = mean[i - 1], mean[i]
    return r_kpc[i - 1] + (r_kpc[i] - r_kpc[i - 1]) * (0.5 - a) / (b - a)


# ---------------------------------------------------------------- reference codes

def code_name(prefix):
    return CODE_NAMES.get(prefix.lower(), prefix)


def ref_front_at(tr, t_myr):
    """A code's r_I at t, interpolated; nan unless its record covers t within 3%."""
    t, r = tr
    if t_myr < 0.97 * t[0] or t_myr > 1.03 * t[-1]:
        return np.nan
    return float(np.interp(t_myr, t, r))


def ref_styles(codes):
    """One grey shade and dash pattern per reference code, the same in every panel."""
    dashes = ["-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (8, 2)), (0, (1, 2)),
              (0, (3, 1, 1, 1)), (0, (6, 2, 2, 2))]
    shades = ["0.25", "0.45", "0.6", "0.35", "0.5", "0.3", "0.55", "0.4", "0.65"]
    others = [c for c in codes if c != C2RAY]
    styles = {}
    for k, c in enumerate(others):
        styles[c] = dict(color=shades[k % len(shades)], ls=dashes[k % len(dashes)], lw=0.9)
    if C2RAY in codes:
        styles[C2RAY] = dict(color="tab:blue", ls="-", lw=1.2)
    return styles


# ---------------------------------------------------------------- Iliev Tests 1 and 2

KPC_CM = 3.0856775814913673e21
MYR_S = 3.15576e13          # Julian year, as ionfront
ILIEV_BOX_KPC = 6.6


class CornerSourceRun:
    """A finished run of Iliev et al.'s set-up (6.6 kpc box, the source in the corner
    cell): its snapshots and the front along +x in each; `label` names the test in
    the errors."""

    def __init__(self, run_dir, label):
        import h5py   # the scripts checked that it is there
        self.dir = run_dir
        paths = sorted(glob.glob(os.path.join(run_dir, "snapshot_[0-9]*.h5")))
        if not paths:
            raise RuntimeError(f"no snapshot_NNNN.h5 in {run_dir}")
        self.snapshots = {}          # t [Myr] -> path
        self.front_x = {}            # t [Myr] -> r_I along +x from the snapshot [kpc]
        self.created = None
        for p in paths:
            with h5py.File(p, "r") as f:
                t = float(f.attrs["time_s"]) / MYR_S
                if t <= 0:
                    continue
                self.n = int(f.attrs["N"])
                self.box_kpc = float(f.attrs["box_size_cm"]) / KPC_CM
                self.config = f.attrs["config"]
                if isinstance(self.config, bytes):
                    self.config = self.config.decode()
                self.created = f.attrs.get("created", self.created)
                self.cell_kpc = self.box_kpc / self.n
                x_hi_row = 1.0 - f["Grid/x_HII"][:, 0, 0]
            self.snapshots[t] = p
            self.front_x[t] = front_along_x(x_hi_row, self.cell_kpc)
        if not self.snapshots:
            raise RuntimeError(f"only the initial snapshot in {run_dir}")
        m = re.search(r"^\s+dt:\s*([^#\n]*?)\s*(#.*)?$", self.config, re.M)
        self.dt = m.group(1).strip('"\'') if m else "?"
        m = re.search(r"position:\s*\[\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\]", self.config)
        if m and tuple(int(v) for v in m.groups()) != (0, 0, 0):
            raise RuntimeError(f"{run_dir}: the source is not in the corner cell (0, 0, 0); "
                               f"not an Iliev {label} run")
        if abs(self.box_kpc - ILIEV_BOX_KPC) > 1e-6 * ILIEV_BOX_KPC:
            raise RuntimeError(f"{run_dir}: box {self.box_kpc:g} kpc, not the 6.6 kpc of {label}")

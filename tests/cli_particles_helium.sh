#!/usr/bin/env bash
# Hydrogen and helium on particles (`ionfront run`, CPU tracer, two threads): the
# `helium` problem's medium (n_H = 0.1 cm^-3, n_He/n_H = 0.08, isothermal 1e4 K, case B;
# a 1e5 K black body of 1e52 photons/s at the centre of an 8 kpc box) as a jittered
# lattice of 12^3 particles, run to 10 Myr (about nine H II recombination times).
# The snapshot holds /PartType0/x_HeII, x_HeIII, Gamma_HeI, Gamma_HeII beside
# hydrogen's datasets, finite, with x_HeII + x_HeIII <= 1.  The fronts, as the radii of
# spheres of the ionized volume (sum of x V over particles, V = m / rho; grid: cells):
#  - against the equilibrium Stroemgren radii of validation/helium.py (stroemgren_kpc):
#    measured (12^3, 1 + 4 + 4 sub-bins) H II +2.3%, He III -0.1%; tolerance 4% (the
#    grid validation's, 1.7x the largest);
#  - against the grid's helium run at 16^3 cells with the same spectrum and steps:
#    measured H II -0.8%, He III +1.7%; tolerance 3.5% (2x the largest).
# A grey spectrum with helium is refused naming spectrum.type; --dry-run shows the species.
# usage: cli_particles_helium.sh /path/to/ionfront SOURCE_DIR
set -u
ionfront="$1"
src="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
python=""
for p in /usr/bin/python3 python3; do
  if "$p" -c "import h5py, numpy" 2>/dev/null; then python=$p; break; fi
done
[ -n "$python" ] || { echo "h5py/numpy not found (Debian: python3-h5py)"; exit 77; }
export OMP_NUM_THREADS=2
cat > "$work/he.yaml" <<'CFG'
particles:
  generate: {kind: lattice, count_1d: 12, n_H: 0.1, box: 8 kpc, periodic: true}
  hydrogen_mass_fraction: 0.7576
  wrap_rays: false
  rays_per_source: 768
  output_grid: 8
material: {abundance_He: 0.08, temperature: 1.0e4, x_HII_initial: 1.2e-3, isothermal: true}
chemistry: {case: B}
sources:
  - {position: [4 kpc, 4 kpc, 4 kpc], Ndot: 1.0e52}
spectrum: {type: blackbody, T_eff: 1.0e5, E_max: 544.16, sub_bins: [1, 4, 4]}
time: {dt: 2 Myr, t_end: 10 Myr, outputs: [5 Myr, 10 Myr]}
raytracing: {backend: cpu}
output: {progress: false}
CFG
"$ionfront" run "$work/he.yaml" --dry-run > "$work/dry.log" 2>&1 || { cat "$work/dry.log"; fail "dry run"; }
grep -q "species: hydrogen and helium (HI, HeI, HeII), abundance_He = 0.08" "$work/dry.log" \
  || { cat "$work/dry.log"; fail "--dry-run does not show the species"; }
"$ionfront" run "$work/he.yaml" --set 'spectrum={type: grey}' --output "$work/grey" > "$work/grey.log" 2>&1 \
  && fail "helium with a grey spectrum was accepted"
grep -q "spectrum.type" "$work/grey.log" || { cat "$work/grey.log"; fail "the refusal does not name spectrum.type"; }
"$ionfront" run "$work/he.yaml" --output "$work/p" > "$work/p.log" 2>&1 || { cat "$work/p.log"; fail "particle run"; }
"$ionfront" example helium > "$work/grid.yaml" || fail "example helium"
"$ionfront" run "$work/grid.yaml" --quiet --set grid.N=16 --set 'spectrum.sub_bins=[1, 4, 4]' \
  --set 'time.dt=2 Myr' --set 'time.outputs=[5 Myr, 10 Myr]' --set output.vtkhdf=false \
  --output "$work/g" > "$work/g.log" 2>&1 || { cat "$work/g.log"; fail "grid run"; }
"$python" - "$work/p/snapshot_0002.h5" "$work/g/snapshot_0002.h5" "$src/validation" <<'PY' || exit 1
import sys, math
import h5py, numpy as np
sys.path.insert(0, sys.argv[3])
from helium import stroemgren_kpc  # the validation's analytic radii (its medium is ours)
KPC = 3.0856775814913673e21
with h5py.File(sys.argv[1]) as f:
    g = f["PartType0"]
    for k in ("IonizedFraction", "PhotoionizationRate", "x_HeII", "x_HeIII", "Gamma_HeI", "Gamma_HeII"):
        if k not in g:
            sys.exit(f"FAIL: no /PartType0/{k}")
    x, y1, y2 = g["IonizedFraction"][()], g["x_HeII"][()], g["x_HeIII"][()]
    rates = [g[k][()] for k in ("PhotoionizationRate", "Gamma_HeI", "Gamma_HeII")]
    vol = g["Masses"][()] / g["Density"][()]
for a in [x, y1, y2] + rates:
    if not np.all(np.isfinite(a)) or np.min(a) < 0.0:
        sys.exit("FAIL: a fraction or rate is not finite or negative")
if np.max(y1 + y2) > 1.0 + 1e-12:
    sys.exit(f"FAIL: x_HeII + x_HeIII reaches {np.max(y1 + y2)}")
with h5py.File(sys.argv[1]) as f:  # the deposited grid carries helium too
    for k in ("x_HII", "T", "x_HeII", "x_HeIII"):
        if k not in f["Grid"] or f["Grid"][k].shape != (8, 8, 8):
            sys.exit(f"FAIL: no 8^3 /Grid/{k} in the particle snapshot")
    d = f["Grid/x_HeII"][()] + f["Grid/x_HeIII"][()]
    if not (np.all(np.isfinite(d)) and d.max() <= 1.0 + 1e-12 and f["Grid/x_HeIII"][()].max() > 0.5):
        sys.exit("FAIL: the deposited helium fractions are out of range or empty")
radius = lambda v: (3.0 * v / (4.0 * math.pi)) ** (1.0 / 3.0) / KPC
p = {"HII": radius(np.sum(x * vol)), "HeIII": radius(np.sum(y2 * vol))}
with h5py.File(sys.argv[2]) as f:
    cell = float(f.attrs["box_size_cm"]) / int(f.attrs["N"])
    gr = {"HII": radius(np.sum(f["Grid/x_HII"][()]) * cell ** 3),
          "HeIII": radius(np.sum(f["Grid/x_HeIII"][()]) * cell ** 3)}
r_h, r3, _ = stroemgren_kpc()
want = {"HII": r_h, "HeIII": r3}
tol_analytic, tol_grid = 0.04, 0.035
bad = False
for k in ("HII", "HeIII"):
    da, dg = p[k] / want[k] - 1.0, p[k] / gr[k] - 1.0
    print(f"{k}: particles {p[k]:.4f} kpc, Stroemgren {want[k]:.4f} ({da:+.2%}, tolerance "
          f"{tol_analytic:.0%}), grid 16^3 {gr[k]:.4f} ({dg:+.2%}, tolerance {tol_grid:.1%})")
    if not (abs(da) <= tol_analytic and abs(dg) <= tol_grid):
        bad = True
if bad:
    sys.exit("FAIL: a front is off")
print("ok: helium on particles: He III and H II fronts at their Stroemgren radii and the grid's")
PY

#!/usr/bin/env bash
# A production run on files in py21cmfast 4's layout (sequence.density.format and
# sequence.halos.format: 21cmfast), written here by h5py at 16^3 for z = 9.0, 8.9, 8.8
# under a cache-like tree (DIR/%.4f/PerturbedField.h5, .../PerturbedHaloCatalog.h5):
#  - the files' box given three ways (BOX_LEN; HII_DIM x LOWRES_CELL_SIZE_MPC; neither:
#    py21cmfast's default 1.5 Mpc cells); the z = 8.8 halos as a HaloCatalog;
#  - --dry-run passes and names the formats; the run's n_H at z = 9.0 (snapshot 0) is
#    (1 + delta) (1 - Y_He) Omega_b rho_crit,0 (1 + z)^3 / m_p to 1e-12 for every cell;
#  - each interval's sources are the halos of the first n_halos rows (the buffer rows
#    after them, with a negative mass, are not read), mass 0 skipped, merged per cell,
#    a coordinate one float32 step past BOX_LEN wrapped to cell 0: count exactly, total Ndot =
#    sum f_gamma M Omega_b / (Omega_m m_p t_s) to 1e-8 (log.csv's 10 digits);
#  - the halo model applies to 21cmFAST halos as to any format's: with
#    model.f_esc {power, f0 0.2, M_p 1e9 Msun, alpha 0.5} the total is
#    sum f_gamma clip(0.2 (M / 1e9)^0.5, 0, 1) M Omega_b / (Omega_m m_p t_s), to 1e-8;
#  - 2 ranks in slabs (periodic, the boxes wrap) read the same n_H bit for bit;
#  - refusals by --dry-run, each naming the file and the attribute or dataset: HII_DIM
#    against grid.N, the box, hlittle against cosmology.h, a redshift attribute of
#    another z, a missing density dataset, a file without the PerturbedField group,
#    a missing Y_He, keys the formats do not read (dataset, position_unit, nbody_mesh).
# usage: cli_inputs_21cmfast.sh MPIEXEC /path/to/ionfront
set -u
. "$(dirname "$0")/cli_common.sh" "$@"
cli_need_h5diff
python=/usr/bin/python3
"$python" -c "import h5py, numpy" 2>/dev/null || { echo "no python3 with h5py: skipped"; exit 77; }

# ---- the files, and what the run must make of them -----------------------------------
"$python" - "$work" <<'PY' || fail "making the inputs"
import os, sys, h5py, numpy as np
d, n, L = sys.argv[1], 16, 24.0
h, Om, Ob, Y = 0.6766, 0.30964144154550644, 0.04897468161869667, 0.24
f_gamma, t_s = 20.0, 10 * 3.15576e13
Msun, m_p, Mpc, G = 1.98847e33, 1.67262192369e-24, 3.0856775814913673e24, 6.67430e-8
rng = np.random.default_rng(3)

def inputs(g, z, box):
    g.attrs["redshift"] = z
    ip = g.create_group("InputParameters")
    ip.attrs["21cmFAST-version"] = "4.1.1"
    so = ip.create_group("simulation_options")
    so.attrs.update({"HII_DIM": n, "DIM": 3 * n, "NON_CUBIC_FACTOR": 1.0})
    if box == "BOX_LEN": so.attrs["BOX_LEN"] = L
    if box == "cell": so.attrs["LOWRES_CELL_SIZE_MPC"] = L / n
    cp = ip.create_group("cosmo_params")
    cp.attrs.update({"hlittle": h, "OMm": Om, "OMb": Ob, "Y_He": Y, "OMr": 8.6e-5})
    return g.create_group("OutputFields")

rho_crit = 3 * (h * 1e7 / Mpc) ** 2 / (8 * np.pi * G)
expect = []
for z, box, halo_group in [(9.0, "BOX_LEN", "PerturbedHaloCatalog"),
                           (8.9, "cell", "PerturbedHaloCatalog"), (8.8, "none", "HaloCatalog")]:
    os.makedirs(f"{d}/cache/{z:.4f}")
    delta = (np.exp(0.4 * rng.standard_normal((n, n, n))) - 1.0).astype(np.float32)
    with h5py.File(f"{d}/cache/{z:.4f}/PerturbedField.h5", "w") as f:
        f.attrs["21cmFAST-version"] = "4.1.1"
        of = inputs(f.create_group("PerturbedField"), z, box)
        of["density"] = delta
        of["velocity_z"] = np.zeros((n, n, n), np.float32)
    n_halos = 40
    coords = rng.uniform(0, L, (n_halos + 3, 3)).astype(np.float32)
    mass = (10 ** rng.uniform(8, 10, n_halos + 3)).astype(np.float32)
    coords[1] = coords[0]                  # two halos in one cell: merged
    mass[2] = 0.0                          # cut: emits nothing
    coords[3, 0] = np.nextafter(np.float32(L), np.float32(2 * L))  # float32 just past L: cell 0
    mass[n_halos:] = -1.0                  # buffer rows past n_halos: never read
    with h5py.File(f"{d}/cache/{z:.4f}/{halo_group}.h5", "w") as f:
        f.attrs["21cmFAST-version"] = "4.1.1"
        of = inputs(f.create_group(halo_group), z, box)
        of.attrs.update({"n_halos": np.uint64(n_halos), "buffer_size": np.uint64(n_halos + 3)})
        of["halo_coords"], of["halo_masses"] = coords, mass
    m, c = mass[:n_halos].astype(float), coords[:n_halos].astype(float)
    cells = np.floor(c / L * n).astype(int) % n
    emit = m > 0
    ndot = f_gamma * m[emit] * Msun * Ob / (Om * m_p * t_s)
    f_esc = np.clip(0.2 * (m[emit] / 1e9) ** 0.5, 0.0, 1.0)
    expect.append((z, len({tuple(x) for x in cells[emit]}), ndot.sum(), (f_esc * ndot).sum()))
    if z == 9.0:
        mean = (1 - Y) * Ob * rho_crit * (1 + z) ** 3 / m_p
        np.save(f"{d}/n_H_z9.npy", (1.0 + delta.astype(float)) * mean)
with open(f"{d}/expect.txt", "w") as out:
    for z, k, s, s_model in expect:
        print(f"{z:.1f} {k} {s:.17g} {s_model:.17g}", file=out)
PY
cat > "$work/run.yaml" <<'YAML'
grid: {N: 16, box_size: 24 Mpc, periodic: true}
material: {temperature: 1.0e4, x_HII_initial: 1.2e-3, isothermal: true}
spectrum: {type: grey}
time: {dt: 2.5 Myr}
raytracing: {R_max: 4.5 Mpc}
cosmology: {cosmological: true, h: 0.6766, Omega_m: 0.30964144154550644,
            Omega_b: 0.04897468161869667}
sequence:
  redshifts: [9.0, 8.9, 8.8]
  density: {format: 21cmfast, pattern: "cache/%.4f/PerturbedField.h5"}
  halos:
    format: 21cmfast
    pattern: "cache/%.4f/PerturbedHaloCatalog.h5"
    f_gamma: 20
    t_source: 10 Myr
YAML
cfg="$work/run.yaml"
# the HaloCatalog of z = 8.8 under the name the pattern gives
ln -s HaloCatalog.h5 "$work/cache/8.8000/PerturbedHaloCatalog.h5"
cd "$work"

# ---- dry run ----------------------------------------------------------------------------
out=$("$ionfront" run "$cfg" --dry-run 2>&1) || { echo "$out"; fail "dry run of good inputs"; }
grep -q "density files: 21cmFAST PerturbedField" <<<"$out" \
  && grep -q "sources: from the sequence's halo files (format 21cmfast)" <<<"$out" \
  || { echo "$out"; fail "the dry run does not name the formats"; }
echo "ok   --dry-run checks the 21cmFAST files and names the formats"

# ---- the run: n_H and the sources ----------------------------------------------------------
launch() { "$mpiexec" --oversubscribe --allow-run-as-root -np "$@"; }
launch 1 "$ionfront" run "$cfg" --quiet --output "$work/p1" > "$work/p1.log" 2>&1 \
  || { cat "$work/p1.log"; fail "run on 1 rank"; }
launch 1 "$ionfront" run "$cfg" --quiet --output "$work/pm" \
  --set "sequence.halos.model={f_esc: {model: power, f0: 0.2, M_p: 1e9, alpha: 0.5}}" \
  > "$work/pm.log" 2>&1 || { cat "$work/pm.log"; fail "run with model.f_esc power"; }
"$python" - "$work" <<'PY' || fail "n_H or the sources differ from the files'"
import sys, h5py, numpy as np
d = sys.argv[1]
got = h5py.File(f"{d}/p1/snapshot_0000.h5")["Grid/n_H"][:]
want = np.load(f"{d}/n_H_z9.npy")
rel = np.max(np.abs(got - want) / want)
assert np.isfinite(rel) and rel <= 1e-12, f"n_H at z = 9: worst relative difference {rel:.3g}"
rows = np.genfromtxt(f"{d}/p1/log.csv", delimiter=",", names=True)
rows_model = np.genfromtxt(f"{d}/pm/log.csv", delimiter=",", names=True)
for line in open(f"{d}/expect.txt"):
    z, k, s, s_model = line.split()
    z, k, s, s_model = float(z), int(k), float(s), float(s_model)
    if z == 8.8:
        continue  # the last redshift only ends the run
    for log, want, what in [(rows, s, "f_gamma"), (rows_model, s_model, "f_esc power")]:
        first = log[log["redshift"] < z][0]  # the first step of the interval starting at z
        assert first["n_sources"] == k, f"z = {z} ({what}): {first['n_sources']} sources, expected {k}"
        r = abs(first["Ndot_total_per_s"] / want - 1)
        assert r <= 1e-8, f"z = {z} ({what}): Ndot {first['Ndot_total_per_s']:.10g}, expected {want:.10g}"
        print(f"ok   z = {z}, {what}: {k} sources, Ndot {want:.6g} /s (relative difference {r:.1e})")
print(f"ok   n_H at z = 9 is (1 + delta) n_H,mean(z) in every cell (worst {rel:.1e})")
PY

launch 2 "$ionfront" run "$cfg" --quiet --set grid.decomposition=slabs --output "$work/p2" \
  > "$work/p2.log" 2>&1 || { cat "$work/p2.log"; fail "run on 2 ranks in slabs"; }
for k in 0 1 2; do
  h5diff "$work/p1/snapshot_000$k.h5" "$work/p2/snapshot_000$k.h5" /Grid/n_H /Grid/n_H >/dev/null \
    || fail "n_H of snapshot $k differs between 1 rank and 2 ranks in slabs"
done
echo "ok   2 ranks in slabs read the same n_H bit for bit"

# ---- refusals ------------------------------------------------------------------------------
bad() { # bad NAME TEXT1 TEXT2 -- ionfront run arguments
  local name="$1" t1="$2" t2="$3" out rc
  shift 4
  out=$("$ionfront" run "$@" --dry-run 2>&1)
  rc=$?
  { [ "$rc" -gt 0 ] && [ "$rc" -lt 128 ]; } || { echo "$out"; fail "$name: exit code $rc"; }
  grep "error" <<<"$out" | grep -qF -- "$t1" || { echo "$out"; fail "$name: no '$t1' in the message"; }
  grep "error" <<<"$out" | grep -qF -- "$t2" || { echo "$out"; fail "$name: no '$t2' in the message"; }
  echo "ok   $name: $(grep -m1 error <<<"$out")"
}
bad "HII_DIM against grid.N" "9.0000/PerturbedField.h5" "attribute HII_DIM = 16, but grid.N = 8" \
  -- "$cfg" --set grid.N=8
bad "the box" "8.9000/PerturbedField.h5" "is 24 Mpc, but grid.box_size is 25 Mpc" \
  -- "$cfg" --set "grid.box_size=25 Mpc" --set "sequence.redshifts=[8.9, 8.8]"
bad "hlittle" "attribute hlittle = 0.6766, but cosmology.h = 0.7" "PerturbedField.h5" \
  -- "$cfg" --set cosmology.h=0.7
"$python" - "$work" <<'PY' || fail "making the bad files"
import sys, shutil, h5py
d = sys.argv[1]
for name, change in [("redshift", lambda f: f["PerturbedField"].attrs.__setitem__("redshift", 8.7)),
                     ("nodensity", lambda f: f.__delitem__("PerturbedField/OutputFields/density")),
                     ("noyhe", lambda f: f["PerturbedField/InputParameters/cosmo_params"].attrs.__delitem__("Y_He"))]:
    path = f"{d}/{name}_z8.900.h5"
    shutil.copy(f"{d}/cache/8.9000/PerturbedField.h5", path)
    with h5py.File(path, "a") as f:
        change(f)
PY
bad "redshift attribute" "redshift_z8.900.h5" "attribute redshift of '/PerturbedField' is 8.7" \
  -- "$cfg" --set "sequence.density.pattern=redshift_z%.3f.h5" --set "sequence.redshifts=[8.9, 8.8]"
bad "no density dataset" "nodensity_z8.900.h5" "has no dataset '/PerturbedField/OutputFields/density'" \
  -- "$cfg" --set "sequence.density.pattern=nodensity_z%.3f.h5" --set "sequence.redshifts=[8.9, 8.8]"
bad "no Y_He" "noyhe_z8.900.h5" "has no attribute Y_He" \
  -- "$cfg" --set "sequence.density.pattern=noyhe_z%.3f.h5" --set "sequence.redshifts=[8.9, 8.8]"
bad "a halo file as density" "PerturbedHaloCatalog.h5" "has no group '/PerturbedField'" \
  -- "$cfg" --set "sequence.density.pattern=cache/%.4f/PerturbedHaloCatalog.h5"
bad "a density file as halos" "sequence.halos at z = 9" "no group '/PerturbedHaloCatalog' or '/HaloCatalog'" \
  -- "$cfg" --set "sequence.halos.pattern=cache/%.4f/PerturbedField.h5"
bad "dataset with 21cmfast" "sequence.density.dataset is not read" "format: 21cmfast" \
  -- "$cfg" --set sequence.density.dataset=n_H
bad "position_unit with 21cmfast" "sequence.halos.position_unit is not read" \
  "sequence.halos.format: 21cmfast" -- "$cfg" --set "sequence.halos.position_unit=1 Mpc"
bad "nbody_mesh with 21cmfast" "sequence.halos.nbody_mesh is not read" "format: 21cmfast" \
  -- "$cfg" --set sequence.halos.nbody_mesh=6144

#!/usr/bin/env bash
# A production run on CubeP3M density files (sequence.density.format: cubep3m), written
# here as tools21cm's DensityFile lays them out (3 int32, float32 in Fortran order) at
# 16^3 for z = 9.0, 8.9, 8.8 ("%.3fn_all.dat", pyC2Ray's names), with ionfront HDF5 halos:
#  - --dry-run passes and names the format;
#  - the run's n_H at z = 9.0 (snapshot 0) is raw (N / fine_mesh)^3 X_H Omega_b
#    rho_crit,0 (1 + z)^3 / m_p to 1e-12 in every cell, file cell (x, y, z) being
#    ionfront's (i, j, k); the logged mean n_H of z = 8.9 is that file's mean;
#  - 2 ranks in slabs (periodic: the boxes wrap) read the same n_H bit for bit;
#  - refusals by --dry-run naming the file: another mesh in the header, a truncated
#    file; by the config: fine_mesh missing, dataset given, hydrogen_mass_fraction > 1.
# usage: cli_inputs_cubep3m.sh MPIEXEC /path/to/ionfront
set -u
. "$(dirname "$0")/cli_common.sh" "$@"
cli_need_h5diff
python=/usr/bin/python3
"$python" -c "import h5py, numpy" 2>/dev/null || { echo "no python3 with h5py: skipped"; exit 77; }

"$python" - "$work" <<'PY' || fail "making the inputs"
import sys, h5py, numpy as np
d, n, fine, box = sys.argv[1], 16, 48, 2.0
h, Ob, X = 0.7, 0.044, 0.8183
m_p, Mpc, G = 1.67262192369e-24, 3.0856775814913673e24, 6.67430e-8
rho_crit = 3 * (h * 1e7 / Mpc) ** 2 / (8 * np.pi * G)
rng = np.random.default_rng(5)
for z in (9.0, 8.9, 8.8):
    # raw density: (fine / n)^3 = 27 on average per coarse cell
    raw = ((fine / n) ** 3 * np.exp(0.5 * rng.standard_normal((n, n, n)))).astype(np.float32)
    with open(f"{d}/{z:.3f}n_all.dat", "wb") as f:
        np.array([n, n, n], "<i4").tofile(f)
        raw.astype("<f4").flatten(order="F").tofile(f)  # x fastest
    n_h = raw.astype(float) * (n / fine) ** 3 * X * Ob * rho_crit * (1 + z) ** 3 / m_p
    np.save(f"{d}/n_H_z{z:.1f}.npy", n_h)
    with h5py.File(f"{d}/halos_z{z:.3f}.h5", "w") as f:
        f.create_dataset("halos/position", data=rng.uniform(0, box, (3, 3)))
        f.create_dataset("halos/mass", data=10 ** rng.uniform(8.5, 9.5, 3))
with open(f"{d}/short.dat", "wb") as f:  # a truncated file
    np.array([n, n, n], "<i4").tofile(f)
    np.ones(n ** 3 - 1, "<f4").tofile(f)
with open(f"{d}/mesh.dat", "wb") as f:   # a 32^3 header
    np.array([32, 32, 32], "<i4").tofile(f)
    np.ones(n ** 3, "<f4").tofile(f)
PY
cat > "$work/run.yaml" <<'YAML'
grid: {N: 16, box_size: 2 Mpc, periodic: true}
material: {temperature: 1.0e4, x_HII_initial: 1.2e-3, isothermal: true}
spectrum: {type: grey}
time: {dt: 2.5 Myr}
raytracing: {R_max: 0.375 Mpc}
cosmology: {cosmological: true, h: 0.7, Omega_m: 0.27, Omega_b: 0.044}
sequence:
  redshifts: [9.0, 8.9, 8.8]
  density:
    format: cubep3m
    pattern: "%.3fn_all.dat"
    fine_mesh: 48
    hydrogen_mass_fraction: 0.8183
  halos: {pattern: "halos_z%.3f.h5", f_gamma: 20, t_source: 10 Myr}
YAML
cfg="$work/run.yaml"
cd "$work"

out=$("$ionfront" run "$cfg" --dry-run 2>&1) || { echo "$out"; fail "dry run of good inputs"; }
grep -q "density files: CubeP3M" <<<"$out" \
  && grep -q "sources: from the sequence's halo files (format ionfront)" <<<"$out" \
  || { echo "$out"; fail "the dry run does not name the formats"; }
echo "ok   --dry-run checks the CubeP3M files and names the format"

launch() { "$mpiexec" --oversubscribe --allow-run-as-root -np "$@"; }
launch 1 "$ionfront" run "$cfg" --output "$work/p1" > "$work/p1.log" 2>&1 \
  || { cat "$work/p1.log"; fail "run on 1 rank"; }
logged=$(sed -n 's/^z = 8.9000 .*(mean n_H \([^ ]*\) cm^-3).*/\1/p' "$work/p1.log")
[ -n "$logged" ] || { cat "$work/p1.log"; fail "no mean n_H logged for z = 8.9"; }
"$python" - "$work" "$logged" <<'PY' || fail "n_H differs from the files'"
import sys, h5py, numpy as np
d, logged = sys.argv[1], float(sys.argv[2])
got = h5py.File(f"{d}/p1/snapshot_0000.h5")["Grid/n_H"][:]
want = np.load(f"{d}/n_H_z9.0.npy")
rel = np.max(np.abs(got - want) / want)
assert np.isfinite(rel) and rel <= 1e-12, f"n_H at z = 9: worst relative difference {rel:.3g}"
mean = np.load(f"{d}/n_H_z8.9.npy").mean()
assert abs(logged / mean - 1) <= 5e-4, f"mean n_H of z = 8.9 logged {logged}, expected {mean:.4g}"
print(f"ok   n_H at z = 9 is raw (N/fine_mesh)^3 X_H n_b(z) in every cell (worst {rel:.1e}); "
      f"z = 8.9's mean {mean:.4g} cm^-3 logged")
PY

launch 2 "$ionfront" run "$cfg" --quiet --set grid.decomposition=slabs --output "$work/p2" \
  > "$work/p2.log" 2>&1 || { cat "$work/p2.log"; fail "run on 2 ranks in slabs"; }
for k in 0 1 2; do
  h5diff "$work/p1/snapshot_000$k.h5" "$work/p2/snapshot_000$k.h5" /Grid/n_H /Grid/n_H >/dev/null \
    || fail "n_H of snapshot $k differs between 1 rank and 2 ranks in slabs"
done
echo "ok   2 ranks in slabs read the same n_H bit for bit"

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
mv "$work/mesh.dat" "$work/mesh.dat9"
bad "another mesh" "sequence.density at z = 9: CubeP3M density file" "mesh.dat9': its header (3 int32) gives the mesh (32, 32, 32); grid.N is 16" \
  -- "$cfg" --set "sequence.density.pattern=mesh.dat%.0f" --set "sequence.redshifts=[9, 8]"
mv "$work/short.dat" "$work/short.dat9"
bad "truncated file" "short.dat9' has 16392 bytes" "needs 12 + 4 x 16^3 = 16396" \
  -- "$cfg" --set "sequence.density.pattern=short.dat%.0f" --set "sequence.redshifts=[9, 8]"
bad "no fine_mesh" "missing required key 'sequence.density.fine_mesh'" "8000" \
  -- "$cfg" --set "sequence.density.fine_mesh=null"
bad "dataset with cubep3m" "sequence.density.dataset is not read" "format: cubep3m" \
  -- "$cfg" --set sequence.density.dataset=n_H
bad "hydrogen_mass_fraction" "sequence.density.hydrogen_mass_fraction = 1.2" "(0, 1]" \
  -- "$cfg" --set sequence.density.hydrogen_mass_fraction=1.2

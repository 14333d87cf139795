#!/usr/bin/env bash
# A thermal hydrogen + helium particle run (`ionfront run`, CPU tracer, one thread: the
# threaded tracer's atomic adds reorder the last bits) stopped by
# debug.signal_after_step=2 with a checkpoint (exit 13) and restarted ends bit for bit
# where the uninterrupted run ends (h5diff without a tolerance: x_HII, x_HeII, x_HeIII,
# T and the three rates); a hydrogen run's config cannot restart it (the species are
# refused by name).
# usage: cli_particles_helium_restart.sh /path/to/ionfront
set -u
ionfront="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v h5diff >/dev/null || { echo "h5diff not found (Debian: hdf5-tools)"; exit 77; }
export OMP_NUM_THREADS=1
cat > "$work/he.yaml" <<'CFG'
particles:
  generate: {kind: lattice, count_1d: 8, n_H: 0.1, box: 8 kpc}
  hydrogen_mass_fraction: 0.7576
  rays_per_source: 192
material: {abundance_He: 0.08, temperature: 1.0e4, x_HII_initial: 1.2e-3, isothermal: false}
sources:
  - {position: [3 kpc, 4 kpc, 4.5 kpc], Ndot: 5.0e51}
spectrum: {type: blackbody, T_eff: 1.0e5, E_max: 544.16, sub_bins: [1, 3, 3]}
time: {dt: 1 Myr, t_end: 4 Myr, outputs: [4 Myr]}
raytracing: {backend: cpu}
output: {progress: false}
CFG
"$ionfront" run "$work/he.yaml" --output "$work/a" > "$work/a.log" 2>&1 || { cat "$work/a.log"; fail "helium run"; }
"$ionfront" run "$work/he.yaml" --set debug.signal_after_step=2 --output "$work/c" > "$work/c.log" 2>&1
rc=$?
[ "$rc" -eq 13 ] && [ -s "$work/c/checkpoint.h5" ] || { cat "$work/c.log"; fail "stop with a checkpoint: exit $rc"; }
"$ionfront" run "$work/he.yaml" --set material.abundance_He=0 --set 'spectrum={type: blackbody, T_eff: 1.0e5}' \
  --output "$work/c" --restart "$work/c/checkpoint.h5" > "$work/h.log" 2>&1 \
  && fail "a hydrogen run restarted a helium checkpoint"
grep -q "abundance_He" "$work/h.log" || { cat "$work/h.log"; fail "the refusal does not name abundance_He"; }
"$ionfront" run "$work/he.yaml" --output "$work/c" --restart "$work/c/checkpoint.h5" > "$work/d.log" 2>&1 \
  || { cat "$work/d.log"; fail "restart"; }
for d in IonizedFraction x_HeII x_HeIII Temperature PhotoionizationRate Gamma_HeI Gamma_HeII; do
  h5diff "$work/a/snapshot_0001.h5" "$work/c/snapshot_0001.h5" "/PartType0/$d" "/PartType0/$d" > /dev/null \
    || fail "restarted run differs in /PartType0/$d"
done
echo "ok: a helium particle restart ends bit for bit where the uninterrupted run ends"

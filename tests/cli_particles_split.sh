#!/usr/bin/env bash
# A particle run on several ranks splits its chemistry (mpi.reduction auto = scatter:
# the rates summed onto each rank's block of particles, each rank's chemistry on its
# block, x_av gathered every pass, x_end and T_end at each step's end) and gives the
# same per-particle state as one rank to 1e-12 relative, as the all-reduce (every rank's
# chemistry on all particles, mpi.reduction allreduce) still does:
#  - hydrogen with the temperature evolving (x_HII, Gamma, T; a grey spectrum: the gas
#    only cools), 8^3 particles, three sources, on 2 and 3 ranks (uneven blocks of
#    170/171 particles); measured: at most 4.3e-14;
#  - hydrogen and helium, photo-heated (x_HeII, x_HeIII, Gamma_HeI, Gamma_HeII besides),
#    6^3 particles, two sources, on 2 and 3 ranks (on 3, one rank traces nothing but owns
#    a block), and the all-reduce on 2 ranks, which must equal the split bit for bit (the
#    same sums of two ranks' rates, the same per-particle chemistry); measured 4.9e-14.
# The sum over ranks adds the sources' rates in another order than one rank's pass, and
# some states amplify that: x_HeIII of barely ionized particles (1e-7 .. 1e-5) moves by
# 2e-12 with a third source on 3 ranks, and particles that rays reach only past R_max's
# kernel cut get Gamma ~1e-20 whose last bits differ by 1e-9 relative -- with the
# all-reduce just as with the split; hence these problems (no R_max, rays not wrapped).
# The ranks share every source's rays (particles.ranks_share rays, the default); the
# hydrogen case also runs on 3 ranks with the sources shared out instead (ranks_share
# sources).  The CPU tracer on one thread per rank; the log names the way the work was
# shared and the rates summed.
# usage: cli_particles_split.sh MPIEXEC /path/to/ionfront
set -u
mpiexec="$1"
ionfront="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
command -v h5diff >/dev/null || { echo "h5diff not found (Debian: hdf5-tools)"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

cat > h.yaml <<'CFG'
particles:
  generate: {kind: lattice, count_1d: 8, n_H: 1.0e-3, box: 6.6 kpc, periodic: true}
  wrap_rays: false
  rays_per_source: 192
material: {temperature: 1.0e2, x_HII_initial: 1.2e-3, isothermal: false}
sources:
  - {position: [1 kpc, 1 kpc, 1 kpc], Ndot: 1e49}
  - {position: [5 kpc, 2 kpc, 3 kpc], Ndot: 3e49}
  - {position: [2 kpc, 5 kpc, 4 kpc], Ndot: 2e49}
spectrum: {type: grey}
time: {dt: 1 Myr, t_end: 2 Myr, outputs: [2 Myr]}
raytracing: {backend: cpu}
output: {progress: false}
CFG
cat > he.yaml <<'CFG'
particles:
  generate: {kind: lattice, count_1d: 6, n_H: 0.1, box: 8 kpc, periodic: true}
  hydrogen_mass_fraction: 0.7576
  wrap_rays: false
  rays_per_source: 48
material: {abundance_He: 0.08, temperature: 1.0e4, x_HII_initial: 1.2e-3, isothermal: false}
sources:
  - {position: [4 kpc, 4 kpc, 4 kpc], Ndot: 1.0e52}
  - {position: [2 kpc, 6 kpc, 3 kpc], Ndot: 4.0e51}
spectrum: {type: blackbody, T_eff: 1.0e5, E_max: 544.16, sub_bins: [1, 2, 2]}
time: {dt: 0.5 Myr, t_end: 1 Myr, outputs: [1 Myr]}
raytracing: {backend: cpu}
output: {progress: false}
CFG

run() { # run CASE RANKS MODE [SHARE]: the run in CASE_RANKS_MODE/, its log beside it
  local c="$1" p="$2" mode="$3" share="${4:-rays}" out="$1_$2_$3"
  [ "$share" = rays ] || out="${out}_$share"
  "$mpiexec" --oversubscribe --allow-run-as-root -np "$p" "$ionfront" run "$c.yaml" \
    --set "mpi.reduction=$mode" --set "particles.ranks_share=$share" --output "$out" > "$out.log" 2>&1 \
    || { cat "$out.log"; fail "$c on $p ranks ($mode, $share)"; }
  [ "$p" = 1 ] && return 0
  local want="rates summed by 'scatter' (each rank's chemistry on its block of particles; the blocks summed and gathered by MPI on the host)"
  [ "$mode" = allreduce ] && want="rates summed by 'allreduce' (every rank's chemistry on all particles)"
  grep -qF "$want" "$out.log" || { cat "$out.log"; fail "$c, $p ranks, $mode: the log lacks \"$want\""; }
  want="every source's rays shared over $p ranks"
  [ "$share" = sources ] && want="sources in blocks over $p ranks"
  grep -qF "$want" "$out.log" || { cat "$out.log"; fail "$c, $p ranks, $share: the log lacks \"$want\""; }
}
same() { # same CASE RANKS MODE TOLERANCE DATASETS...: as one rank's snapshot
  local c="$1" p="$2" mode="$3" tol="$4"
  shift 4
  for d in "$@"; do
    if ! h5diff -p "$tol" "${c}_1_auto/snapshot_0001.h5" "${c}_${p}_$mode/snapshot_0001.h5" \
         "/PartType0/$d" "/PartType0/$d" > diff.txt 2>&1; then
      head -20 diff.txt; fail "$c: /PartType0/$d differs by more than $tol between 1 and $p ranks ($mode)"
    fi
  done
  echo "ok: $c on $p ranks ($mode) matches 1 rank to $tol ($*)"
}
h_sets="IonizedFraction PhotoionizationRate Temperature"
he_sets="$h_sets x_HeII x_HeIII Gamma_HeI Gamma_HeII"
run h 1 auto
for rm in "2 auto" "3 auto"; do
  run h $rm
  same h $rm 1e-12 $h_sets
done
run h 3 auto sources
same h 3 auto_sources 1e-12 $h_sets
run he 1 auto
for rm in "2 auto" "3 auto" "2 allreduce"; do
  run he $rm
  same he $rm 1e-12 $he_sets
done
for d in $he_sets; do
  h5diff he_2_auto/snapshot_0001.h5 he_2_allreduce/snapshot_0001.h5 "/PartType0/$d" "/PartType0/$d" \
    > diff.txt 2>&1 || { head -20 diff.txt; fail "he on 2 ranks: /PartType0/$d of the split differs from the all-reduce's"; }
done
echo "ok: he on 2 ranks: the split equals the all-reduce bit for bit"
# the fronts moved and heated the gas: equal untouched initial states would prove nothing
largest() { # largest FILE DATASET
  h5dump -y -w 0 -d "$2" "$1" | sed -n '/DATA {/,/}/p' | tr ',' '\n' | grep -oE '^ *[0-9][0-9.eE+-]*' |
    sort -g | tail -1
}
x=$(largest h_1_auto/snapshot_0001.h5 /PartType0/IonizedFraction)
t=$(largest he_1_auto/snapshot_0001.h5 /PartType0/Temperature)
awk -v x="$x" -v t="$t" 'BEGIN { exit !(x > 0.9 && t > 1.5e4) }' \
  || fail "the fronts did not move: largest x_HII $x (hydrogen), T $t K (helium)"
echo "ok: largest x_HII $x (hydrogen), largest T $t K (helium, from 1e4 K)"

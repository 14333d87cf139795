#!/usr/bin/env bash
# sequence.halos in C2-Ray's and pyC2Ray's formats through the command line, with inputs
# written here (16^3 cells, 2 Mpc):
#  - c2ray: C2-Ray source lists named by redshift ("%.3f-coarsest_wsubgrid_sources.dat"),
#    masses in C2-Ray's unit (nbody_mesh), both mass classes, over z = 9.0, 8.9, 8.8: the
#    photon rates logged per interval equal the lists' by hand (Python below, the
#    formulas written out), the low-mass haloes of the cells the bright sources ionized
#    left out of the second interval;
#  - 1 and 2 ranks (slabs: each cell judged by its owner) give the same snapshots (1e-12)
#    and the same suppressed cells; a run stopped inside the second interval and
#    restarted from its checkpoint ends bit for bit like the uninterrupted run (1 and 2);
#  - pyc2ray_hdf5: a pyC2Ray halo list (Mpc/h, Msun/h) with the dpl model and exponential
#    accretion over z = 9.0, 8.9: the logged rate equals the hand value;
#  - bad inputs (a cell outside the grid, a short list, a missing dataset, a stochastic
#    model) end with a message naming the file / key and the value and a non-zero exit
#    before any step.
# usage: cli_halo_formats.sh MPIEXEC /path/to/ionfront
set -u
. "$(dirname "$0")/cli_common.sh" "$@"
cli_need_h5diff
python=/usr/bin/python3
"$python" -c "import h5py, numpy" 2>/dev/null || { echo "no python3 with h5py: skipped"; exit 77; }

mkdir -p "$work/in"
"$python" - "$work/in" <<'PY' || fail "making the inputs"
import sys, math, h5py, numpy as np
d = sys.argv[1]
# C2-Ray's lists: "i j k M_HMACH M_LMACH", 1-based, masses in units of the N-body cell
# mass (nbody_mesh 6144); two bright cells (one per slab of 2 ranks), a faint one
lines = ["5 0.0", "8 8 8 6e8 2e8", "13 12 12 6e8 2e8", "1 1 1 0 100", "", "16 1 16 1e9",
         " 0.0", "3 3 3 0 0"]
# from z = 8.9 on a new bright halo in a neutral cell: its low-mass haloes shine through the
# second interval (its cell was neutral when the list was read), though its own light ionizes
# it within a step: a restart must not judge the cell again
later = ["6 0.0"] + lines[1:] + ["4 13 5 6e8 2e8"]
for z in (9.0, 8.9, 8.8):
    with open(f"{d}/{z:.3f}-coarsest_wsubgrid_sources.dat", "w") as f:
        f.write("\n".join(lines if z == 9.0 else later) + "\n")
# pyC2Ray's halo list: pos [Mpc/h], mass [Msun/h], attribute h
with h5py.File(f"{d}/halos_9.000.hdf5", "w") as f:
    f["pos"] = np.array([[0.1, 1.3, 0.0], [0.7, 0.7, 0.7]])
    f["mass"] = np.array([7e9, 1.4e9])
    f.attrs["h"] = 0.7
# the hand values (log.csv's Ndot_total_per_s), the constants of ionfront's constants.h
h, om, ob = 0.7, 0.27, 0.043
msun, mp, mpc, myr, G = 1.98847e33, 1.67262192369e-24, 3.0856775814913673e24, 3.15576e13, 6.67430e-8
h0 = h * 1e7 / mpc
m_grid = om * 3 * h0**2 / (8 * math.pi * G) * (2 * mpc)**3 / 6144**3 / msun
eq20 = lambda f, m, t: f * m * m_grid * msun * ob / (om * mp * t)
t = 10 * myr
high = 6e8 + 6e8 + 1e9
all_on = eq20(10, high, t) + eq20(150, 2e8 + 2e8 + 100, t)
bright_off = eq20(10, high + 6e8, t) + eq20(150, 100 + 2e8, t)
hz = h0 * math.sqrt(om * 10**3 + 1 - om)
ts = 1 / (0.79 * 10 * hz)
def dpl_ndot(m):
    fstar = 2 * ob / om * 0.1 / ((m / 1e10)**-0.3 + (m / 1e10)**-0.3)
    return 2000 * 0.1 * fstar * m * msun / (mp * ts)
with open(f"{d}/expected.txt", "w") as f:
    print(f"{all_on:.9e} {bright_off:.9e} {dpl_ndot(1e10) + dpl_ndot(2e9):.9e}", file=f)
PY
read -r want_all want_off want_dpl < "$work/in/expected.txt"

cat > "$work/in/c2ray.yaml" <<'YAML'
grid: {N: 16, box_size: 2 Mpc, periodic: false}
material: {n_H: 1.9e-4, temperature: 1.0e4, x_HII_initial: 1.2e-3}
spectrum: {type: grey}
time: {dt: 2.5 Myr}
raytracing: {R_max: 3}
cosmology: {cosmological: true}
sequence:
  redshifts: [9.0, 8.9, 8.8]
  halos:
    pattern: "%.3f-coarsest_wsubgrid_sources.dat"
    format: c2ray
    nbody_mesh: 6144
    f_gamma: 10
    t_source: 10 Myr
    f_gamma_low_mass: 150
YAML
cat > "$work/in/dpl.yaml" <<'YAML'
grid: {N: 16, box_size: 2 Mpc, periodic: false}
material: {n_H: 1.9e-4, temperature: 1.0e4, x_HII_initial: 1.2e-3}
spectrum: {type: grey}
time: {dt: 2.5 Myr}
cosmology: {cosmological: true}
sequence:
  redshifts: [9.0, 8.9]
  halos:
    pattern: "halos_%.3f.hdf5"
    format: pyc2ray_hdf5
    model:
      f_star: {model: dpl, f0: 0.1, M_t: 1e8, M_p: 1e10, g1: -0.3, g2: -0.3, g3: 0, g4: 0}
      f_esc: {model: constant, f0: 0.1}
      N_ion: 2000
      accretion: {model: exponential, alpha_h: 0.79}
YAML
c2="$work/in/c2ray.yaml"
cd "$work"

# ---- bad inputs: message, exit code, nothing written ------------------------------
bad() { # bad NAME TEXT1 TEXT2 -- ionfront run arguments
  local name="$1" t1="$2" t2="$3" out rc
  shift 4
  rm -rf "$work/bad"
  out=$("$ionfront" run "$@" --quiet --output "$work/bad" 2>&1)
  rc=$?
  { [ "$rc" -gt 0 ] && [ "$rc" -lt 128 ]; } || { echo "$out"; fail "$name: exit code $rc"; }
  grep "error" <<<"$out" | grep -qF -- "$t1" || { echo "$out"; fail "$name: no '$t1' in the message"; }
  grep "error" <<<"$out" | grep -qF -- "$t2" || { echo "$out"; fail "$name: no '$t2' in the message"; }
  [ ! -e "$work/bad" ] || fail "$name: the run wrote outputs"
  echo "ok   $name: $(grep -m1 error <<<"$out")"
}
cp in/8.900-coarsest_wsubgrid_sources.dat keep.dat
sed -i 's/^13 12 12/17 12 12/' in/8.900-coarsest_wsubgrid_sources.dat
bad "cell outside the grid" "8.900-coarsest_wsubgrid_sources.dat' line 3" "i = 17" -- "$c2"
printf '6\n1 1 1 1 1\n' > in/8.900-coarsest_wsubgrid_sources.dat
bad "a short list" "sequence.halos at z = 8.9" "the file ends in source 2 of the 6" -- "$c2"
cp keep.dat in/8.900-coarsest_wsubgrid_sources.dat
bad "a list without its mass unit" "sequence.halos (format c2ray)" "nbody_mesh" -- \
  "$c2" --set sequence.halos.nbody_mesh=null
mv in/halos_9.000.hdf5 keep.hdf5
"$python" -c "import h5py; f = h5py.File('in/halos_9.000.hdf5', 'w'); f['pos'] = [[0.1, 0.2, 0.3]]; f.attrs['h'] = 0.7"
bad "a missing dataset" "halos_9.000.hdf5' has no dataset '/mass'" "z = 9" -- "$work/in/dpl.yaml"
mv keep.hdf5 in/halos_9.000.hdf5
bad "a stochastic model" "sequence.halos.model.f_star.model = lognorm" "not supported" -- \
  "$work/in/dpl.yaml" --set sequence.halos.model.f_star.model=lognorm

# ---- the c2ray run: rates by hand, suppression -------------------------------------
launch() { "$mpiexec" --oversubscribe --allow-run-as-root -np "$@"; }
launch 1 "$ionfront" run "$c2" --quiet --output "$work/p1" > "$work/p1.log" 2>&1 \
  || { cat "$work/p1.log"; fail "c2ray run on 1 rank"; }
rate() { # rate LOG Z: Ndot_total_per_s of the first row past z
  awk -F, -v z="$2" 'NR > 1 && $8 < z { print $10; exit }' "$1"
}
close() { "$python" -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 1e-8 * abs(b))" "$1" "$2"; }
got=$(rate "$work/p1/log.csv" 9.0)
close "$got" "$want_all" || fail "interval z = 9: Ndot $got, by hand $want_all"
got=$(rate "$work/p1/log.csv" 8.9)
close "$got" "$want_off" || fail "interval z = 8.9: Ndot $got, by hand $want_off (bright cells' low-mass haloes off)"
grep -q "^z = 8.9000 .*low-mass haloes suppressed in 2 ionized cell(s)" "$work/p1.log" \
  || { cat "$work/p1.log"; fail "no message of 2 suppressed cells at z = 8.9"; }
echo "ok   c2ray lists: Ndot $want_all then $want_off photons/s as by hand; 2 cells suppressed at z = 8.9"
cells() { h5dump -d /low_mass_suppressed_cells "$1" | grep "(0)"; }
[ "$(cells "$work/p1/snapshot_0002.h5" | tr -d ' ')" = "(0):1911,3259" ] \
  || fail "suppressed cells $(cells "$work/p1/snapshot_0002.h5"), expected 1911 = (7,7,7) and 3259 = (12,11,11)"

# ---- 1 and 2 ranks, restarts ------------------------------------------------------------
same() { # same A B [TOL]
  for k in 0 1 2; do
    for d in /Grid/x_HII /Grid/Gamma_HI /Grid/T; do
      h5diff ${3:+-p "$3"} "$1/snapshot_000$k.h5" "$2/snapshot_000$k.h5" "$d" "$d" > /dev/null \
        || fail "$d of snapshot $k differs between $1 and $2"
    done
    h5diff "$1/snapshot_000$k.h5" "$2/snapshot_000$k.h5" /low_mass_suppressed_cells \
      /low_mass_suppressed_cells > /dev/null || fail "suppressed cells of snapshot $k differ"
  done
}
launch 2 "$ionfront" run "$c2" --quiet --set grid.decomposition=slabs --output "$work/p2" \
  > "$work/p2.log" 2>&1 || { cat "$work/p2.log"; fail "c2ray run on 2 ranks (slabs)"; }
same "$work/p1" "$work/p2" 1e-12
echo "ok   2 ranks (slabs, each cell judged by its owner) give the snapshots of 1 rank (1e-12)"
boundary=$(awk -F, 'NR > 1 && $8 == 8.9 { print $1; exit }' "$work/p1/log.csv")
[ -n "$boundary" ] || fail "no step ends at z = 8.9"
for case in "1 $((boundary + 1))" "2 $((boundary + 1))"; do
  set -- $case
  p=$1 stop=$2
  full="$work/p1"
  extra=()
  [ "$p" -eq 1 ] || { full="$work/p2"; extra=(--set grid.decomposition=slabs); }
  out="$work/stop${p}_$stop"
  launch "$p" "$ionfront" run "$c2" --quiet "${extra[@]}" --set debug.signal_after_step=$stop \
    --output "$out" > "$out.log" 2>&1
  rc=$?
  [ "$rc" -eq 13 ] || { cat "$out.log"; fail "stop after step $stop: exit $rc, not 13"; }
  launch "$p" "$ionfront" run "$c2" --quiet "${extra[@]}" --output "$out" \
    --restart "$out/checkpoint.h5" > "$out.restart.log" 2>&1 \
    || { cat "$out.restart.log"; fail "restart after step $stop"; }
  same "$full" "$out"
  echo "ok   $p rank(s): stopped inside the second interval (step $stop), restarted: bit for bit"
done

# ---- pyC2Ray's halo list with the dpl model ------------------------------------------------
"$ionfront" run "$work/in/dpl.yaml" --quiet --output "$work/dpl" > "$work/dpl.log" 2>&1 \
  || { cat "$work/dpl.log"; fail "pyc2ray_hdf5 run"; }
got=$(rate "$work/dpl/log.csv" 9.0)
close "$got" "$want_dpl" || fail "pyc2ray_hdf5 dpl: Ndot $got, by hand $want_dpl"
echo "ok   pyC2Ray halo list, dpl, exponential accretion: Ndot $got photons/s as by hand"

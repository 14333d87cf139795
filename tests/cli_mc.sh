#!/usr/bin/env bash
# Monte Carlo transport (raytracing.method: montecarlo) from the command line:
#  - the same result on 1, 2 and 3 MPI ranks (packets keyed by seed, source cell,
#    packet and step: the ranks trace other packets of the same set), to 1e-12, also
#    with the diffuse field of case A (recombination_emission);
#  - a run stopped after step 2 and restarted ends as the uninterrupted run, and a
#    restart with another seed is refused; snapshots carry the seed and the error of
#    Gamma; another seed gives another result;
#  - bad montecarlo keys are refused with a message naming the key.
# usage: cli_mc.sh MPIEXEC /path/to/ionfront
set -u
. "$(dirname "$0")/cli_common.sh" "$@"
cli_need_h5diff
/usr/bin/python3 -c "import h5py" 2>/dev/null || { echo "python3-h5py not found (Debian: python3-h5py)"; exit 77; }
cat > "$work/sources.txt" <<'SRC'
4
4 5 6 1.0e48 1
17 4 13 3.0e48 1
10 10 10 5.0e47 1
2 19 17 2.0e48 1
SRC
args=(run --quiet --backend cpu --set grid.N=20 --set 'time.dt=2 Myr' --set 'time.t_end=8 Myr'
      --set 'time.outputs=[4 Myr, 8 Myr]' --set 'grid.box_size=2 kpc'
      --set "sources={file: $work/sources.txt, format: text}"
      --set raytracing.method=montecarlo --set 'montecarlo={packets_per_source: 3000, seed: 11}')
same() { # same A B TOL: the last snapshots agree
  for d in /Grid/x_HII /Grid/Gamma_HI /Grid/Gamma_HI_relative_error; do
    h5diff -p "$3" "$1/snapshot_0002.h5" "$2/snapshot_0002.h5" "$d" "$d" > "$work/diff" 2>&1 \
      || { head -20 "$work/diff"; fail "$d differs between $1 and $2 by more than $3"; }
  done
}
"$ionfront" "${args[@]}" --output "$work/p1" > "$work/p1.log" 2>&1 || { cat "$work/p1.log"; fail "1 rank"; }
for mode in scatter allreduce; do
  for p in 2 3; do
    out="$work/$mode$p"
    "$mpiexec" --oversubscribe --allow-run-as-root -np "$p" "$ionfront" "${args[@]}" \
      --set "mpi.reduction=$mode" --output "$out" > "$out.log" 2>&1 \
      || { cat "$out.log"; fail "$mode on $p ranks"; }
    same "$work/p1" "$out" 1e-12
    echo "ok: $mode on $p ranks matches 1 rank to 1e-12"
  done
done
# case A with the diffuse field: the recombining cells are shared among the ranks
"$ionfront" "${args[@]}" --set montecarlo.recombination_emission=true --output "$work/a1" \
  > "$work/a1.log" 2>&1 || { cat "$work/a1.log"; fail "case A, 1 rank"; }
"$mpiexec" --oversubscribe --allow-run-as-root -np 2 "$ionfront" "${args[@]}" \
  --set montecarlo.recombination_emission=true --output "$work/a2" > "$work/a2.log" 2>&1 \
  || { cat "$work/a2.log"; fail "case A, 2 ranks"; }
same "$work/a1" "$work/a2" 1e-12
h5diff -p 1e-3 "$work/p1/snapshot_0002.h5" "$work/a1/snapshot_0002.h5" /Grid/x_HII /Grid/x_HII \
  > /dev/null 2>&1 && fail "case A with re-emission gave the case-B result"
echo "ok: case A with re-emission: 2 ranks match 1 rank to 1e-12, and differ from case B"
/usr/bin/python3 - "$work/p1/snapshot_0002.h5" <<'PY' || fail "snapshot attributes or error field"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1]) as f:
    assert f.attrs["montecarlo_seed"] == 11, f.attrs["montecarlo_seed"]
    assert f.attrs["montecarlo_packets_per_source"] == 3000
    g, e = f["Grid/Gamma_HI"][...], f["Grid/Gamma_HI_relative_error"][...]
    lit = g > 0
    assert lit.sum() > 0.5 * g.size, lit.sum()
    # every lit cell has an error in (0, 1]; the error falls with Gamma's packet count
    assert np.all(e[lit] > 0) and np.all(e[lit] <= 1.0), (e[lit].min(), e[lit].max())
    assert np.all(e[~lit] == 0)
print("ok: snapshots carry montecarlo_seed, packets and Gamma_HI_relative_error")
PY
"$ionfront" "${args[@]}" --set montecarlo.seed=12 --output "$work/seed12" > /dev/null 2>&1 || fail "seed 12"
h5diff -p 1e-3 "$work/p1/snapshot_0002.h5" "$work/seed12/snapshot_0002.h5" /Grid/Gamma_HI /Grid/Gamma_HI \
  > /dev/null 2>&1 && fail "another seed gave the same Gamma"
echo "ok: another seed, other packets"

# stop after step 2 (checkpoint), restart: the same end state
"$ionfront" "${args[@]}" --set debug.signal_after_step=2 --output "$work/stop" > "$work/stop.log" 2>&1
rc=$?
[ "$rc" -eq 13 ] || { cat "$work/stop.log"; fail "stopped run exited $rc, not 13"; }
out=$("$ionfront" "${args[@]}" --set montecarlo.seed=5 --output "$work/stop" \
      --restart "$work/stop/checkpoint.h5" 2>&1) && fail "a restart with another seed ran"
grep -q "montecarlo.seed = 11" <<<"$out" || { echo "$out"; fail "seed mismatch not reported"; }
"$ionfront" "${args[@]}" --output "$work/stop" --restart "$work/stop/checkpoint.h5" \
  > "$work/restart.log" 2>&1 || { cat "$work/restart.log"; fail "restart"; }
same "$work/p1" "$work/stop" 1e-12
echo "ok: stopped after step 2 and restarted: same result; another seed refused"

# target_relative_error: packets grow from 500 towards the target; a restart continues
# with the adapted count (stored in the checkpoint) to the same result
targs=("${args[@]}" --set 'montecarlo={packets_per_source: 500, seed: 11, target_relative_error: 0.1}')
"$ionfront" "${targs[@]}" --output "$work/t_full" > /dev/null 2>&1 || fail "adaptive run"
"$ionfront" "${targs[@]}" --set debug.signal_after_step=2 --output "$work/t_stop" > /dev/null 2>&1
[ $? -eq 13 ] || fail "adaptive run did not stop"
"$ionfront" "${targs[@]}" --output "$work/t_stop" --restart "$work/t_stop/checkpoint.h5" \
  > "$work/t_restart.log" 2>&1 || { cat "$work/t_restart.log"; fail "adaptive restart"; }
same "$work/t_full" "$work/t_stop" 1e-12
/usr/bin/python3 - "$work/t_full/snapshot_0001.h5" "$work/t_full/snapshot_0002.h5" <<'PY' || fail "no adaptation"
import sys, h5py
p = [h5py.File(f).attrs["montecarlo_packets_per_source"] for f in sys.argv[1:]]
assert 500 < p[0] < p[1], p
print(f"ok: packets per source adapted to the target error: 500 -> {p[0]} -> {p[1]}")
PY
echo "ok: adaptive packets: a restart continues to the same result"

# bad input
bad() { # bad 'SET...' 'expected text'
  local out
  out=$("$ionfront" run --quiet --set grid.N=8 --set 'time.t_end=2 Myr' --set 'time.dt=1 Myr' --set 'time.outputs=[2 Myr]' \
        --output "$work/bad" "$@" 2>&1) && fail "accepted: $*"
  echo "$out" | grep -q -- "${expect}" || { echo "$out"; fail "message for $* lacks '${expect}'"; }
}
expect="raytracing.method = montekarlo: must be one of asora, montecarlo (did you mean 'montecarlo'?)"
bad --set raytracing.method=montekarlo
expect="montecarlo: is given but raytracing.method is asora"
bad --set 'montecarlo={seed: 3}'
expect="montecarlo.packets_per_source = 0 is out of range"
bad --set raytracing.method=montecarlo --set montecarlo.packets_per_source=0
expect="montecarlo.seed = -1 is out of range"
bad --set raytracing.method=montecarlo --set montecarlo.seed=-1
expect="montecarlo.target_relative_error = 1.5 is out of range"
bad --set raytracing.method=montecarlo --set montecarlo.target_relative_error=1.5
expect="unknown key 'montecarlo.packets_per_sorce'"
bad --set raytracing.method=montecarlo --set montecarlo.packets_per_sorce=10
expect="does not carry plane-parallel sources"
bad --set raytracing.method=montecarlo --set 'sources=[{plane: x_low, flux: 1e6}]'
echo "ok: bad montecarlo input refused with clear messages"

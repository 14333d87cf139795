#!/usr/bin/env bash
# Checkpoint / restart: a run stopped by a signal (SIGUSR1 raised after step 4
# through the debug.signal_after_step hook, and a real SIGTERM from outside)
# writes DIR/checkpoint.h5 and exits with code 13; `--restart` continues it,
# and the end result equals an uninterrupted run's on the same number of ranks bit for
# bit (h5diff without a tolerance; README: "a restart continues bit for bit on the same
# number of ranks") -- on 1 rank and on 2 ranks (MPI, collective HDF5), and for Test 3
# (clump, plane source, T evolving); across rank counts to 1e-12 (the sums of a 2-rank
# run add in another order: measured 0 here, on 2 cores; cli_mpi_ranks.sh checks that).
# usage: cli_restart.sh MPIEXEC /path/to/ionfront
set -u
. "$(dirname "$0")/cli_common.sh" "$@"
cli_need_h5diff
args=(run --quiet --set grid.N=20 --set 'time.dt=10 Myr' --set 'time.t_end=100 Myr'
      --set 'time.outputs=[50 Myr, 100 Myr]')
same() { # same A B [h5diff options]: the last snapshots agree (bit for bit without options)
  local a="$1" b="$2"
  shift 2
  for d in /Grid/x_HII /Grid/Gamma_HI; do
    h5diff "$@" "$a/snapshot_0002.h5" "$b/snapshot_0002.h5" "$d" "$d" > "$work/diff" 2>&1 \
      || { head -5 "$work/diff"; fail "$d differs between $a and $b ${*:-(bit for bit)}"; }
  done
  cmp -s <(cut -d, -f1-6 "$a/log.csv") <(cut -d, -f1-6 "$b/log.csv") || fail "log.csv differs"
}
for p in 1 2; do
  launch=("$mpiexec" --oversubscribe --allow-run-as-root -np "$p")
  "${launch[@]}" "$ionfront" "${args[@]}" --output "$work/full$p" > "$work/full$p.log" 2>&1 \
    || { cat "$work/full$p.log"; fail "uninterrupted run on $p rank(s)"; }
  "${launch[@]}" "$ionfront" "${args[@]}" --set debug.signal_after_step=4 --output "$work/stop$p" \
    > "$work/stop$p.log" 2>&1
  rc=$?
  [ "$rc" -eq 13 ] || { cat "$work/stop$p.log"; fail "stopped run exited $rc, not 13"; }
  grep -q "checkpoint written" "$work/stop$p.log" || fail "no checkpoint message"
  [ -s "$work/stop$p/checkpoint.h5" ] || fail "no checkpoint.h5"
  [ ! -e "$work/stop$p/snapshot_0002.h5" ] || fail "stopped run went on"
  "${launch[@]}" "$ionfront" "${args[@]}" --output "$work/stop$p" --restart "$work/stop$p/checkpoint.h5" \
    > "$work/restart$p.log" 2>&1 || { cat "$work/restart$p.log"; fail "restart on $p rank(s)"; }
  same "$work/full$p" "$work/stop$p"
  echo "ok: stopped after step 4 and restarted on $p rank(s): same result as without a stop, bit for bit"
done
same "$work/full1" "$work/stop2" -p 1e-12
echo "ok: the restarted 2-rank run agrees with the 1-rank run to 1e-12"

# Test 3 (clump: a per-cell initial n_H and T; plane source; T evolving): stopped
# after step 3 and restarted on 1 rank, the same end state as without a stop.
"$ionfront" example iliev3 > "$work/iliev3.yaml"
args3=(run "$work/iliev3.yaml" --quiet --set grid.N=16 --set 'time.dt=0.2 Myr'
       --set 'time.t_end=1.4 Myr' --set 'time.outputs=[0.6 Myr, 1.4 Myr]')
"$ionfront" "${args3[@]}" --output "$work/full3" > "$work/full3.log" 2>&1 \
  || { cat "$work/full3.log"; fail "uninterrupted Test 3 run"; }
"$ionfront" "${args3[@]}" --set debug.signal_after_step=3 --output "$work/stop3" \
  > "$work/stop3.log" 2>&1
rc=$?
[ "$rc" -eq 13 ] || { cat "$work/stop3.log"; fail "stopped Test 3 run exited $rc, not 13"; }
"$ionfront" "${args3[@]}" --output "$work/stop3" --restart "$work/stop3/checkpoint.h5" \
  > "$work/restart3.log" 2>&1 || { cat "$work/restart3.log"; fail "Test 3 restart"; }
for d in /Grid/x_HII /Grid/Gamma_HI /Grid/T /Grid/n_H; do
  h5diff "$work/full3/snapshot_0002.h5" "$work/stop3/snapshot_0002.h5" "$d" "$d" > "$work/diff" 2>&1 \
    || { head -5 "$work/diff"; fail "Test 3: $d differs after a restart (bit for bit)"; }
done
echo "ok: Test 3 (clump, plane source, T evolving) stopped after step 3 and restarted: same result, bit for bit"

# A real SIGTERM from outside, while the run is stepping.
"$ionfront" run --set grid.N=24 --set 'time.dt=1 Myr' --set 'time.t_end=400 Myr' \
  --set 'time.outputs=[400 Myr]' --output "$work/term" > "$work/term.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do grep -q "^step" "$work/term.log" && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 13 ] || { tail -5 "$work/term.log"; fail "SIGTERM: exit code $rc, not 13"; }
[ -s "$work/term/checkpoint.h5" ] || fail "SIGTERM: no checkpoint"
echo "ok: SIGTERM wrote a checkpoint and stopped (exit 13)"

# a checkpoint of another grid is refused with a clear message
out=$("$ionfront" "${args[@]}" --set grid.N=16 --output "$work/x" --restart "$work/full1/snapshot_0002.h5" 2>&1)
grep -q "not an ionfront checkpoint" <<<"$out" || { echo "$out"; fail "a snapshot accepted as checkpoint"; }
out=$("$ionfront" "${args[@]}" --set grid.N=16 --output "$work/x" --restart "$work/stop1/checkpoint.h5" 2>&1)
grep -q "20^3 grid" <<<"$out" || { echo "$out"; fail "grid mismatch not reported"; }
echo "ok: bad restart files are refused"

#!/usr/bin/env bash
# More OpenMP threads on a node than it has hardware threads (ranks x threads >
# cores) makes a run many times slower: ionfront warns, naming the numbers and
# OMP_NUM_THREADS; with one thread it says nothing.
# usage: cli_cores.sh /path/to/ionfront
set -u
ionfront="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
small=(--set grid.N=8 --set 'time.dt=10 Myr' --set 'time.t_end=10 Myr' --set 'time.outputs=[10 Myr]'
       --set output.progress=false)

# more threads than this machine has CPUs, online or not
too_many=$(( $(nproc --all) * 2 + 1 ))
OMP_NUM_THREADS=$too_many "$ionfront" run "${small[@]}" --output "$work/a" > "$work/a.txt" 2>&1 \
  || { cat "$work/a.txt"; fail "the oversubscribed run failed"; }
grep -q "WARNING: node .*1 rank(s) x $too_many OpenMP thread(s)" "$work/a.txt" \
  || { cat "$work/a.txt"; fail "no warning for $too_many threads on $(nproc --all) CPUs"; }
grep -q "OMP_NUM_THREADS=" "$work/a.txt" || fail "the warning does not name OMP_NUM_THREADS"
echo "ok: warned: $(grep WARNING "$work/a.txt")"

OMP_NUM_THREADS=1 "$ionfront" run "${small[@]}" --output "$work/b" > "$work/b.txt" 2>&1 \
  || { cat "$work/b.txt"; fail "the one-thread run failed"; }
if grep -q "WARNING: node" "$work/b.txt"; then cat "$work/b.txt"; fail "warned with one thread"; fi
echo "ok: no warning with one thread"

#!/usr/bin/env bash
# A config from a pipe (issue 20): `ionfront run <(ionfront example iliev1)` and
# `ionfront run /dev/stdin < run.yaml` read the config once (rank 0; under MPI the text
# goes to the other ranks, the pipe exists on rank 0 only), on 1 and 2 ranks (under
# mpirun a shell's <(...) is mpirun's descriptor: refused with a hint to pipe instead).
# A config file's inputs are found next to it; standard input's in the working folder.  A config
# from a redirected file finds its inputs next to it; from a pipe, in the working folder.
# usage: cli_config_pipe.sh MPIEXEC /path/to/ionfront
set -u
mpiexec="$1"
ionfront="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
small=(--set grid.N=12 --set 'time.dt=10 Myr' --set 'time.t_end=20 Myr' --quiet)
mpi=("$mpiexec" -np 2 --oversubscribe --allow-run-as-root)
"$ionfront" example iliev1 > run.yaml || fail "example"

expect_run() { # NAME OUTDIR RC: the run's stdout in NAME.out, exit 0, a snapshot at t_end
  [ "$3" -eq 0 ] || { cat "$1.out"; fail "$1: exit $3"; }
  grep -q "done:" "$1.out" || { cat "$1.out"; fail "$1: no summary"; }
  [ -s "$2/snapshot_000${4:-2}.h5" ] || { ls "$2"; fail "$1: no snapshot at t_end"; }
}

"$ionfront" run <("$ionfront" example iliev1) "${small[@]}" --output o1 > subst.out 2>&1
expect_run subst o1 $?
"$ionfront" run /dev/stdin "${small[@]}" --output o2 < run.yaml > stdin.out 2>&1
expect_run stdin o2 $?
cat run.yaml | "$ionfront" run /dev/stdin "${small[@]}" --output o3 > pipe.out 2>&1
expect_run pipe o3 $?
grep -q "/dev/stdin" pipe.out || { cat pipe.out; fail "pipe: the config is not named by its path"; }

if "${mpi[@]}" true > /dev/null 2>&1; then
  cat run.yaml | "${mpi[@]}" "$ionfront" run /dev/stdin "${small[@]}" --output o4 > pipe2.out 2>&1
  expect_run pipe2 o4 $?
  grep -q "2 MPI rank" pipe2.out || { cat pipe2.out; fail "pipe, 2 ranks: not on 2 ranks"; }
  # a shell's <(...) is mpirun's descriptor, which its ranks do not get: say what works
  "${mpi[@]}" "$ionfront" run <("$ionfront" example iliev1) "${small[@]}" --output o5 \
    > subst2.out 2>&1
  [ $? -ne 0 ] || fail "<(...) under mpirun: exit 0"
  grep -q "ionfront run /dev/stdin" subst2.out || { cat subst2.out; fail "<(...) under mpirun: no hint"; }
  # a broken config from a pipe: rank 0's parse error, once, on every rank's behalf
  printf 'grid: {N: 8\n' | "${mpi[@]}" "$ionfront" run /dev/stdin --output o6 > bad2.out 2>&1
  rc=$?
  [ "$rc" -ne 0 ] || fail "broken piped config on 2 ranks: exit 0"
  grep -q "/dev/stdin" bad2.out || { cat bad2.out; fail "broken piped config: not named"; }
  [ ! -e o6 ] || fail "broken piped config: output folder made"
else
  echo "no working $mpiexec: the 2-rank cases are skipped"
fi

# relative inputs: next to a config file; in the working folder for standard input
# (a pipe or a redirected file alike, on any number of ranks)
mkdir -p sub
printf '1\n6 6 6 5.0e48 1\n' > sub/src.txt
cat > sub/run.yaml <<'YAML'
grid: {N: 12, box_size: 6.6 kpc}
material: {n_H: 1.0e-3, temperature: 1.0e4, x_HII_initial: 1.2e-3, isothermal: true}
sources: {file: src.txt}
time: {dt: 10 Myr, t_end: 20 Myr}
YAML
"$ionfront" run sub/run.yaml --quiet --output o7 > rel.out 2>&1
expect_run rel o7 $? 1
"$ionfront" run /dev/stdin --quiet --output o8 < sub/run.yaml > relstdin.out 2>&1
[ $? -ne 0 ] || fail "a config on standard input found src.txt outside the working folder"
grep -q "src.txt" relstdin.out || { cat relstdin.out; fail "the missing source file is not named"; }
(cd sub && cat run.yaml | "$ionfront" run /dev/stdin --quiet --output ../o9 > ../relpipe.out 2>&1)
expect_run relpipe o9 $? 1
echo "config from a pipe: ok"

#!/usr/bin/env bash
# ionfront run CONFIG --dry-run (issue 20): every built-in example's dry run exits 0 (or,
# lacking its input files, fails naming them) and creates nothing; a missing density file,
# a source outside the grid and a missing particle file fail naming them; on 2 ranks
# each rank's sources are listed; the memory per rank is shown, and a grid that cannot fit
# (N = 4096) is refused naming what it needs and what is available; nothing is written.
# usage: cli_dry_run.sh MPIEXEC /path/to/ionfront
set -u
mpiexec="$1"
ionfront="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
mkdir cfg
nothing_made() { # the working folder holds only cfg/ and the captured outputs
  extra=$(ls -A | grep -v -e '^cfg$' -e '\.out$')
  [ -z "$extra" ] || fail "$1: the dry run made: $extra"
}

for name in $("$ionfront" example | awk 'NR > 1 {print $1}'); do
  "$ionfront" example "$name" > "cfg/$name.yaml" || fail "example $name"
  "$ionfront" run "cfg/$name.yaml" --dry-run > "$name.out" 2>&1
  rc=$?
  if grep -q "cannot read\|does not exist\|No such file" "$name.out"; then
    # an example whose inputs are made by another command (iliev4_particles)
    [ "$rc" -ne 0 ] || fail "$name: missing inputs, exit 0"
    grep -q "density.h5" "$name.out" || { cat "$name.out"; fail "$name: the missing file is not named"; }
  else
    [ "$rc" -eq 0 ] || { cat "$name.out"; fail "$name: dry run exit $rc"; }
    grep -q "the run would start" "$name.out" || { cat "$name.out"; fail "$name: no verdict"; }
    if grep -q "^problem: thermal" "cfg/$name.yaml"; then # one solve: its plan, no steps
      grep -q "^plan: [0-9]* cells" "$name.out" || { cat "$name.out"; fail "$name: no plan"; }
    else
      grep -q "^time: [0-9]* step" "$name.out" || { cat "$name.out"; fail "$name: no steps"; }
      grep -q "^outputs: " "$name.out" || { cat "$name.out"; fail "$name: no outputs"; }
    fi
  fi
  nothing_made "$name"
done
grep -q "^grid 128^3" iliev1.out || { cat iliev1.out; fail "iliev1: no grid line"; }
grep -q "^rank 0: 1 point source" iliev1.out || { cat iliev1.out; fail "iliev1: no rank line"; }
grep -q "particles (generated)" iliev1_particles.out || { cat iliev1_particles.out; fail "particles: no particle line"; }

grep -q "^memory per rank (rank 0): host about" iliev1.out || { cat iliev1.out; fail "iliev1: no memory line"; }

# a grid that cannot fit: refused with what it needs and what is available, by the dry run
# and by the run (exit 5, out of memory; not killed), before anything is written
"$ionfront" run cfg/iliev1.yaml --set grid.N=4096 --dry-run > huge_dry.out 2>&1
rc=$?
[ "$rc" -eq 5 ] || { cat huge_dry.out; fail "N = 4096 dry run: exit $rc, expected 5"; }
grep -q "needs about .* GiB per rank.*GiB are available" huge_dry.out || { cat huge_dry.out; fail "N = 4096: figures not named"; }
"$ionfront" run cfg/iliev1.yaml --set grid.N=4096 --output huge > huge.out 2>&1
rc=$?
[ "$rc" -eq 5 ] || { cat huge.out; fail "N = 4096 run: exit $rc, expected 5"; }
grep -q "needs about .* GiB per rank.*GiB are available" huge.out || { cat huge.out; fail "N = 4096 run: figures not named"; }
[ ! -e huge ] || fail "N = 4096 run: output folder made"
nothing_made "N = 4096"

# a missing density file: the run's error code and the file's name
cat > cfg/missing.yaml <<'YAML'
grid: {N: 16, box_size: 6.6 kpc}
material: {n_H: {file: no_such_density.h5, dataset: n_H}, temperature: 1.0e4, x_HII_initial: 1.2e-3}
sources: [{position: [8, 8, 8], Ndot: 5.0e48}]
time: {dt: 10 Myr, t_end: 20 Myr}
YAML
"$ionfront" run cfg/missing.yaml --dry-run > missing.out 2>&1
rc=$?
[ "$rc" -ne 0 ] || { cat missing.out; fail "missing density file: exit 0"; }
grep -q "no_such_density.h5" missing.out || { cat missing.out; fail "missing density file not named"; }
"$ionfront" run cfg/missing.yaml > missing_run.out 2>&1
[ $? -eq "$rc" ] || fail "the dry run's exit code $rc is not the run's"
rm -rf out
nothing_made "missing density"

# a source file with a source outside the grid
printf '1\n17 1 1 5.0e48\n' > cfg/outside.txt
sed 's|^sources:.*|sources: {file: outside.txt}|; s|{file: no_such_density.h5, dataset: n_H}|1.0e-3|' \
  cfg/missing.yaml > cfg/outside.yaml
"$ionfront" run cfg/outside.yaml --dry-run > outside.out 2>&1
[ $? -ne 0 ] || { cat outside.out; fail "source outside the grid: exit 0"; }
grep -q "outside.txt" outside.out || { cat outside.out; fail "the source file is not named"; }
nothing_made "source outside"

# a particle file that is not there
printf 'particles: {file: no_such_particles.h5}\nsources: [{position: [0, 0, 0], Ndot: 1e48}]\ntime: {dt: 1 Myr, t_end: 2 Myr}\n' > cfg/p.yaml
"$ionfront" run cfg/p.yaml --dry-run > p.out 2>&1
[ $? -ne 0 ] || { cat p.out; fail "missing particle file: exit 0"; }
grep -q "no_such_particles.h5" p.out || { cat p.out; fail "the particle file is not named"; }
nothing_made "missing particle file"

# two ranks: the sources shared among them
if "$mpiexec" -np 2 --oversubscribe --allow-run-as-root true > /dev/null 2>&1; then
  "$ionfront" example iliev1 | sed 's|^sources:|sources:\n  - {position: [10, 10, 10], Ndot: 1.0e48}|' > cfg/two.yaml
  "$mpiexec" -np 2 --oversubscribe --allow-run-as-root "$ionfront" run cfg/two.yaml --dry-run \
    > two.out 2>&1 || { cat two.out; fail "2 ranks: dry run failed"; }
  grep -q "^rank 1: 1 point source" two.out || { cat two.out; fail "2 ranks: no share of rank 1"; }
  nothing_made "2 ranks"
fi
echo "dry runs: ok"

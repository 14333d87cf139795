#!/usr/bin/env bash
# 'ionfront generate' and the self-contained iliev4 problem from the command line:
# generate both kinds (files present, readable, redshift list), 'example iliev4 |
# run' from a fresh directory makes its inputs once and reuses them, a run from
# another directory finds the inputs next to the config, and bad arguments or
# mismatched files end with a clear message and a non-zero exit.
# usage: cli_synth.sh /path/to/ionfront
set -u
ionfront="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | sed 's/^/    /'; failures=$((failures + 1)); }
ok() { echo "ok   $1"; }

# expect_fail NAME TEXT -- arguments: non-zero exit (< 128) with TEXT in the output
expect_fail() {
  local name="$1" text="$2"
  shift 3
  local out rc
  out=$("$ionfront" "$@" 2>&1)
  rc=$?
  if [ "$rc" -eq 0 ] || [ "$rc" -ge 128 ]; then fail "$name: exit code $rc" "$out"
  elif ! grep -qF -- "$text" <<<"$out"; then fail "$name: message lacks '$text'" "$out"
  else ok "$name: $(grep -m1 -F -- "$text" <<<"$out")"; fi
}

# ---- generate ---------------------------------------------------------------------
out=$("$ionfront" generate iliev4 --N 24 --seed 7 --out gen4 2>&1) || fail "generate iliev4" "$out"
if [ -s gen4/density.h5 ] && [ "$(grep -vc '^#' gen4/sources.txt)" -eq 17 ]; then
  ok "generate iliev4: density.h5 and 16 sources"
else fail "generate iliev4: files" "$(ls -la gen4 2>&1)"; fi
grep -qF -- "--set grid.N=24 --set synthetic.seed=7" <<<"$out" && ok "generate iliev4 says how to run" \
  || fail "generate iliev4: run command" "$out"

out=$("$ionfront" generate eor --N 16 --box 20 --z-start 12 --z-end 8 --count 3 --out gen_eor 2>&1) \
  || fail "generate eor" "$out"
# 9.550: the middle of the cosmic ages at z = 12 and 8 (h = 0.7, Omega_m = 0.27)
if [ "$(cat gen_eor/redshifts.txt 2>/dev/null | tr '\n' ' ')" = "12.000 9.550 8.000 " ] &&
   [ -s gen_eor/density_z9.550.h5 ] && [ -s gen_eor/halos_z8.000.h5 ]; then
  ok "generate eor: 3 redshifts equally spaced in time, files per redshift"
else fail "generate eor: files" "$(ls gen_eor 2>&1; cat gen_eor/redshifts.txt 2>&1)"; fi
out=$("$ionfront" generate eor --N 16 --box 20 --redshifts 10,9 --out gen_eor2 2>&1) \
  || fail "generate eor --redshifts" "$out"
[ -s gen_eor2/halos_z9.000.h5 ] && ok "generate eor --redshifts" || fail "generate eor --redshifts: files"

expect_fail "generate: no kind" "usage: ionfront generate" -- generate
expect_fail "generate: unknown kind" "unknown kind 'iliev5'" -- generate iliev5
expect_fail "generate: bad N" "--N 2" -- generate iliev4 --N 2
expect_fail "generate: eor option for iliev4" "--box is an option of 'generate eor' only" -- generate iliev4 --box 5
expect_fail "generate: ascending redshifts" "must descend" -- generate eor --N 16 --redshifts 7,9 --out bad
expect_fail "generate: M_min above a cell" "not below the mass of a cell" -- generate eor --N 16 --box 1 --count 2 --out bad
expect_fail "generate: unwritable" "cannot" -- generate iliev4 --N 16 --out /proc/nope

# ---- example iliev4 | run, from a fresh directory ---------------------------------------
mkdir run4 elsewhere
small=(--set grid.N=24 --set time.dt=0.01Myr --set time.t_end=0.01Myr --set 'time.outputs=[0.01Myr]' --quiet)
(cd run4 && "$ionfront" example iliev4 > t4.yaml)
out=$(cd run4 && "$ionfront" run t4.yaml "${small[@]}" 2>&1) || fail "run iliev4" "$out"
if grep -q "synthetic iliev4: made" <<<"$out" && [ -s run4/iliev4_ic/density.h5 ] &&
   [ -s run4/iliev4_ic/sources.txt ] && [ -s run4/out/iliev4/snapshot_0001.h5 ]; then
  ok "example iliev4 | run makes its inputs next to the config and runs"
else fail "run iliev4: inputs or snapshot missing" "$out"; fi
grep -q "16 point source(s)" <<<"$out" && ok "run iliev4: 16 sources" || fail "run iliev4: source count" "$out"
# again, from another directory: the same files are found and reused
out=$(cd elsewhere && "$ionfront" run ../run4/t4.yaml "${small[@]}" 2>&1) || fail "rerun iliev4" "$out"
grep -q "exist with this config's parameters; not made again" <<<"$out" && [ ! -e elsewhere/iliev4_ic ] \
  && ok "a second run from another directory reuses the files" || fail "rerun: reuse" "$out"
# other parameters with the same files: refused
expect_fail "files made with another seed" "made with other parameters" -- run run4/t4.yaml "${small[@]}" --set synthetic.seed=5
expect_fail "bad synthetic key" "did you mean 'seed'" -- run run4/t4.yaml "${small[@]}" --set synthetic.sed=5
# 'generate iliev4' output serves the built-in config
mkdir gen_run && (cd gen_run && "$ionfront" generate iliev4 --N 24 > /dev/null && "$ionfront" example iliev4 > t4.yaml)
out=$(cd gen_run && "$ionfront" run t4.yaml "${small[@]}" 2>&1) || fail "run on generated files" "$out"
grep -q "not made again" <<<"$out" && ok "the built-in config runs on 'generate iliev4' files" \
  || fail "generated files not taken" "$out"

# 'generate particles' is the test-particle writer (ionfront-particles)
out=$("$ionfront" generate particles --N 8 --out parts.h5 2>&1) || fail "generate particles" "$out"
[ -s parts.h5 ] && grep -q "wrote 512 particles" <<<"$out" && ok "generate particles writes a set" \
  || fail "generate particles: no file or wrong count" "$out"

if [ "$failures" -gt 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all checks passed"

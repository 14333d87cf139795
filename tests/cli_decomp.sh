#!/usr/bin/env bash
# grid.decomposition: slabs -- each rank holds its slab of i-planes and a halo of
# ceil(R_max) -- gives what the replicated grid gives: x_HII, Gamma_HI and T of the
# last snapshot to 1e-12 relative, and the same log (iterations, means to 9 digits),
# on 2 and 3 ranks, periodic and not, R_max from 2 cells to half the box, with the
# temperature evolving (heating rates cross the halos too) and with helium (three
# species' blocks); a checkpoint of a 2-rank slab run restarts on 3 ranks (slabs) and on
# 1 rank and ends where the uninterrupted run ends, to 1e-12.
# usage: cli_decomp.sh MPIEXEC /path/to/ionfront
set -u
. "$(dirname "$0")/cli_common.sh" "$@"
cli_need_h5diff
# Six sources (two in one cell), near the faces of the slabs and of the box.
cat > "$work/sources.txt" <<'SRC'
6
1 5 6 1.0e48 1
9 4 13 3.0e48 1
13 13 13 5.0e47 1
16 23 21 2.0e48 1
24 20 3 1.0e48 1
24 20 3 0.5e48 1
SRC
base=(run --set grid.N=24 --set 'time.dt=2 Myr' --set 'time.t_end=6 Myr'
      --set 'time.outputs=[6 Myr]' --set 'grid.box_size=2 kpc' --set material.isothermal=false
      --set "sources={file: $work/sources.txt, format: text}")
run() { # run NAME RANKS args...: a run into $work/NAME
  local name="$1" p="$2"
  shift 2
  "$mpiexec" --oversubscribe --allow-run-as-root -np "$p" "$ionfront" "${base[@]}" "$@" \
    --output "$work/$name" > "$work/$name.log" 2>&1 || { cat "$work/$name.log"; fail "$name"; }
}
same() { # same A B SNAPSHOT DATASETS...: to 1e-12, and the logs' first six columns
  local a="$1" b="$2" snap="$3"
  shift 3
  for d in "$@"; do
    h5diff -p 1e-12 "$work/$a/$snap" "$work/$b/$snap" "$d" "$d" > "$work/diff" 2>&1 \
      || { head -8 "$work/diff"; fail "$d differs between $a and $b by more than 1e-12"; }
  done
}
fields=(/Grid/x_HII /Grid/Gamma_HI /Grid/T)
for periodic in false true; do
  for r in 2 5 12; do
    set_r=(--set "grid.periodic=$periodic" --set "raytracing.R_max=$r")
    run "rep_${periodic}_$r" 1 "${set_r[@]}"
    for p in 2 3; do
      name="slab_${periodic}_${r}_$p"
      run "$name" "$p" "${set_r[@]}" --set grid.decomposition=slabs
      grep -q "grid split in slabs of i-planes over $p ranks" "$work/$name.log" \
        || { cat "$work/$name.log"; fail "$name: no slabs in the start-up lines"; }
      same "rep_${periodic}_$r" "$name" snapshot_0001.h5 "${fields[@]}"
      cmp -s <(cut -d, -f1-4 "$work/rep_${periodic}_$r/log.csv") <(cut -d, -f1-4 "$work/$name/log.csv") \
        || fail "iterations differ: $name"
      echo "ok: periodic $periodic, R_max $r, $p ranks in slabs = replicated to 1e-12"
    done
  done
done

# helium: three species' blocks in every exchange
he=(--set material.abundance_He=0.08 --set 'spectrum={type: blackbody, T_eff: 1e5, sub_bins: [1, 4, 4]}'
    --set grid.periodic=true --set raytracing.R_max=6)
run he_rep 1 "${he[@]}"
run he_slab 3 "${he[@]}" --set grid.decomposition=slabs
same he_rep he_slab snapshot_0001.h5 "${fields[@]}" /Grid/x_HeII /Grid/x_HeIII /Grid/Gamma_HeI /Grid/Gamma_HeII
echo "ok: helium, 3 ranks in slabs = replicated to 1e-12"

# a checkpoint of a 2-rank slab run restarts on 3 ranks (slabs) and on 1 rank
ck=(--set grid.periodic=true --set raytracing.R_max=5)
run ck_full 1 "${ck[@]}"
grep -q "grid replicated on every rank (one rank)" "$work/ck_full.log" \
  || { cat "$work/ck_full.log"; fail "no 'grid replicated' start-up line"; }
"$mpiexec" --oversubscribe --allow-run-as-root -np 2 "$ionfront" "${base[@]}" "${ck[@]}" \
  --set grid.decomposition=slabs --set debug.signal_after_step=1 --output "$work/ck_stop" \
  > "$work/ck_stop.log" 2>&1
rc=$?
[ "$rc" -eq 13 ] || { cat "$work/ck_stop.log"; fail "stopped 2-rank slab run exited $rc, not 13"; }
for p in 3 1; do
  rm -rf "$work/ck_$p"
  cp -r "$work/ck_stop" "$work/ck_$p"
  extra=()
  [ "$p" -gt 1 ] && extra=(--set grid.decomposition=slabs)
  "$mpiexec" --oversubscribe --allow-run-as-root -np "$p" "$ionfront" "${base[@]}" "${ck[@]}" \
    "${extra[@]}" --output "$work/ck_$p" --restart "$work/ck_$p/checkpoint.h5" \
    > "$work/ck_$p.log" 2>&1 || { cat "$work/ck_$p.log"; fail "restart on $p rank(s)"; }
  same ck_full "ck_$p" snapshot_0001.h5 "${fields[@]}"
  echo "ok: a 2-rank slab checkpoint restarted on $p rank(s) = the uninterrupted run to 1e-12"
done

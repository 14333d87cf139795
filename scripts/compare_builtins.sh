#!/usr/bin/env bash
# Every built-in problem at reduced size, run by two ionfront binaries on the CPU
# (one OpenMP thread per rank) on 1 and 3 MPI ranks; their outputs compared bit for
# bit (scripts/compare_outputs.py).  A redesign proves itself with this against the
# commit before it:
#   scripts/compare_builtins.sh OLD/build/ionfront NEW/build/ionfront [WORK] [CASE...]
# Cases (default: all but eor32): default iliev1 iliev2 iliev3 expanding dice eor iliev4
# helium eor_helium eor32 (eor at 32^3 from z = 9.1, where most of the sources shine)
# iliev1_particles iliev2_particles iliev4_particles mc mc_casea reduce allreduce
# restart particles_restart.  Exit 0 when every output is equal.
# A tracer setting against the default instead (one binary twice, or two): the
# environment's IONF_COMPARE_B_SET ("KEY=VALUE;KEY=VALUE") is given to the second run
# only, and with IONF_COMPARE_TOL the snapshots' ionized fractions and temperatures are
# compared within that tolerance (scripts/compare_fields.py), not bit for bit:
#   IONF_COMPARE_B_SET=raytracing.precision=mixed IONF_COMPARE_TOL=1e-5 \
#     scripts/compare_builtins.sh build/ionfront build/ionfront WORK default iliev1 ...
set -u
a="$(readlink -f "$1")"; b="$(readlink -f "$2")"
work="${3:-$(mktemp -d)}"; shift 3 2>/dev/null || shift $#
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(default iliev1 iliev2 iliev3 expanding dice eor iliev4 helium eor_helium
  iliev1_particles iliev2_particles iliev4_particles mc mc_casea reduce allreduce restart
  particles_restart)
here="$(cd "$(dirname "$0")" && pwd)"
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$work"
small=(--set grid.N=16)
t1=(--set 'time.dt=10 Myr' --set 'time.t_end=30 Myr' --set 'time.outputs=[10 Myr, 30 Myr]')
src16='sources=[{position: [3, 4, 5], Ndot: 5.0e48}, {position: [12, 9, 7], Ndot: 2.0e48}]'
# case NAME -> example and --set arguments (in the array `args`)
case_args() {
  args=()
  case "$1" in
    default) ex=default; args=("${small[@]}" "${t1[@]}" --set output.c2ray_binary=true) ;;
    iliev1) ex=iliev1; args=("${small[@]}" "${t1[@]}") ;;
    iliev2) ex=iliev2; args=("${small[@]}" --set 'time.t_end=20 Myr' --set 'time.outputs=[10 Myr, 20 Myr]') ;;
    iliev3) ex=iliev3; args=("${small[@]}" --set 'time.t_end=0.15 Myr' --set 'time.outputs=[0.05 Myr, 0.15 Myr]') ;;
    expanding) ex=expanding; args=("${small[@]}" --set 'sources=[{position: [8, 8, 8], Ndot: 1.0e54}]'
                                   --set 'time.dt=20 Myr' --set 'time.t_end=100 Myr' --set 'time.outputs=[40 Myr, 100 Myr]') ;;
    dice) ex=dice; args=(--set grid.N=24 --set 'time.t_end=3 Myr' --set 'time.outputs=[1 Myr, 3 Myr]'
                         --set 'sources=[{position: [11,11,11], Ndot: 5e48}, {position: [5,17,11], Ndot: 5e48}, {position: [5,5,11], Ndot: 5e48}, {position: [17,5,11], Ndot: 5e48}, {position: [17,17,11], Ndot: 5e48}]') ;;
    eor) ex=eor; args=("${small[@]}" --set 'sequence.redshifts=[20.0, 17.097, 15.026]' --set 'time.dt=40 Myr') ;;
    eor32) ex=eor; args=(--set grid.N=32 --set 'sequence.redshifts=[9.094, 8.569, 8.107]' --set 'time.dt=20 Myr') ;;
    helium) ex=helium; args=("${small[@]}" --set 'time.t_end=2 Myr' --set 'time.outputs=[1 Myr, 2 Myr]') ;;
    eor_helium) ex=eor_helium; args=("${small[@]}" --set 'sequence.redshifts=[20.0, 17.097, 15.026]' --set 'time.dt=40 Myr') ;;
    iliev4) ex=iliev4; args=("${small[@]}" --set 'time.t_end=0.03 Myr' --set 'time.outputs=[0.01 Myr, 0.03 Myr]') ;;
    iliev1_particles) ex=iliev1_particles; args=(--set particles.generate.count_1d=10 "${t1[@]}") ;;
    iliev2_particles) ex=iliev2_particles; args=(--set particles.generate.count_1d=10 --set 'time.t_end=20 Myr' --set 'time.outputs=[10 Myr, 20 Myr]') ;;
    iliev4_particles) ex=iliev4_particles; args=(--set particles.generate.count_1d=16 --set particles.generate.file=ic16/density.h5
                                                 --set 'sources={file: ic16/sources.txt}' --set 'time.t_end=0.03 Myr' --set 'time.outputs=[0.01 Myr, 0.03 Myr]') ;;
    mc) ex=default; args=("${small[@]}" "${t1[@]}" --set "$src16" --set raytracing.method=montecarlo
                          --set 'montecarlo={packets_per_source: 2000, seed: 5}') ;;
    mc_casea) ex=default; args=("${small[@]}" "${t1[@]}" --set "$src16" --set raytracing.method=montecarlo
                                --set 'montecarlo={packets_per_source: 1000, seed: 7, recombination_emission: true, target_relative_error: 0.2, max_packets_per_source: 4000}') ;;
    reduce|allreduce) ex=dice; args=(--set grid.N=16 --set mpi.reduction=$1 --set 'time.t_end=2 Myr' --set 'time.outputs=[2 Myr]'
                         --set 'sources=[{position: [3,3,3], Ndot: 5e48}, {position: [12,5,9], Ndot: 5e48}, {position: [7,13,2], Ndot: 5e48}]') ;;
    restart) ex=iliev2; args=("${small[@]}" --set 'time.t_end=20 Myr' --set 'time.outputs=[10 Myr, 20 Myr]' --set output.checkpoint_every=2) ;;
    particles_restart) ex=iliev2_particles; args=(--set particles.generate.count_1d=8 --set 'time.t_end=20 Myr' --set 'time.outputs=[20 Myr]' --set output.checkpoint_every=2) ;;
    *) echo "unknown case $1"; return 1 ;;
  esac
}
b_set=()
if [ -n "${IONF_COMPARE_B_SET:-}" ]; then
  IFS=';' read -ra kv <<< "$IONF_COMPARE_B_SET"
  for x in "${kv[@]}"; do b_set+=(--set "$x"); done
fi
run_one() { # run_one BINARY DIR CASE NP [--set ...] (runs in WORK/run, so that paths are alike)
  local bin="$1" dest="$2" name="$3" np="$4" dir="$work/run"
  shift 4
  rm -rf "$dir" "$dest"; mkdir -p "$dir" "$(dirname "$dest")"
  case_args "$name" || return 1
  args+=("$@")
  (cd "$dir" && {
    "$bin" example "$ex" > run.yaml || exit 1
    if [ "$name" = iliev4_particles ]; then "$bin" generate iliev4 --N 16 --out ic16 > gen.log 2>&1 || exit 1; fi
    mpirun --oversubscribe -np "$np" "$bin" run run.yaml --quiet --backend cpu "${args[@]}" --output out > run.log 2>&1 || exit 1
    if [ "$name" = restart ] || [ "$name" = particles_restart ]; then
      # continue from the step-2 checkpoint of the same run: the outputs after it must match
      last=$(ls out/snapshot_*.h5 | tail -1) && cp -r out first && rm "$last" "${last%.h5}".* 2>/dev/null;
      mpirun --oversubscribe -np "$np" "$bin" run run.yaml --quiet --backend cpu "${args[@]}" --output out \
        --restart out/checkpoint.h5 > restart.log 2>&1 || exit 1
    fi
  }) || { mv "$dir" "$dest"; echo "  $name np=$np: $bin failed (see $dest/run.log)"; return 1; }
  mv "$dir" "$dest"
}
fail=0
for name in "${cases[@]}"; do
  for np in 1 3; do
    d="$work/$name-np$np"
    run_one "$a" "$d/a" "$name" "$np" && run_one "$b" "$d/b" "$name" "$np" "${b_set[@]}" || { fail=1; continue; }
    if [ -n "${IONF_COMPARE_TOL:-}" ]; then
      if /usr/bin/python3 "$here/compare_fields.py" "$d/a/out" "$d/b/out" "$IONF_COMPARE_TOL" > "$d/compare.txt"; then
        echo "within $IONF_COMPARE_TOL: $name on $np rank(s): $(tail -1 "$d/compare.txt" | sed 's/.*snapshot(s); //')"
      else
        fail=1; echo "BEYOND $IONF_COMPARE_TOL: $name on $np rank(s)"; tail -3 "$d/compare.txt"
      fi
    elif /usr/bin/python3 "$here/compare_outputs.py" "$d/a/out" "$d/b/out" > "$d/compare.txt"; then
      echo "same: $name on $np rank(s) ($(ls "$d/a/out" | wc -l) files)"
    else
      fail=1; echo "DIFFERENT: $name on $np rank(s)"; head -20 "$d/compare.txt"
    fi
  done
done
exit $fail

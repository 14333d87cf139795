#!/usr/bin/env bash
# One call on the GPU machine: GPU tests, sanitizers, benchmarks; logs to $OUT.
# usage (from the repository root, with .devbuild and .devlibs carried):
#   bash benchmarks/gpu_session.sh [tests|bench|all|bvh|sphtrace|sphtune|sphprof|sphaim|sphiter|sphfinal|sphbench|sph4big|gputests|scale4|eight|sphrun|newgpu|two|gpus-sequence|validate NAME...]
# 'validate' runs the full-size validation scripts on the GPU; they need h5py and
# matplotlib there (carry .whl, see ../shared device notes: they are installed
# into /tmp/site when .whl is present).
set -u
export IONFRONT_REQUIRE_GPU=1 # a GPU test without a usable GPU fails, never skips (tests/test_util.h)
what="${1:-all}"
out="${OUT:-/tmp/out}"
mkdir -p "$out"
bash .devlibs/prune-libs .devlibs > /dev/null 2>&1
export LD_LIBRARY_PATH="$PWD/.devlibs" PATH="$PATH:$PWD/.devlibs/bin" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0
# NCCL is loaded at run time if found: the machine's copy (e.g. PyTorch's) will do
nccl_dir=$(dirname "$(find / -name 'libnccl.so.2' -not -path '*/proc/*' 2>/dev/null | head -1)" 2>/dev/null)
[ -n "$nccl_dir" ] && [ "$nccl_dir" != "." ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$nccl_dir"
root="$PWD"
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl > /dev/null 2>&1 && export PYTHONPATH=/tmp/site
fi
export PYTHONUNBUFFERED=1
mkdir -p /work
[ -e /work/main ] || ln -s "$root" /work/main   # the build folder's absolute paths
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
if [ "$what" = tests ] || [ "$what" = all ]; then
  (cd /work/main/.devbuild && OMP_NUM_THREADS=2 ctest --output-on-failure -j 8 2>&1) > "$out/ctest.log"
  tail -15 "$out/ctest.log"
  cd /work/main/.devbuild
  # both trace kernels: few sources (shell-wide launches) and many (a block per source)
  for tool in memcheck racecheck; do
    for cfg in "24 6 40 8" "24 5 400 300" "20 0 3 0"; do
      compute-sanitizer --tool $tool --error-exitcode 1 ./bench_raytrace cuda $cfg 1 \
        > "$out/sanitizer.log" 2>&1
      echo "compute-sanitizer $tool (bench_raytrace cuda $cfg): exit $? ($(tail -1 "$out/sanitizer.log"))"
    done
  done
  # the newer GPU paths: plane sources, changing sources, the BVH build
  for t in test_backend_agreement test_sequence_gpu test_bvh_gpu test_sph_trace_gpu; do
    compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1 tests/$t \
      > "$out/sanitizer_$t.log" 2>&1
    echo "compute-sanitizer memcheck $t: exit $? ($(tail -1 "$out/sanitizer_$t.log"))"
  done
  compute-sanitizer --tool racecheck --error-exitcode 1 ./bench_bvh cuda 100000 clustered 1 \
    > "$out/sanitizer_bvh.log" 2>&1
  echo "compute-sanitizer racecheck bench_bvh: exit $? ($(tail -1 "$out/sanitizer_bvh.log"))"
  cd "$root"
fi
if [ "$what" = bvh ]; then
  benchmarks/gpu_bvh.sh .devbuild 2>&1 | tee "$out/bvh.txt"
fi
if [ "$what" = sphtrace ]; then # the particle tracer: CPU == GPU, sanitizer, benchmark
  timeout 300 stdbuf -oL .devbuild/tests/test_sph_trace_gpu 2>&1 | tee "$out/test_sph_trace_gpu.log"
  for tool in memcheck racecheck; do # both schedules; the warp's shared-memory stack, keys, sort
    for s in warp:1024 warp:24 thread:1024; do
      compute-sanitizer --tool $tool --error-exitcode 1 .devbuild/bench_sph_trace both 20000 clustered 8:3 1 \
        --schedule ${s%%:*} --window-hits ${s##*:} > "$out/${tool}_sph_${s%%:*}_${s##*:}.log" 2>&1
      echo "compute-sanitizer $tool bench_sph_trace both 20000 clustered 8:3 ($s): exit $? ($(tail -1 "$out/${tool}_sph_${s%%:*}_${s##*:}.log"))"
    done
  done
  benchmarks/gpu_sph_trace.sh .devbuild 2>&1 | tee "$out/sph_trace.txt"
fi
if [ "$what" = sphtune ]; then # the warp schedule's window buffer and launch bound, measured
  timeout 300 stdbuf -oL .devbuild/tests/test_sph_trace_gpu > "$out/test_sph_trace_gpu.log" 2>&1
  echo "test_sph_trace_gpu: exit $? ($(grep -c 'rel diff' "$out/test_sph_trace_gpu.log") comparisons)"
  awk '/max rel diff/ {for (i = 1; i <= NF; ++i) if ($i == "gamma") g = $(i + 1); if (g > m) m = g} END {print "largest gamma difference in the test:", m}' "$out/test_sph_trace_gpu.log"
  .devbuild/bench_sph_trace both 2097152 uniform 32:10,64:1 3 --schedule warp | tee "$out/sph_agree.txt"
  .devbuild/bench_sph_trace both 2097152 clustered 8:10 3 --schedule warp | tee -a "$out/sph_agree.txt"
  for k in 256 512 1024; do
    for mb in 1 6 8; do
      .devbuild/bench_sph_trace cuda 2097152 uniform 32:100,128:10,256:1,8:1000 3 \
        --window-hits $k --min-blocks $mb | grep -v "^#" | sed "s/^cuda /keys=$k min_blocks=$mb /" | tee -a "$out/sph_tune.txt"
    done
  done
fi
if [ "$what" = sphfinal ]; then # the particle tracer's test, sanitizers on the default kernel, the runs
  timeout 300 stdbuf -oL .devbuild/tests/test_sph_trace_gpu > "$out/test_sph_trace_gpu.log" 2>&1
  echo "test_sph_trace_gpu: exit $? ($(grep -c 'rel diff' "$out/test_sph_trace_gpu.log") comparisons)"
  grep -E "periodic|FAIL" "$out/test_sph_trace_gpu.log" | cut -c1-200
  for tool in memcheck racecheck; do
    for s in warp:512 warp:64 thread:512; do # 64-hit windows: cut short when they overflow
      compute-sanitizer --tool $tool --error-exitcode 1 .devbuild/bench_sph_trace both 20000 clustered 8:3 1 \
        --schedule ${s%%:*} --window-hits ${s##*:} > "$out/${tool}_sph_${s%%:*}_${s##*:}.log" 2>&1
      echo "compute-sanitizer $tool bench_sph_trace both 20000 clustered 8:3 ($s): exit $? ($(tail -1 "$out/${tool}_sph_${s%%:*}_${s##*:}.log"))"
    done
  done
fi
if [ "$what" = sphprof ] || [ "$what" = sphiter ]; then # Nsight Compute on the warp tracer (counters: --clock-control none)
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  .devbuild/bench_sph_trace cuda 2097152 uniform 32:10,128:1 3 | tee "$out/sph_base.txt"
  "$ncu" --clock-control none --kernel-name regex:warp_rays_kernel --launch-skip 1 --launch-count 1 \
    --set full --import-source yes -f -o "$out/warp_prof" \
    .devbuild/bench_sph_trace cuda 2097152 uniform 32:10 2 > "$out/ncu_run.log" 2>&1
  echo "ncu: exit $? ($(tail -2 "$out/ncu_run.log"))"
  "$ncu" --import "$out/warp_prof.ncu-rep" --page details > "$out/ncu_details.txt" 2>&1
  "$ncu" --import "$out/warp_prof.ncu-rep" --page source --csv --print-source cuda,sass \
    > "$out/ncu_source.csv" 2>&1
  head -c 300 "$out/ncu_source.csv"; echo
fi
if [ "$what" = sphaim ] || [ "$what" = sphiter ]; then # the warp tracer's test, then its window aim and buffer, measured
  timeout 300 stdbuf -oL .devbuild/tests/test_sph_trace_gpu > "$out/test_sph_trace_gpu.log" 2>&1
  echo "test_sph_trace_gpu: exit $? ($(grep -c 'rel diff' "$out/test_sph_trace_gpu.log") comparisons)"
  .devbuild/bench_sph_trace both 2097152 uniform 32:10 3 | tee "$out/sph_agree.txt"
  .devbuild/bench_sph_trace both 2097152 clustered 8:10 3 | grep -v "^#" | tee -a "$out/sph_agree.txt"
  for k in 512 1024; do
    for aim in ${AIMS:-0.35 0.5 0.7 0.85}; do
      .devbuild/bench_sph_trace cuda 2097152 uniform 32:10,128:1 3 --window-hits $k --window-aim $aim \
        | grep -v "^#" | sed "s/^cuda /keys=$k aim=$aim /" | tee -a "$out/sph_aim.txt"
    done
  done
fi
if [ "$what" = sphbench ]; then # the particle tracer's benchmark alone
  benchmarks/gpu_sph_trace.sh .devbuild 2>&1 | tee "$out/sph_trace.txt"
fi
if [ "$what" = gputests ]; then # the GPU-labelled tests alone
  (cd /work/main/.devbuild && OMP_NUM_THREADS=4 ctest -L gpu --output-on-failure 2>&1) > "$out/ctest_gpu.log"
  tail -16 "$out/ctest_gpu.log"
fi
if [ "$what" = sph4big ]; then # Test 4 on 128^3 particles (the figure compared with taranis)
  python3 validation/sph_iliev4.py --ionfront .devbuild/ionfront --N 128 --run-dir /tmp/v4 \
    --out "$out/sph_iliev4_128" > "$out/sph_iliev4_128.log" 2>&1
  echo "sph_iliev4 --N 128: exit $?"
  grep -A4 "## Wall time" "$out/sph_iliev4_128/sph_iliev4_numbers.md"
  grep -A8 "## Ionized fraction" "$out/sph_iliev4_128/sph_iliev4_numbers.md"
fi
if [ "$what" = scale4 ]; then # particles and Monte Carlo on 1, 2, 4 GPUs (one rank per GPU)
  nvidia-smi topo -m | tee "$out/topo.txt"
  b="$root/.devbuild/ionfront"
  mkdir -p /tmp/s4 && cd /tmp/s4
  "$b" example iliev4_particles > p4.yaml
  "$b" generate iliev4 --N 96 --out ic96 > gen.log 2>&1 || echo "generate failed: $(tail -2 gen.log)"
  for p in 1 2 4; do
    mpirun --allow-run-as-root -np $p -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS=8 \
      "$b" run p4.yaml --backend cuda --quiet --set particles.generate.count_1d=96 \
      --set particles.generate.file=ic96/density.h5 --set sources.file=ic96/sources.txt \
      --set 'time.t_end=0.1 Myr' --set 'time.outputs=[0.1 Myr]' --output /tmp/s4/p$p > /tmp/s4/p$p.log 2>&1
    echo "iliev4_particles 96^3 (16 sources, 10 steps) on $p GPU(s): exit $?; $(grep -E 'done:' /tmp/s4/p$p.log)"
  done
  python3 - <<'PY'
import glob
import h5py
import numpy as np
a = sorted(glob.glob("/tmp/s4/p1/snapshot_*.h5"))[-1]
for p in (2, 4):
    for d in ("IonizedFraction", "PhotoionizationRate"):
        x, y = h5py.File(a)["PartType0/" + d][...], h5py.File(a.replace("p1", f"p{p}"))["PartType0/" + d][...]
        print(f"particles 1 vs {p} GPUs, {d}: largest relative difference {np.max(np.abs(x - y) / np.maximum(np.abs(x), 1e-300)):.2e}")
PY
  cd "$root"
  for p in 1 2 4; do
    echo "bench_mc on $p GPU(s): $(mpirun --allow-run-as-root -np $p -x LD_LIBRARY_PATH .devbuild/bench_mc cuda 256 100 1000000 0.999 3 2>&1 | grep -v '^#' | tail -1)"
  done
fi
if [ "$what" = eight ]; then # the 8-GPU scaling issue: grid strong/weak, Monte Carlo, particles
  nvidia-smi topo -m > "$out/topo.txt" 2>&1; head -10 "$out/topo.txt"
  COUNTS="1 2 4 8" MODES=nccl benchmarks/gpu_scaling.sh .devbuild 8 2>&1 | grep -E "^(strong|weak|#)" | tee "$out/scaling8.txt"
  for p in 1 2 4 8; do
    echo "bench_mc on $p GPU(s): $(mpirun --allow-run-as-root -np $p -x LD_LIBRARY_PATH .devbuild/bench_mc cuda 256 100 1000000 0.999 3 2>&1 | grep -v '^#' | tail -1)" | tee -a "$out/mc8.txt"
  done
  b="$root/.devbuild/ionfront"
  mkdir -p /tmp/s8 && cd /tmp/s8
  "$b" example iliev4_particles > p4.yaml
  "$b" generate iliev4 --N 96 --out ic96 > gen.log 2>&1 || echo "generate failed: $(tail -2 gen.log)"
  for p in 1 2 4 8; do
    mpirun --allow-run-as-root -np $p -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS=8 \
      "$b" run p4.yaml --backend cuda --quiet --set particles.generate.count_1d=96 \
      --set particles.generate.file=ic96/density.h5 --set sources.file=ic96/sources.txt \
      --set 'time.t_end=0.1 Myr' --set 'time.outputs=[0.1 Myr]' --output /tmp/s8/p$p > /tmp/s8/p$p.log 2>&1
    echo "iliev4_particles 96^3 (16 sources, 10 steps) on $p GPU(s): exit $?; $(grep -E 'done:' /tmp/s8/p$p.log)" | tee -a "$out/sph8.txt"
  done
  cd "$root"
fi
if [ "$what" = newgpu ]; then # this session's GPU code under compute-sanitizer memcheck
  for t in test_sph_trace_gpu test_sph_chem_gpu test_mc_gpu test_render_gpu; do
    compute-sanitizer --tool memcheck --error-exitcode 1 .devbuild/tests/$t > "$out/sanitizer_$t.log" 2>&1
    echo "compute-sanitizer memcheck $t: exit $? ($(tail -1 "$out/sanitizer_$t.log"))"
  done
  compute-sanitizer --tool racecheck --error-exitcode 1 .devbuild/tests/test_mc_gpu > "$out/racecheck_mc.log" 2>&1
  echo "compute-sanitizer racecheck test_mc_gpu: exit $? ($(tail -1 "$out/racecheck_mc.log"))"
fi
if [ "$what" = two ]; then # two GPUs: Monte Carlo and particles on 1 vs 2 GPUs, 8 ranks on 2 GPUs
  nvidia-smi topo -m | tee "$out/topo.txt"
  .devbuild/tests/test_render_gpu > "$out/render_gpu.txt" 2>&1; echo "test_render_gpu: exit $?"
  (cd .devbuild && OMP_NUM_THREADS=4 ctest -R "cli_mc_gpu" --output-on-failure > "$out/cli_mc_gpu.log" 2>&1; echo "cli_mc_gpu: exit $?")
  b="$root/.devbuild/ionfront"
  mkdir -p /tmp/two && cd /tmp/two
  "$b" example iliev2_particles > p.yaml
  for p in 1 2; do
    mpirun --allow-run-as-root -np $p -x LD_LIBRARY_PATH "$b" run p.yaml --backend cuda --quiet \
      --set particles.generate.count_1d=32 --set time.t_end=30Myr --set 'time.outputs=[30Myr]' \
      --output /tmp/two/p$p > /tmp/two/p$p.log 2>&1
    echo "iliev2_particles 32^3 on $p GPU(s): exit $?; $(grep -E 'done:' /tmp/two/p$p.log)"
  done
  "$b" example dice > d.yaml
  for p in 1 8; do
    mpirun --allow-run-as-root --oversubscribe -np $p -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE "$b" run d.yaml \
      --backend cuda --set time.t_end=1Myr --set 'time.outputs=[1Myr]' --output /tmp/two/d$p > /tmp/two/d$p.log 2>&1
    rc=$?
    echo "dice 128^3 to 1 Myr, $p rank(s) on $(nvidia-smi -L | wc -l) GPUs: exit $rc; $(grep -E 'done:|rank 0' /tmp/two/d$p.log | tail -3)"
  done
  python3 - <<'PY'
import glob
import h5py
import numpy as np
a = sorted(glob.glob("/tmp/two/p1/snapshot_*.h5"))[-1]
for d in ("IonizedFraction", "PhotoionizationRate", "Temperature"):
    x, y = h5py.File(a)["PartType0/" + d][...], h5py.File(a.replace("p1", "p2"))["PartType0/" + d][...]
    print(f"particles 1 vs 2 GPUs, {d}: largest relative difference {np.max(np.abs(x - y) / np.maximum(np.abs(x), 1e-300)):.2e}")
a = sorted(glob.glob("/tmp/two/d1/snapshot_*.h5"))[-1]
for d in ("x_HII", "Gamma_HI", "T"):
    x, y = h5py.File(a)["Grid/" + d][...], h5py.File(a.replace("d1", "d8"))["Grid/" + d][...]
    print(f"dice 1 rank vs 8 ranks on 2 GPUs, {d}: largest relative difference {np.max(np.abs(x - y) / np.maximum(np.abs(x), 1e-300)):.2e}")
PY
  cd "$root"
  benchmarks/gpu_mc.sh .devbuild 2>&1 | tee "$out/mc_two.txt"
fi
if [ "$what" = sphrun ]; then # the particle engine on the GPU: chemistry kernel, CPU vs CUDA runs
  .devbuild/tests/test_sph_chem_gpu 2>&1 | tee "$out/test_sph_chem_gpu.log"
  compute-sanitizer --tool memcheck --error-exitcode 1 .devbuild/tests/test_sph_chem_gpu \
    > "$out/sanitizer_sph_chem.log" 2>&1
  echo "compute-sanitizer memcheck test_sph_chem_gpu: exit $? ($(tail -1 "$out/sanitizer_sph_chem.log"))"
  b="$root/.devbuild/ionfront"
  mkdir -p /tmp/sr && cd /tmp/sr
  # the third wraps its rays through the periodic box (source in a corner: 8 images meet)
  for run in iliev1_particles iliev2_particles iliev1_particles:periodic; do
    prob=${run%%:*}
    extra=()
    [ "$run" != "$prob" ] && extra=(--set particles.wrap_rays=true --set 'raytracing.R_max=4 kpc')
    "$b" example $prob > $prob.yaml
    prob=${run/:/_}
    for be in cpu cuda; do
      "$b" run ${run%%:*}.yaml --backend $be --quiet --set particles.generate.count_1d=24 \
        --set time.t_end=30Myr --set 'time.outputs=[30Myr]' "${extra[@]}" --output /tmp/sr/$prob-$be \
        > /tmp/sr/$prob-$be.log 2>&1
      echo "$prob 24^3 to 30 Myr ($be): exit $?; $(grep -E 'tracer|done:' /tmp/sr/$prob-$be.log | tr '\n' ' ')"
    done
    python3 - "$prob" <<'PY'
import sys
import h5py
import numpy as np
prob = sys.argv[1]
a = h5py.File(f"/tmp/sr/{prob}-cpu/snapshot_0001.h5")
b = h5py.File(f"/tmp/sr/{prob}-cuda/snapshot_0001.h5")
for d in ("IonizedFraction", "PhotoionizationRate", "Temperature"):
    x, y = a["PartType0/" + d][...], b["PartType0/" + d][...]
    r = np.max(np.abs(x - y) / np.maximum(np.abs(x), 1e-300))
    print(f"  {prob} {d}: CPU vs CUDA largest relative difference {r:.2e}")
PY
  done
  cd "$root"
fi
if [ "$what" = validate ]; then # full-size validation runs with the CUDA backend
  shift
  for name in "$@"; do
    mkdir -p "$out/$name"
    python3 "validation/$name.py" --ionfront .devbuild/ionfront --run-dir "/tmp/validation_$name" \
      --out "$out/$name" > "$out/validate_$name.log" 2>&1
    echo "validation/$name.py (GPU, full size): exit $?"
    grep -E "Wall time|elapsed|done:|Result|FAIL" "$out/validate_$name.log" | tail -6
  done
fi
if [ "$what" = gpus-sequence ]; then # 1 and 2 GPUs: eor (sources change) and iliev3 (plane source)
  b="$root/.devbuild/ionfront"
  mkdir -p /tmp/gs && cd /tmp/gs && "$b" example eor > eor.yaml && "$b" example iliev3 > iliev3.yaml
  for p in 1 2; do
    mpirun --allow-run-as-root -np $p -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE "$b" run eor.yaml \
      --backend cuda --quiet --set grid.N=48 --output /tmp/gs/eor$p > /tmp/gs/eor$p.log 2>&1
    echo "eor on $p GPU(s): exit $?"
    mpirun --allow-run-as-root -np $p -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE "$b" run iliev3.yaml \
      --backend cuda --quiet --set grid.N=64 --set time.t_end=3Myr --set 'time.outputs=[1Myr,3Myr]' \
      --output /tmp/gs/v3$p > /tmp/gs/v3$p.log 2>&1
    echo "iliev3 on $p GPU(s): exit $?"
  done
  python3 - <<'PY'
import glob
import h5py
import numpy as np
for name in ("eor", "v3"):
    a = sorted(glob.glob(f"/tmp/gs/{name}1/snapshot_*.h5"))[-1]
    b = a.replace(f"{name}1", f"{name}2")
    for d in ("x_HII", "Gamma_HI", "T"):
        x, y = h5py.File(a)["Grid/" + d][...], h5py.File(b)["Grid/" + d][...]
        r = np.max(np.abs(x - y) / np.maximum(np.abs(x), 1e-300))
        print(f"{name}: 1 vs 2 GPUs, {d}: largest relative difference {r:.2e}")
PY
  cd "$root"
fi
if [ "$what" = ncu ] || [ "$what" = all ]; then
  ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
    -k asora_trace_kernel -c 1 .devbuild/bench_raytrace cuda 250 30 2000 0 1 > "$out/ncu.txt" 2>&1
  grep -E "Duration|Throughput|Achieved Occupancy|Registers|Theoretical Occupancy|Block Limit" "$out/ncu.txt" | head -20
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  benchmarks/gpu_raytrace.sh .devbuild ${QUICK:-} 2>&1 | tee "$out/bench.txt"
fi
if [ "$what" = scaling ]; then
  benchmarks/gpu_scaling.sh .devbuild 2>&1 | tee "$out/scaling.txt"
fi
if [ "$what" = scaling ]; then # 1 and 2 GPUs give the same answer
  cd .devbuild
  for p in 1 2; do
    mpirun --allow-run-as-root -np $p -x LD_LIBRARY_PATH ./ionfront run --quiet --backend cuda \
      --set grid.N=48 --set 'sources=[{position: [3, 4, 5], Ndot: 1e49}, {position: [40, 30, 12], Ndot: 3e48}, {position: [20, 20, 20], Ndot: 5e48}]' \
      --output /tmp/gpus$p > /tmp/gpus$p.log 2>&1 || tail -5 /tmp/gpus$p.log
  done
  grep -E "^rank" /tmp/gpus2.log
  python3 -c "
import h5py, numpy as np
for d in ('x_HII', 'Gamma_HI'):
    a = h5py.File('/tmp/gpus1/snapshot_0005.h5')['Grid/' + d][...]
    b = h5py.File('/tmp/gpus2/snapshot_0005.h5')['Grid/' + d][...]
    print('1 vs 2 GPUs:', d, 'largest relative difference', np.max(np.abs(a - b) / np.maximum(np.abs(a), 1e-300)))"
  cd ..
fi

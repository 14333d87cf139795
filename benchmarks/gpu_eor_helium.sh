#!/usr/bin/env bash
# eor_helium's validation at full size on the GPU machine, across calls.  At 128^3 its
# three runs take about 19 minutes of one H200 (400 s, 29 s and 684 s: benchmarks/
# RESULTS.md, fourth stop of issue 21), more than one call's 10: the first call starts
# validation/eor_helium.py detached (its run folder in /tmp, kept while the machine stays
# warm), and each call waits up to WAIT seconds; once it has finished, the figure, the
# numbers and the script's log are copied to $OUT and its exit code printed.
# Packed as in ../shared/gpu-machine/README.md (benchmarks/pack_gpu.sh).  From the
# repository root, on the GPU machine (then again until it says "finished"):
#   N=128 WAIT=560 bash benchmarks/gpu_eor_helium.sh
# (to start afresh: rm -rf /tmp/eor_helium_N*)
# IONFRONT (default .devbuild/ionfront) and PYTHON (default python3: numpy, h5py and
# matplotlib) choose the programs.  GPUS=2 (kind nvidia-h200-x2): the hydrogen-only and
# main runs on GPU 0 and the 5e4 K run on GPU 1 side by side (eor_helium.py --only-run),
# then the analysis (--use-existing); GPU 0 is free once $run.gpu0_done exists, and
# UNTIL=gpu0 makes a call wait for that instead of the end.
set -u
final="${OUT:-/tmp/out}"
n="${N:-128}"
wait_s="${WAIT:-560}"
python="${PYTHON:-python3}"
[ -f .devpack.tar.xz ] && [ ! -d .devbuild ] && tar -xJf .devpack.tar.xz
[ -d .devlibs ] && export LD_LIBRARY_PATH="$PWD/.devlibs"
export NCCL_NVLS_ENABLE=0 PYTHONUNBUFFERED=1
ionfront="${IONFRONT:-$PWD/.devbuild/ionfront}"
gpus="${GPUS:-1}"
run="/tmp/eor_helium_$n"
mkdir -p "$final"
if [ ! -f "$run.pid" ]; then
  rm -rf "$run.docs" "$run.rc" "$run.gpu0_done"
  script="\"$python\" validation/eor_helium.py --ionfront \"$ionfront\" --N $n"
  if [ "$gpus" = 2 ]; then
    # GPU 0: the main run, then the hydrogen-only one; GPU 1: the 5e4 K run; then the analysis
    job="(CUDA_VISIBLE_DEVICES=0 $script --run-dir \"$run\" --only-run main --only-run reference \
           > \"$run.gpu0.log\" 2>&1; echo \$? > \"$run.gpu0_done\") &
         (CUDA_VISIBLE_DEVICES=1 $script --run-dir \"$run\" --only-run soft > \"$run.gpu1.log\" 2>&1) &
         wait; cat \"$run.gpu0.log\" \"$run.gpu1.log\" > \"$run.log\"
         $script --use-existing \"$run\" --out \"$run.docs\" >> \"$run.log\" 2>&1"
  else
    job="$script --run-dir \"$run\" --out \"$run.docs\" > \"$run.log\" 2>&1"
  fi
  # the exit code is written when the script ends, whichever call is waiting then
  setsid nohup bash -c "$job; echo \$? > \"$run.rc\"" < /dev/null > /dev/null 2>&1 &
  echo $! > "$run.pid"
  echo "started validation/eor_helium.py --N $n on $gpus GPU(s) (log $run.log)"
fi
until_file="$run.rc"
[ "${UNTIL:-}" = gpu0 ] && until_file="$run.gpu0_done"
end=$((SECONDS + wait_s))
while [ ! -f "$until_file" ] && [ ! -f "$run.rc" ] && [ $SECONDS -lt "$end" ]; do sleep 5; done
[ -f "$run.gpu0_done" ] && echo "GPU 0's runs done (exit $(cat "$run.gpu0_done"))"
for f in "$run.gpu0.log" "$run.gpu1.log"; do [ -f "$f" ] && tail -2 "$f"; done
[ -f "$run.log" ] && tail -3 "$run.log"
if [ -f "$run.rc" ]; then
  cp -r "$run.docs"/. "$final"/ 2>/dev/null
  cp "$run.log" "$final"/eor_helium_$n.log
  echo "finished: validation/eor_helium.py exit $(cat "$run.rc") (0 pass, 1 fail, 77 skip)"
else
  echo "still running: call again"
fi

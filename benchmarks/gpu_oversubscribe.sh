export LD_LIBRARY_PATH=$PWD/.devlibs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
bash .devlibs/prune-libs .devlibs >/dev/null 2>&1
python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl >/dev/null 2>&1; export PYTHONPATH=/tmp/site
nccl_dir=$(dirname "$(find / -name 'libnccl.so.2' -not -path '*/proc/*' 2>/dev/null | head -1)" 2>/dev/null)
[ -n "$nccl_dir" ] && [ "$nccl_dir" != "." ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$nccl_dir"
b=$PWD/.devbuild/ionfront; mkdir -p /tmp/two && cd /tmp/two && $b example dice > d.yaml
for p in 1 2 8; do
  mpirun --allow-run-as-root --oversubscribe -np $p -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS=2 $b run d.yaml --backend cuda --set time.t_end=1Myr --set 'time.outputs=[1Myr]' --output /tmp/two/d$p > /tmp/two/d$p.log 2>&1
  rc=$?; echo "dice 128^3 to 1 Myr, $p rank(s) on 2 GPUs: exit $rc"; grep -E "done:|^rank|GPU" /tmp/two/d$p.log | head -12
done
python3 - <<'PY'
import glob, h5py, numpy as np
a = sorted(glob.glob("/tmp/two/d1/snapshot_*.h5"))[-1]
for q in ("d2", "d8"):
    for d in ("x_HII", "Gamma_HI", "T"):
        x, y = h5py.File(a)["Grid/" + d][...], h5py.File(a.replace("d1", q))["Grid/" + d][...]
        print(f"dice 1 rank vs {q[1:]} ranks on 2 GPUs, {d}: largest relative difference {np.max(np.abs(x - y) / np.maximum(np.abs(x), 1e-300)):.2e}")
PY

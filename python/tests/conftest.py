import os
import sys

# the package from this source tree (python/ionfront) unless one is installed on purpose
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# a short Test 1 (Iliev et al. 2006): 16^3, three steps, the last one shortened to t_end
SMALL_TEST1 = {"grid.N": 16, "time.dt": "10 Myr", "time.t_end": "25 Myr",
               "time.outputs": "[25 Myr]", "output.progress": False,
               "raytracing.backend": "cpu"}


def run_to_end(engine):
    """Step to t_end as `ionfront run` does (the last step lands on t_end exactly)."""
    dt, t_end = engine.dt_s, engine.t_end_s
    while engine.time_s < t_end - 1e-9 * dt:
        step = dt
        if t_end - engine.time_s - step < 1e-9 * dt:
            step = t_end - engine.time_s
        engine.step(step)


def require_gpu():
    """Skip the calling test without a usable GPU, through the tests' one GPU detection
    (tests/gpu_probe.c, its path in IONFRONT_GPU_PROBE, set by ctest); with
    IONFRONT_REQUIRE_GPU=1 a missing GPU fails the test instead (a broken driver must
    not read as "no GPU")."""
    import subprocess

    import pytest
    required = os.environ.get("IONFRONT_REQUIRE_GPU") == "1"
    probe = os.environ.get("IONFRONT_GPU_PROBE")
    if not probe:
        why = "IONFRONT_GPU_PROBE (tests/gpu_probe) not set: run through ctest"
    else:
        r = subprocess.run([probe], capture_output=True, text=True)
        if r.returncode == 0:
            return
        why = (r.stdout + r.stderr).strip() or f"gpu_probe exit code {r.returncode}"
    if required:
        pytest.fail(f"no usable GPU and IONFRONT_REQUIRE_GPU=1: {why}")
    pytest.skip(why)


def run_ranks(script, ranks, *args):
    """Run python/tests/SCRIPT under mpiexec on `ranks` ranks with ARGS (skips the calling
    test without mpi4py or mpiexec); returns its standard output, asserting exit 0."""
    import shutil
    import subprocess

    import pytest
    pytest.importorskip("mpi4py")
    mpiexec = shutil.which("mpiexec") or shutil.which("mpirun")
    if not mpiexec:
        pytest.skip("no mpiexec")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS="1")
    cmd = [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", str(ranks), sys.executable,
           os.path.join(os.path.dirname(os.path.abspath(__file__)), script)] + [str(a) for a in args]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout

"""The Python package over libionfront: arrays round-trip without copies, a short
Test 1 equals the C API's bit for bit, errors raise with the C message, sources set
from Python change the rates, and a run on 2 MPI ranks (mpi4py) matches 1 rank."""
import os
import subprocess
import sys

import numpy as np
import pytest

import ionfront
from conftest import SMALL_TEST1, require_gpu, run_ranks, run_to_end

HERE = os.path.dirname(os.path.abspath(__file__))


def small(tmp_path, **more):
    return ionfront.Engine(overrides={**SMALL_TEST1, "output.directory": str(tmp_path), **more})


def test_fields_round_trip_without_copies(tmp_path):
    rng = np.random.default_rng(3)
    with small(tmp_path) as e:
        n = e.n
        assert n == 16
        x = e.field("x_HII")
        assert x.shape == (n, n, n) and x.dtype == np.float64
        # two borrows are one buffer: a view on the engine's memory, not a copy
        assert np.shares_memory(x, e.field("x_HII"))
        want = rng.uniform(0.0, 1.0, (n, n, n))
        e.set_field("x_HII", want)
        assert np.array_equal(e.x_HII, want)
        dens = rng.uniform(1e-4, 1e-2, (n, n, n))
        e.set_field("n_H", dens)
        assert np.array_equal(e.n_H, dens)
        # writing through the view, then field_modified
        t = e.T
        t[...] = 2.0e4
        e.field_modified("T")
        assert np.all(e.T == 2.0e4)
        e.step(e.dt_s)  # the engine runs from the values set
        assert not np.array_equal(e.x_HII, want)


def test_local_box_shapes_the_fields(tmp_path):
    """The fields are the cells this rank holds (its local box); a refused value leaves
    the field as it was."""
    with small(tmp_path) as e:
        first, extent, halo = e.local_box
        assert first == (0, 0, 0) and extent == (e.n, e.n, e.n) and halo == 0
        assert e.field("x_HII").shape == extent
        before = e.x_HII.copy()
        bad = np.full(extent, 0.5)
        bad[1, 2, 3] = np.nan
        with pytest.raises(ionfront.IonfrontError):
            e.set_field("x_HII", bad)
        assert np.array_equal(e.x_HII, before)


def test_test1_equals_the_c_api(tmp_path):
    """The C program tests/api/test_api_iliev1.c and Python, same config: identical x_HII."""
    h5py = pytest.importorskip("h5py")
    c_program = os.environ.get("IONFRONT_TEST_API_ILIEV1")
    if not c_program:
        pytest.skip("IONFRONT_TEST_API_ILIEV1 (the C test program) not set: run through ctest")
    sets = [f"{k}={'false' if v is False else v}" for k, v in SMALL_TEST1.items()]
    subprocess.run([c_program, str(tmp_path / "c")] + sets, check=True, capture_output=True)
    with small(tmp_path / "py") as e:
        run_to_end(e)
        x_py = e.x_HII.copy()
        gamma_py = e.Gamma_HI.copy()
        assert e.steps == 3
        path = e.write_snapshot(1)
        assert os.path.exists(path)
    with h5py.File(tmp_path / "c" / "snapshot_0001.h5", "r") as f:
        x_c = f["/Grid/x_HII"][...]
        gamma_c = f["/Grid/Gamma_HI"][...]
    assert 0.0 < x_c.mean() < 1.0
    assert np.array_equal(x_py, x_c), np.abs(x_py - x_c).max()
    assert np.array_equal(gamma_py, gamma_c)


def test_errors_raise_with_the_c_message(tmp_path):
    with pytest.raises(ionfront.IonfrontError) as err:
        ionfront.Engine(overrides={"grid.NN": 8})
    assert "grid.NN" in str(err.value) and err.value.status == 2
    assert err.value.status_name == "configuration error"
    with pytest.raises(ionfront.IonfrontError, match="cannot open config file '/nonexistent.yaml'"):
        ionfront.Engine("/nonexistent.yaml")
    e = small(tmp_path)
    with pytest.raises(ionfront.IonfrontError, match="no field 'x_HI'"):
        e.field("x_HI")
    with pytest.raises(ionfront.IonfrontError, match="values given for 'n_H'"):
        e.set_field("n_H", np.ones(7))
    with pytest.raises(ionfront.IonfrontError, match="outside the box"):
        e.set_sources([[1, 2, 99]], [1e50])
    with pytest.raises(ionfront.IonfrontError, match="dt_s = -1"):
        e.step(-1.0)
    e.close()
    with pytest.raises(ionfront.IonfrontError, match="closed"):
        e.step(1e13)


def test_sources_from_python(tmp_path):
    with small(tmp_path) as e:
        assert e.source_count == 1
        # two sources in cm, one in cells, two in one cell: merged
        c = e.cell_cm
        e.set_sources([[3.5 * c, 3.5 * c, 3.5 * c], [12.2 * c, 12.2 * c, 12.2 * c]], [2e50, 1e50],
                      units="cm")
        assert e.source_count == 2
        e.step(e.dt_s)
        g = e.Gamma_HI
        assert g[3, 3, 3] > 0 and g[12, 12, 12] > 0
        # the brighter source ionizes more around it
        x = e.x_HII
        assert x[1:6, 1:6, 1:6].sum() > x[10:15, 10:15, 10:15].sum()
        e.set_sources(np.zeros((0, 3)), np.zeros(0))
        assert e.source_count == 0


def test_mpi4py_two_ranks_match_one(tmp_path):
    results = {}
    for p in (1, 2):
        out = tmp_path / f"x{p}.npy"
        assert f"ranks {p}" in run_ranks("mpi_ranks.py", p, out, tmp_path / f"run{p}")
        results[p] = np.load(out)
    assert 0.0 < results[1].mean() < 1.0
    # the rates are summed over the ranks in another order: equal to 1e-12, as cli_mpi_ranks
    np.testing.assert_allclose(results[2], results[1], rtol=1e-12, atol=0)
    # sub-communicators: on 2 ranks split in two, each rank ran alone = the 1-rank run
    for r in (0, 1):
        alone = np.load(tmp_path / f"x2_alone{r}.npy")
        assert np.array_equal(alone, results[1]), f"rank {r} alone differs from 1 rank"


def test_custom_sources_example_runs(tmp_path):
    """python/examples/custom_sources.py: sources switch on as haloes grow; x rises."""
    script = os.path.join(HERE, "..", "examples", "custom_sources.py")
    done = subprocess.run([sys.executable, script, "--N", "12", "--steps", "3", "--out",
                           str(tmp_path / "out")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    means = [float(line.split("<x_HII> = ")[1].split(",")[0])
             for line in done.stdout.splitlines() if "<x_HII>" in line]
    assert len(means) == 3 and 0.0 < means[0] < means[1] < means[2] < 1.0, done.stdout
    assert (tmp_path / "out" / "snapshot_0001.h5").exists()


PARTICLES = {"particles.generate.count_1d": 8, "time.dt": "10 Myr", "time.t_end": "20 Myr",
             "time.outputs": "[20 Myr]", "output.progress": False, "raytracing.backend": "cpu"}


def test_particle_run_equals_the_command_line(tmp_path):
    """iliev1_particles stepped from Python matches `ionfront run` of it, per particle."""
    h5py = pytest.importorskip("h5py")
    cli = os.environ.get("IONFRONT_CLI")
    if not cli:
        pytest.skip("IONFRONT_CLI (the ionfront command) not set: run through ctest")
    with ionfront.Engine(builtin="iliev1_particles",
                         overrides={**PARTICLES, "output.directory": str(tmp_path / "py")}) as e:
        assert e.is_particles and e.particle_count == 512
        assert e.field("position_cm").shape == (512, 3)
        x0 = e.x_HII.copy()
        run_to_end(e)
        x = e.x_HII.copy()
        assert x.shape == (512,) and x.max() > x0.max()
        with pytest.raises(ionfront.IonfrontError, match="no grid"):
            e.n
    example = subprocess.run([cli, "example", "iliev1_particles"], capture_output=True, text=True,
                             check=True).stdout
    (tmp_path / "p.yaml").write_text(example)
    args = [cli, "run", str(tmp_path / "p.yaml"), "--output", str(tmp_path / "cli")]
    for k, v in PARTICLES.items():
        args += ["--set", f"{k}={'false' if v is False else v}"]
    subprocess.run(args, check=True, capture_output=True,
                   env=dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2")))
    with h5py.File(tmp_path / "cli" / "snapshot_0001.h5", "r") as f:
        x_cli = f["/PartType0/IonizedFraction"][...]
    # the multithreaded particle tracer sums rates in a varying order: two `ionfront run`s
    # with 2 threads already differ in the last bit, so to 1e-12 as cli_particles_run
    np.testing.assert_allclose(x, x_cli, rtol=1e-12, atol=0)


def test_particle_checkpoint_and_restart(tmp_path):
    """A particle engine's checkpoint from Python: two steps, checkpoint, a new engine
    restarted from it and two more steps give the four-step engine's x_HII (to 1e-12:
    the threaded tracer); a grid engine refuses the particle checkpoint."""
    over = {**PARTICLES, "time.t_end": "40 Myr", "time.outputs": "[40 Myr]"}
    with ionfront.Engine(builtin="iliev1_particles",
                         overrides={**over, "output.directory": str(tmp_path / "a")}) as e:
        for _ in range(2):
            e.step(e.dt_s)
        path = e.write_checkpoint()
        for _ in range(2):
            e.step(e.dt_s)
        x_full = e.x_HII.copy()
    assert path.endswith("checkpoint.h5")
    with ionfront.Engine(builtin="iliev1_particles",
                         overrides={**over, "output.directory": str(tmp_path / "b")}) as e:
        e.restart(path)
        assert e.steps == 2
        for _ in range(2):
            e.step(e.dt_s)
        np.testing.assert_allclose(e.x_HII, x_full, rtol=1e-12, atol=0)
    with small(tmp_path / "grid") as g:
        with pytest.raises(ionfront.IonfrontError, match="checkpoint of a particle run"):
            g.restart(path)


def test_gpu_fields_and_sources_match_cpu(tmp_path):
    """On a GPU (CUDA build): fields set from Python reach the GPU, sources too, and the
    steps give the CPU's result (x_HII and T to 1e-10, Gamma to 1e-9, as
    test_backend_agreement and cli_mc_gpu).  Skips without a GPU."""
    require_gpu()
    results = {}
    for backend in ("cpu", "cuda"):
        with small(tmp_path / backend, **{"raytracing.backend": backend,
                                          "material.isothermal": False}) as e:
            n = e.n
            x0 = np.full((n, n, n), 1.2e-3)
            x0[:4, :4, :4] = 0.5  # a pre-ionized corner
            e.set_field("x_HII", x0)
            t = e.T
            t[:, :, : n // 2] = 2.0e4  # through the view, then taken in
            e.field_modified("T")
            e.set_sources([[2, 3, 4], [12, 5, 9]], [1e49, 3e49])
            e.step(e.dt_s)
            e.step(e.dt_s)
            results[backend] = (e.x_HII.copy(), e.T.copy(), e.Gamma_HI.copy())
    for name, a, b, rtol in zip(("x_HII", "T", "Gamma_HI"), results["cpu"], results["cuda"],
                                (1e-10, 1e-10, 1e-9)):
        np.testing.assert_allclose(b, a, rtol=rtol, atol=0, err_msg=name)


def test_messages_go_to_logging_or_a_handler_never_to_the_terminal(tmp_path, caplog, capfd):
    """The library prints nothing: progress lines and warnings become "ionfront" logging
    records by default, reach set_log_handler's function instead, or are dropped."""
    import logging
    chatty = {"output.progress": True, "raytracing.max_iterations": 1}  # progress, warnings
    with caplog.at_level(logging.INFO, logger="ionfront"):
        with small(tmp_path / "a", **chatty) as e:
            e.run()
    records = [r for r in caplog.records if r.name == "ionfront"]
    assert any(r.levelno == logging.INFO and r.getMessage().startswith("step") for r in records)
    assert any(r.levelno == logging.WARNING and "not converged" in r.getMessage() for r in records)
    got = []
    try:
        ionfront.set_log_handler(lambda level, text: got.append((level, text)))
        with small(tmp_path / "b", **chatty) as e:
            e.run()
        assert any(level == ionfront.LOG_INFO and text.startswith("step") for level, text in got)
        assert any(level == ionfront.LOG_WARNING and "not converged" in text for level, text in got)
        assert all("\n" not in text for _, text in got)
        n = len(got)
        ionfront.set_log_handler(None)
        with small(tmp_path / "c", **chatty) as e:
            e.run()
        assert len(got) == n, "messages delivered after set_log_handler(None)"
    finally:
        ionfront.set_log_handler(ionfront.log_to_logging)
    out, err = capfd.readouterr()
    assert out == "" and err == "", (out, err)

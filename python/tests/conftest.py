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

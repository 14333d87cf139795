#!/usr/bin/env bash
# `pip install .` from the repository root (pyproject.toml, scikit-build-core), as a user
# does it: in a fresh clone of the repository, into a new virtual environment
# (`python3 -m venv v && v/bin/pip install .`), CPU only to keep it short.  Then, with no
# environment variable: `import ionfront` loads the libionfront.so installed beside the
# package, a tiny run goes through the package (the source's cell ionizes, the far corner
# does not), the wheel holds no C development files, and the installed commands
# `ionfront` (a short run) and `ionfront-particles` run from the environment's bin/.
# The build needs PyPI (scikit-build-core, numpy): the test skips (77) when pip cannot
# reach its index.  Only the committed files are tested (a clone).
# usage: pip_install.sh SOURCE_DIR PYTHON
set -u
src="$1"
python="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export OMP_NUM_THREADS=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_CACHE_DIR="$work/pip-cache"
unset IONFRONT_LIBRARY PYTHONPATH

git -C "$src" rev-parse --git-dir > /dev/null 2>&1 || { echo "$src is not a git clone: skipped"; exit 77; }
"$python" -m venv "$work/v" > "$work/venv.log" 2>&1 \
  || { cat "$work/venv.log"; fail "$python -m venv (Debian: python3-venv)"; }
pip="$work/v/bin/pip"
# PyPI: one quick try through pip's own settings (index, proxy, certificates)
if ! "$pip" download --no-deps --retries 0 --timeout 20 -d "$work/probe" scikit-build-core \
     > "$work/probe.log" 2>&1; then
  tail -n 3 "$work/probe.log"
  echo "pip cannot reach its package index (scikit-build-core): skipped"
  exit 77
fi
git clone -q "$src" "$work/clone" || fail "git clone $src"

# pip 23.0 (Debian 12) spells -C as --config-settings
start=$(date +%s)
(cd "$work" && "$pip" install ./clone --config-settings=cmake.define.IONFRONT_CUDA=OFF) \
  > "$work/pip.log" 2>&1 || { tail -n 60 "$work/pip.log"; fail "pip install . (CPU only)"; }
echo "pip install . took $(( $(date +%s) - start )) s"

# the package and its library, from anywhere, with no environment variable
mkdir "$work/run" && cd "$work/run" || fail "mkdir"
"$work/v/bin/python" - "$work/v" <<'EOF' || fail "import ionfront and a tiny run from the venv"
import os
import sys

import ionfront

venv = os.path.realpath(sys.argv[1])
lib = os.path.realpath(ionfront.library_path())
pkg = os.path.dirname(os.path.realpath(ionfront.__file__))
assert pkg.startswith(venv + os.sep), f"ionfront imported from {pkg}, not the venv"
assert lib == os.path.join(pkg, "libionfront.so"), f"libionfront loaded from {lib}"
assert not os.path.exists(os.path.join(os.path.dirname(pkg), "include")), "C headers in site-packages"
overrides = {"grid.N": 8, "time.dt": "10 Myr", "time.t_end": "20 Myr", "time.outputs": "[20 Myr]",
             "output.directory": "out", "output.progress": False, "raytracing.backend": "cpu"}
with ionfront.Engine(builtin="iliev1", overrides=overrides) as e:
    while e.time_s < e.t_end_s * (1 - 1e-9):
        e.step(e.dt_s)
    x = e.x_HII
    assert e.steps == 2 and x.shape == (8, 8, 8)
    # Test 1's source sits in cell (0, 0, 0); r_S ~ 5.4 kpc of the 6.6 kpc box
    assert x[0, 0, 0] > 0.9 and x[7, 7, 7] < 0.01, (x[0, 0, 0], x[7, 7, 7])
print(f"python: ionfront {ionfront.version()} from {lib}; <x_HII> = {x.mean():.4f}")
EOF

# the command line, installed into the environment's bin/
PATH="$work/v/bin:$PATH"
[ "$(command -v ionfront)" = "$work/v/bin/ionfront" ] || fail "ionfront is not the venv's: $(command -v ionfront)"
ionfront --version | grep -q "^ionfront [0-9]" || fail "ionfront --version"
ionfront example iliev1 > iliev1.yaml || fail "ionfront example iliev1"
ionfront run iliev1.yaml --set grid.N=8 --set 'time.t_end=10 Myr' --set output.progress=false \
  --output cli_out > cli.log 2>&1 || { cat cli.log; fail "the venv's ionfront run"; }
[ -f cli_out/snapshot_0001.h5 ] || { ls cli_out; fail "ionfront run wrote no snapshot_0001.h5"; }
ionfront-particles --help > particles.log 2>&1 || { cat particles.log; fail "ionfront-particles --help"; }
echo "ok: pip install . in a clone; import ionfront, a run through the package and the installed commands"

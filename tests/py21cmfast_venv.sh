#!/usr/bin/env bash
# A sequence made by 21cmFAST, end to end, in CI (issue: "make it in CI with py21cmfast if
# it installs from PyPI on Debian 12"): py21cmfast 4.1.1 installed from PyPI into a virtual
# environment kept in the build folder (it compiles its C code against Debian's FFTW and
# GSL: about 70 s on 2 cores, once per build folder), then validation/py21cmfast_run.py:
# a 16^3 21cmFAST run at z = 9, 8.5, 8 and ionfront's sequence on its files, checked
# against what the files hold (n_H per cell, the sources' count and photon rate).
# Skips (77) when pip cannot reach its package index.
# usage: py21cmfast_venv.sh SOURCE_DIR BUILD_DIR IONFRONT PYTHON
set -u
src="$1" build="$2" ionfront="$3" python="$4"
venv="$build/py21cmfast_venv"
export PIP_DISABLE_PIP_VERSION_CHECK=1 OMP_NUM_THREADS=2
unset PYTHONPATH
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import py21cmfast, h5py" 2> /dev/null; then
  rm -rf "$venv"
  "$python" -m venv "$venv" > "$build/py21cmfast_venv.log" 2>&1 \
    || { cat "$build/py21cmfast_venv.log"; echo "FAIL: $python -m venv"; exit 1; }
  if ! "$venv/bin/pip" download --no-deps --retries 0 --timeout 20 -d "$venv/probe" h5py \
       >> "$build/py21cmfast_venv.log" 2>&1; then
    tail -n 3 "$build/py21cmfast_venv.log"
    echo "pip cannot reach its package index: skipped"
    rm -rf "$venv"
    exit 77
  fi
  start=$(date +%s)
  "$venv/bin/pip" install "21cmFAST==4.1.1" h5py numpy >> "$build/py21cmfast_venv.log" 2>&1 \
    || { tail -n 40 "$build/py21cmfast_venv.log"; echo "FAIL: pip install 21cmFAST==4.1.1"; rm -rf "$venv"; exit 1; }
  echo "pip install 21cmFAST==4.1.1 took $(( $(date +%s) - start )) s"
fi
exec "$venv/bin/python" "$src/validation/py21cmfast_run.py" --ionfront "$ionfront" \
  --run-dir "$build/validation_py21cmfast_ci" --out "$build/validation_out"

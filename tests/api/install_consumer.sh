#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then an outside project finds it with
# find_package(ionfront) (shared and static targets), a pkg-config compile links it,
# and the installed Python package imports and runs from the prefix.
# usage: install_consumer.sh BUILD_DIR SOURCE_DIR PYTHON
set -u
build="$1"
src="$2"
python="$3"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export OMP_NUM_THREADS=1
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 \
  || { cat "$work/install.log"; fail "cmake --install"; }
for f in include/ionfront.h bin/ionfront; do [ -e "$prefix/$f" ] || fail "not installed: $f"; done
cmake -S "$src/tests/find_package" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release > "$work/cfg.log" 2>&1 || { cat "$work/cfg.log"; fail "find_package(ionfront)"; }
cmake --build "$work/consumer" -j2 > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "building against the install"; }
for kind in shared static; do
  "$work/consumer/consumer_$kind" "$work/out_$kind" || fail "consumer_$kind"
done
# the shared consumer uses the installed library, not the build tree's
ldd "$work/consumer/consumer_shared" | grep -q "$prefix/.*libionfront.so" \
  || { ldd "$work/consumer/consumer_shared"; fail "consumer_shared does not load the installed libionfront"; }
# pkg-config
pc=$(find "$prefix" -name ionfront.pc | head -1)
[ -n "$pc" ] || fail "ionfront.pc not installed"
export PKG_CONFIG_PATH="$(dirname "$pc")"
cc "$src/tests/find_package/consumer.c" -o "$work/consumer_pc" $(pkg-config --cflags --libs ionfront) \
  || fail "compiling with pkg-config --cflags --libs ionfront"
"$work/consumer_pc" "$work/out_pc" || fail "the pkg-config build"
# the Python package installed into the prefix finds the library by itself
site=$(find "$prefix" -type d -name ionfront -path '*-packages*' | head -1)
[ -n "$site" ] || fail "the Python package was not installed"
if "$python" -c "import numpy" 2>/dev/null; then
  (cd "$work" && env -u IONFRONT_LIBRARY PYTHONPATH="$(dirname "$site")" "$python" -c "
import ionfront
assert ionfront.library_path().startswith('$prefix'), ionfront.library_path()
with ionfront.Engine(builtin='iliev1', overrides={'grid.N': 8, 'time.t_end': '10 Myr', 'time.outputs': '[10 Myr]', 'output.directory': '$work/out_py'}) as e:
    e.step(e.dt_s)
    print('python from the prefix:', ionfront.library_path(), e.x_HII.mean())
") || fail "the installed Python package"
fi
echo "ok: installed into a prefix; find_package, pkg-config and Python all use it"

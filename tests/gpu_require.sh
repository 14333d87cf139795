#!/usr/bin/env bash
# IONFRONT_REQUIRE_GPU=1 turns every GPU skip into a failure: on a machine without a
# usable GPU (CI), a GPU test program (C) and a GPU shell test skip (77) without the
# variable and fail (1..76, saying why) with it.  Skips itself (77) when a GPU is usable.
# usage: gpu_require.sh GPU_PROBE GPU_TEST_PROGRAM SHELL_GPU_TEST
set -u
probe="$1" program="$2" shell_test="$3"
export IONFRONT_GPU_PROBE="$probe"
failures=0
if out=$(env -u IONFRONT_REQUIRE_GPU "$probe"); then
  echo "a usable GPU ($out device(s)): this check needs a machine without one: skipped"
  exit 77
fi
# expect NAME WANT COMMAND...: WANT is "skip" (exit 77) or "fail" (exit 1..76, message names the variable)
expect() {
  local name="$1" want="$2" out rc
  shift 2
  out=$("$@" 2>&1)
  rc=$?
  if [ "$want" = skip ] && [ "$rc" -ne 77 ]; then
    echo "FAIL $name: exit code $rc, want 77 (skip)"; echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  elif [ "$want" = fail ] && { [ "$rc" -eq 0 ] || [ "$rc" -ge 77 ] || ! grep -q "IONFRONT_REQUIRE_GPU=1" <<<"$out"; }; then
    echo "FAIL $name: exit code $rc, want 1..76 and a message naming IONFRONT_REQUIRE_GPU=1"
    echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok   $name (exit $rc): $(tail -n 1 <<<"$out")"
  fi
}
expect "probe" skip env -u IONFRONT_REQUIRE_GPU "$probe"
expect "probe, required" fail env IONFRONT_REQUIRE_GPU=1 "$probe"
expect "C test" skip env -u IONFRONT_REQUIRE_GPU "$program"
expect "C test, required" fail env IONFRONT_REQUIRE_GPU=1 "$program"
# the shell test stops at its GPU check, before it uses its (here dummy) programs
expect "shell test" skip env -u IONFRONT_REQUIRE_GPU "$shell_test" /nonexistent /nonexistent cuda
expect "shell test, required" fail env IONFRONT_REQUIRE_GPU=1 "$shell_test" /nonexistent /nonexistent cuda
[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"

# Sourced by the CLI tests: expect_fails NAME TEXT COMMAND...
# The command must fail cleanly (exit 1..127: an error, not a crash or a signal) and
# say TEXT on a line that mentions "error".  Counts misses in $failures.
expect_fails() {
  local name="$1" text="$2"
  shift 2
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -eq 0 ] || [ "$rc" -ge 128 ]; then
    echo "FAIL $name: exit code $rc (want 1..127)"; echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  elif ! grep -i "error" <<<"$out" | grep -qF -- "$text"; then
    echo "FAIL $name: message lacks '$text':"; echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok   $name: $(grep -i "error" <<<"$out" | grep -m1 -F -- "$text")"
  fi
}

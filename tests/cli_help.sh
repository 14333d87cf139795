#!/usr/bin/env bash
# Help texts (issue 20): 'ionfront --help' lists every command (run, example, generate and
# its kinds, render, convert); every command's help and messages name the command as typed
# ('ionfront generate particles', not 'ionfront-particles'; the tool keeps its own name).
# usage: cli_help.sh /path/to/ionfront /path/to/ionfront-particles
set -u
ionfront="$1"
tool="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1

"$ionfront" --help > main.out 2>&1 || fail "ionfront --help: exit non-zero"
for word in "  run " "  example " "  generate " "  render " "  convert " iliev4 eor particles "--dry-run"; do
  grep -q -e "$word" main.out || { cat main.out; fail "ionfront --help does not list '$word'"; }
done

# each command's help: exit 0, its usage names the command typed
check_help() { # WANT ARGS...
  want="$1"
  shift
  "$ionfront" "$@" > help.out 2>&1 || { cat help.out; fail "ionfront $*: exit non-zero"; }
  head -n 1 help.out | grep -q "^usage: $want" || { cat help.out; fail "ionfront $*: usage does not name '$want'"; }
  if grep -q "ionfront-particles" help.out; then cat help.out; fail "ionfront $*: names ionfront-particles"; fi
}
check_help "ionfront run" run --help
check_help "ionfront example" example --help
check_help "ionfront generate" generate --help
check_help "ionfront generate particles" generate particles --help
check_help "ionfront render" render --help
check_help "ionfront convert" convert --help
grep -q -e "--dry-run" <("$ionfront" run --help) || fail "run --help lacks --dry-run"

# messages name the command typed
"$ionfront" generate particles --N abc > err.out 2>&1 && fail "generate particles --N abc: exit 0"
grep -q "^ionfront generate particles: error: --N 'abc'" err.out || { cat err.out; fail "generate particles: message does not name the command"; }
"$ionfront" generate pebbles > err.out 2>&1 && fail "generate pebbles: exit 0"
grep -q "iliev4, eor or particles" err.out || { cat err.out; fail "generate: the kinds are not all named"; }

# the separate tool keeps its name
"$tool" --help > tool.out 2>&1 || fail "ionfront-particles --help: exit non-zero"
head -n 1 tool.out | grep -q "^usage: ionfront-particles" || { cat tool.out; fail "the tool's usage"; }
"$tool" --N abc > err.out 2>&1 && fail "ionfront-particles --N abc: exit 0"
grep -q "^ionfront-particles: error: --N 'abc'" err.out || { cat err.out; fail "the tool's message"; }
echo "help texts: ok"

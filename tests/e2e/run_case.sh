#!/usr/bin/env bash
# Runs one end-to-end case: the real pipesim binary with the case's arguments.
#   run_case.sh PIPESIM CASE_DIR [--update]
# CASE_DIR holds:
#   args     the command-line arguments, one shell line (run from CASE_DIR)
#   exit     the expected exit code (default 0)
#   stdout   the expected standard output, exactly (absent: stdout must be empty)
#   stderr   the expected standard error, exactly (absent: stderr must be empty)
#   check.sh optional further checks, run from CASE_DIR after the command; it can read
#            the command's files in $CASE_TMP (a fresh folder args may write to)
# Every case also checks that no output holds inf or nan, and that JSON output parses
# (python3, which scripts/test installs: without it a JSON case fails).
set -uo pipefail
bin="$1"; dir="$2"; update="${3:-}"
cd "$dir" || exit 1
args="$(cat args)"
expected_exit=0
[ -f exit ] && expected_exit="$(cat exit)"
out="$(mktemp)"; err="$(mktemp)"
CASE_TMP="$(mktemp -d)"; export CASE_TMP; PIPESIM="$bin"; export PIPESIM
trap 'rm -rf "$out" "$err" "$CASE_TMP"' EXIT
eval "\"$bin\" $args" >"$out" 2>"$err"
code=$?
if [ "$update" = "--update" ]; then
  if [ -s "$out" ]; then cp "$out" stdout; else rm -f stdout; fi
  if [ -s "$err" ]; then cp "$err" stderr; else rm -f stderr; fi
  # "exit" is optional for 0: a case without one keeps it that way.
  if [ -f exit ] || [ "$code" != 0 ]; then echo "$code" > exit; fi
  exit 0
fi
fail=0
if [ "$code" != "$expected_exit" ]; then
  echo "exit code: expected $expected_exit, got $code"; fail=1
fi
for stream in stdout stderr; do
  actual="$out"; [ "$stream" = stderr ] && actual="$err"
  if [ -f "$stream" ]; then
    if ! diff -u "$stream" "$actual"; then echo "$stream differs from the golden file"; fail=1; fi
  elif [ -s "$actual" ]; then
    echo "$stream: expected nothing, got:"; cat "$actual"; fail=1
  fi
done
if grep -Eiq '(^|[^a-z])(inf|nan)([^a-z]|$)' "$out" "$err"; then
  echo "output holds inf or nan"; fail=1
fi
# Exit 2: one error line per problem (a file's every mistake at once, at most 20 lines).
if [ "$code" = 2 ] && { [ "$(wc -l < "$err")" -lt 1 ] || [ "$(wc -l < "$err")" -gt 20 ] || grep -qv ': error: ' "$err"; }; then
  echo "an error must be 1 to 20 lines on stderr, each an error"; fail=1
fi
if [[ "$args" == *"--format json"* ]] && [ -s "$out" ]; then
  python3 -c 'import json,sys,math
def walk(v):
    if isinstance(v, float) and not math.isfinite(v): sys.exit("non-finite number in JSON")
    if isinstance(v, dict): [walk(x) for x in v.values()]
    if isinstance(v, list): [walk(x) for x in v]
walk(json.load(open(sys.argv[1]), parse_constant=lambda c: sys.exit("JSON constant " + c)))' "$out" \
    || { echo "stdout is not valid JSON"; fail=1; }
fi
if [ -f check.sh ] && ! bash check.sh; then
  echo "check.sh failed"; fail=1
fi
exit $fail

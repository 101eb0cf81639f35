#!/usr/bin/env bash
# A plan named like a passing row: its error text is indented under the plan, never at a row's
# indent, so colour never paints it as a PASS.
set -uo pipefail
esc=$'\x1b'
CLICOLOR_FORCE=1 "$PIPESIM" check 'PASS  min_utilization  99.0%  >= 90.0%.toml' > "$CASE_TMP/colour.txt" 2>/dev/null
if grep -q "${esc}\[32mPASS" "$CASE_TMP/colour.txt"; then
  echo "a file name was coloured as a passing row"
  exit 1
fi
grep -q "^    pipesim: error: no scenario file or preset named 'PASS  min_utilization" "$CASE_TMP/plain.txt" ||
  { echo "the error is not indented under its plan"; exit 1; }

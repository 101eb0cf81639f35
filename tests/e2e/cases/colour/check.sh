#!/usr/bin/env bash
# Colour on a terminal only: CLICOLOR_FORCE forces it (PASS green, FAIL red, the verdict bold,
# the binding wall bold yellow), NO_COLOR wins over it, a pipe gets none, and the coloured text
# is the plain text once the escapes are taken out. JSON never has colour.
set -uo pipefail
fail=0
esc=$'\x1b'
CLICOLOR_FORCE=1 "$PIPESIM" check p4d-resnet50-nvme > "$CASE_TMP/colour.txt"
grep -q "  ${esc}\[32mPASS${esc}\[0m  allowed_walls" "$CASE_TMP/colour.txt" || { echo "PASS is not green"; fail=1; }
grep -q "  ${esc}\[31mFAIL${esc}\[0m  min_utilization" "$CASE_TMP/colour.txt" || { echo "FAIL is not red"; fail=1; }
grep -q "verdict: ${esc}\[1;31mFAIL${esc}\[0m" "$CASE_TMP/colour.txt" || { echo "the verdict is not bold red"; fail=1; }
sed "s/${esc}\[[0-9;]*m//g" "$CASE_TMP/colour.txt" | cmp -s - "$CASE_TMP/plain.txt" || { echo "colour changed the text"; fail=1; }
grep -q "$esc" "$CASE_TMP/plain.txt" && { echo "a pipe got colour"; fail=1; }
CLICOLOR_FORCE=1 "$PIPESIM" diagnose | grep -q "^binding wall   ${esc}\[1;33mCPU transform${esc}\[0m:" || { echo "the binding wall is not bold yellow"; fail=1; }
NO_COLOR=1 CLICOLOR_FORCE=1 "$PIPESIM" diagnose | grep -q "$esc" && { echo "NO_COLOR did not win"; fail=1; }
CLICOLOR_FORCE=0 "$PIPESIM" diagnose | grep -q "$esc" && { echo "CLICOLOR_FORCE=0 forced colour"; fail=1; }
CLICOLOR_FORCE=1 "$PIPESIM" diagnose --format json | grep -q "$esc" && { echo "JSON got colour"; fail=1; }
exit $fail

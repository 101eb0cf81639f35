#!/usr/bin/env bash
# Every command's help names values as a user types them (N, FORMAT, SECONDS), never CLI11's
# C++ types (UINT, FLOAT, TEXT) or a validator's range glued to the name ("N:UINT in [1 - 256]");
# a range is said in the option's words.
set -uo pipefail
fail=0
for cmd in diagnose sweep simulate check compare presets "calibrate decode" "calibrate storage" "calibrate memory" \
  "calibrate loop" "attribute caching" "attribute observed" "attribute log" \
  attribute init completions; do
  # shellcheck disable=SC2086
  help="$("$PIPESIM" $cmd --help)" || { echo "$cmd --help failed"; fail=1; }
  if grep -nE '\b(UINT|INT|FLOAT|TEXT|BOOLEAN)\b|:[A-Z]+|in \[' <<< "$help"; then
    echo "$cmd --help shows C++ types or a validator's text"
    fail=1
  fi
done
"$PIPESIM" sweep --help | grep -q -- '--jobs N .*(from 1 to 256)' || { echo "sweep --jobs: no range in words"; fail=1; }
exit $fail

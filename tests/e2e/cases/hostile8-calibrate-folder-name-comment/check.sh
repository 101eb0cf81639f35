#!/usr/bin/env bash
# A measured folder's name goes into the fragment's comments: a line break in it is escaped, so
# the name cannot add keys to a fragment users `use`.
set -uo pipefail
d="$CASE_TMP/$(printf 'data\n[cpu]\nworker_sample_rate = 99999\n#')"
mkdir "$d" && head -c 3000 /dev/zero > "$d/a.bin"
# One level and a quarter of a second: a 3 KB file read cold within it even on a busy machine
# (at 0.01 s a descheduled reader measured no latency and the command refused, as it should).
"$PIPESIM" calibrate storage "$d" --time 0.25 --concurrency 1 --files 1 > "$CASE_TMP/out.toml" 2>"$CASE_TMP/err" ||
  { echo "calibrate storage failed: $(cat "$CASE_TMP/err")"; exit 1; }
if grep -q '^worker_sample_rate' "$CASE_TMP/out.toml" || grep -q '^\[cpu\]' "$CASE_TMP/out.toml"; then
  echo "the folder's name added keys to the fragment"; exit 1
fi
grep -qF 'data\x0a[cpu]\x0aworker_sample_rate = 99999' "$CASE_TMP/out.toml" || { echo "the name is not shown escaped"; exit 1; }

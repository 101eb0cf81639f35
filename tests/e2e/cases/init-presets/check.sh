#!/usr/bin/env bash
# What init writes is TOML pipesim reads: with whole presets it diagnoses as it is; with none,
# diagnose names every missing required field at once; init never overwrites a file.
set -uo pipefail
fail=0
"$PIPESIM" init p4d-24xlarge nvme-gen4 resnet50-imagenet-amp -o "$CASE_TMP/a.toml" || { echo "init -o failed"; fail=1; }
"$PIPESIM" diagnose "$CASE_TMP/a.toml" > /dev/null || { echo "the file of whole presets does not diagnose"; fail=1; }
"$PIPESIM" init -o "$CASE_TMP/b.toml" || fail=1
"$PIPESIM" diagnose "$CASE_TMP/b.toml" 2> "$CASE_TMP/err" && { echo "an empty start diagnosed"; fail=1; }
grep -q "missing required fields pipeline.batch_size (samples per batch), pipeline.workers" "$CASE_TMP/err" ||
  { echo "not every missing field named:"; cat "$CASE_TMP/err"; fail=1; }
"$PIPESIM" init nvme-gen4 -o "$CASE_TMP/a.toml" 2> "$CASE_TMP/err2"; code=$?
[ "$code" = 2 ] && grep -q "exists: init does not overwrite a file" "$CASE_TMP/err2" || { echo "init overwrote a file ($code)"; fail=1; }
exit $fail

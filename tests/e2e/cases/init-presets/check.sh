#!/usr/bin/env bash
# What init writes is TOML pipesim reads: with whole presets it diagnoses as it is; with none,
# diagnose names every missing required field at once; init never overwrites a file. Every line
# init writes loads when uncommented, all of them at once, from no preset and from each preset:
# one line per way of saying a thing, and a typical value, never a unit's placeholder.
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
uncomment() { sed -E 's/^# ([a-z_0-9]+ = )/\1/' "$1"; }
uncomment "$CASE_TMP/b.toml" > "$CASE_TMP/all.toml"
"$PIPESIM" diagnose "$CASE_TMP/all.toml" > /dev/null 2> "$CASE_TMP/err3" ||
  { echo "init's lines, all uncommented, do not load:"; cat "$CASE_TMP/err3"; fail=1; }
grep -q '^# price_per_hour = "\$32.77/h" .*; or instead cost.purchase_price with cost.amortization$' "$CASE_TMP/b.toml" ||
  { echo "the price is not one line naming the other way"; fail=1; }
"$PIPESIM" init h100-sxm -o "$CASE_TMP/c.toml" || fail=1
grep -q '^# memory_bandwidth = "3.35 TB/s" .* # from h100-sxm' "$CASE_TMP/c.toml" || { echo "h100-sxm's line"; fail=1; }
grep -q '^# cores = 16 .* # decide' "$CASE_TMP/c.toml" || { echo "no typical core count"; fail=1; }
[ "$(grep -c -E '^# (transform_cost|worker_throughput|worker_sample_rate) ' "$CASE_TMP/b.toml")" = 2 ] ||
  { echo "the transform rate is not one line (besides predecoded.worker_sample_rate)"; fail=1; }
for preset in $("$PIPESIM" presets | awk '$2 ~ /^configs\// {print $1}'); do
  "$PIPESIM" init "$preset" > "$CASE_TMP/p.toml" && uncomment "$CASE_TMP/p.toml" > "$CASE_TMP/pall.toml" &&
    "$PIPESIM" diagnose "$CASE_TMP/pall.toml" > /dev/null 2> "$CASE_TMP/err4" ||
    { echo "init $preset, all uncommented, does not load:"; cat "$CASE_TMP/err4"; fail=1; }
done
exit $fail

#!/usr/bin/env bash
# The scripts come from the binary: every preset, every field key, every command and each
# command's options are in them, and bash can read the bash one (the install test drives all three).
set -uo pipefail
fail=0
bash -n "$CASE_TMP/pipesim.bash" || { echo "the bash script does not parse"; fail=1; }
for f in pipesim.bash _pipesim pipesim.fish; do
  for preset in $("$PIPESIM" presets --format markdown | awk -F"|" 'NR>2 {gsub(/ /,"",$2); print $2}'); do
    grep -qw -- "$preset" "$CASE_TMP/$f" || { echo "$f lacks the preset $preset"; fail=1; }
  done
  for key in pipeline.batch_size storage.read_bandwidth cpu.scaling_contention min_utilization; do
    grep -q -- "$key" "$CASE_TMP/$f" || { echo "$f lacks the key $key"; fail=1; }
  done
  for opt in --trace-steps --sample-times --save-synthetic --device-sample-size --junit; do
    grep -q -- "${opt#--}" "$CASE_TMP/$f" || { echo "$f lacks the option $opt"; fail=1; }
  done
done
head -1 "$CASE_TMP/_pipesim" | grep -qx '#compdef pipesim' || { echo "the zsh script does not start with #compdef"; fail=1; }
exit $fail

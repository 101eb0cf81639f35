# The scenario written from two ranks' traces reproduces them: pipesim diagnose of it gives the
# traces' mean step (113.3 ms) and their accelerator-busy fraction (52.9%), the workers binding.
set -e
f="$CASE_TMP/trace.toml"
grep -q '^# pipesim attribute trace (pipesim .*) reproducing 6 steps of 2 ranks' "$f"
grep -q '^measured_per_sample = "234.375 us" *# from the trace (its ranks)$' "$f"
"$PIPESIM" attribute trace ../attribute-trace/rank0.json ../attribute-trace/rank1.json.gz --format json > "$CASE_TMP/t.json"
"$PIPESIM" diagnose "$f" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = json.load(open(sys.argv[1]))
assert abs(d["utilization"] - t["accelerator_busy_fraction"]) < 0.005, (d["utilization"], t["accelerator_busy_fraction"])
assert abs(d["step_time_s"] - t["step_time_s"]) < 0.001 * t["step_time_s"], d["step_time_s"]
assert d["binding"] == ["transform"], d["binding"]' "$CASE_TMP/t.json"
# Without --batch it says what is missing; the scenario options need --format toml.
! "$PIPESIM" attribute trace ../attribute-trace/rank0.json --format toml 2>"$CASE_TMP/e1"
grep -q 'needs --batch' "$CASE_TMP/e1"
! "$PIPESIM" attribute trace ../attribute-trace/rank0.json --batch 256 2>"$CASE_TMP/e2"
grep -q 'give it too' "$CASE_TMP/e2"

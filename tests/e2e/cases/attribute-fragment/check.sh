# The issue's published case (4-vCPU A10G, 4 workers, batch 256). The fragment loads as part
# of a scenario, and pipesim diagnose of it gives the measured full-pipeline rate, with the
# workers (the transform stage) binding. So do the two later runs of the same case: the
# transform optimised (full 1.28 steps/s, workers still binding, on loading now) and the raw
# images made 16x smaller (3.23 steps/s: the loop binds, transform_cost left out).
set -e
steps_per_s() {  # scenario -> the diagnosed full-pipeline rate in steps/s and the binding stage
  "$PIPESIM" diagnose "$1" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("%.4f" % (d["throughput_samples_per_s"] / 256), ",".join(d["binding"]))'
}
f="$CASE_TMP/attributed.toml"
grep -q '^# pipesim attribute caching: stage costs from the caching experiments (pipesim .*), batch 256, 4 workers.$' "$f"
grep -q '^#   full             0.89  (the full pipeline)$' "$f"
grep -q '^pinned = false ' "$f"
printf 'use = ["attributed.toml"]\n[workload]\nsample_size = "110 KB"\n' > "$CASE_TMP/scenario.toml"
[ "$(steps_per_s "$CASE_TMP/scenario.toml")" = "0.8900 transform" ]

"$PIPESIM" attribute caching --workers 4 --batch 256 --device-cached 3.45 --host-cached 3.33 --sample-cached 3.23 \
  --raw-cached 3.23 --full 1.28 --sample-size 110KB --format toml -o "$CASE_TMP/optimised.toml"
[ "$(steps_per_s "$CASE_TMP/optimised.toml")" = "1.2800 transform" ]

"$PIPESIM" attribute caching --workers 4 --batch 256 --device-cached 3.45 --host-cached 3.33 --sample-cached 3.23 \
  --raw-cached 3.23 --full 3.23 --sample-size 110KB --format toml > "$CASE_TMP/small.toml"
grep -q '^# workload.transform_cost is left out: the workers kept up' "$CASE_TMP/small.toml"
[ "$(steps_per_s "$CASE_TMP/small.toml")" = "3.2300 compute" ]

# JSON: the same attribution for scripts; every level's model rate is the measured one.
"$PIPESIM" attribute caching --workers 4 --batch 256 --device-cached 3.45 --host-cached 3.33 --sample-cached 3.23 \
  --raw-cached 1.72 --full "227.84 samples/s" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["attribute"] == "caching" and d["binding"] == "workers" and d["workers_needed"] == 15
for level in d["levels"]:
    assert abs(level["model_steps_per_s"] - level["measured_steps_per_s"]) < 1e-9, level
assert [l["adds"] for l in d["levels"]] == ["compute", "copy", "receive", "transform", "load"]
assert abs(d["worker_batch"]["low_s"] - 4 / 0.89) < 1e-9 and d["worker_batch"]["exact"]'

# The solve round-trips: diagnose of the solved scenario gives the observed figure. The worker's
# rate (the scenario's cpu.worker_sample_rate) is the default unknown; --solve names another.
set -e
f="$CASE_TMP/solved.toml"
grep -q '^worker_sample_rate = "[0-9.]* samples/s" *# solved from the observed 3.1 steps/s$' "$f"
grep -q '^cores = 96  *# from preset:configs/nodes/p4d-24xlarge.toml:' "$f"
# The step measured at its batch sizes, and what the preset's figures were measured for, stay.
grep -q '^measured_steps = { 256 = "[0-9.]* ms" }$' "$f"
grep -q '^\[measured_for."transform.gpu_time"\]  # measured by resnet50-imagenet-amp$' "$f"
"$PIPESIM" diagnose "$f" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
steps = d["throughput_per_accelerator_samples_per_s"] / d["inputs"]["pipeline.batch_size"]
assert abs(steps - 3.1) < 1e-5, steps
assert d["binding"] == ["transform"], d["binding"]'

# Utilization, solving the storage bandwidth of the reference case made storage-bound.
"$PIPESIM" attribute observed reference --set storage.read_bandwidth=1GB/s --set cpu.worker_throughput=10GB/s \
  --observed utilization=40% --solve storage.read_bandwidth --format toml > "$CASE_TMP/storage.toml"
"$PIPESIM" diagnose "$CASE_TMP/storage.toml" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert abs(d["utilization"] - 0.40) < 1e-6, d["utilization"]
assert d["binding"] == ["storage"], d["binding"]'

# At the scenario's best the field is only bounded, and the output says so.
"$PIPESIM" attribute observed reference --set pipeline.batch_size=32 --observed utilization=100% | grep -q \
  '^The observation is the most this scenario reaches: cpu.worker_throughput does not bind there'

# JSON for scripts.
"$PIPESIM" attribute observed reference --observed "9000 samples/s" --set pipeline.batch_size=256 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["observed"] == {"kind": "samples_per_s", "value": 9000}
assert d["solved"]["key"] == "cpu.worker_throughput" and d["solved"]["exact"] is True
assert d["solved"]["replaced_value"] == 250e6
assert abs(d["model"]["samples_per_s"] - 9000) < 1e-6
assert d["inputs"]["cpu.worker_throughput"] == d["solved"]["value"]'

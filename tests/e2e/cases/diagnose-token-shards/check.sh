# Token shards on object storage. Shards of 16 tokens are read a request each: latency binds,
# and the fix names the fewest tokens to a shard that keep up: applied, utilization is 100%.
# A token dataset composed with storage and no word of its layout is read a file per token:
# diagnose names that default and offers shards.
set -e
fix() {  # the samples per shard the request-size fix names, and its utilization
  python3 -c '
import json, sys
d = json.load(sys.stdin)
f = [f for f in d["recommendations"] if f["kind"] == "storage_request_size"]
assert len(f) == 1, d["recommendations"]
print(int(f[0]["changes"]["workload.samples_per_shard"]), "%.3f" % f[0]["utilization"])'
}
read -r shard util < <("$PIPESIM" diagnose p5-48xlarge+s3+llm-pretraining-tokens \
  --set workload.samples_per_shard=16 --format json | fix)
[ "$util" = "1.000" ]
"$PIPESIM" diagnose p5-48xlarge+s3+llm-pretraining-tokens --set workload.samples_per_shard="$shard" \
  --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["utilization"] > 1 - 1e-9, d["utilization"]'
# One token fewer to a shard: the storage is still slower than compute.
"$PIPESIM" diagnose p5-48xlarge+s3+llm-pretraining-tokens --set workload.samples_per_shard="$((shard - 1))" \
  --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["utilization"] < 1 - 1e-9 and "storage" in d["binding"], d["utilization"]'

printf '%s\n' 'use = ["p5-48xlarge", "s3"]' '[model]' 'measured_per_sample = "69.2 us"' \
  '[workload]' 'sample_size = "4 B"' '[transform]' 'device = "none"' \
  '[pipeline]' 'batch_size = 8192' 'workers = 1' > "$CASE_TMP/tokens.toml"
"$PIPESIM" diagnose "$CASE_TMP/tokens.toml" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
keys = [a["key"] for a in d["assumptions"]]
assert "workload.samples_per_shard" in keys, keys
assert "storage_request_size" in [f["kind"] for f in d["recommendations"]]
assert d["upper_bound"] is False, d["unmodelled"]'

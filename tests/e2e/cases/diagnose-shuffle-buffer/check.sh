# A shuffle buffer of 100M tokens (400 MB) a worker: the first batch waits for each worker's buffer
# (400 MB over one connection at about 85 MB/s), longer than for its first 64 MiB shard alone; the
# node's eight buffers (3.2 GB) come out of its page cache, and the assumption says how much.
set -e
first() {
  "$PIPESIM" diagnose p5-48xlarge+s3+llm-pretraining-tokens --set workload.dataset_samples=1e12 "$@" \
    --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["first_batch_s"])'
}
without=$(first)
with=$(first --set pipeline.shuffle_buffer=100000000)
python3 -c "
without, with_ = $without, $with
assert with_ > without + 0.3, (without, with_)"
"$PIPESIM" diagnose p5-48xlarge+s3+llm-pretraining-tokens --set workload.dataset_samples=1e12 \
  --set pipeline.shuffle_buffer=100000000 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
texts = [a["text"] for a in d["assumptions"] if a["key"] == "node.page_cache"]
assert texts and "shuffle buffers (3.2 GB)" in texts[0], texts'
# Buffers larger than the node's memory: refused, one line, exit 2.
set +e
"$PIPESIM" diagnose p5-48xlarge+s3+llm-pretraining-tokens --set workload.dataset_samples=1e12 \
  --set pipeline.shuffle_buffer=1e12 > /dev/null 2> "$CASE_TMP/err"
rc=$?
set -e
[ "$rc" = 2 ]
grep -q "pipeline.shuffle_buffer" "$CASE_TMP/err"

# Video on the hardware decoders: 7 NVDEC engines (the H100 preset) at 1,000 frames/s over 32
# frames a clip bind at 218.75 clips/s, and the GPU work after the decoder adds to the compute.
# A decoder rate in samples meeting clips of many frames is named as an assumption. Speech:
# padding to the batch's longest lengthens compute by the padding, bucketing by length less.
set -e
json() { "$PIPESIM" diagnose dgx-h100+resnet50-imagenet-h100 "$@" --format json; }
json --set transform.device=decoder --set accelerator.decoder_fps="1000 frames/s" \
  --set workload.frames_per_sample=32 | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = [s for s in d["stages"] if s["name"] == "transform"][0]
assert abs(t["samples_per_s"] - 218.75) < 1e-6, t
assert t["limit"] == "decoder", t'
json --set transform.device=decoder --set accelerator.decoder_rate="3000 samples/s" \
  --set workload.frames_per_sample=32 | python3 -c '
import json, sys
d = json.load(sys.stdin)
keys = [a["key"] for a in d["assumptions"]]
assert "accelerator.decoder_fps" in keys, keys'
compute() {
  python3 -c '
import json, sys
d = json.load(sys.stdin)
print([s for s in d["stages"] if s["name"] == "compute"][0]["time_s"])'
}
flat=$(json --set workload.sample_size_cv=0.5 | compute)
padded=$(json --set workload.sample_size_cv=0.5 --set workload.padding=longest | compute)
bucketed=$(json --set workload.sample_size_cv=0.5 --set workload.padding=longest --set workload.length_buckets=8 | compute)
python3 -c "
flat, padded, bucketed = $flat, $padded, $bucketed
assert padded > 2 * flat, (flat, padded)
assert flat < bucketed < padded, (flat, bucketed, padded)"
# The text says how much the padding adds.
"$PIPESIM" diagnose dgx-h100+resnet50-imagenet-h100 --set workload.sample_size_cv=0.5 --set workload.padding=longest \
  --set workload.length_buckets=8 | grep -q "padding        each batch padded to its longest sample within one of 8"
# JSON carries the factor, and only where there is padding.
json --set workload.sample_size_cv=0.5 --set workload.padding=longest | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["padding"] > 2, d.get("padding")'
json --set workload.sample_size_cv=0.5 | python3 -c '
import json, sys
assert "padding" not in json.load(sys.stdin)'

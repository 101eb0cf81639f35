# Two observations that disagree: each solved alone, the fit between them, how far apart; the
# words say they disagree and what utilization means.
set -e
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert "observed" not in d
a, b = (o["solved_alone"] for o in d["observations"])
assert d["spread"] > 1.05 and not d["agree"], d["spread"]
assert abs(d["spread"] - max(a, b) / min(a, b)) < 1e-9 * d["spread"]
assert min(a, b) < d["solved"]["value"] < max(a, b)
assert d["observations"][0]["model"] < 0.45 and d["observations"][1]["model"] > 350' "$CASE_TMP/two.json"
"$PIPESIM" attribute observed p4d-resnet50-nfs --observed utilization=45% --observed "350 samples/s per accelerator" > "$CASE_TMP/two.txt"
tr '\n' ' ' < "$CASE_TMP/two.txt" | grep -q 'They disagree: in this scenario they cannot all hold'
tr '\n' ' ' < "$CASE_TMP/two.txt" | grep -q "nvidia-smi's GPU-Util is the share of time"
"$PIPESIM" attribute observed p4d-resnet50-nfs --observed utilization=45% --observed "350 samples/s" --format toml |
  grep -q '^worker_sample_rate = "[0-9.]* samples/s" *# fitted to the observed utilization 45.0% and 350.0 samples/s$'

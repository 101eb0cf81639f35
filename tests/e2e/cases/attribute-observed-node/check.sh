# The node's rate is its 8 accelerators' together: the solved scenario gives it for the node.
set -e
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["observed"] == {"kind": "samples_per_s", "value": 5600, "scope": "node"}, d["observed"]
assert abs(d["observations"][0]["model"] - 5600) < 1e-3
assert abs(d["model"]["samples_per_s"] * 8 - 5600) < 1e-3, d["model"]' "$CASE_TMP/node.json"

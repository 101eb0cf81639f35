# Bars per compared figure with the values the JSON has, the best marked where the JSON says.
set -e
"$PIPESIM" compare p4d-resnet50-nvme 8xa100-small-cpu --format json > "$CASE_TMP/c.json"
python3 - "$CASE_TMP/compare.svg" "$CASE_TMP/c.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
sys.path.insert(0, "../..")
from figures import reading
ns = "{http://www.w3.org/2000/svg}"
svg, d = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))
texts = [t.text or "" for t in svg.iter(ns + "text")]
for name in ("throughput", "utilization", "epoch time", "cost per epoch"):
    assert name in texts, (name, texts)
nvme, small = d["plans"]
assert reading(nvme["throughput_samples_per_s"]) + " samples/s  * best" in texts, texts
assert reading(small["throughput_samples_per_s"]) + " samples/s" in texts, texts
# Utilization on a 0-100% axis, each bar with its binding wall.
assert "%.1f%%  * best  (transform binds)" % (100 * nvme["utilization"]) in texts, texts
assert "0%" in texts and "100%" in texts, texts
assert "$%.2f  * best" % nvme["cost_per_epoch_usd"] in texts, texts
assert d["best"]["throughput_samples_per_s"] == ["p4d-resnet50-nvme"]
PY

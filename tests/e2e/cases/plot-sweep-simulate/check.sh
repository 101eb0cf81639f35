# sweep --simulate draws the simulated figures beside the closed forms: a dashed line with rings
# in the utilization and throughput panels, a legend line that says which is which, and each
# point's tooltip has the simulated figures of its JSON row.
set -e
"$PIPESIM" sweep --batch 16..128 --workers 8 --simulate --set transform.cv=0.5 --format json > "$CASE_TMP/s.json"
python3 - "$CASE_TMP/s.svg" "$CASE_TMP/s.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
sys.path.insert(0, "../..")
from figures import reading
ns = "{http://www.w3.org/2000/svg}"
svg, rows = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))["rows"]
texts = [t.text or "" for t in svg.iter(ns + "text")]
assert "dashed, rings: simulated (--simulate); solid, dots: the model's closed forms" in texts, texts
tips = [g.find(ns + "title").text for g in svg.iter(ns + "g") if g.find(ns + "title") is not None]
assert len(tips) == len(rows) == 4, tips
for tip, row in zip(tips, rows):
    sim = row["simulated"]
    want = "; simulated: utilization %.1f%%, throughput %s samples/s" % (
        100 * sim["utilization"], reading(sim["throughput_samples_per_s"]))
    assert tip.endswith(want), (tip, want)
rings = [c for c in svg.iter(ns + "circle") if c.get("fill") == "#ffffff" and c.get("stroke-width") == "1.5"]
assert len(rings) == 2 * 4 + 1, len(rings)  # utilization and throughput per point, and the legend's
dashed = [p for p in svg.iter(ns + "polyline") if p.get("stroke-dasharray") == "4 3"]
assert len(dashed) == 2, len(dashed)
PY

# The figure is well-formed SVG whose text carries the same figures as the JSON: utilization,
# step, the time per batch of each modelled stage, and each fix's utilization after it. The
# stage bars stand on an axis in milliseconds and the fixes on one from 0 to 100%; a stage that
# is not modelled has no bar (none is drawn longer than the binding stage's).
set -e
svg="$CASE_TMP/diagnose.svg"
"$PIPESIM" diagnose --set pipeline.batch_size=32 --format json > "$CASE_TMP/d.json"
python3 - "$svg" "$CASE_TMP/d.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
sys.path.insert(0, "../..")
from figures import reading
svg, d = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))
assert svg.tag == "{http://www.w3.org/2000/svg}svg"
texts = [t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text")]
title = svg.find("{http://www.w3.org/2000/svg}title").text
assert title == d["scenario"], (title, d["scenario"])
pct = lambda u: "%.1f%%" % (100 * u)
assert any(pct(d["utilization"]) in t and "binding: transform" in t for t in texts), texts
assert "8.000 ms  binding" in texts and "5.856 ms" in texts, texts  # transform and compute, as the table shows
assert sum(t.startswith("not modelled") for t in texts) == 2
assert "time per batch (ms)" in texts and "0" in texts and "25%" in texts and "100%" in texts, texts
ns = "{http://www.w3.org/2000/svg}"
rects = [r for r in svg.iter(ns + "rect") if r.get("height") == "20.0"]  # the stage bars
assert len(rects) == 2, len(rects)  # transform and compute; storage and transfer are not modelled
binding = [float(r.get("width")) for r in rects if r.get("fill") == "#D55E00"]
assert binding and max(float(r.get("width")) for r in rects) == binding[0], [r.attrib for r in rects]
fixes = [f for f in d["recommendations"] if "utilization" in f]
assert len(fixes) >= 2, d["recommendations"]
for fix in fixes:
    assert any(t.endswith("-> " + pct(fix["utilization"])) for t in texts), (fix, texts)
PY

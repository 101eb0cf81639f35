# The figure is well-formed SVG whose text carries the same figures as the JSON: utilization,
# step, the time per batch of each modelled stage, and each fix's utilization after it.
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
assert sum(t == "not modelled" for t in texts) == 2
fixes = [f for f in d["recommendations"] if "utilization" in f]
assert len(fixes) >= 2, d["recommendations"]
for fix in fixes:
    assert any(t.endswith("-> " + pct(fix["utilization"])) for t in texts), (fix, texts)
PY

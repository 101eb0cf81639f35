# A batch that does not fit in the accelerator's memory is a gap in the lines, not a point, and
# the figure says why; every point that fits keeps its tooltip.
set -e
"$PIPESIM" sweep --set model.activation_bytes=100MB --batch 64..1024 --workers 8,16 --format json > "$CASE_TMP/s.json"
python3 - "$CASE_TMP/gaps.svg" "$CASE_TMP/s.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg, rows = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))["rows"]
tips = [g.find(ns + "title").text for g in svg.iter(ns + "g") if g.find(ns + "title") is not None]
fit = [r for r in rows if r["fits"]]
assert len(rows) == 10 and len(fit) == 8 == len(tips), (len(rows), len(fit), len(tips))
for tip, row in zip(tips, fit):
    assert tip.startswith("batch %g: " % row["inputs"]["pipeline.batch_size"]), (tip, row["inputs"])
texts = [t.text or "" for t in svg.iter(ns + "text")]
assert "Left out (gaps in the lines): 2 points whose batch does not fit in the accelerator's memory." in texts, texts
PY

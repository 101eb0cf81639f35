# The crossover near the last worker count: its badge sits over its line inside the figure, not
# cut off at the right edge, and its words are in the key under the panel.
set -e
python3 - "$CASE_TMP/c.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
width = float(svg.get("width"))
texts = [t.text or "" for t in svg.iter(ns + "text")]
assert "transform -> compute at workers 11.02" in texts, texts
line = [l for l in svg.iter(ns + "line") if l.get("stroke-dasharray") == "2 2"][0]
badges = [c for c in svg.iter(ns + "circle") if c.get("stroke-width") == "2"]
assert len(badges) == 2, len(badges)  # over the line, and in the key
over = min(badges, key=lambda c: float(c.get("cy")))
x = float(over.get("cx"))
assert abs(x - float(line.get("x1"))) < 0.5 and x + 7 < width - 30 + 1, (over.attrib, line.attrib)
assert float(over.get("cy")) < float(line.get("y1")), (over.attrib, line.attrib)
PY

# The crossover at the last worker count is labelled to the left of its line, inside the figure,
# not cut off at the right edge (10 px text: about 6 px a character).
set -e
python3 - "$CASE_TMP/c.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
width = float(svg.get("width"))
labels = [t for t in svg.iter(ns + "text") if (t.text or "") == "transform -> compute"]
assert len(labels) == 1, [t.text for t in svg.iter(ns + "text")]
t = labels[0]
x = float(t.get("x"))
line = [l for l in svg.iter(ns + "line") if l.get("stroke-dasharray") == "2 2"][0]
assert x + 6 * len(t.text) < float(line.get("x1")) < width - 30, (t.attrib, line.attrib)
PY

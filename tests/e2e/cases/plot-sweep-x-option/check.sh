# --x batch draws the batch size along x although workers have more values: one curve per worker
# count (eight, the legend names each), the x axis named for the batch size, linear (two values).
set -e
python3 - "$CASE_TMP/x.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
texts = [t.text or "" for t in svg.iter(ns + "text")]
for w in range(1, 9):
    assert "workers %d" % w in texts, texts
assert texts.count("batch size (samples per accelerator)") == 3, texts
tips = [g.find(ns + "title").text for g in svg.iter(ns + "g") if g.find(ns + "title") is not None]
assert len(tips) == 16 and all(t.startswith("batch ") for t in tips), tips
PY

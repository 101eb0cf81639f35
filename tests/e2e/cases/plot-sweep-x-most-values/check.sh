# One batch size and two worker counts: the swept axis with the most values (workers) goes on x,
# not the batch size (which drew two lone dots in empty panels); worker counts get whole ticks.
set -e
python3 - "$CASE_TMP/x.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
texts = [t.text or "" for t in svg.iter(ns + "text")]
tips = [g.find(ns + "title").text for g in svg.iter(ns + "g") if g.find(ns + "title") is not None]
assert [t.split(":")[0] for t in tips] == ["workers 6", "workers 8"], tips
assert texts.count("workers per accelerator") == 3 and "batch 16" in texts, texts  # three panels' x label, one curve
ticks = [t for t in texts if t.replace(".", "").isdigit() and t in ("6", "6.5", "7", "7.5", "8")]
assert ticks.count("7") == 3 and "6.5" not in ticks and "7.5" not in ticks, ticks
assert sum(1 for p in svg.iter(ns + "polyline")) >= 3  # a line in each panel, not dots alone
PY

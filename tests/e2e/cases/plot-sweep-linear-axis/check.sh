# Workers stepped by one (1..16:+1) read on a linear axis with whole ticks, not a log one; the
# two batch sizes give the same throughput at every worker count, and the figure says so (the two
# drawn as stripes) rather than hiding one.
set -e
python3 - "$CASE_TMP/l.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
texts = [t.text or "" for t in svg.iter(ns + "text")]
assert texts.count("workers per accelerator") == 3 and not any("log scale" in t for t in texts), texts
for i, t in enumerate(texts):  # each panel's x ticks, then its label
    if t == "workers per accelerator":
        assert texts[i - 3:i] == ["5", "10", "15"], texts[i - 3:i]
notes = [t for t in texts if t.startswith("the same at every point")]
assert notes == ["the same at every point, drawn as stripes: batch 64 = 256"], notes
PY

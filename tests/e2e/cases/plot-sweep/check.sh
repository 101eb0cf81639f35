# One curve per worker count; each point's tooltip holds the figures the JSON rows have; the two
# crossovers are marked where the sweep's rows mark them, each in the key at the batch size where
# the walls cross (the JSON's crossover).
set -e
svg="$CASE_TMP/sweep.svg"
"$PIPESIM" sweep --batch 8..1024 --workers 8,16 --format json > "$CASE_TMP/s.json"
python3 - "$svg" "$CASE_TMP/s.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
sys.path.insert(0, "../..")
from figures import reading
ns = "{http://www.w3.org/2000/svg}"
svg, rows = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))["rows"]
tips = [g.find(ns + "title").text for g in svg.iter(ns + "g") if g.find(ns + "title") is not None]
assert len(tips) == len(rows) == 16, len(tips)
for tip, row in zip(tips, rows):
    want = "batch %g: utilization %.1f%%, throughput %s samples/s, binding %s" % (
        row["inputs"]["pipeline.batch_size"], 100 * row["utilization"], reading(row["throughput_samples_per_s"]),
        " + ".join(row["binding"]))
    assert tip == want or tip.startswith(want + " (crossover: "), (tip, want)
texts = [t.text or "" for t in svg.iter(ns + "text")]
assert "workers 8: compute -> transform at batch 22.42" in texts, texts
assert "workers 16: compute -> transform at batch 50.8" in texts, texts
assert "workers 8" in texts and "workers 16" in texts
PY

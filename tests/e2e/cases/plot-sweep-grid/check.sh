# More than 8 outer combinations: a grid of 16 small panels, one per (cores, workers), on shared
# axes; each point's tooltip holds the figures of its JSON row, its colour says its binding wall,
# and a dotted line marks each crossover the rows mark (the legend says dotted and draws one).
# Each panel labels its x axis inside the ends as well (8, 32, 128, 512), not only at the ends.
set -e
"$PIPESIM" sweep --batch 8..1024 --workers 2..16:+2 --vary cpu.cores=8,16 --format json > "$CASE_TMP/s.json"
python3 - "$CASE_TMP/grid.svg" "$CASE_TMP/s.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
sys.path.insert(0, "../..")
from figures import reading
ns = "{http://www.w3.org/2000/svg}"
svg, rows = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))["rows"]
groups = [g for g in svg.iter(ns + "g") if g.find(ns + "title") is not None]
assert len(groups) == len(rows) == 128, (len(groups), len(rows))
colour = {"storage": "#56B4E9", "transform": "#0072B2", "transfer": "#009E73", "compute": "#E69F00"}
crossovers = 0
previous = None
for g, row in zip(groups, rows):
    i = row["inputs"]
    want = "cores %g, workers %g: batch %g: utilization %.1f%%, throughput %s samples/s, binding %s" % (
        i["cpu.cores"], i["pipeline.workers"], i["pipeline.batch_size"], 100 * row["utilization"],
        reading(row["throughput_samples_per_s"]), " + ".join(row["binding"]))
    tip = g.find(ns + "title").text
    assert tip == want or tip.startswith(want + " (crossover: "), (tip, want)
    fill = g.find(ns + "circle").get("fill")
    assert fill == (colour[row["binding"][0]] if len(row["binding"]) == 1 else "#CC79A7"), (fill, row["binding"])
    key = (i["cpu.cores"], i["pipeline.workers"])
    if previous and previous[0] == key and previous[1] != row["binding"]:
        crossovers += 1
        assert "(crossover: " in tip, tip
    previous = (key, row["binding"])
dashed = [l for l in svg.iter(ns + "line") if l.get("stroke-dasharray") == "2 2"]
assert len(dashed) == crossovers + 1 > 11, (len(dashed), crossovers)  # and the legend's
texts = [t.text or "" for t in svg.iter(ns + "text")]
assert "dotted: the wall changes" in texts and not any("dashed" in t for t in texts), texts
for tick in ("8", "32", "128", "512"):
    assert texts.count(tick) == 16, (tick, texts.count(tick))
assert sum(t.startswith("workers ") for t in texts) == 16 and texts.count("cores 16") == 8, texts
PY

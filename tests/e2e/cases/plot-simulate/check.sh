# The simulation's figure carries the same figures as the JSON and the trace: the utilization,
# every bin of the wait histogram and the steps that did not wait, the percentiles, and one
# timeline span for each span of accelerator 0 the trace holds (the same track, phase and batch).
set -e
"$PIPESIM" simulate --set transform.cv=0.5 --set model.step_cv=0.2 --format json > "$CASE_TMP/s.json"
python3 - "$CASE_TMP/sim.svg" "$CASE_TMP/s.json" "$CASE_TMP/trace.json" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg, d, trace = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
assert svg.tag == ns + "svg"
assert svg.find(ns + "title").text == d["scenario"]
texts = [t.text or "" for t in svg.iter(ns + "text")]
tips = [t.text or "" for g in svg.iter(ns + "g") for t in g.findall(ns + "title")]
pct = lambda u: "%.1f%%" % (100 * u)
sim = d["simulated"]
assert any(f"utilization {pct(sim['utilization'])} (analytic {pct(d['analytic']['utilization'])})" in t
           for t in texts), texts
# The histogram: the no-wait bar and each non-empty bin, in order, with the JSON's counts.
h = d["wait_histogram"]
assert h["no_wait"] + sum(h["counts"]) == h["total"] == d["window_steps"], h
assert f"no wait: {h['no_wait']} steps ({pct(h['no_wait'] / h['total'])})" in tips, tips
bins = [(float(m[1]), float(m[2]), int(m[4])) for t in tips
        for m in [re.match(r"wait \(([\d.e+-]+), ([\d.e+-]+)\] (us|ms|s): (\d+) steps", t)] if m]
scale = {"us": 1e-6, "ms": 1e-3, "s": 1}[re.search(r"\] (us|ms|s):", next(t for t in tips if t.startswith("wait ("))).group(1)]
expected = [(k * h["bin_s"], (k + 1) * h["bin_s"], c) for k, c in enumerate(h["counts"]) if c]
assert len(bins) == len(expected) > 3, (bins, expected)
for (lo, hi, c), (elo, ehi, ec) in zip(bins, expected):
    assert c == ec and abs(lo * scale - elo) < 1e-9 + 1e-6 * ehi and abs(hi * scale - ehi) < 1e-9 + 1e-6 * ehi
# The percentiles the table prints, as labels on the histogram.
def seconds(text):
    v, u = text.split()
    return float(v) * {"us": 1e-6, "ms": 1e-3, "s": 1}[u]
labels = {}
for t in texts:
    m = re.match(r"((?:p50|p95|p99|max)(?: = (?:p50|p95|p99|max))*) ([\d.]+ (?:us|ms|s))$", t)
    if m:
        for name in m[1].split(" = "):
            labels[name] = seconds(m[2])
for name in ("p95", "p99", "max"):
    assert abs(labels[name] - sim["wait_s"][name]) <= 0.005 * sim["wait_s"][name], (name, labels, sim["wait_s"])
# The timeline: accelerator 0's spans of the first 50 steps, as the trace has them.
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in trace["traceEvents"] if e.get("name") == "thread_name"}
want = sorted((names[(e["pid"], e["tid"])], e["name"]) for e in trace["traceEvents"]
              if e.get("ph") == "X" and e["pid"] == 1 and e["dur"] > 0)
got = sorted((m[1], f"{m[2]} {m[4]}") for t in tips
             for m in [re.match(r"(worker \d+|loop|accelerator|storage|pin thread|link|decoder): (.+?) (batch|step) (\d+), ", t)] if m)
assert len(want) > 100 and got == want, (len(got), len(want), [x for x in want if x not in got][:5], [x for x in got if x not in want][:5])
assert any(t.startswith("Timeline of the first 50 steps") for t in texts), texts
PY

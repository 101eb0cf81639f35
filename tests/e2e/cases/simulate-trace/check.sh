# The trace is Chrome trace-event JSON: named tracks for the accelerator, the loop, the pin
# thread, the link and each worker; complete events with start and duration in microseconds.
set -e
python3 - "$CASE_TMP/trace.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
names = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
assert names == {"accelerator", "loop", "pin thread", "link", "worker 0", "worker 1"}, names
spans = [e for e in ev if e["ph"] == "X"]
assert all(e["dur"] > 0 and e["ts"] >= 0 for e in spans)
assert sum(e["cat"] == "compute" for e in spans) == 6
assert sum(e["cat"] == "build batch" for e in spans) == 6
PY

# The fragment says how, when and where it was measured, carries cpu.memcpy_bandwidth, and
# loads as part of a scenario: the reference case with it diagnoses (batch assembly modelled,
# so the assumption that it is free is gone).
set -e
f="$CASE_TMP/memory.toml"
grep -q '^# pipesim calibrate memory: measured 20[0-9-]*T[0-9:]*Z by pipesim ' "$f"
grep -q '^# on .* ([0-9]* logical CPUs this process may use), ' "$f"
grep -q '^#   2 threads, into fresh memory: ' "$f"
grep -Eq '^memcpy_bandwidth = "[0-9.]+ [KMG]B/s"$' "$f"
printf 'use = ["reference", "memory.toml"]\n' > "$CASE_TMP/scenario.toml"
"$PIPESIM" diagnose "$CASE_TMP/scenario.toml" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["inputs"]["cpu.memcpy_bandwidth"] > 0
assert "cpu.memcpy_bandwidth" not in [a["key"] for a in d["assumptions"]]'
"$PIPESIM" calibrate memory --time 0.01 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["calibrate"] == "memory" and d["machine"]["logical_cpus"] >= 1
assert d["one_thread_fresh"]["copies"] >= 3 and d["one_thread_fresh"]["bytes_per_s"] > 0
assert d["scenario"]["cpu.memcpy_bandwidth"] == d["one_thread_fresh"]["bytes_per_s"]'
# One thread is one thread.
"$PIPESIM" calibrate memory --time 0.01 --threads 1 | grep -q '^#   1 thread, into fresh memory: '

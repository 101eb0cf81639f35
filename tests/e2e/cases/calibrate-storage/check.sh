# The fragment says how, when and where it was measured, carries the three storage keys,
# and loads as part of a scenario; the folder is only read (same files, same bytes; the
# empty file is not a request); JSON carries both passes at each level.
set -e
f="$CASE_TMP/storage.toml"
grep -q '^# pipesim calibrate storage: measured 20[0-9-]*T[0-9:]*Z by pipesim ' "$f"
grep -q '^# Method: 6 files (mean [0-9.]* KB) below$' "$f"
grep -q '^# read whole (open, read, close) in a shuffled order by 1 and 2 readers at once,$' "$f"
[ "$(grep -c '^#  *[12]  *\(cold\|warm\) ' "$f")" = 4 ]
grep -Eq '^read_bandwidth = "[0-9.]+ [KMG]?B/s"$' "$f"
grep -Eq '^iops = [0-9]+$' "$f"
grep -Eq '^latency = "[0-9.]+ (ns|us|ms|s)"$' "$f"
(cd data && find . -type f | sort | xargs sha256sum) | diff - files.sha256
printf 'use = ["reference", "storage.toml"]\n[workload]\ndataset_samples = 1000\n' > "$CASE_TMP/scenario.toml"
"$PIPESIM" diagnose "$CASE_TMP/scenario.toml" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["inputs"]["storage.read_bandwidth"] > 0 and d["inputs"]["storage.iops"] > 0
assert [s["modelled"] for s in d["stages"] if s["name"] == "storage"] == [True]'
"$PIPESIM" calibrate storage data --time 0.02 --concurrency 3 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["calibrate"] == "storage" and d["method"]["files"] == 6
assert [l["concurrency"] for l in d["cold"]] == [3] and [l["concurrency"] for l in d["warm"]] == [3]
assert d["cold"][0]["requests"] <= 6
assert d["scenario"]["storage.read_bandwidth"] == d["cold"][0]["bytes_per_s"]'

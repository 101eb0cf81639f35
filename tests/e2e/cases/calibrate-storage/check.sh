# The fragment says how, when and where it was measured, carries the three storage keys,
# and loads as part of a scenario; the folder is only read (same files, same bytes; the
# empty file is not a request); JSON carries both passes at each level.
set -e
# On a busy machine (decode) or a file system that keeps pages (storage) a calibration emits
# its keys commented out after "# NOT TRUSTED:"; key PATTERN FILE finds a key either way, and
# `trusted FILE` says which it was.
trusted() { ! grep -q '^# NOT TRUSTED: ' "$1"; }
key() { if trusted "$2"; then grep -Eq "^$1" "$2"; else grep -Eq "^# $1" "$2"; fi; }
f="$CASE_TMP/storage.toml"
grep -q '^# pipesim calibrate storage: measured 20[0-9-]*T[0-9:]*Z by pipesim ' "$f"
grep -q '^# Method: 6 files (mean [0-9.]* KB) below$' "$f"
grep -q '^# read whole (open, read, close) in a shuffled order by 1 and 2 readers at once,$' "$f"
[ "$(grep -c '^#  *[12]  *\(cold\|warm\) ' "$f")" = 4 ]
key 'read_bandwidth = "[0-9.]+ [KMG]?B/s"$' "$f"
key 'iops = [0-9]+$' "$f"
key 'latency = "[0-9.]+ (ns|us|ms|s)"$' "$f"
(cd data && find . -type f | sort | xargs sha256sum) | diff - files.sha256
printf 'use = ["reference", "storage.toml"]\n[workload]\ndataset_samples = 1000\n' > "$CASE_TMP/scenario.toml"
# A trusted fragment models storage; a doubtful one sets nothing.
"$PIPESIM" diagnose "$CASE_TMP/scenario.toml" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
trusted = sys.argv[1] == "yes"
assert ("storage.read_bandwidth" in d["inputs"]) == trusted
assert [s["modelled"] for s in d["stages"] if s["name"] == "storage"] == [trusted]' "$(trusted "$f" && echo yes || echo no)"
"$PIPESIM" calibrate storage data --time 0.25 --concurrency 3 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["calibrate"] == "storage" and d["method"]["files"] == 6
assert [l["concurrency"] for l in d["cold"]] == [3] and [l["concurrency"] for l in d["warm"]] == [3]
assert d["cold"][0]["requests"] <= 6
keys = d["scenario"] if d["trusted"] else d["untrusted_scenario"]
assert ("scenario" in d) == d["trusted"]
assert keys["storage.read_bandwidth"] == d["cold"][0]["bytes_per_s"]'

# The fragment says how, when and where it was measured, lists every wait, sets
# pipeline.loop_cpu_share for the wait asked for (or leaves it commented out when the busy
# threads left a CPU free), and loads as part of a scenario.
set -e
f="$CASE_TMP/loop.toml"
grep -q '^# pipesim calibrate loop: measured 20[0-9-]*T[0-9:]*Z by pipesim ' "$f"
grep -q '^# on .* ([0-9]* logical CPUs* this process may use), ' "$f"
for w in spin yield poll sleep; do grep -Eq "^#   $w +[0-9.]+ CPUs \\(share [0-9.]+, " "$f"; done
grep -q 'yield .*-> pipeline.loop_cpu_share' "$f"
grep -Eq '^#? ?loop_cpu_share = [01]\.[0-9]{3}   # yield$' "$f"
printf 'use = ["reference", "loop.toml"]\n[cpu]\ncores = 8\n' > "$CASE_TMP/scenario.toml"
"$PIPESIM" diagnose "$CASE_TMP/scenario.toml" --format json > "$CASE_TMP/d.json"
"$PIPESIM" calibrate loop --time 0.01 --rounds 1 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["calibrate"] == "loop" and d["machine"]["logical_cpus"] >= 1
assert set(d["waits"]) == {"spin", "yield", "poll", "sleep"}
assert d["method"]["wait"] == "spin" and d["method"]["rounds"] == 1
keys = d["scenario"] if d["trusted"] else d["untrusted_scenario"]
assert 0 <= keys["pipeline.loop_cpu_share"] <= 1
spin = d["waits"]["spin"]
assert keys["pipeline.loop_cpu_share"] == min(1, max(0, spin["loop_cpus_mean"]))
assert spin["loop_cpus_mean"] <= spin["share_high"] * d["method"]["fair_share_cpus"] * (1 + 1e-12)'
# One busy thread beside the loop on a machine of two CPUs or more crowds nothing: the key is
# left commented out, with the reason.
if [ "$(nproc)" -ge 2 ]; then
  "$PIPESIM" calibrate loop --time 0.01 --rounds 1 --threads 1 > "$CASE_TMP/alone.toml"
  grep -q '^# NOT TRUSTED: 1 busy thread and the waiting thread did not outnumber' "$CASE_TMP/alone.toml"
  grep -q '^# loop_cpu_share = ' "$CASE_TMP/alone.toml"
fi

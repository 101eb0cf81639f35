# The fragment says how, when and where it was measured and that decode alone is a lower
# bound on the transform's cost; it carries the per-byte rate (synthetic files) and the
# scaling law, and loads as part of a scenario, replacing the reference's worker rate.
set -e
# On a busy machine (decode) or a file system that keeps pages (storage) a calibration emits
# its keys commented out after "# NOT TRUSTED:"; key PATTERN FILE finds a key either way, and
# `trusted FILE` says which it was.
trusted() { ! grep -q '^# NOT TRUSTED: ' "$1"; }
key() { if trusted "$2"; then grep -Eq "^$1" "$2"; else grep -Eq "^# $1" "$2"; fi; }
f="$CASE_TMP/decode.toml"
grep -q '^# pipesim calibrate decode: measured 20[0-9-]*T[0-9:]*Z by pipesim ' "$f"
grep -q '^# Method: 8 JPEG files pipesim made' "$f"
grep -q '^# libjpeg-turbo 2\.[0-9.]* (TurboJPEG API, accurate DCT) on 1 and 2 threads at once,$' "$f"
grep -q 'Decode alone is a lower bound' "$f"
key 'worker_throughput = "[0-9.]+ [KMG]B/s"$' "$f"
key 'scaling_contention = [0-9]+\.[0-9]{4}$' "$f"
! grep -q '^\(# \)\?scaling_coherency' "$f"   # two thread counts cannot fit kappa
printf 'use = ["reference", "decode.toml"]\n' > "$CASE_TMP/scenario.toml"
# A trusted fragment replaces the worker's rate; a doubtful one (a busy machine) sets nothing.
"$PIPESIM" diagnose "$CASE_TMP/scenario.toml" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
trusted = sys.argv[1] == "yes"
assert (d["inputs"]["cpu.worker_throughput"] != 250e6) == trusted, d["inputs"]["cpu.worker_throughput"]
assert ("cpu.scaling_contention" in d["inputs"]) == trusted' "$(trusted "$f" && echo yes || echo no)"
# Own files: the rate is per image; JSON carries every point and the fit.
mkdir "$CASE_TMP/jpegs"
"$PIPESIM" calibrate decode --time 0.01 --images 4 --save-synthetic "$CASE_TMP/jpegs" > /dev/null
"$PIPESIM" calibrate decode "$CASE_TMP/jpegs" --time 0.02 --threads 2 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["calibrate"] == "decode" and d["method"]["files"] == 4 and d["method"]["skipped"] == 0
assert [p["threads"] for p in d["points"]] == [1, 2]
assert d["fit"]["single_thread_images_per_s"] == d["points"][0]["images_per_s"]
keys = d["scenario"] if d["trusted"] else d["untrusted_scenario"]
assert ("scenario" in d) == d["trusted"]
assert keys["cpu.worker_sample_rate"] == d["fit"]["single_thread_images_per_s"]
assert d["lower_bound_on_transform_cost"] is True'
# Past the logical CPUs the threads take turns: the CPU per image there against at them gives
# cpu.oversubscription_cost, in the fragment and in JSON.
cpus=$(nproc)
"$PIPESIM" calibrate decode --time 0.02 --images 4 --threads "$((2 * cpus))" -o "$CASE_TMP/slicing.toml"
grep -q "past the CPUs" "$CASE_TMP/slicing.toml"
key 'oversubscription_cost = [0-9]+\.[0-9]{4}$' "$CASE_TMP/slicing.toml"
"$PIPESIM" calibrate decode --time 0.02 --images 4 --threads "$((2 * cpus))" --format json | python3 -c "
import json, sys
d = json.load(sys.stdin)
assert [p['threads'] for p in d['points']][-2:] == [$cpus, 2 * $cpus], d['points']
assert [p['past_the_cpus'] for p in d['points']][-1] is True
keys = d['scenario'] if d['trusted'] else d['untrusted_scenario']
assert keys['cpu.oversubscription_cost'] == d['fit']['oversubscription_cost'] >= 0"

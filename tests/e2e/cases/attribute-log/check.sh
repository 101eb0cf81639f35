# The same steps logged three ways (mmcv's JSON lines, MMEngine's console text, a Lightning-style
# CSV with sparse rows) give the same figures; validation records and other metrics are skipped.
set -e
for log in train.log.json train.log metrics.csv; do
  "$PIPESIM" attribute log "$log" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["records"] == 10 and d["left_out"] == 1, d
assert abs(d["input_bound_fraction"] - 0.5) < 1e-12 and d["input_bound"]
assert abs(d["loader_steps_per_s"] - 1 / 0.6) < 1e-12
assert abs(d["loop_step_s"] - 0.3) < 1e-12
assert d["data_time_s"]["max"] == 0.35 and d["time_s"]["p50"] == 0.6'
done
# --skip 0 keeps the loader's start (2.0 s of waiting in the first record).
"$PIPESIM" attribute log metrics.csv --skip 0 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["records"] == 11 and d["data_time_s"]["max"] == 2.0'
# The figure it suggests for --observed round-trips through a scenario solve.
"$PIPESIM" attribute observed reference --set pipeline.batch_size=256 --observed "1.667 it/s" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert abs(d["model"]["steps_per_s"] - 1.667) < 1e-6'

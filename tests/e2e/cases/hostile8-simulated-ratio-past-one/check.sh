#!/usr/bin/env bash
# The accelerator is never busy more than all of the time: a compute-bound simulation gives
# utilization at most 1 and a step no shorter than its compute (the clock's rounding once gave
# 1.0000000000000333), in simulate and in sweep --simulate.
set -uo pipefail
"$PIPESIM" simulate llm-pretraining-tokens --format json > "$CASE_TMP/llm.json" || { echo "simulate failed"; exit 1; }
"$PIPESIM" sweep mlperf-storage-cosmoflow-a100 --batch 4,8 --simulate --batches 200 --format csv > "$CASE_TMP/sweep.csv" ||
  { echo "sweep --simulate failed"; exit 1; }
python3 - "$CASE_TMP" <<'PY'
import csv, json, sys, os
d = sys.argv[1]
for name in ("cosmo.json", "llm.json"):
    s = json.load(open(os.path.join(d, name)))["simulated"]
    assert s["utilization"] <= 1, (name, s["utilization"])
rows = list(csv.DictReader(open(os.path.join(d, "sweep.csv"))))
cols = [c for c in rows[0] if "utilization" in c]
assert cols, rows[0].keys()
for r in rows:
    for c in cols:
        if r[c]:
            assert float(r[c]) <= 1, (c, r[c])
PY

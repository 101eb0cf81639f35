#!/usr/bin/env bash
# Each row carries its verdict and unmet requirements; the plan's tally names the pick.
set -euo pipefail
python3 - "$CASE_TMP/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"]
assert [r["verdict"] for r in rows] == ["pass", "pass", "fail", "fail"], [r["verdict"] for r in rows]
assert rows[2]["unmet"] == ["min_run_utilization"], rows[2]["unmet"]
assert all("run_utilization" in r and "worst_epoch_utilization" in r and "run_cost_usd" in r for r in rows)
plan = d["plan"]
assert (plan["passed"], plan["failed"], plan["unverified"]) == (2, 2, 0), plan
cheapest = min(rows[:2], key=lambda r: r["run_cost_usd"])
assert plan["pick"]["row"] == rows.index(cheapest) and plan["pick"]["by"] == "run_cost_usd", plan
assert plan["pick"]["value"] == cheapest["run_cost_usd"]
PY

#!/usr/bin/env bash
# Every embedded preset once, with its kind from its folder; the plans and the reference case are
# complete scenarios, the hardware parts are not; each record's name prints with `presets NAME`.
set -uo pipefail
"$PIPESIM" presets --format json > "$CASE_TMP/list.json" || exit 1
/usr/bin/python3 - "$CASE_TMP/list.json" << 'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema_version"] == 1 and d["pipesim_version"], d.keys()
p = {x["name"]: x for x in d["presets"]}
assert len(p) == len(d["presets"]) > 40
assert p["reference"]["complete"] and p["reference"]["kind"] == "scenario"
assert all(x["complete"] for x in p.values() if x["kind"] == "plan")
assert p["a100-40gb-sxm"]["kind"] == "accelerator" and not p["a100-40gb-sxm"]["complete"]
assert p["nvme-gen4"]["kind"] == "storage" and p["p4d-24xlarge"]["kind"] == "node"
assert p["pytorch-dataloader"]["kind"] == "loader"
assert {x["kind"] for x in p.values()} == {"scenario", "plan", "accelerator", "node", "storage", "workload", "loader"}
PY
"$PIPESIM" presets nvme-gen4 --format json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["inputs"] == {"storage.read_bandwidth": 7450000000, "storage.iops": 1400000}, d["inputs"]
assert d["toml"].startswith("name = "), d["toml"][:40]'

#!/usr/bin/env bash
# torchvision's 17.56 "GFLOPS" for ViT-B/16 are multiply-accumulates: the preset says "17.56 GMAC",
# read as 35.12 GFLOP, so a training step on an H100 at 40% of its bf16 peak takes
# 256 x 35.12e9 x 3 / (989.4e12 x 0.4) = 68.15 ms (it was half that when MACs were taken as FLOPs).
set -uo pipefail
"$PIPESIM" diagnose h100-sxm+vit-b16-imagenet --set accelerator.efficiency=0.4 --format json > "$CASE_TMP/d.json" || exit 1
python3 - "$CASE_TMP/d.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["inputs"]["model.flops_per_sample"] == 35120000000, d["inputs"]["model.flops_per_sample"]
compute = [s for s in d["stages"] if s["name"] == "compute"][0]["time_s"]
want = 256 * 35.12e9 * 3 / (989.4e12 * 0.4)
assert abs(compute / want - 1) < 1e-9, (compute, want)
PY

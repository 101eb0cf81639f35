#!/usr/bin/env bash
# Keys the file sets that change nothing diagnose computes are named with why; keys that act
# (cluster.nodes) and keys the presets set are not.
set -uo pipefail
"$PIPESIM" diagnose plan.toml --format json | python3 -c '
import json, sys
u = {x["key"]: x["reason"] for x in json.load(sys.stdin)["unused"]}
assert set(u) == {"pipeline.prefetch_factor", "model.flops_per_sample", "node.network_bandwidth",
                  "link.pageable_bandwidth"}, u
assert "storage.scope" in u["node.network_bandwidth"], u
assert "measured" in u["model.flops_per_sample"], u
assert "pinned" in u["link.pageable_bandwidth"], u
assert "simulate" in u["pipeline.prefetch_factor"], u' || exit 1
"$PIPESIM" diagnose plan.toml | grep -q "^Unused (keys you set that change nothing this diagnosis computes)$" ||
  { echo "no Unused section in the text"; exit 1; }

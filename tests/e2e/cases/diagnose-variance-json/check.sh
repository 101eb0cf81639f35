# Variance binds the transform (limit "variance") and the fixes include a deeper prefetch
# window and out-of-order delivery.
set -e
"$PIPESIM" diagnose --set pipeline.batch_size=16 --set pipeline.workers=6 --set transform.cv=1.5 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = d["stages"][1]
assert t["limit"] == "variance" and t["binding"], t
kinds = [r["kind"] for r in d["recommendations"]]
assert "prefetch" in kinds and "out_of_order" in kinds and "workers" in kinds, kinds
'

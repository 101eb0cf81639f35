#!/usr/bin/env bash
# A byte-order mark (Excel's "CSV UTF-8", Windows editors) is not part of the first time.
set -uo pipefail
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d["inputs"]["workload.transform_cost"]; assert abs(v-0.0032)<1e-9, v' "$CASE_TMP/s.json" || { echo "the times were not read"; exit 1; }
if grep -q $'\xef\xbb\xbf' "$CASE_TMP/s.json"; then echo "the mark was echoed"; exit 1; fi

#!/usr/bin/env bash
# attribute's TOML quotes the scenario's name as TOML: pipesim reads it back, the name whole.
set -uo pipefail
grep -qF 'name = "12\" NVMe box\u000Asecond line"' "$CASE_TMP/out.toml" || { echo "the name is not quoted as TOML"; exit 1; }
"$PIPESIM" diagnose "$CASE_TMP/out.toml" > "$CASE_TMP/d.txt" || { echo "pipesim refuses attribute's TOML"; exit 1; }
head -n 1 "$CASE_TMP/d.txt" | grep -qF '12" NVMe box\x0asecond line' || { echo "the name did not come back"; exit 1; }

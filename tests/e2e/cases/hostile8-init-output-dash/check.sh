#!/usr/bin/env bash
# -o - is standard output, as it is where other options read - : no file named "-" is made.
set -uo pipefail
[ ! -e ./- ] || { rm -f ./-; echo "init -o - wrote a file named -"; exit 1; }
grep -q "^# A pipesim scenario, written by \`pipesim init\`" "$CASE_TMP/init.toml" || { echo "init -o - printed no scenario"; exit 1; }

#!/usr/bin/env bash
# The report is written through the link to the file it names: the link kept, the file's
# permissions kept, no temporary file left beside it.
set -eu
[ -L "$CASE_TMP/link.xml" ] || { echo "the link was replaced"; exit 1; }
xmllint --noout "$CASE_TMP/real.xml"
[ "$(stat -c %a "$CASE_TMP/real.xml")" = 600 ] || { echo "the report's permissions changed"; exit 1; }
[ -z "$(ls -A "$CASE_TMP" | grep -v '^real.xml$' | grep -v '^link.xml$')" ]

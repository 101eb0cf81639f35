#!/usr/bin/env bash
# The report is there, whole, readable by others, and no temporary file is left beside it.
set -eu
xmllint --noout "$CASE_TMP/report.xml"
[ "$(stat -c %a "$CASE_TMP/report.xml")" != 600 ]
[ -z "$(ls -A "$CASE_TMP" | grep -v '^report.xml$')" ]

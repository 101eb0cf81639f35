# The JUnit file must be well-formed XML with one test case per plan x requirement
# (fits_in_memory included where accelerator memory is modelled).
set -e
xmllint --noout "$CASE_TMP/junit.xml"
[ "$(grep -c '<testcase ' "$CASE_TMP/junit.xml")" = 16 ]
[ "$(grep -c '<failure ' "$CASE_TMP/junit.xml")" = 10 ]
grep -q '<testsuites name="pipesim check" tests="16" failures="10" errors="0" skipped="0">' "$CASE_TMP/junit.xml"

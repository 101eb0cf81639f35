# The JUnit file must be well-formed XML with one test case per plan x requirement.
set -e
xmllint --noout "$CASE_TMP/junit.xml"
[ "$(grep -c '<testcase ' "$CASE_TMP/junit.xml")" = 9 ]
[ "$(grep -c '<failure ' "$CASE_TMP/junit.xml")" = 6 ]
grep -q '<testsuites name="pipesim check" tests="9" failures="6">' "$CASE_TMP/junit.xml"

#!/usr/bin/env bash
# The JUnit file is written too: the good plan's test cases, and each bad plan as one test case in error.
set -uo pipefail
xml="$CASE_TMP/checks.xml"
xmllint --noout "$xml" || { echo "the JUnit file is not XML"; exit 1; }
grep -q '<testsuites name="pipesim check" tests="6" failures="2" errors="2" skipped="0">' "$xml" || { echo "wrong totals:"; head -3 "$xml"; exit 1; }
grep -q '<testsuite name="bad" tests="1" failures="0" errors="1">' "$xml" || { echo "no error suite for bad"; exit 1; }
grep -q '<error message="pipeline.workers: expected a plain number' "$xml" || { echo "no error message for bad"; exit 1; }
grep -q '<testsuite name="nosuch-plan"' "$xml" || { echo "no error suite for nosuch-plan"; exit 1; }

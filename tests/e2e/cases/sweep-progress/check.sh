#!/usr/bin/env bash
# A long sweep watched on a terminal gets a progress line on stderr, erased at the end; its
# rows are the same as without one; piped (this case's own run), stderr stays empty.
set -uo pipefail
command -v script > /dev/null || { echo "script (bsdutils) is not installed: scripts/test installs it"; exit 1; }
fail=0
script -qec "'$PIPESIM' sweep --batch 1..200000:+1 --format csv > '$CASE_TMP/tty.csv'" /dev/null > "$CASE_TMP/tty.txt" ||
  { echo "the terminal run failed"; fail=1; }
grep -q $'\rsweep: 0 of 200,000 points (0%)\x1b\[K' "$CASE_TMP/tty.txt" || { echo "no progress line:"; cat -v "$CASE_TMP/tty.txt"; fail=1; }
[ "$(tail -c 4 "$CASE_TMP/tty.txt" | od -An -c | tr -d ' ')" = '\r033[K' ] || { echo "the line is not erased at the end"; cat -v "$CASE_TMP/tty.txt"; fail=1; }
cmp -s "$CASE_TMP/tty.csv" "$CASE_TMP/plain.csv" || { echo "the rows differ with a progress line"; fail=1; }
[ "$(wc -l < "$CASE_TMP/plain.csv")" = 200001 ] || { echo "rows missing"; fail=1; }
exit $fail

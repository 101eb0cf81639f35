#!/usr/bin/env bash
# diagnose wraps its prose: to 100 columns when piped (this case's own run), to the terminal's
# width on a terminal; never inside a word (the words are those of the unwrapped markdown, in
# order), and each further line of a bullet hangs under its text.
set -uo pipefail
fail=0
preset=p4d-24xlarge+nvme-gen4+resnet50-imagenet-amp
words() { sed -n '/What moves the wall/,$p' | sed -e 's/^#* *//' -e 's/^ *- //' | tr -s ' \n' '\n\n' | grep -v '^$'; }
"$PIPESIM" diagnose $preset > "$CASE_TMP/piped.txt"
"$PIPESIM" diagnose $preset --format markdown > "$CASE_TMP/md.txt"
awk 'length($0) > 100 { print "over 100 columns: " $0; bad=1 } END { exit bad }' "$CASE_TMP/piped.txt" || fail=1
grep -q '^    [a-z0-9(]' "$CASE_TMP/piped.txt" || { echo "no bullet hangs under its text"; fail=1; }
cmp -s <(words < "$CASE_TMP/piped.txt") <(words < "$CASE_TMP/md.txt") || {
  echo "the wrapped words differ from the markdown's:"; diff <(words < "$CASE_TMP/piped.txt") <(words < "$CASE_TMP/md.txt") | head; fail=1; }
if command -v script > /dev/null; then
  script -qec "stty cols 60; '$PIPESIM' diagnose $preset" /dev/null | tr -d '\r' > "$CASE_TMP/tty.txt"
  # The stage table keeps its columns; every line of prose fits in 60.
  sed -n '/What moves the wall/,$p' "$CASE_TMP/tty.txt" | sed 's/\x1b\[[0-9;]*m//g' |
    awk 'length($0) > 60 { print "over 60 columns on a 60-column terminal: " $0; bad=1 } END { exit bad }' || fail=1
  cmp -s <(sed 's/\x1b\[[0-9;]*m//g' "$CASE_TMP/tty.txt" | words) <(words < "$CASE_TMP/md.txt") || {
    echo "the words on a terminal differ from the markdown's"; fail=1; }
else
  echo "script (bsdutils) is not installed: the terminal width is not checked"
fi
exit $fail

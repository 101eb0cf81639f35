# One self-contained page: the figure inline, the diagnosis in words, every input with where it
# came from, the assumptions; no script, nothing fetched (no src, href or url()).
set -e
html="$CASE_TMP/report.html"
head -1 "$html" | grep -qx '<!DOCTYPE html>'
! grep -Eq '<script|src=|href=|url\(' "$html"
grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$html"
grep -q '^utilization    73.2% (accelerator idle 26.8% of every step)$' "$html"
grep -q '<td><code>pipeline.batch_size</code></td><td class="v">32</td><td class="origin">--set pipeline.batch_size=32</td>' "$html"
grep -q '<td class="origin">preset:configs/reference.toml:18:11</td>' "$html"
grep -q '<li>linear worker scaling: every added worker adds a full worker' "$html"
# The sweep's page: its figure, axes and scenario.
"$PIPESIM" sweep --batch 8..1024 --workers 8,16 --plot "$CASE_TMP/sweep.html" > /dev/null
grep -q '<li><code>pipeline.batch_size</code>: 8 values from 8 to 1024</li>' "$CASE_TMP/sweep.html"
[ "$(grep -c '<title>batch_size ' "$CASE_TMP/sweep.html")" = 16 ]
! grep -Eq '<script|src=|href=|url\(' "$CASE_TMP/sweep.html"
# Swept keys show as swept, not at the base value the sweep replaces.
grep -q '<td><code>pipeline.batch_size</code></td><td class="v">swept (see Axes)</td><td class="origin">the sweep</td>' "$CASE_TMP/sweep.html"

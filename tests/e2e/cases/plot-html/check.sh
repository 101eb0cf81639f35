# One self-contained page: the figure inline, the diagnosis in words, every input with where it
# came from, the assumptions; no script, nothing fetched (no src, href or url()).
set -e
html="$CASE_TMP/report.html"
head -1 "$html" | grep -qx '<!DOCTYPE html>'
! grep -Eq '<script|src=|href=|url\(' "$html"
grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$html"
grep -q '^utilization    73.2% (accelerator idle 26.8% of every step)$' "$html"
grep -q '<td><code>pipeline.batch_size</code></td><td class="v">32</td><td class="origin">--set pipeline.batch_size=32</td>' "$html"
grep -q '<td class="origin">preset:configs/reference.toml:20:11</td>' "$html"
grep -q '<li>linear worker scaling: every added worker adds a full worker' "$html"
# The sweep's page: its figure, axes and scenario.
"$PIPESIM" sweep --batch 8..1024 --workers 8,16 --plot "$CASE_TMP/sweep.html" > /dev/null
grep -q '<li><code>pipeline.batch_size</code>: 8 values from 8 to 1024</li>' "$CASE_TMP/sweep.html"
[ "$(grep -c '<title>batch ' "$CASE_TMP/sweep.html")" = 16 ]
! grep -Eq '<script|src=|href=|url\(' "$CASE_TMP/sweep.html"
# Swept keys show as swept, not at the base value the sweep replaces.
grep -q '<td><code>pipeline.batch_size</code></td><td class="v">swept (see Axes)</td><td class="origin">the sweep</td>' "$CASE_TMP/sweep.html"
# The simulation's page: its figure, the words simulate prints, the scenario and the assumptions.
"$PIPESIM" simulate --set transform.cv=0.5 --plot "$CASE_TMP/sim.html" --format json > /dev/null
! grep -Eq '<script|src=|href=|url\(' "$CASE_TMP/sim.html"
grep -q '<h2>Simulation</h2>' "$CASE_TMP/sim.html"
grep -q "^wait per step  mean 52.21 ms, p50 0 s, p95 263.5 ms" "$CASE_TMP/sim.html"
grep -q '<title>no wait: ' "$CASE_TMP/sim.html"
grep -q '<td><code>transform.cv</code></td><td class="v">0.5</td><td class="origin">--set transform.cv=0.5</td>' "$CASE_TMP/sim.html"
grep -q '<li>linear worker scaling: every added worker adds a full worker' "$CASE_TMP/sim.html"
# The comparison's page: the figure, the table, and each plan's inputs with their origins and
# assumptions, under the plan's name.
"$PIPESIM" compare p4d-resnet50-nvme p4d-resnet50-nfs --format json --plot "$CASE_TMP/cmp.html" > /dev/null
c="$CASE_TMP/cmp.html"
! grep -Eq '<script|src=|href=|url\(' "$c"
grep -q '<title>pipesim compare: p4d-resnet50-nvme vs p4d-resnet50-nfs</title>' "$c"
grep -q '^throughput                  11,000 samples/s    11,000 samples/s$' "$c"
grep -q '^verdict                                   FAIL                        FAIL$' "$c"
grep -q '<h2>p4d-resnet50-nfs: p4d.24xlarge, ResNet-50 AMP, NFS over 10 GbE</h2>' "$c"
grep -q '<td class="v">7.45 GB/s</td><td class="origin">preset:configs/storage/nvme-gen4.toml:10:18</td>' "$c"
grep -q '<td class="v">1.25 GB/s</td><td class="origin">preset:configs/storage/nfs-10gbe.toml:12:18</td>' "$c"
[ "$(grep -c '<h3>Assumptions</h3>' "$c")" = 2 ]
# The sweep's page holds its rows as the table prints them, and the assumptions at its first point.
grep -q '^batch   workers   transform     compute        step  binding            utilization         throughput$' "$CASE_TMP/sweep.html"
grep -q '<h2>Assumptions at the first point</h2>' "$CASE_TMP/sweep.html"
# ... and the keys set that change nothing there.
"$PIPESIM" sweep --batch 8..64 --set pipeline.in_order=false --plot "$CASE_TMP/unused.html" > /dev/null
grep -q '<li><code>pipeline.in_order</code>: changes no figure' "$CASE_TMP/unused.html"
! grep -q 'Unused at the first point' "$CASE_TMP/sweep.html"

# Absurd but valid inputs (batch 10^12, storage at 1 B/s) give long but finite figures.
set -e
out="$("$PIPESIM" diagnose p4d-resnet50-nvme --set pipeline.batch_size=1000000000000 --set "storage.read_bandwidth=1B/s" --set storage.cache_hit=0)"
grep -q "storage fetch, limited by bandwidth" <<<"$out"

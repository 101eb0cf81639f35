# The same grid on one thread and on four gives the same bytes, in every format; the inner
# axis (100 batch sizes) does not divide the chunks, so chunks start inside its runs.
set -eu
for format in csv json table markdown; do
  a="$("$PIPESIM" sweep --batch 1..100:+1 --workers 1..30:+1 --set node.memory=1GB --set workload.dataset_samples=10000 --set storage.read_bandwidth=3GB/s --format "$format" --jobs 1 | md5sum)"
  b="$("$PIPESIM" sweep --batch 1..100:+1 --workers 1..30:+1 --set node.memory=1GB --set workload.dataset_samples=10000 --set storage.read_bandwidth=3GB/s --format "$format" --jobs 4 | md5sum)"
  [ "$a" = "$b" ] || { echo "--jobs 1 and --jobs 4 differ for $format"; exit 1; }
done

#!/usr/bin/env bash
# One embedded preset loads and diagnoses cleanly, in every output format.
#   preset_case.sh PIPESIM CONFIGS_DIR RELATIVE_PATH
# Hardware profiles are paired with a workload (and a workload that needs hardware with
# an accelerator) so that the scenario is complete; fields a preset leaves to the user on
# purpose (its comments say so) are given with --set, as a user would.
set -uo pipefail
bin="$1"; rel="$3"
name="$(basename "$rel" .toml)"
dir="$(mktemp -d)"; trap 'rm -rf "$dir"' EXIT
sets=()
case "$rel" in
  accelerators/*) printf 'use = ["%s", "resnet50-reference"]\n[pipeline]\nbatch_size = 64\nworkers = 8\n' "$name" > "$dir/s.toml" ;;
  nodes/*)        printf 'use = ["%s", "resnet50-imagenet-amp"]\n' "$name" > "$dir/s.toml" ;;
  storage/*|loaders/*) printf 'use = ["reference", "%s"]\n' "$name" > "$dir/s.toml" ;;
  workloads/*)    printf 'use = ["a100-80gb-sxm", "%s"]\n' "$name" > "$dir/s.toml" ;;
  *)              printf 'use = "%s"\n' "$name" > "$dir/s.toml" ;;
esac
case "$name" in
  fsx-lustre) sets=(--set "storage.capacity=4.8 TiB") ;;
  resnet50-reference) sets=(--set pipeline.batch_size=256 --set pipeline.workers=8) ;;
  vit-b16-imagenet) sets=(--set accelerator.efficiency=0.4) ;;
  medical-images-5mb) sets=(--set "model.measured_per_sample=10 ms" --set "cpu.worker_sample_rate=40 samples/s") ;;
esac
fail=0
for format in table json csv markdown; do
  out="$("$bin" diagnose "$dir/s.toml" "${sets[@]}" --format "$format" 2>"$dir/err")"
  code=$?
  if [ "$code" != 0 ] || [ -s "$dir/err" ] || [ -z "$out" ]; then
    echo "$rel ($format): exit $code"; cat "$dir/err"; fail=1; continue
  fi
  if grep -Eiq '(^|[^a-z])(inf|nan)([^a-z]|$)' <<<"$out"; then echo "$rel ($format): inf or nan"; fail=1; fi
  if [ "$format" = json ]; then
    python3 -c 'import json,sys; json.loads(sys.stdin.read())' <<<"$out" || { echo "$rel: bad JSON"; fail=1; }
  fi
done
# The preset prints as written and cites its sources. grep reads all of it: with -q it would stop
# at the first match and, past the first 4 KiB (written apart), pipesim's next write would meet
# a closed pipe and fail the pipeline under pipefail.
"$bin" presets "$name" | grep -i 'source' >/dev/null || { echo "$rel: no source cited"; fail=1; }
exit $fail

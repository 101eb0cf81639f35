#!/usr/bin/env bash
# it/s and steps/s become samples/s with the batch size in force where they are written: the
# file's (0.75 it/s x 256 = 192 samples/s), or the one --set before them (3 steps/s x 64).
set -uo pipefail
fail=0
# grep reads all of the output (no -q): the JSON is written in two pieces, and under pipefail a
# grep that stopped at the match would leave the second to a closed pipe.
"$PIPESIM" diagnose node.toml --format json | grep '"cpu.worker_sample_rate": 192[,}]' >/dev/null || { echo "0.75 it/s at batch 256 is not 192 samples/s"; fail=1; }
"$PIPESIM" diagnose --set pipeline.batch_size=64 --set 'cpu.worker_sample_rate=3 steps/s' --format json |
  grep '"cpu.worker_sample_rate": 192[,}]' >/dev/null || { echo "3 steps/s at batch 64 is not 192 samples/s"; fail=1; }
out="$("$PIPESIM" sweep --vary 'cpu.worker_sample_rate=1,2 it/s' 2>&1)"; code=$?
[ "$code" = 2 ] && [[ "$out" == *"sweep it in samples/s"* ]] || { echo "a swept rate per step was not refused: $out"; fail=1; }
exit $fail

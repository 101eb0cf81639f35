#!/usr/bin/env bash
# scripts/validate replay on the measured runs the repository holds, and on bad input; with
# COLLECT=1 also a dry run of collect on this machine's CPU (a tiny model, two points and the
# probe) replayed in turn: the format it writes is the one the replay reads.
# Usage: replay_test.sh REPO PIPESIM
set -euo pipefail
repo=$1
pipesim=$2
validate="$repo/scripts/validate"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "replay_test: $*" >&2
  exit 1
}

# Every point of a shipped run gets a row and a prediction in (0, 1]; the summary line ends it;
# the exit status is the verdict (0 or 1), never 2.
for dir in "$repo"/validation/*/*/; do
  dir=${dir%/}
  run=${dir#"$repo/validation/"}
  points=$(grep -c '"kind": "point"' "$dir/results.jsonl")
  set +e
  "$validate" replay "$dir" --pipesim "$pipesim" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  set -e
  [ "$rc" -le 1 ] || fail "$run: exit $rc: $(cat "$tmp/err")"
  rows=$(grep -cE '^ +[0-9]+ +[0-9]+ +0\.[0-9]{3} +(0\.[0-9]{3}|-) +[01]\.[0-9]{3} +[-+]0\.[0-9]{3}  ' "$tmp/out" || true)
  [ "$rows" -eq "$points" ] || fail "$run: $rows rows for $points points"
  tail -n 1 "$tmp/out" | grep -qE "^mean absolute utilization error 0\.[0-9]{3}, max [01]\.[0-9]{3} over $points points \((within|OUTSIDE) the target" ||
    fail "$run: no summary line: $(tail -n 1 "$tmp/out")"
  if [ "$rc" -eq 0 ]; then grep -q "(within the target" "$tmp/out" || fail "$run: exit 0 outside the target"; fi
  if [ "$rc" -eq 1 ]; then grep -q "(OUTSIDE the target" "$tmp/out" || fail "$run: exit 1 within the target"; fi
  set +e
  "$validate" replay "$dir" --json --pipesim "$pipesim" >"$tmp/json" 2>"$tmp/err"
  jrc=$?
  set -e
  [ "$jrc" -eq "$rc" ] || fail "$run: --json exits $jrc, the table $rc"
  /usr/bin/python3 - "$tmp/json" "$points" <<'PY' || fail "$run: --json lines"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == int(sys.argv[2]), len(lines)
for line in lines:
    o = json.loads(line)
    assert set(o) == {"batch", "workers", "utilization"}, o
    assert 0 < o["utilization"] <= 1 and o["batch"] >= 1 and o["workers"] >= 0, o
PY
  cp "$tmp/out" "$tmp/out.${run//\//_}"
done
[ -f "$tmp/out.h200-node_resnet50" ] || fail "the H200 runs are not in validation/"
# A probe given another step than the run trained (validation/h200-node/resnet50: fp32 against
# the run's bf16) is told apart, and its pin thread's rate left for the preset's; one that trained the run's
# step gives the loop's launch, timed at an eighth of its batch.
grep -q "^  the probe's step (116.9 ms) is not the run's (55.8 ms at its batch)" "$tmp/out.h200-node_resnet50" ||
  fail "h200-node/resnet50: the probe's other step is not told apart"
grep -q "^  loop launch 8.86 ms per step (the probe's" "$tmp/out.h200-node_resnet50-c" ||
  fail "h200-node/resnet50-c: the probe's launch is not used"
if grep -q "is not the run's" "$tmp/out.h100-node_resnet18" "$tmp/out.h200-node_resnet50-c"; then
  fail "a probe that trained the run's step is taken for another"
fi

# With them too, the contention comes from the scaling record's line (every count of processes),
# not from the probe's one count.
grep -q "^  contention 0.0000 (the scaling record's line);" "$tmp/out.h100-node_resnet18" ||
  fail "h100-node/resnet18: the contention not from the scaling record's line beside the probe"

# Without the probe's files a worker's time and contention come from the scaling record's line,
# and the loop's loss on a crowded node from the preset unless fitted on other runs.
grep -q "(the scaling record's forked processes, 2 to 16 at once (least squares), with their contention)" \
  "$tmp/out.h100-node_resnet50" || fail "h100-node/resnet50: a worker's time not from the scaling record's line"
grep -q "^  contention 0.0116 (the scaling record's line); the loop's loss with every CPU busy 11.70 ms (the preset's)" \
  "$tmp/out.h100-node_resnet50" || fail "h100-node/resnet50: contention or the loop's loss not said"
"$validate" replay "$repo/validation/h100-node/resnet50" --crowded-from "$repo/validation/h200-contention/resnet50" \
  --pipesim "$pipesim" >"$tmp/out" 2>&1 || true
grep -qE "^  contention .*; the loop's loss with every CPU busy [0-9.]+ ms \(fitted on 1 other run\)" "$tmp/out" ||
  fail "--crowded-from: the fitted figure not used: $(sed -n 4p "$tmp/out")"
# The steady state beside the window: at 20 workers on 16 CPUs (H200, ResNet-50, batch 256) the
# window's 0.415 holds the first round; after it the node runs at 0.650.
grep -qE '^ +256 +20 +0\.415 +0\.650 ' "$tmp/out.h200-node_resnet50" ||
  fail "h200-node/resnet50: no steady state after the first round at 20 workers"
grep -q "; against the steady state (after the first round) 0\.[0-9]\{3\}, max" "$tmp/out.h200-node_resnet50" ||
  fail "h200-node/resnet50: the summary gives no error against the steady state"
# Leave-one-out: a line per run and one for all, each run's figure fitted without it.
set +e
"$validate" replay "$repo"/validation/*/*/ --leave-one-out --pipesim "$pipesim" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "--leave-one-out: exit $rc: $(cat "$tmp/err")"
runs=$(ls -d "$repo"/validation/*/*/ | wc -l)
[ "$(grep -cE '^validation/[^ ]+ +[0-9]+ +0\.[0-9]{3} +[01]\.[0-9]{3} +[0-9.]+ ms +0\.[0-9]{3} +[01]\.[0-9]{3} +0\.[0-9]{3}$' "$tmp/out")" -eq "$runs" ] ||
  fail "--leave-one-out: not one line per run: $(cat "$tmp/out")"
grep -qE '^all runs +[0-9]+ ' "$tmp/out" || fail "--leave-one-out: no line for all runs"
# The lock share fitted on one run and judged on the other (two small runs): a line per run, one
# for all, and the share fitted on all runs.
set +e
"$validate" replay "$repo"/validation/h100-node/resnet18/ "$repo"/validation/h200-contention/resnet18/ --fit-lock \
  --pipesim "$pipesim" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "--fit-lock: exit $rc: $(cat "$tmp/err")"
[ "$(grep -cE '^validation/[^ ]+ +[0-9]+ +0\.[0-9]{3} +[01]\.[0-9] +0\.[0-9]{3}$' "$tmp/out")" -eq 2 ] ||
  fail "--fit-lock: not one line per run: $(cat "$tmp/out")"
grep -qE '^mean error .*fitted on all runs: [01]\.[0-9] \(mean error 0\.[0-9]{3}\)$' "$tmp/out" ||
  fail "--fit-lock: no share fitted on all runs: $(cat "$tmp/out")"

# Bad input: one line on stderr, exit 2.
expect_bad() {
  local what=$1 pattern=$2
  shift 2
  set +e
  "$validate" replay "$@" --pipesim "$pipesim" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "$what: exit $rc, not 2"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: not one line: $(cat "$tmp/err")"
  grep -q -- "$pattern" "$tmp/err" || fail "$what: '$pattern' not in: $(cat "$tmp/err")"
}
expect_bad "no folder" "not a folder" "$tmp/none"
mkdir "$tmp/empty"
expect_bad "no records" "results.jsonl: no such file" "$tmp/empty"
mkdir "$tmp/badjson"
printf '{"kind": "env", "cpus": 16}\n{"kind": "point", "batch": 8\n' >"$tmp/badjson/results.jsonl"
expect_bad "bad JSON" "results.jsonl:2:" "$tmp/badjson"
mkdir "$tmp/nocompute"
grep -v '"kind": "compute"' "$repo/validation/h100-node/resnet50/results.jsonl" >"$tmp/nocompute/results.jsonl"
expect_bad "no compute record" "no compute record at batch" "$tmp/nocompute"
mkdir "$tmp/fifo"
mkfifo "$tmp/fifo/results.jsonl"
expect_bad "a FIFO" "no such file" "$tmp/fifo"
expect_bad "fitted on the replayed run" "the replayed run; fit on other runs only" \
  "$repo/validation/h100-node/resnet50" --crowded-from "$repo/validation/h100-node/resnet50/"
expect_bad "two runs without --leave-one-out" "several with --leave-one-out" \
  "$repo/validation/h100-node/resnet50" "$repo/validation/h100-node/resnet18"

if [ "${COLLECT:-0}" = 1 ]; then
  set +e
  "$validate" collect "$tmp/run" --model tiny --batches 8 --workers 1,2 --seconds 0.5 --files 16 --device cpu \
    --probe 8,1 --pipesim "$pipesim" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  set -e
  [ "$rc" -le 1 ] || fail "collect: exit $rc: $(tail -n 5 "$tmp/err")"
  for kind in env dataset per_sample scaling memcpy compute contention point probe done; do
    grep -q "\"kind\": \"$kind\"" "$tmp/run/results.jsonl" || fail "collect: no $kind record"
  done
  [ "$(grep -c '"kind": "point"' "$tmp/run/results.jsonl")" -eq 2 ] || fail "collect: not two points"
  # Each point: at least three whole rounds of W, each step's wait and time, and the steady state
  # after the first round (the workers' start left out) beside the whole window's.
  /usr/bin/python3 - "$tmp/run/results.jsonl" <<'PY' || fail "collect: a point's rounds, step times, steady state or batch spans"
import json, sys
for line in open(sys.argv[1]):
    p = json.loads(line)
    if p["kind"] != "point":
        continue
    rounds = max(1, p["workers"])
    assert p["n"] % rounds == 0 and p["n"] >= 3 * rounds, p["n"]
    assert len(p["waits"]) == len(p["step_times"]) == p["n"], p
    assert 0 < min(p["step_times"]) and sum(p["step_times"]) + sum(p["waits"]) <= p["wall"], p
    assert 0 < p["utilization_after_first_round"] and 0 < p["utilization"], p
    # Each batch's span and its worker's CPU on it, in the order taken.
    assert len(p["batch_spans"]) == len(p["batch_cpus"]) == p["n"], p
    assert all(0 < c <= s + 1e-3 for s, c in zip(p["batch_spans"], p["batch_cpus"])), p
PY
  grep -q '"rc": 0' <(grep '"kind": "probe"' "$tmp/run/results.jsonl") || fail "collect: the probe failed"
  [ -s "$tmp/run/probe.toml" ] && grep -q "^# Inside the DataLoader" "$tmp/run/probe.toml" ||
    fail "collect: no probe.toml measured inside the loader"
  "$pipesim" diagnose "$tmp/run/probe.toml" >/dev/null || fail "collect: pipesim refuses the probe's TOML"
  grep -q "inside the loader from the probe, inside the DataLoader" "$tmp/out" || fail "collect: the replay did not read the probe's timing inside the loader"
  tail -n 1 "$tmp/out" | grep -q "over 2 points" || fail "collect: no replay summary: $(tail -n 1 "$tmp/out")"
fi
echo "replay_test: passed"

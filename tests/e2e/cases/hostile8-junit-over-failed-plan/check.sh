#!/usr/bin/env bash
# A plan that failed to load is still an input: --junit naming it is refused, the plan left whole.
set -uo pipefail
grep -q '^workers = "2 GB"$' plan.cfg || { echo "the plan was written over"; exit 1; }

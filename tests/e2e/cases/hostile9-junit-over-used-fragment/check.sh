#!/usr/bin/env bash
# A fragment a plan uses is an input even when the plan fails to load: --junit naming it is
# refused, the fragment left whole.
set -uo pipefail
grep -q '^workers = "2 GB"$' fragment.cfg || { echo "the fragment was written over"; exit 1; }

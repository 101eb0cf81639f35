#!/usr/bin/env bash
# -o inside the measured folder is refused before anything is measured: the file is left whole.
set -uo pipefail
[ "$(wc -c < ds/sample0001.bin)" -eq 2000 ] && ! grep -q pipesim ds/sample0001.bin || { echo "a measured file was written over"; exit 1; }

#!/usr/bin/env bash
set -uo pipefail
[ ! -e ./- ] || { rm -f ./-; echo "--junit - wrote a file named -"; exit 1; }

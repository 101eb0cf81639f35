#!/usr/bin/env bash
# A plan whose file name holds line breaks: no line of the output may start a workflow command
# other than pipesim's own ::error and ::warning (GitHub would obey ::stop-commands:: and ignore
# every later annotation).
set -uo pipefail
[ -f stdout ] || { echo "no golden stdout"; exit 1; }
if grep -v -e '^::error ' -e '^::warning ' stdout | grep -q '^::'; then
  echo "a plan's name started a workflow command"
  exit 1
fi

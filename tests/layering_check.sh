#!/usr/bin/env bash
# The layers of ARCHITECTURE.md, "Layers": each folder of src/ (and each of src/core/'s four)
# includes only its own headers and those of the layers below it. Every include that points
# upward or sideways is one line, FILE:LINE: what it includes and what the folder may use; exit 1
# if there is any. The build refuses the same includes (tests/layering_build.sh); this check also
# reads headers that no source of their own layer includes.
#   layering_check.sh SOURCE_DIR
set -euo pipefail
cd "$1/src"
core="core/base core/stages core/sim core/analyses"
declare -A may=(
  [util]="util"
  [core/base]="core/base"
  [core/stages]="core/base core/stages"
  [core/sim]="core/base core/stages core/sim"
  [core/analyses]="$core util"
  [config]="config $core util"
  [measure]="measure $core util"
  [report]="report config measure $core util"
  [cli]="cli report config measure $core util"
)
bad=0
files=0
for layer in "${!may[@]}"; do
  while IFS= read -r file; do
    files=$((files + 1))
    while IFS=: read -r line text; do
      target=$(sed -E 's/^#include "(core\/[a-z_]+|[a-z_]+)\/.*/\1/' <<<"$text")
      if [[ " ${may[$layer]} " != *" $target "* ]]; then
        echo "src/$file:$line: $layer/ includes $target/ (${text#\#include }); $layer/ may use ${may[$layer]// /, }"
        bad=1
      fi
    done < <(grep -nE '^#include "[a-z_]+/' "$file" | sed -E 's/^([0-9]+):/\1:/')
  done < <(find "$layer" -name '*.cpp' -o -name '*.hpp' | sort)
done
[ "$bad" -eq 0 ] || exit 1
echo "$files files include only their own layer and those below it"

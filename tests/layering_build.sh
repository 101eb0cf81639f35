#!/usr/bin/env bash
# Each layer compiles against its own folder of links (CMakeLists.txt, pipesim_layer): what a
# layer may include compiles there, and an upward include fails with "No such file". Each row is
# a layer, a header it may include and one it may not.
#   layering_build.sh CXX BUILD_DIR
set -euo pipefail
cxx=$1
layers=$2/layers
rows=(
  "core_base core/base/units.hpp core/stages/stage.hpp"
  "core_stages core/stages/stage.hpp core/sim/simulate.hpp"
  "core_sim core/sim/simulate.hpp core/analyses/diagnosis.hpp"
  "core_analyses core/analyses/diagnosis.hpp config/loader.hpp"
  "config config/loader.hpp report/out.hpp"
  "measure measure/machine.hpp config/loader.hpp"
  "report report/out.hpp cli/common.hpp"
)
compile() { printf '#include "%s"\n' "$2" | "$cxx" -std=c++20 -fsyntax-only -x c++ -I"$layers/$1" - 2>&1; }
for row in "${rows[@]}"; do
  read -r layer allowed upward <<<"$row"
  if ! out=$(compile "$layer" "$allowed"); then
    echo "$layer: $allowed should compile and does not:"
    echo "$out" | head -5
    exit 1
  fi
  if out=$(compile "$layer" "$upward"); then
    echo "$layer: the upward include $upward compiled"
    exit 1
  fi
  if ! grep -q "$upward: No such file" <<<"$out"; then
    echo "$layer: $upward failed for another reason:"
    echo "$out" | head -5
    exit 1
  fi
done
echo "${#rows[@]} layers: each compiles its own headers and refuses an upward include"

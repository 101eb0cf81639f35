#!/usr/bin/env bash
# cmake/startup-order.txt names the functions a command runs as it starts, which the release link
# places together (see CMakeLists.txt). Names that no longer exist are ignored by the linker, so the
# file can go stale without any output changing: this fails when fewer than 80% of its names are
# functions of the release binary, and says to run scripts/startup-order.
set -euo pipefail
root="$1" bin="$2"
order="$root/cmake/startup-order.txt"
listed="$(mktemp)" present="$(mktemp)"
trap 'rm -f "$listed" "$present"' EXIT
grep -v '^#' "$order" | sort -u >"$listed"
nm --defined-only "$bin" | awk '{print $3}' | sort -u >"$present"
total=$(wc -l <"$listed")
found=$(comm -12 "$listed" "$present" | wc -l)
echo "startup-order: $found of $total listed functions are in $bin"
[ "$total" -gt 0 ] || { echo "startup-order: $order lists no functions" >&2; exit 1; }
if [ $((found * 100)) -lt $((total * 80)) ]; then
  echo "startup-order: the list is stale (under 80% found): run scripts/startup-order and rebuild" >&2
  exit 1
fi

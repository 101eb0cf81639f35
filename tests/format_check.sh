#!/usr/bin/env bash
# Every C++ file follows .clang-format (apply it with: clang-format -i FILE).
#   format_check.sh SOURCE_DIR
set -euo pipefail
cd "$1"
command -v clang-format >/dev/null || { echo "clang-format is not installed (scripts/test installs it)"; exit 1; }
mapfile -t files < <(find src tests tools fuzz -name '*.cpp' -o -name '*.hpp' | sort)
clang-format --dry-run --Werror "${files[@]}"
echo "${#files[@]} files follow .clang-format"

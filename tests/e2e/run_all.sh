#!/usr/bin/env bash
# Runs every end-to-end case against one binary (the static Release build users run; the
# per-case CTest tests run the sanitizer build).
#   run_all.sh PIPESIM CASES_DIR
set -uo pipefail
bin="$1"; cases="$2"
failed=()
for c in "$cases"/*/; do
  bash "$(dirname "${BASH_SOURCE[0]}")/run_case.sh" "$bin" "${c%/}" >/dev/null 2>&1 || failed+=("$(basename "$c")")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed against $bin: ${failed[*]}"
  exit 1
fi
echo "every case passes against $bin"

#!/usr/bin/env bash
# scripts/pipesim, the README's first set-up command, on a tiny project of its own: a build
# that fails stops with the compiler's error and a non-zero exit (it used to run the stale
# binary and exit 0), and a second run with nothing to build prints nothing of the build.
#   pipesim_script_test.sh REPO_ROOT
set -uo pipefail
repo="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts/dev"
cp "$repo/scripts/pipesim" "$tmp/scripts/pipesim"
printf '#!/bin/sh\nexit 0\n' > "$tmp/scripts/dev/setup-deps"  # nothing to install here
chmod +x "$tmp/scripts/pipesim" "$tmp/scripts/dev/setup-deps"
cat > "$tmp/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(fake CXX)
option(PIPESIM_TESTS "" OFF)
add_executable(pipesim main.cpp)
CM
fail=0
echo 'int main() { return "not an int"; }' > "$tmp/main.cpp"
"$tmp/scripts/pipesim" --version > "$tmp/out" 2> "$tmp/err"
code=$?
[ "$code" -ne 0 ] || { echo "a failed build exited 0"; fail=1; }
grep -q 'main.cpp' "$tmp/err" || { echo "the compiler's error is not shown:"; cat "$tmp/err"; fail=1; }
grep -q 'the build failed' "$tmp/err" || { echo "no word that the build failed"; fail=1; }
[ ! -s "$tmp/out" ] || { echo "something ran after a failed build:"; cat "$tmp/out"; fail=1; }
printf '#include <cstdio>\nint main(int, char** argv) { std::printf("ran %%s\\n", argv[1]); }\n' > "$tmp/main.cpp"
"$tmp/scripts/pipesim" --version > "$tmp/out" 2> "$tmp/err" || { echo "a good build failed:"; cat "$tmp/err"; fail=1; }
grep -qx 'ran --version' "$tmp/out" || { echo "the binary did not run:"; cat "$tmp/out"; fail=1; }
"$tmp/scripts/pipesim" diagnose > "$tmp/out" 2> "$tmp/err"
[ ! -s "$tmp/err" ] || { echo "nothing to build, yet the build printed:"; cat "$tmp/err"; fail=1; }
grep -qx 'ran diagnose' "$tmp/out" || { echo "the second run did not run the binary"; fail=1; }
exit "$fail"

#!/usr/bin/env bash
# Sets up, builds and runs every test: all tests on the release build, the
# unit tests again under ASan+UBSan, and each fuzz target for a bounded time.
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZ_SECONDS="${SPINDLE_FUZZ_SECONDS:-60}"

scripts/setup.sh

echo "== release build: every test"
scripts/build.sh release
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 300

echo "== ASan+UBSan build: unit tests"
scripts/build.sh sanitize
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp" \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -L unit --timeout 600

echo "== fuzzing, ${FUZZ_SECONDS}s per target"
for fuzzer in build-asan/fuzz/*_fuzzer; do
  [ -x "$fuzzer" ] || continue
  corpus="$(mktemp -d)"
  seeds="tests/fuzz/seeds/$(basename "$fuzzer" _fuzzer)"
  [ -d "$seeds" ] && cp -r "$seeds"/. "$corpus"/
  "$fuzzer" -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 "$corpus" 2>&1 | tail -n 5
  rm -rf "$corpus"
done
echo "all test stages passed"

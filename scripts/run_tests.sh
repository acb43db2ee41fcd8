#!/usr/bin/env bash
# Sets up, builds and runs every test: all tests on the release build, the
# unit tests again under ASan+UBSan, and each fuzz target for a bounded time.
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZ_SECONDS="${SPINDLE_FUZZ_SECONDS:-30}"

# Each stage prints how long it took, so a slow CI run says where its time went.
stage_start=$SECONDS
# It also prints the disk left: a full run needs about 10 GB for its two build trees.
stage_done() {
  echo "== $1 took $((SECONDS - stage_start)) s (total $SECONDS s; $(df -h --output=avail . | tail -n 1 | tr -d ' ') free)"
  stage_start=$SECONDS
}

scripts/setup.sh
stage_done "set-up"

echo "== release build: every test"
scripts/build.sh release
stage_done "release build"
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 300
stage_done "release tests"

echo "== ASan+UBSan build: unit tests"
scripts/build.sh sanitize
stage_done "sanitize build"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp" \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -L unit --timeout 600
stage_done "sanitize unit tests"

echo "== fuzzing, ${FUZZ_SECONDS}s per target"
for fuzzer in build-asan/fuzz/*_fuzzer; do
  [ -x "$fuzzer" ] || continue
  corpus="$(mktemp -d)"
  seeds="tests/fuzz/seeds/$(basename "$fuzzer" _fuzzer)"
  [ -d "$seeds" ] && cp -r "$seeds"/. "$corpus"/
  "$fuzzer" -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 "$corpus" 2>&1 | tail -n 5
  rm -rf "$corpus"
done
stage_done "fuzzing"
echo "all test stages passed"

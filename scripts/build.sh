#!/usr/bin/env bash
# Configures and builds one flavour of Spindle, all of it or the named targets.
#   scripts/build.sh release [TARGET...]   -> build/        (GCC, RelWithDebInfo)
#   scripts/build.sh sanitize [TARGET...]  -> build-asan/   (Clang, ASan+UBSan, libFuzzer targets;
#                                                       no integration tests: only unit tests run there)
# The main job builds only `spindle` (scripts/run_main.sh); the test command builds everything.
set -euo pipefail
cd "$(dirname "$0")/.."

flavour="${1:-release}"
shift || true
jobs="$(nproc)"
targets=()
for t in "$@"; do targets+=(--target "$t"); done
case "$flavour" in
  release)
    cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build build -j"$jobs" "${targets[@]}"
    ;;
  sanitize)
    cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
      -DSPINDLE_SANITIZE=ON -DSPINDLE_FUZZ=ON -DSPINDLE_INTEGRATION_TESTS=OFF >/dev/null
    cmake --build build-asan -j"$jobs" "${targets[@]}"
    ;;
  *)
    echo "usage: scripts/build.sh release|sanitize [TARGET...]" >&2
    exit 2
    ;;
esac

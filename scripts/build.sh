#!/usr/bin/env bash
# Configures and builds one flavour of Spindle.
#   scripts/build.sh release   -> build/        (GCC, RelWithDebInfo)
#   scripts/build.sh sanitize  -> build-asan/   (Clang, ASan+UBSan, libFuzzer targets)
set -euo pipefail
cd "$(dirname "$0")/.."

flavour="${1:-release}"
jobs="$(nproc)"
case "$flavour" in
  release)
    cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build build -j"$jobs"
    ;;
  sanitize)
    cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
      -DSPINDLE_SANITIZE=ON -DSPINDLE_FUZZ=ON >/dev/null
    cmake --build build-asan -j"$jobs"
    ;;
  *)
    echo "usage: scripts/build.sh release|sanitize" >&2
    exit 2
    ;;
esac

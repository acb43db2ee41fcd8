#!/usr/bin/env bash
# Sets up, builds and runs Spindle's main job: a single-node cell with a demo
# application through it (scripts/demo_cell.sh says what runs).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
scripts/build.sh release spindle  # the demo needs the binary only; the test command builds the rest
scripts/demo_cell.sh "$PWD/build/cmd/spindle"

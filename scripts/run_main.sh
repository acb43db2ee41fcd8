#!/usr/bin/env bash
# Sets up, builds and runs Spindle's main job. Until the ResourceManager
# lands, the main job is the Hadoop IPC benchmark: a real IPC server and
# client over loopback, SIMPLE and TOKEN (SASL DIGEST-MD5) authentication.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
scripts/build.sh release
./build/cmd/spindle bench ipc --connections 4 --in-flight 32 --seconds 5
./build/cmd/spindle bench ipc --connections 4 --in-flight 32 --seconds 5 --token

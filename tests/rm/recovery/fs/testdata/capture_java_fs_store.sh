#!/usr/bin/env bash
# Copies the FileSystemRMStateStore directory a Java RM wrote (a local
# file:// yarn.resourcemanager.fs.state-store.uri) into test data: every file
# of FSRMStateRoot with its .crc file, except ProxyCARoot (the proxy CA's
# private key; Spindle neither reads nor writes it), plus LISTING.txt, the
# whole tree as the Java RM left it (size and path of each file).
#   capture_java_fs_store.sh <store uri directory> <test data directory>
set -euo pipefail
src="${1:?store directory}"
dst="$(realpath -m "${2:?test data directory}")"
[[ -d "$src/FSRMStateRoot" ]] || { echo "no FSRMStateRoot in $src" >&2; exit 1; }
rm -rf "$dst"
mkdir -p "$dst"
(cd "$src" && find FSRMStateRoot -type f -printf '%s %p\n' | sort -k2) > "$dst/LISTING.txt"
(cd "$src" && find FSRMStateRoot -path FSRMStateRoot/ProxyCARoot -prune -o -type f -print0 |
  xargs -0 cp --parents -t "$dst")
(cd "$src" && find FSRMStateRoot -type d -print0 | (cd "$dst" && xargs -0 mkdir -p))

#!/usr/bin/env bash
# Installs what Spindle needs to build and test, from Debian's packages only.
# Idempotent: installs nothing when everything is present.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config ccache
  clang libclang-rt-14-dev          # sanitizer + libFuzzer build
  protobuf-compiler libprotobuf-dev
  libthrift-dev thrift-compiler
  libboost-dev libboost-system-dev
  librocksdb-dev zlib1g-dev
  libgoogle-glog-dev libgflags-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libssl-dev
  zookeeper libzookeeper-mt-dev     # HA: the ZooKeeper server the tests start, and its C client
  unzip zip                         # nm agent: zip/jar archive resources (unzip) and their tests (zip)
  chromium                          # web UI: the headless browser of integration/web_ui
  libkrb5-dev                       # Kerberos: keytab log-in and GSS-API (security/)
  krb5-kdc krb5-admin-server krb5-user  # Kerberos: the tests' own KDC (tests/support/mini_kdc)
)
command -v npm >/dev/null || PACKAGES+=(npm)  # web UI build (node 20 is on these machines)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi

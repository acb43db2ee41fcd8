// The tiny `spindle bench wire` cell the integration tests run
// (wire_bench_test, wire_failover_test): 20 simulated nodes of 8 GB and 8
// vcores heartbeating every 100 ms, 3 application slots of 40 containers of
// 100 ms, allocate every 50 ms, 3 s measured after 1 s of warm-up, 60 s to
// give up. A test changes what it is about. The binary is the build's
// `spindle` (SPINDLE_BINARY, set by the test's CMake target).
#pragma once

#include "bench/wire/wire_options.h"

namespace spindle::bench::wire {

inline WireOptions TinyWireOptions() {
  WireOptions o;
  o.binary = SPINDLE_BINARY;
  o.nodes = 20;
  o.node_memory_mb = 8192;
  o.node_vcores = 8;
  o.heartbeat_ms = 100;
  o.apps = 3;
  o.containers_per_app = 40;
  o.container_ms = 100;
  o.allocate_ms = 50;
  o.seconds = 3;
  o.warmup_seconds = 1;
  o.timeout_seconds = 60;
  return o;
}

}  // namespace spindle::bench::wire

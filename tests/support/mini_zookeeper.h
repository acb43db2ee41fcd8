// The tests' name for bench/support's MiniZooKeeper (a real standalone
// ZooKeeper server on a port picked at run time), which `spindle bench wire`
// starts for its HA pair too: one launcher for both.
#pragma once

#include "bench/support/mini_zookeeper.h"

namespace spindle::testing {

using bench::MiniZooKeeper;
using bench::MiniZooKeeperOptions;

}  // namespace spindle::testing

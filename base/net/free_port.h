// Ports free on 127.0.0.1 right now, for whatever must name a fixed address
// before the server that will use it starts: an RM restarted on its ports,
// an HA pair whose every rm-id's addresses go into each configuration, a
// ZooKeeper or KDC child told its port on the command line. Each port is
// the kernel's pick for port 0, read back and released; another process
// may take it before its user binds it, so users that can bind port 0
// themselves should, and the others retry on a port taken meanwhile.
//
// Thread-safety: pure (each call uses its own sockets).
#pragma once

#include <cstdint>
#include <vector>

#include "base/result.h"

namespace spindle::net {

enum class PortUse {
  kTcp,
  // Free for both TCP and UDP (a KDC listens on both).
  kTcpAndUdp,
};

// `count` distinct ports: all are held bound until every one is picked.
// IoError if a socket cannot be made or bound; AlreadyExists (kTcpAndUdp)
// if a port the kernel gave for TCP is taken for UDP.
Result<std::vector<uint16_t>> PickFreeLoopbackPorts(int count, PortUse use = PortUse::kTcp);

// One port, as above.
Result<uint16_t> PickFreeLoopbackPort(PortUse use = PortUse::kTcp);

}  // namespace spindle::net

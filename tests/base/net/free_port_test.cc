#include "base/net/free_port.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <set>

namespace spindle::net {
namespace {

// Whether a socket of `type` can bind 127.0.0.1:port now.
bool Binds(int type, uint16_t port) {
  const int fd = ::socket(AF_INET, type, 0);
  if (fd < 0) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  const bool bound = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  ::close(fd);
  return bound;
}

TEST(FreePortTest, PortsAreDistinctNonZeroAndReleased) {
  Result<std::vector<uint16_t>> ports = PickFreeLoopbackPorts(6);
  ASSERT_TRUE(ports.ok()) << ports.status().ToString();
  ASSERT_EQ(ports->size(), 6u);
  const std::set<uint16_t> distinct(ports->begin(), ports->end());
  EXPECT_EQ(distinct.size(), 6u);
  EXPECT_EQ(distinct.count(0), 0u);
  // Released: the caller's server can bind them. (Another process could
  // take one meanwhile; on a test machine that is rare enough to ignore.)
  for (uint16_t port : *ports) EXPECT_TRUE(Binds(SOCK_STREAM, port)) << port;
}

TEST(FreePortTest, TcpAndUdpPortIsFreeForBoth) {
  Result<uint16_t> port = PickFreeLoopbackPort(PortUse::kTcpAndUdp);
  ASSERT_TRUE(port.ok()) << port.status().ToString();
  EXPECT_NE(*port, 0);
  EXPECT_TRUE(Binds(SOCK_STREAM, *port));
  EXPECT_TRUE(Binds(SOCK_DGRAM, *port));
}

TEST(FreePortTest, NoPortsAskedIsAnEmptyList) {
  Result<std::vector<uint16_t>> ports = PickFreeLoopbackPorts(0);
  ASSERT_TRUE(ports.ok());
  EXPECT_TRUE(ports->empty());
}

}  // namespace
}  // namespace spindle::net

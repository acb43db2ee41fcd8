#include "base/net/free_port.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace spindle::net {
namespace {

// Binds a new socket of `type` to 127.0.0.1:port (0: the kernel picks) and
// appends it to `fds`; the port it got, or 0 if it could not be bound.
uint16_t BindLoopback(int type, uint16_t port, std::vector<int>* fds) {
  const int fd = ::socket(AF_INET, type | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  fds->push_back(fd);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  socklen_t length = sizeof(address);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    return 0;
  }
  return ntohs(address.sin_port);
}

}  // namespace

Result<std::vector<uint16_t>> PickFreeLoopbackPorts(int count, PortUse use) {
  std::vector<int> fds;
  std::vector<uint16_t> ports;
  Status status = Status::OK();
  for (int i = 0; i < count && status.ok(); ++i) {
    const uint16_t port = BindLoopback(SOCK_STREAM, 0, &fds);
    if (port == 0) {
      status = Status::IoError("cannot bind a socket to 127.0.0.1:0");
    } else if (use == PortUse::kTcpAndUdp && BindLoopback(SOCK_DGRAM, port, &fds) != port) {
      status = Status::AlreadyExists("127.0.0.1:" + std::to_string(port) +
                                     " is free for TCP but not for UDP");
    } else {
      ports.push_back(port);
    }
  }
  for (int fd : fds) ::close(fd);
  RETURN_NOT_OK(status);
  return ports;
}

Result<uint16_t> PickFreeLoopbackPort(PortUse use) {
  ASSIGN_OR_RETURN(std::vector<uint16_t> ports, PickFreeLoopbackPorts(1, use));
  return ports[0];
}

}  // namespace spindle::net

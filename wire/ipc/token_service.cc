#include "wire/ipc/token_service.h"

#include <arpa/inet.h>
#include <netdb.h>

#include <map>
#include <mutex>

namespace spindle::ipc {

namespace {
std::string ResolveIpv4(const std::string& host) {
  static std::mutex mu;
  static auto* cache = new std::map<std::string, std::string>();
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache->find(host);
    if (it != cache->end()) return it->second;
  }
  std::string ip = host;
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* result = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &result) == 0 && result != nullptr) {
    char buf[INET_ADDRSTRLEN];
    const auto* addr = reinterpret_cast<const sockaddr_in*>(result->ai_addr);
    if (inet_ntop(AF_INET, &addr->sin_addr, buf, sizeof(buf)) != nullptr) ip = buf;
    freeaddrinfo(result);
  }
  std::lock_guard<std::mutex> lock(mu);
  (*cache)[host] = ip;
  return ip;
}
}  // namespace

std::string TokenService(const std::string& host, int32_t port) {
  return ResolveIpv4(host) + ":" + std::to_string(port);
}

}  // namespace spindle::ipc

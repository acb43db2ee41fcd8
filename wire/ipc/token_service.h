// Token "service" strings (Hadoop's SecurityUtil.buildTokenService): the
// resolved "IP:port" of the server a token is for (WIRE.md 6.1, with
// hadoop.security.token.service.use_ip=true, the default). Clients pick a
// token for a connection by exact service match, so NMTokens and container
// tokens must carry the NM's IP, not its host name.
//
// Thread contract: thread-safe; the first lookup of a host may block on the
// resolver, later ones hit a cache.
#pragma once

#include <cstdint>
#include <string>

namespace spindle::ipc {

// "IP:port" for host:port; if the host cannot be resolved, "host:port"
// (what Java falls back to as well).
std::string TokenService(const std::string& host, int32_t port);

}  // namespace spindle::ipc

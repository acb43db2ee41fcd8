// RpcService: the methods of one Hadoop protocol (declaringClassProtocolName,
// e.g. "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB"), and
// ServiceRegistry, the set of protocols one server port answers. Dispatch is
// by (protocol, method) from each call's RequestHeaderProto, as in Java.
//
// Thread contract: build the registry before the server starts; afterwards it
// is read-only and handlers run concurrently on the server's worker pool.
#pragma once

#include <google/protobuf/message_lite.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"
#include "wire/ipc/call_arena.h"
#include "wire/ipc/connection_identity.h"
#include "wire/ipc/error_mapping.h"
#include "wire/ipc/frame_codec.h"
#include "wire/ipc/inbound_call.h"

namespace spindle::ipc {

class RpcService {
 public:
  // Gets the serialized request and the call to answer (now or later).
  using RawHandler = std::function<void(std::string_view payload, InboundCall call)>;

  explicit RpcService(std::string protocol_name) : protocol_name_(std::move(protocol_name)) {}

  const std::string& protocol_name() const { return protocol_name_; }

  void AddRawMethod(const std::string& method, RawHandler handler) {
    methods_[method] = std::move(handler);
  }

  // A synchronous method: parse Req, run fn, answer with Resp or fn's error.
  template <typename Req, typename Resp>
  void AddMethod(const std::string& method,
                 std::function<Status(const ConnectionIdentity&, const Req&, Resp*)> fn) {
    AddRawMethod(method, [fn = std::move(fn)](std::string_view payload, InboundCall call) {
      // Both messages live in the call's arena (call_arena.h): the response
      // is encoded into the answer frame before the arena goes.
      CallArena arena;
      Req* request = google::protobuf::Arena::CreateMessage<Req>(arena.get());
      if (Status parsed = ParseMessage(payload, request); !parsed.ok()) {
        call.RespondError(java::kRpcServerException, parsed.message() + " for " + call.method(),
                          hadoop::common::RpcResponseHeaderProto::ERROR_RPC_SERVER);
        return;
      }
      Resp* response = google::protobuf::Arena::CreateMessage<Resp>(arena.get());
      Status s = fn(call.identity(), *request, response);
      if (s.ok()) {
        call.RespondSuccess(*response);
      } else {
        call.RespondFailure(s);
      }
    });
  }

  const RawHandler* FindMethod(const std::string& method) const {
    auto it = methods_.find(method);
    return it == methods_.end() ? nullptr : &it->second;
  }

 private:
  std::string protocol_name_;
  std::map<std::string, RawHandler> methods_;
};

class ServiceRegistry {
 public:
  void Add(std::unique_ptr<RpcService> service) {
    auto name = service->protocol_name();
    services_[name] = std::move(service);
  }
  const RpcService* Find(const std::string& protocol) const {
    auto it = services_.find(protocol);
    return it == services_.end() ? nullptr : it->second.get();
  }

  // Runs the call, or answers RpcNoSuchProtocol/RpcNoSuchMethod as Hadoop does.
  void Dispatch(const std::string& protocol, std::string_view payload, InboundCall call) const;

 private:
  std::map<std::string, std::unique_ptr<RpcService>> services_;
};

}  // namespace spindle::ipc

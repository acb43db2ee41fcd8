#include "wire/ipc/rpc_service.h"

namespace spindle::ipc {

void ServiceRegistry::Dispatch(const std::string& protocol, std::string_view payload,
                               InboundCall call) const {
  const RpcService* service = Find(protocol);
  if (service == nullptr) {
    call.RespondError(java::kRpcNoSuchProtocol, "Unknown protocol: " + protocol,
                      hadoop::common::RpcResponseHeaderProto::ERROR_NO_SUCH_PROTOCOL);
    return;
  }
  const RpcService::RawHandler* handler = service->FindMethod(call.method());
  if (handler == nullptr) {
    call.RespondError(java::kRpcNoSuchMethod,
                      "Unknown method " + call.method() + " called on " + protocol + " protocol.",
                      hadoop::common::RpcResponseHeaderProto::ERROR_NO_SUCH_METHOD);
    return;
  }
  (*handler)(payload, std::move(call));
}

}  // namespace spindle::ipc

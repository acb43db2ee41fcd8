// ApplicationMasterService: ApplicationMasterProtocol on port 8030 (WIRE.md
// 5.3). Callers are authenticated by their AMRM token (TOKEN only, so the
// connection's user is the attempt id). Each call is decoded into plain
// values, handed to the RM core's rm::AttemptAllocator (which owns the ask
// table, the responseId rules, container and token minting, headroom and
// what is kept for a restart), and its answer encoded.
//
// Thread contract: handlers run concurrently on the IPC worker pool; the
// service keeps no state of its own (AttemptAllocator serialises an
// attempt's calls).
#pragma once

#include <memory>

#include "rm/core/attempt_allocator.h"
#include "wire/ipc/protocol_names.h"
#include "wire/ipc/rpc_service.h"
#include "yarn_service_protos.pb.h"

namespace spindle::am_protocol {

using ipc::kApplicationMasterProtocol;

class AmService {
 public:
  // `allocator` (the RM core, or one activation's AttemptAllocator) must
  // outlive the service. In secure mode its registration answer carries the
  // attempt's ClientToAMToken master key, which the response hands the AM.
  explicit AmService(rm::AttemptProtocol* allocator);

  std::unique_ptr<ipc::RpcService> MakeRpcService();

  Status Register(const ipc::ConnectionIdentity& who,
                  const hadoop::yarn::RegisterApplicationMasterRequestProto& request,
                  hadoop::yarn::RegisterApplicationMasterResponseProto* response);
  Status Allocate(const ipc::ConnectionIdentity& who,
                  const hadoop::yarn::AllocateRequestProto& request,
                  hadoop::yarn::AllocateResponseProto* response);
  Status Finish(const ipc::ConnectionIdentity& who,
                const hadoop::yarn::FinishApplicationMasterRequestProto& request,
                hadoop::yarn::FinishApplicationMasterResponseProto* response);

 private:
  rm::AttemptProtocol* const allocator_;
};

// The token service string of a node's ContainerManager ("IP:port", see
// ipc/token_service.h), for rm::AttemptAllocatorDeps::token_service.
std::string NodeTokenService(const rm::NodeId& node);

}  // namespace spindle::am_protocol

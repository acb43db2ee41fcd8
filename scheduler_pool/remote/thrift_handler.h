// The server side of cell_state.thrift: each call decoded (thrift_codec),
// handed to a CellStateService, its answer encoded; a service error goes
// back as CellStateError. One processor serves the RM's sockets
// (ThriftCellServer) and the in-memory wire (ThriftConnectionOptions::
// in_memory), so both run the same code on the same bytes.
//
// Thread-safety: the processor is as thread-safe as the service (it is).
#pragma once

#include <memory>

#include "scheduler_pool/remote/cell_state_service.h"

namespace apache::thrift {
class TProcessor;
}

namespace spindle::pool::remote {

// `service` outlives the processor.
std::shared_ptr<apache::thrift::TProcessor> MakeCellStateProcessor(CellStateService* service);

}  // namespace spindle::pool::remote

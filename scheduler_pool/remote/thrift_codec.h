// Conversions between the cell-state service's C++ values
// (cell_service_connection.h, transaction.h) and the Thrift structs
// generated from cell_state.thrift. Decoding checks what a peer could get
// wrong (dimension counts, enum ranges, parallel list lengths) and returns
// InvalidArgument; encoding cannot fail.
//
// Thread-safety: pure functions.
#pragma once

#include <vector>

#include "base/result.h"
#include "base/status.h"
#include "cell_state_types.h"
#include "scheduler_pool/remote/cell_service_connection.h"

namespace spindle::pool::remote {

std::vector<int64_t> EncodeResource(const Resource& r);
Result<Resource> DecodeResource(const std::vector<int64_t>& dims);

wire::MemberToken EncodeToken(const MemberToken& token);
MemberToken DecodeToken(const wire::MemberToken& token);

wire::JoinReply EncodeJoin(const JoinInfo& info);
Result<JoinInfo> DecodeJoin(const wire::JoinReply& reply);

wire::WireNode EncodeNode(NodeId id, const NodeState& node);
Status DecodeNode(const wire::WireNode& wire, NodeId* id, NodeState* node);

std::vector<wire::PartitionWant> EncodeWants(const std::vector<PartitionWant>& wants);
Result<std::vector<PartitionWant>> DecodeWants(const std::vector<wire::PartitionWant>& wants);

wire::SyncReply EncodeSync(const std::vector<PartitionSlice>& slices, const CellFigures& figures);
Status DecodeSync(const wire::SyncReply& reply, std::vector<PartitionSlice>* slices,
                  CellFigures* figures);

wire::CommitRequest EncodeCommit(const MemberToken& token, uint64_t seq, const Transaction& txn);
Status DecodeCommit(const wire::CommitRequest& request, Transaction* txn);

wire::CommitReply EncodeCommitResult(const CommitResult& result);
Status DecodeCommitResult(const wire::CommitReply& reply, CommitResult* result);

wire::AssignmentReply EncodeAssignments(const Assignments& assignments);
Result<Assignments> DecodeAssignments(const wire::AssignmentReply& reply);

wire::MemberReport EncodeReport(const MemberReport& report);
MemberReport DecodeReport(const wire::MemberReport& report);

// A Status as the service's error and back (Aborted <-> LEASE_EXPIRED or
// STALE_COMMIT, InvalidArgument, NotFound, anything else INTERNAL).
wire::CellStateError EncodeError(const Status& status);
Status DecodeError(const wire::CellStateError& error);

}  // namespace spindle::pool::remote

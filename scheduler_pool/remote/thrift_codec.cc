#include "scheduler_pool/remote/thrift_codec.h"

#include <string>
#include <utility>

namespace spindle::pool::remote {

namespace {

constexpr auto kLastNodeStatus = static_cast<int>(NodeStatus::kRemoved);
constexpr auto kLastOutcome = static_cast<int>(ClaimOutcome::kAborted);

Ask DecodeAskUnchecked(const wire::WireAsk& w) {
  Ask a;
  a.priority = w.priority;
  a.allocation_request_id = w.allocation_request_id;
  a.count = w.count;
  for (int32_t n : w.nodes) a.nodes.push_back(NodeId::FromValue(static_cast<uint32_t>(n)));
  for (int32_t r : w.racks) a.racks.push_back(RackId(static_cast<uint32_t>(r)));
  a.relax_locality = w.relax_locality;
  a.label = static_cast<LabelId>(w.label);
  a.am_container = w.am_container;
  return a;
}

constexpr auto kLastOrdering = static_cast<int>(QueueOrdering::kApplicationId);

std::vector<wire::WireQueue> EncodeQueues(const std::vector<MemberQueue>& queues) {
  std::vector<wire::WireQueue> out;
  out.reserve(queues.size());
  for (const MemberQueue& q : queues) {
    wire::WireQueue& w = out.emplace_back();
    w.__set_name(q.name);
    w.__set_ordering(static_cast<int8_t>(q.ordering));
    w.__set_fair_size_based_weight(q.fair_size_based_weight);
  }
  return out;
}

Result<std::vector<MemberQueue>> DecodeQueues(const std::vector<wire::WireQueue>& queues) {
  std::vector<MemberQueue> out;
  out.reserve(queues.size());
  for (const wire::WireQueue& w : queues) {
    if (w.ordering < 0 || w.ordering > kLastOrdering) {
      return Status::InvalidArgument("queue '" + w.name + "': ordering " +
                                     std::to_string(w.ordering));
    }
    out.push_back(
        MemberQueue{w.name, static_cast<QueueOrdering>(w.ordering), w.fair_size_based_weight});
  }
  return out;
}

}  // namespace

std::vector<int64_t> EncodeResource(const Resource& r) {
  int used = kMaxResourceTypes;
  while (used > 0 && r.Get(used - 1) == 0) --used;
  std::vector<int64_t> dims(static_cast<size_t>(used));
  for (int i = 0; i < used; ++i) dims[static_cast<size_t>(i)] = r.Get(i);
  return dims;
}

Result<Resource> DecodeResource(const std::vector<int64_t>& dims) {
  if (dims.size() > static_cast<size_t>(kMaxResourceTypes)) {
    return Status::InvalidArgument("resource with " + std::to_string(dims.size()) +
                                   " dimensions (at most " + std::to_string(kMaxResourceTypes) +
                                   ")");
  }
  Resource r;
  for (size_t i = 0; i < dims.size(); ++i) r.Set(static_cast<int>(i), dims[i]);
  return r;
}

wire::MemberToken EncodeToken(const MemberToken& token) {
  wire::MemberToken w;
  w.__set_member(token.member);
  w.__set_epoch(token.epoch);
  return w;
}

MemberToken DecodeToken(const wire::MemberToken& token) {
  return MemberToken{token.member, token.epoch};
}

wire::JoinReply EncodeJoin(const JoinInfo& info) {
  wire::JoinReply w;
  w.__set_token(EncodeToken(info.token));
  w.__set_lease_ms(std::chrono::duration_cast<std::chrono::milliseconds>(info.lease).count());
  w.__set_num_partitions(info.num_partitions);
  std::vector<std::string> names;
  names.reserve(info.queues.size());
  for (const MemberQueue& q : info.queues) names.push_back(q.name);
  w.__set_queues(names);
  w.__set_queue_orderings(EncodeQueues(info.queues));
  w.__set_queues_generation(static_cast<int64_t>(info.queues_generation));
  return w;
}

Result<JoinInfo> DecodeJoin(const wire::JoinReply& reply) {
  if (reply.lease_ms <= 0 || reply.num_partitions <= 0 ||
      reply.num_partitions > static_cast<int32_t>(NodeId::kMaxPartitions)) {
    return Status::InvalidArgument("join: lease " + std::to_string(reply.lease_ms) +
                                   " ms, partitions " + std::to_string(reply.num_partitions));
  }
  JoinInfo info;
  info.token = DecodeToken(reply.token);
  info.lease = std::chrono::milliseconds(reply.lease_ms);
  info.num_partitions = reply.num_partitions;
  if (reply.__isset.queue_orderings) {
    if (reply.queue_orderings.size() != reply.queues.size()) {
      return Status::InvalidArgument("join: " + std::to_string(reply.queues.size()) +
                                     " queues but " + std::to_string(reply.queue_orderings.size()) +
                                     " orderings");
    }
    ASSIGN_OR_RETURN(info.queues, DecodeQueues(reply.queue_orderings));
    info.queues_generation = static_cast<uint64_t>(reply.queues_generation);
  } else {
    // A service that sends names only: every queue FIFO.
    for (const std::string& name : reply.queues) info.queues.push_back(MemberQueue{name});
  }
  return info;
}

wire::WireNode EncodeNode(NodeId id, const NodeState& node) {
  wire::WireNode w;
  w.node = static_cast<int32_t>(id.value());
  w.total = EncodeResource(node.total);
  w.allocated = EncodeResource(node.allocated);
  w.version = static_cast<int64_t>(node.version);
  w.score = node.score;
  w.rack = static_cast<int32_t>(node.rack.value());
  w.status = static_cast<int8_t>(node.status);
  w.label = static_cast<int16_t>(node.label);
  w.overcommitted = node.overcommitted;
  return w;
}

Status DecodeNode(const wire::WireNode& w, NodeId* id, NodeState* node) {
  if (w.status < 0 || w.status > kLastNodeStatus) {
    return Status::InvalidArgument("node status " + std::to_string(w.status));
  }
  ASSIGN_OR_RETURN(node->total, DecodeResource(w.total));
  ASSIGN_OR_RETURN(node->allocated, DecodeResource(w.allocated));
  *id = NodeId::FromValue(static_cast<uint32_t>(w.node));
  node->version = static_cast<uint64_t>(w.version);
  node->score = w.score;
  node->rack = RackId(static_cast<uint32_t>(w.rack));
  node->status = static_cast<NodeStatus>(w.status);
  node->label = static_cast<LabelId>(w.label);
  node->overcommitted = w.overcommitted;
  return Status::OK();
}

std::vector<wire::PartitionWant> EncodeWants(const std::vector<PartitionWant>& wants) {
  std::vector<wire::PartitionWant> out;
  out.reserve(wants.size());
  for (const PartitionWant& w : wants) {
    wire::PartitionWant& o = out.emplace_back();
    o.partition = w.partition;
    o.have_copy = w.have_copy;
    o.since_version = static_cast<int64_t>(w.since_version);
    o.copy_size = static_cast<int32_t>(w.copy_size);
  }
  return out;
}

Result<std::vector<PartitionWant>> DecodeWants(const std::vector<wire::PartitionWant>& wants) {
  std::vector<PartitionWant> out;
  out.reserve(wants.size());
  for (const wire::PartitionWant& w : wants) {
    if (w.copy_size < 0 || w.since_version < 0) {
      return Status::InvalidArgument("sync: negative copy size or version");
    }
    out.push_back(PartitionWant{w.partition, w.have_copy, static_cast<uint64_t>(w.since_version),
                                static_cast<uint32_t>(w.copy_size)});
  }
  return out;
}

wire::SyncReply EncodeSync(const std::vector<PartitionSlice>& slices, const CellFigures& figures) {
  wire::SyncReply w;
  w.slices.reserve(slices.size());
  for (const PartitionSlice& s : slices) {
    wire::PartitionSlice& o = w.slices.emplace_back();
    o.partition = s.partition;
    o.version = static_cast<int64_t>(s.info.version);
    o.full = s.info.full;
    o.node_count = static_cast<int32_t>(s.node_count);
    const auto p = static_cast<uint32_t>(s.partition);
    if (s.info.full) {
      o.nodes.reserve(s.nodes.size());
      for (size_t slot = 0; slot < s.nodes.size(); ++slot) {
        o.nodes.push_back(EncodeNode(NodeId(p, static_cast<uint32_t>(slot)), s.nodes[slot]));
      }
    } else {
      o.nodes.reserve(s.changes.size());
      for (const auto& [slot, state] : s.changes)
        o.nodes.push_back(EncodeNode(NodeId(p, slot), state));
    }
  }
  w.capacity = EncodeResource(figures.capacity);
  w.labelled_nodes = figures.labelled_nodes;
  w.utilisation = figures.utilisation;
  return w;
}

Status DecodeSync(const wire::SyncReply& reply, std::vector<PartitionSlice>* slices,
                  CellFigures* figures) {
  slices->clear();
  for (const wire::PartitionSlice& w : reply.slices) {
    PartitionSlice& s = slices->emplace_back();
    if (w.node_count < 0 || w.version < 0) {
      return Status::InvalidArgument("sync slice with a negative size or version");
    }
    s.partition = w.partition;
    s.info.version = static_cast<uint64_t>(w.version);
    s.info.full = w.full;
    s.node_count = static_cast<uint32_t>(w.node_count);
    for (const wire::WireNode& n : w.nodes) {
      NodeId id;
      NodeState state;
      RETURN_NOT_OK(DecodeNode(n, &id, &state));
      if (id.partition() != static_cast<uint32_t>(w.partition) || id.slot() >= s.node_count) {
        return Status::InvalidArgument("sync slice of partition " + std::to_string(w.partition) +
                                       " names a node outside it");
      }
      if (w.full) {
        if (id.slot() != s.nodes.size()) {
          return Status::InvalidArgument("full sync slice out of slot order");
        }
        s.nodes.push_back(std::move(state));
      } else {
        s.changes.emplace_back(id.slot(), std::move(state));
      }
    }
    if (w.full && s.nodes.size() != s.node_count) {
      return Status::InvalidArgument("full sync slice with a missing node");
    }
  }
  ASSIGN_OR_RETURN(figures->capacity, DecodeResource(reply.capacity));
  figures->labelled_nodes = reply.labelled_nodes;
  figures->utilisation = reply.utilisation;
  return Status::OK();
}

wire::CommitRequest EncodeCommit(const MemberToken& token, uint64_t seq, const Transaction& txn) {
  wire::CommitRequest w;
  w.token = EncodeToken(token);
  w.seq = static_cast<int64_t>(seq);
  w.conflict = static_cast<int8_t>(txn.conflict);
  w.mode = static_cast<int8_t>(txn.mode);
  w.claims.reserve(txn.claims.size());
  for (size_t i = 0; i < txn.claims.size(); ++i) {
    const Claim& c = txn.claims[i];
    wire::WireClaim& o = w.claims.emplace_back();
    o.node = static_cast<int32_t>(c.node.value());
    o.resource = EncodeResource(c.resource);
    o.seen_version = static_cast<int64_t>(c.seen_version);
    o.label = static_cast<int16_t>(c.label);
    if (i < txn.owners.size()) {
      const ClaimOwner& owner = txn.owners[i];
      o.app = static_cast<int64_t>(owner.app.value());
      o.priority = owner.priority;
      o.allocation_request_id = owner.allocation_request_id;
      o.locality = static_cast<int8_t>(owner.locality);
      o.preferred = owner.preferred;
    }
  }
  return w;
}

Status DecodeCommit(const wire::CommitRequest& request, Transaction* txn) {
  if (request.conflict < 0 || request.conflict > 1 || request.mode < 0 || request.mode > 1) {
    return Status::InvalidArgument("commit: conflict mode " + std::to_string(request.conflict) +
                                   ", transaction mode " + std::to_string(request.mode));
  }
  txn->conflict = static_cast<ConflictMode>(request.conflict);
  txn->mode = static_cast<TransactionMode>(request.mode);
  txn->claims.clear();
  txn->owners.clear();
  for (const wire::WireClaim& w : request.claims) {
    Claim c;
    c.node = NodeId::FromValue(static_cast<uint32_t>(w.node));
    ASSIGN_OR_RETURN(c.resource, DecodeResource(w.resource));
    if (w.seen_version < 0) return Status::InvalidArgument("commit: negative seen version");
    c.seen_version = static_cast<uint64_t>(w.seen_version);
    c.label = static_cast<LabelId>(w.label);
    txn->claims.push_back(c);
    if (w.locality < 0 || w.locality > static_cast<int8_t>(Locality::kOffSwitch)) {
      return Status::InvalidArgument("commit: locality " + std::to_string(w.locality));
    }
    txn->owners.push_back(ClaimOwner{AppId(static_cast<uint64_t>(w.app)), w.priority,
                                     w.allocation_request_id, static_cast<uint8_t>(w.locality),
                                     w.preferred});
  }
  return Status::OK();
}

wire::CommitReply EncodeCommitResult(const CommitResult& result) {
  wire::CommitReply w;
  w.outcomes.resize(result.outcomes.size());
  for (size_t i = 0; i < result.outcomes.size(); ++i) {
    w.outcomes[i] = static_cast<char>(result.outcomes[i]);
  }
  w.refreshed.reserve(result.refreshed.size());
  for (const auto& [node, state] : result.refreshed) w.refreshed.push_back(EncodeNode(node, state));
  w.committed = result.committed;
  w.conflicted = result.conflicted;
  return w;
}

Status DecodeCommitResult(const wire::CommitReply& reply, CommitResult* result) {
  result->outcomes.resize(reply.outcomes.size());
  for (size_t i = 0; i < reply.outcomes.size(); ++i) {
    const int o = static_cast<unsigned char>(reply.outcomes[i]);
    if (o > kLastOutcome) return Status::InvalidArgument("commit: outcome " + std::to_string(o));
    result->outcomes[i] = static_cast<ClaimOutcome>(o);
  }
  result->refreshed.clear();
  for (const wire::WireNode& n : reply.refreshed) {
    NodeId id;
    NodeState state;
    RETURN_NOT_OK(DecodeNode(n, &id, &state));
    result->refreshed.emplace_back(id, std::move(state));
  }
  result->committed = reply.committed;
  result->conflicted = reply.conflicted;
  return Status::OK();
}

wire::AssignmentReply EncodeAssignments(const Assignments& assignments) {
  wire::AssignmentReply w;
  w.version = static_cast<int64_t>(assignments.version);
  for (const AssignedApp& a : assignments.apps) {
    wire::WireApp& o = w.apps.emplace_back();
    o.app = static_cast<int64_t>(a.spec.id.value());
    o.queue = static_cast<int32_t>(a.spec.queue.value());
    o.priority = a.spec.priority;
    o.user = a.spec.user.valid() ? static_cast<int32_t>(a.spec.user.value()) : -1;
    o.held = a.spec.held;
    o.order = static_cast<int64_t>(a.spec.order);
    for (const Ask& ask : a.asks) {
      wire::WireAsk& k = o.asks.emplace_back();
      k.priority = ask.priority;
      k.allocation_request_id = ask.allocation_request_id;
      k.capability = EncodeResource(ask.capability);
      k.count = ask.count;
      for (NodeId n : ask.nodes) k.nodes.push_back(static_cast<int32_t>(n.value()));
      for (RackId r : ask.racks) k.racks.push_back(static_cast<int32_t>(r.value()));
      k.relax_locality = ask.relax_locality;
      k.label = static_cast<int16_t>(ask.label);
      k.am_container = ask.am_container;
    }
  }
  for (size_t i = 0; i < assignments.apps.size(); ++i) {
    const AssignedApp& a = assignments.apps[i];
    for (NodeId n : a.blacklist_nodes) {
      w.apps[i].blacklist_nodes.push_back(static_cast<int32_t>(n.value()));
    }
    for (RackId r : a.blacklist_racks) {
      w.apps[i].blacklist_racks.push_back(static_cast<int32_t>(r.value()));
    }
    w.apps[i].used = EncodeResource(a.used);
  }
  for (AppId app : assignments.removed) w.removed.push_back(static_cast<int64_t>(app.value()));
  if (assignments.queues_changed) {
    w.__set_queues_generation(static_cast<int64_t>(assignments.queues_generation));
    w.__set_queues(EncodeQueues(assignments.queues));
  }
  return w;
}

Result<Assignments> DecodeAssignments(const wire::AssignmentReply& reply) {
  Assignments out;
  if (reply.version < 0) return Status::InvalidArgument("assignments: negative version");
  out.version = static_cast<uint64_t>(reply.version);
  for (const wire::WireApp& w : reply.apps) {
    AssignedApp& a = out.apps.emplace_back();
    a.spec.id = AppId(static_cast<uint64_t>(w.app));
    if (w.queue < 0) return Status::InvalidArgument("assignments: negative queue id");
    a.spec.queue = QueueId(static_cast<uint32_t>(w.queue));
    a.spec.priority = w.priority;
    if (w.user >= 0) a.spec.user = UserId(static_cast<uint32_t>(w.user));
    a.spec.held = w.held;
    a.spec.order = static_cast<uint64_t>(w.order);
    for (const wire::WireAsk& k : w.asks) {
      Ask ask = DecodeAskUnchecked(k);
      ASSIGN_OR_RETURN(ask.capability, DecodeResource(k.capability));
      a.asks.push_back(std::move(ask));
    }
    for (int32_t n : w.blacklist_nodes) {
      a.blacklist_nodes.push_back(NodeId::FromValue(static_cast<uint32_t>(n)));
    }
    for (int32_t r : w.blacklist_racks)
      a.blacklist_racks.push_back(RackId(static_cast<uint32_t>(r)));
    ASSIGN_OR_RETURN(a.used, DecodeResource(w.used));
    if (a.used.AnyNegative()) return Status::InvalidArgument("assignments: negative usage");
  }
  for (int64_t app : reply.removed) out.removed.push_back(AppId(static_cast<uint64_t>(app)));
  if (reply.__isset.queues_generation) {
    out.queues_changed = true;
    out.queues_generation = static_cast<uint64_t>(reply.queues_generation);
    ASSIGN_OR_RETURN(out.queues, DecodeQueues(reply.queues));
  }
  return out;
}

wire::MemberReport EncodeReport(const MemberReport& r) {
  wire::MemberReport w;
  w.steps = r.steps;
  w.placements = r.placements;
  w.conflicts = r.conflicts;
  w.transactions = r.transactions;
  w.partition_syncs = r.partition_syncs;
  w.full_syncs = r.full_syncs;
  return w;
}

MemberReport DecodeReport(const wire::MemberReport& w) {
  MemberReport r;
  r.steps = w.steps;
  r.placements = w.placements;
  r.conflicts = w.conflicts;
  r.transactions = w.transactions;
  r.partition_syncs = w.partition_syncs;
  r.full_syncs = w.full_syncs;
  return r;
}

wire::CellStateError EncodeError(const Status& status) {
  wire::CellStateError e;
  switch (status.code()) {
    case Status::Code::kAborted:
      e.kind = status.ToString().find("stale commit") != std::string::npos
                   ? wire::ErrorKind::STALE_COMMIT
                   : wire::ErrorKind::LEASE_EXPIRED;
      break;
    case Status::Code::kInvalidArgument:
      e.kind = wire::ErrorKind::INVALID_ARGUMENT;
      break;
    case Status::Code::kNotFound:
      e.kind = wire::ErrorKind::NOT_FOUND;
      break;
    default:
      e.kind = wire::ErrorKind::INTERNAL;
      break;
  }
  e.message = status.ToString();
  return e;
}

Status DecodeError(const wire::CellStateError& error) {
  switch (error.kind) {
    case wire::ErrorKind::LEASE_EXPIRED:
    case wire::ErrorKind::STALE_COMMIT:
      return Status::Aborted(error.message);
    case wire::ErrorKind::INVALID_ARGUMENT:
      return Status::InvalidArgument(error.message);
    case wire::ErrorKind::NOT_FOUND:
      return Status::NotFound(error.message);
    default:
      return Status::Internal(error.message);
  }
}

}  // namespace spindle::pool::remote

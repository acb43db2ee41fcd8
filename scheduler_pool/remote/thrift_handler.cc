#include "scheduler_pool/remote/thrift_handler.h"

#include <string>
#include <vector>

#include "CellStateService.h"
#include "scheduler_pool/remote/thrift_codec.h"

namespace spindle::pool::remote {

namespace {

// Thrift's way to answer a declared error is to throw it.
void ThrowIfError(const Status& s) {
  if (!s.ok()) throw EncodeError(s);
}

class Handler final : public wire::CellStateServiceIf {
 public:
  explicit Handler(CellStateService* service) : service_(service) {}

  void join(wire::JoinReply& reply, const std::string& name) override {
    Result<JoinInfo> info = service_->Join(name);
    ThrowIfError(info.status());
    reply = EncodeJoin(*info);
  }
  void renew(const wire::MemberToken& token, const wire::MemberReport& report) override {
    ThrowIfError(service_->Renew(DecodeToken(token), DecodeReport(report)));
  }
  void leave(const wire::MemberToken& token) override {
    ThrowIfError(service_->Leave(DecodeToken(token)));
  }
  void sync(wire::SyncReply& reply, const wire::MemberToken& token,
            const std::vector<wire::PartitionWant>& partitions) override {
    Result<std::vector<PartitionWant>> wants = DecodeWants(partitions);
    ThrowIfError(wants.status());
    std::vector<PartitionSlice> slices;
    CellFigures figures;
    ThrowIfError(service_->Sync(DecodeToken(token), *wants, &slices, &figures));
    reply = EncodeSync(slices, figures);
  }
  void commit(wire::CommitReply& reply, const wire::CommitRequest& request) override {
    Transaction txn;
    ThrowIfError(DecodeCommit(request, &txn));
    if (request.seq < 0) ThrowIfError(Status::InvalidArgument("commit: negative sequence"));
    CommitResult result;
    ThrowIfError(service_->Commit(DecodeToken(request.token), static_cast<uint64_t>(request.seq),
                                  txn, &result));
    reply = EncodeCommitResult(result);
  }
  void assignments(wire::AssignmentReply& reply, const wire::MemberToken& token,
                   int64_t since_version, int64_t queues_since) override {
    if (since_version < 0) ThrowIfError(Status::InvalidArgument("assignments: negative version"));
    // A member that names no generation (an older peer: 0) gets the queues.
    Result<Assignments> a =
        service_->AssignmentsSince(DecodeToken(token), static_cast<uint64_t>(since_version),
                                   static_cast<uint64_t>(queues_since));
    ThrowIfError(a.status());
    reply = EncodeAssignments(*a);
  }
  void metrics(wire::ServiceMetrics& reply) override {
    const ServiceMetrics m = service_->Metrics();
    for (const MemberStatus& s : m.members) {
      wire::MemberMetrics& o = reply.members.emplace_back();
      o.member = s.member;
      o.name = s.name;
      o.apps = s.apps;
      o.report = EncodeReport(s.report);
    }
    reply.joins = m.joins;
    reply.leases_expired = m.leases_expired;
    reply.commits = m.commits;
    reply.commits_refused = m.commits_refused;
    reply.commits_replayed = m.commits_replayed;
    reply.apps_reassigned = m.apps_reassigned;
  }

 private:
  CellStateService* const service_;
};

}  // namespace

std::shared_ptr<apache::thrift::TProcessor> MakeCellStateProcessor(CellStateService* service) {
  return std::make_shared<wire::CellStateServiceProcessor>(std::make_shared<Handler>(service));
}

}  // namespace spindle::pool::remote

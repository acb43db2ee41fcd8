#include "scheduler_pool/remote/thrift_server.h"

#include <glog/logging.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/server/TThreadedServer.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TServerSocket.h>

#include <condition_variable>
#include <mutex>

#include "CellStateService.h"
#include "scheduler_pool/remote/thrift_codec.h"

namespace spindle::pool::remote {

namespace {

using apache::thrift::TException;
using apache::thrift::protocol::TCompactProtocolFactory;
using apache::thrift::server::TServerEventHandler;
using apache::thrift::server::TThreadedServer;
using apache::thrift::transport::TFramedTransportFactory;
using apache::thrift::transport::TServerSocket;

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

// Tells Start() that the socket listens (TServerFramework::serve calls
// preServe after listen()).
class ListeningSignal final : public TServerEventHandler {
 public:
  void preServe() override {
    std::lock_guard<std::mutex> lock(mu_);
    listening_ = true;
    cv_.notify_all();
  }
  // True once listening; false if serve() ended first.
  bool Wait(const bool* ended) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return listening_ || *ended; });
    return listening_;
  }
  void Ended() {
    std::lock_guard<std::mutex> lock(mu_);
    cv_.notify_all();
  }
  std::mutex mu_;

 private:
  std::condition_variable cv_;
  bool listening_ = false;
};

}  // namespace

Result<std::unique_ptr<ThriftCellServer>> ThriftCellServer::Start(CellStateService* service,
                                                                  const std::string& host,
                                                                  int port) {
  std::unique_ptr<ThriftCellServer> s(new ThriftCellServer());
  auto socket = std::make_shared<TServerSocket>(host, port);
  auto processor =
      std::make_shared<wire::CellStateServiceProcessor>(std::make_shared<Handler>(service));
  s->server_ = std::make_shared<TThreadedServer>(processor, socket,
                                                 std::make_shared<TFramedTransportFactory>(),
                                                 std::make_shared<TCompactProtocolFactory>());
  auto signal = std::make_shared<ListeningSignal>();
  s->server_->setServerEventHandler(signal);
  auto ended = std::make_shared<bool>(false);
  auto error = std::make_shared<std::string>();
  std::shared_ptr<TThreadedServer> server = s->server_;
  s->thread_ = std::thread([server, signal, ended, error] {
    try {
      server->serve();
    } catch (const TException& e) {
      std::lock_guard<std::mutex> lock(signal->mu_);
      *error = e.what();
    }
    {
      std::lock_guard<std::mutex> lock(signal->mu_);
      *ended = true;
    }
    signal->Ended();
  });
  if (!signal->Wait(ended.get())) {
    s->thread_.join();
    s->server_.reset();
    return Status::IoError("cell-state service cannot listen on " + host + ":" +
                           std::to_string(port) + ": " + *error);
  }
  s->port_ = socket->getPort();
  LOG(INFO) << "cell-state service listening on " << host << ":" << s->port_;
  return s;
}

ThriftCellServer::~ThriftCellServer() { Stop(); }

void ThriftCellServer::Stop() {
  if (server_ == nullptr) return;
  server_->stop();
  if (thread_.joinable()) thread_.join();
  server_.reset();
}

}  // namespace spindle::pool::remote

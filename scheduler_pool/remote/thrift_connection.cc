#include "scheduler_pool/remote/thrift_connection.h"

#include <glog/logging.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>
#include <thrift/transport/TTransportException.h>

#include "CellStateService.h"
#include "scheduler_pool/remote/thrift_codec.h"

namespace spindle::pool::remote {

using apache::thrift::TException;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::transport::TFramedTransport;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransportException;

struct ThriftConnection::Wire {
  std::shared_ptr<TSocket> socket;
  std::shared_ptr<TFramedTransport> transport;
  std::unique_ptr<wire::CellStateServiceClient> client;
};

ThriftConnection::ThriftConnection(const ThriftConnectionOptions& options) : options_(options) {}

ThriftConnection::~ThriftConnection() { Close(); }

void ThriftConnection::Close() {
  MutexLock lock(&mu_);
  if (wire_ == nullptr) return;
  try {
    wire_->transport->close();
  } catch (const TException& e) {
    VLOG(1) << "cell-state connection close: " << e.what();
  }
  wire_.reset();
}

template <typename Call>
Status ThriftConnection::Run(const char* what, Call&& call) {
  try {
    if (wire_ == nullptr) {
      auto w = std::make_unique<Wire>();
      w->socket = std::make_shared<TSocket>(options_.host, options_.port);
      const int ms = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(options_.timeout).count());
      w->socket->setConnTimeout(ms);
      w->socket->setSendTimeout(ms);
      w->socket->setRecvTimeout(ms);
      w->socket->setNoDelay(true);
      w->transport = std::make_shared<TFramedTransport>(w->socket);
      w->client = std::make_unique<wire::CellStateServiceClient>(
          std::make_shared<TCompactProtocol>(w->transport));
      w->transport->open();
      wire_ = std::move(w);
    }
    call(*wire_->client);
    return Status::OK();
  } catch (const wire::CellStateError& e) {
    return DecodeError(e);
  } catch (const TTransportException& e) {
    // The socket is in an unknown state: the next call connects again.
    wire_.reset();
    return Status::Unavailable(std::string("cell-state service ") + what + " at " + options_.host +
                               ":" + std::to_string(options_.port) + ": " + e.what());
  } catch (const TException& e) {
    wire_.reset();
    return Status::ProtocolError(std::string("cell-state service ") + what + ": " + e.what());
  }
}

Result<JoinInfo> ThriftConnection::Join(const std::string& name) {
  MutexLock lock(&mu_);
  wire::JoinReply reply;
  RETURN_NOT_OK(Run("join", [&](wire::CellStateServiceClient& c) { c.join(reply, name); }));
  return DecodeJoin(reply);
}

Status ThriftConnection::Renew(const MemberToken& token, const MemberReport& report) {
  MutexLock lock(&mu_);
  return Run("renew", [&](wire::CellStateServiceClient& c) {
    c.renew(EncodeToken(token), EncodeReport(report));
  });
}

Status ThriftConnection::Leave(const MemberToken& token) {
  MutexLock lock(&mu_);
  return Run("leave", [&](wire::CellStateServiceClient& c) { c.leave(EncodeToken(token)); });
}

Status ThriftConnection::Sync(const MemberToken& token, const std::vector<PartitionWant>& wants,
                              std::vector<PartitionSlice>* slices, CellFigures* figures) {
  MutexLock lock(&mu_);
  wire::SyncReply reply;
  RETURN_NOT_OK(Run("sync", [&](wire::CellStateServiceClient& c) {
    c.sync(reply, EncodeToken(token), EncodeWants(wants));
  }));
  return DecodeSync(reply, slices, figures);
}

Status ThriftConnection::Commit(const MemberToken& token, uint64_t seq, const Transaction& txn,
                                CommitResult* result) {
  MutexLock lock(&mu_);
  wire::CommitReply reply;
  RETURN_NOT_OK(Run("commit", [&](wire::CellStateServiceClient& c) {
    c.commit(reply, EncodeCommit(token, seq, txn));
  }));
  return DecodeCommitResult(reply, result);
}

Result<Assignments> ThriftConnection::AssignmentsSince(const MemberToken& token, uint64_t since,
                                                       uint64_t queues_since) {
  MutexLock lock(&mu_);
  wire::AssignmentReply reply;
  RETURN_NOT_OK(Run("assignments", [&](wire::CellStateServiceClient& c) {
    c.assignments(reply, EncodeToken(token), static_cast<int64_t>(since),
                  static_cast<int64_t>(queues_since));
  }));
  return DecodeAssignments(reply);
}

}  // namespace spindle::pool::remote

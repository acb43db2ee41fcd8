#include "scheduler_pool/remote/thrift_connection.h"

#include <glog/logging.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>
#include <thrift/transport/TTransportException.h>
#include <thrift/transport/TVirtualTransport.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "CellStateService.h"
#include "scheduler_pool/remote/thrift_codec.h"
#include "scheduler_pool/remote/thrift_handler.h"

namespace spindle::pool::remote {

using apache::thrift::TException;
using apache::thrift::TProcessor;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TFramedTransport;
using apache::thrift::transport::TMemoryBuffer;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransport;
using apache::thrift::transport::TTransportException;
using apache::thrift::transport::TVirtualTransport;

// Counts the bytes that cross it, under the framing.
class ThriftConnection::CountingTransport final : public TVirtualTransport<CountingTransport> {
 public:
  CountingTransport(std::shared_ptr<TTransport> inner, std::atomic<int64_t>* sent,
                    std::atomic<int64_t>* received)
      : inner_(std::move(inner)), sent_(sent), received_(received) {}
  bool isOpen() const override { return inner_->isOpen(); }
  void open() override { inner_->open(); }
  void close() override { inner_->close(); }
  uint32_t read(uint8_t* buf, uint32_t len) {
    const uint32_t got = inner_->read(buf, len);
    received_->fetch_add(got, std::memory_order_relaxed);
    return got;
  }
  void write(const uint8_t* buf, uint32_t len) {
    inner_->write(buf, len);
    sent_->fetch_add(len, std::memory_order_relaxed);
  }
  void flush() override { inner_->flush(); }

 private:
  std::shared_ptr<TTransport> inner_;
  std::atomic<int64_t>* const sent_;
  std::atomic<int64_t>* const received_;
};

// The in-memory wire: what the client writes is one framed request; at its
// flush the service's processor reads it (through its own framing, as the
// server's sockets do) and writes its framed answer, which the client reads.
class ThriftConnection::LoopTransport final : public TVirtualTransport<LoopTransport> {
 public:
  explicit LoopTransport(std::shared_ptr<TProcessor> processor)
      : processor_(std::move(processor)) {}
  bool isOpen() const override { return true; }
  void open() override {}
  void close() override {}
  uint32_t read(uint8_t* buf, uint32_t len) {
    const auto n = static_cast<uint32_t>(
        std::min<size_t>(len, answer_.size() - std::min(answer_.size(), answer_at_)));
    if (n > 0) std::memcpy(buf, answer_.data() + answer_at_, n);
    answer_at_ += n;
    return n;
  }
  void write(const uint8_t* buf, uint32_t len) {
    request_.append(reinterpret_cast<const char*>(buf), len);
  }
  void flush() override {
    if (request_.empty()) return;
    auto in_buf = std::make_shared<TMemoryBuffer>(reinterpret_cast<uint8_t*>(request_.data()),
                                                  static_cast<uint32_t>(request_.size()),
                                                  TMemoryBuffer::COPY);
    auto out_buf = std::make_shared<TMemoryBuffer>();
    std::shared_ptr<TProtocol> in =
        std::make_shared<TCompactProtocol>(std::make_shared<TFramedTransport>(in_buf));
    std::shared_ptr<TProtocol> out =
        std::make_shared<TCompactProtocol>(std::make_shared<TFramedTransport>(out_buf));
    request_.clear();
    processor_->process(in, out, nullptr);
    answer_ = out_buf->getBufferAsString();
    answer_at_ = 0;
  }

 private:
  std::shared_ptr<TProcessor> processor_;
  std::string request_;
  std::string answer_;
  size_t answer_at_ = 0;
};

struct ThriftConnection::Wire {
  std::shared_ptr<TTransport> socket;
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

WireStats ThriftConnection::stats() const {
  WireStats s;
  s.calls = calls_.load(std::memory_order_relaxed);
  s.bytes_sent = bytes_sent_.load(std::memory_order_relaxed);
  s.bytes_received = bytes_received_.load(std::memory_order_relaxed);
  return s;
}

template <typename Call>
Status ThriftConnection::Run(const char* what, Call&& call) {
  try {
    if (wire_ == nullptr) {
      auto w = std::make_unique<Wire>();
      std::shared_ptr<TTransport> inner;
      if (options_.in_memory != nullptr) {
        inner = std::make_shared<LoopTransport>(MakeCellStateProcessor(options_.in_memory));
      } else {
        auto socket = std::make_shared<TSocket>(options_.host, options_.port);
        const int ms = static_cast<int>(
            std::chrono::duration_cast<std::chrono::milliseconds>(options_.timeout).count());
        socket->setConnTimeout(ms);
        socket->setSendTimeout(ms);
        socket->setRecvTimeout(ms);
        socket->setNoDelay(true);
        inner = std::move(socket);
      }
      w->socket = std::make_shared<CountingTransport>(inner, &bytes_sent_, &bytes_received_);
      w->transport = std::make_shared<TFramedTransport>(w->socket);
      w->client = std::make_unique<wire::CellStateServiceClient>(
          std::make_shared<TCompactProtocol>(w->transport));
      w->transport->open();
      wire_ = std::move(w);
    }
    calls_.fetch_add(1, std::memory_order_relaxed);
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

#include "scheduler_pool/remote/thrift_server.h"

#include <glog/logging.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/server/TThreadedServer.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TServerSocket.h>

#include <condition_variable>
#include <mutex>

#include "scheduler_pool/remote/thrift_handler.h"

namespace spindle::pool::remote {

namespace {

using apache::thrift::TException;
using apache::thrift::protocol::TCompactProtocolFactory;
using apache::thrift::server::TServerEventHandler;
using apache::thrift::server::TThreadedServer;
using apache::thrift::transport::TFramedTransportFactory;
using apache::thrift::transport::TServerSocket;

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
  std::shared_ptr<apache::thrift::TProcessor> processor = MakeCellStateProcessor(service);
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

#include "wire/ipc/rpc_client.h"

#include <atomic>
#include <future>

#include "base/crypto.h"
#include "wire/ipc/client_connection.h"
#include "wire/ipc/rpc_requests.h"

namespace spindle::ipc {

namespace {
// Java allocates call ids from a process-global counter (WIRE.md 2.3).
std::atomic<uint32_t> g_next_call_id{0};
int32_t NextCallId() {
  return static_cast<int32_t>(g_next_call_id.fetch_add(1, std::memory_order_relaxed) & 0x7fffffff);
}
}  // namespace

std::string ConnectionSpec::Key() const {
  std::string key = host + ":" + std::to_string(port) + "|" + protocol + "|" + user;
  if (token.has_value()) key += "|" + token->kind + "|" + token->identifier;
  if (kerberos.has_value()) key += "|krb5|" + kerberos->cache_name;
  if (kerberos_proxy_for.has_value()) key += "|as|" + *kerberos_proxy_for;
  return key;
}

RpcClient::RpcClient(RpcClientOptions options)
    : options_(options), client_id_(SecureRandomBytes(16)) {
  work_.emplace(io_.get_executor());
  for (int i = 0; i < std::max(1, options_.io_threads); ++i) {
    threads_.emplace_back([this] { io_.run(); });
  }
}

RpcClient::~RpcClient() {
  std::map<std::string, std::shared_ptr<ClientConnection>> connections;
  {
    std::lock_guard<std::mutex> lock(mu_);
    connections.swap(connections_);
  }
  for (auto& [key, connection] : connections) {
    connection->Shutdown(Status::Aborted("RPC client shutting down"));
  }
  work_.reset();
  // Let the shutdowns run, then stop whatever timers remain.
  io_.poll();
  io_.stop();
  for (auto& t : threads_) t.join();
}

void RpcClient::CallAsync(const ConnectionSpec& spec, const std::string& method,
                          const google::protobuf::MessageLite& request,
                          google::protobuf::MessageLite* response, Callback done) {
  ClientConnection::PendingCall call;
  call.call_id = NextCallId();
  call.frame =
      EncodeCallFrame(call.call_id, client_id_, /*retry_count=*/0, spec.protocol, method, request);
  call.response = response;
  call.done = std::move(done);
  call.deadline = options_.call_timeout.count() > 0
                      ? std::chrono::steady_clock::now() + options_.call_timeout
                      : std::chrono::steady_clock::time_point::max();
  std::shared_ptr<ClientConnection> connection;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const std::string key = spec.Key();
    auto& slot = connections_[key];
    if (slot == nullptr) slot = std::make_shared<ClientConnection>(this, io_, spec, key);
    connection = slot;
  }
  connection->Enqueue(std::move(call));
}

Status RpcClient::Call(const ConnectionSpec& spec, const std::string& method,
                       const google::protobuf::MessageLite& request,
                       google::protobuf::MessageLite* response) {
  std::promise<Status> promise;
  auto future = promise.get_future();
  CallAsync(spec, method, request, response,
            [&promise](Status s) { promise.set_value(std::move(s)); });
  return future.get();
}

size_t RpcClient::connection_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return connections_.size();
}

void RpcClient::Forget(const std::string& key, const ClientConnection* connection) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = connections_.find(key);
  if (it != connections_.end() && it->second.get() == connection) connections_.erase(it);
}

}  // namespace spindle::ipc

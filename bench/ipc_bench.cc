#include "bench/ipc_bench.h"

#include <glog/logging.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <thread>

#include "base/crypto.h"
#include "wire/ipc/protocol_names.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_server.h"
#include "yarn_service_protos.pb.h"

namespace spindle::bench {

namespace {
using Clock = std::chrono::steady_clock;
constexpr const char* kProtocol = ipc::kApplicationClientProtocol;

// Passwords are HMAC-SHA1(identifier) under one key, the way YARN's secret
// managers derive them; the identifier bytes double as the user name.
class BenchSecrets : public ipc::TokenSecretProvider {
 public:
  explicit BenchSecrets(std::string key) : key_(std::move(key)) {}
  Result<ipc::TokenSecret> RetrieveSecret(std::string_view identifier) const override {
    return ipc::TokenSecret{HmacSha1(key_, identifier), std::string(identifier)};
  }
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

// One connection's closed loop: every answer sends the next call.
struct Loop {
  ipc::ConnectionSpec spec;
  hadoop::yarn::GetClusterMetricsRequestProto request;
};

struct Shared {
  ipc::RpcClient* client = nullptr;
  std::atomic<bool> measuring{false};
  std::atomic<bool> stopping{false};
  std::atomic<int64_t> outstanding{0};
  std::atomic<int64_t> errors{0};
  std::mutex mu;
  std::condition_variable drained;
  std::vector<std::vector<uint32_t>> latencies_us;  // one vector per loop slot
};

void Issue(Shared* shared, Loop* loop, std::vector<uint32_t>* latencies) {
  auto response = std::make_shared<hadoop::yarn::GetClusterMetricsResponseProto>();
  const auto start = Clock::now();
  shared->outstanding.fetch_add(1);
  shared->client->CallAsync(
      loop->spec, "getClusterMetrics", loop->request, response.get(),
      [shared, loop, latencies, response, start](const Status& s) {
        if (!s.ok()) {
          shared->errors.fetch_add(1);
          LOG_EVERY_N(WARNING, 1000) << "bench call failed: " << s.ToString();
        } else if (shared->measuring.load(std::memory_order_relaxed)) {
          latencies->push_back(static_cast<uint32_t>(
              std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count()));
        }
        if (!shared->stopping.load()) Issue(shared, loop, latencies);
        if (shared->outstanding.fetch_sub(1) == 1) {
          std::lock_guard<std::mutex> lock(shared->mu);
          shared->drained.notify_all();
        }
      });
}

double Percentile(std::vector<uint32_t>& v, double p) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}
}  // namespace

Result<IpcBenchResult> RunIpcBench(const IpcBenchOptions& options) {
  if (options.connections < 1 || options.in_flight < 1 || options.seconds < 1) {
    return Status::InvalidArgument("connections, in-flight and seconds must be >= 1");
  }
  BenchSecrets secrets(SecureRandomBytes(8));
  auto registry = std::make_shared<ipc::ServiceRegistry>();
  auto service = std::make_unique<ipc::RpcService>(kProtocol);
  std::atomic<int32_t> served{0};
  service->AddMethod<hadoop::yarn::GetClusterMetricsRequestProto,
                     hadoop::yarn::GetClusterMetricsResponseProto>(
      "getClusterMetrics",
      [&served](const ipc::ConnectionIdentity&, const hadoop::yarn::GetClusterMetricsRequestProto&,
                hadoop::yarn::GetClusterMetricsResponseProto* response) {
        auto* metrics = response->mutable_cluster_metrics();
        metrics->set_num_node_managers(served.fetch_add(1, std::memory_order_relaxed) & 0xffff);
        metrics->set_num_active_nms(1);
        return Status::OK();
      });
  registry->Add(std::move(service));

  ipc::RpcServerOptions server_options;
  server_options.name = "bench";
  server_options.worker_threads = options.worker_threads;
  server_options.max_queued_calls = int64_t{options.connections} * options.in_flight * 2;
  if (options.token_auth) server_options.session.token_provider = &secrets;
  ipc::RpcServer server(server_options, registry);
  RETURN_NOT_OK(server.Start());

  ipc::RpcClient client;
  Shared shared;
  shared.client = &client;
  std::vector<Loop> loops(static_cast<size_t>(options.connections));
  shared.latencies_us.resize(static_cast<size_t>(options.connections) *
                             static_cast<size_t>(options.in_flight));
  for (int c = 0; c < options.connections; ++c) {
    auto& spec = loops[static_cast<size_t>(c)].spec;
    spec.host = "127.0.0.1";
    spec.port = server.port();
    spec.protocol = kProtocol;
    spec.user = "bench-" + std::to_string(c);
    if (options.token_auth) {
      ipc::ClientToken token;
      token.identifier = spec.user;
      token.password = HmacSha1(secrets.key(), token.identifier);
      token.kind = "bench";
      spec.token = token;
    }
  }
  // Latency vectors are only touched by callbacks of their own slot, which run
  // one at a time on the client's single I/O thread.
  for (int c = 0; c < options.connections; ++c) {
    for (int k = 0; k < options.in_flight; ++k) {
      Issue(&shared, &loops[static_cast<size_t>(c)],
            &shared.latencies_us[static_cast<size_t>(c) * static_cast<size_t>(options.in_flight) +
                                 static_cast<size_t>(k)]);
    }
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));  // warm-up: connect, negotiate
  const int64_t errors_before = shared.errors.load();
  shared.measuring = true;
  const auto start = Clock::now();
  std::this_thread::sleep_for(std::chrono::seconds(options.seconds));
  shared.measuring = false;
  const auto end = Clock::now();
  shared.stopping = true;
  {
    std::unique_lock<std::mutex> lock(shared.mu);
    shared.drained.wait_for(lock, std::chrono::seconds(30),
                            [&] { return shared.outstanding.load() == 0; });
  }
  server.Stop();

  std::vector<uint32_t> all;
  for (auto& v : shared.latencies_us) all.insert(all.end(), v.begin(), v.end());
  IpcBenchResult result;
  result.calls = static_cast<int64_t>(all.size());
  result.errors = shared.errors.load() - errors_before;
  result.seconds = std::chrono::duration<double>(end - start).count();
  result.calls_per_second = static_cast<double>(result.calls) / result.seconds;
  result.p50_us = Percentile(all, 0.50);
  result.p99_us = Percentile(all, 0.99);
  result.max_us = all.empty() ? 0 : *std::max_element(all.begin(), all.end());
  return result;
}

const CommandSpec& IpcBenchCommand() {
  static const IpcBenchOptions kDefaults;
  static const CommandSpec kSpec{
      "bench ipc",
      "Hadoop IPC calls/s and latency over loopback, in one process",
      {FlagSpec::Int("connections", kDefaults.connections, "client connections").InRange(1, 1e5),
       FlagSpec::Int("in-flight", kDefaults.in_flight, "calls outstanding per connection")
           .InRange(1, 1e6),
       FlagSpec::Int("seconds", kDefaults.seconds, "measured time").InRange(1, 1e6),
       FlagSpec::Int("workers", kDefaults.worker_threads, "server handler threads")
           .InRange(1, 1024),
       FlagSpec::Switch("token", "authenticate with a token (DIGEST-MD5) instead of SIMPLE"),
       FlagSpec::String("json", "FILE", "", "also write the result as JSON here")},
      "exit status: 0, or 1 if a call failed"};
  return kSpec;
}

int IpcBenchMain(const CommandLine& flags) {
  IpcBenchOptions options;
  options.connections = static_cast<int>(flags.GetInt("connections"));
  options.in_flight = static_cast<int>(flags.GetInt("in-flight"));
  options.seconds = static_cast<int>(flags.GetInt("seconds"));
  options.worker_threads = static_cast<int>(flags.GetInt("workers"));
  options.token_auth = flags.GetBool("token");
  options.json_path = flags.GetString("json");

  auto result = RunIpcBench(options);
  if (!result.ok()) {
    return ReportFailure("bench ipc", result.status());
  }
  std::printf(
      "spindle bench ipc: getClusterMetrics over loopback, client and server in one process\n");
  std::printf("%-12s %-10s %-6s %-8s %12s %10s %10s %10s %8s\n", "connections", "in-flight", "auth",
              "workers", "calls/s", "p50 us", "p99 us", "max us", "errors");
  std::printf("%-12d %-10d %-6s %-8d %12.0f %10.0f %10.0f %10.0f %8lld\n", options.connections,
              options.in_flight, options.token_auth ? "token" : "simple", options.worker_threads,
              result->calls_per_second, result->p50_us, result->p99_us, result->max_us,
              static_cast<long long>(result->errors));
  std::printf("target to report against: >= 100000 calls/s (ratio %.2f)\n",
              result->calls_per_second / 100000.0);
  if (!options.json_path.empty()) {
    std::ofstream out(options.json_path);
    out << "{\"bench\":\"ipc\",\"connections\":" << options.connections
        << ",\"in_flight\":" << options.in_flight << ",\"auth\":\""
        << (options.token_auth ? "token" : "simple") << "\",\"workers\":" << options.worker_threads
        << ",\"calls\":" << result->calls << ",\"seconds\":" << result->seconds
        << ",\"calls_per_second\":" << result->calls_per_second << ",\"p50_us\":" << result->p50_us
        << ",\"p99_us\":" << result->p99_us << ",\"max_us\":" << result->max_us
        << ",\"errors\":" << result->errors << "}\n";
    if (!out) {
      std::fprintf(stderr, "spindle bench ipc: cannot write %s\n", options.json_path.c_str());
      return 1;
    }
  }
  return result->errors == 0 ? 0 : 1;
}

}  // namespace spindle::bench

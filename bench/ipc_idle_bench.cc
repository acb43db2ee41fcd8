#include "bench/ipc_idle_bench.h"

#include <unistd.h>

#include <atomic>
#include <boost/asio.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "base/child_process.h"
#include "bench/wire/rm_child.h"
#include "wire/ipc/protocol_names.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle::bench {

namespace {

namespace asio = boost::asio;
constexpr const char* kClientProtocol = ipc::kApplicationClientProtocol;

Result<RssFigure> Rss(pid_t pid) {
  ASSIGN_OR_RETURN(ProcessUsage usage, ReadProcessUsage(pid));
  return RssFigure{usage.rss_mb, usage.rss_anon_mb};
}

Result<wire::HostPort> ParseHostPort(const std::string& text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return Status::InvalidArgument("--rm wants host:port, got '" + text + "'");
  }
  const int port = std::atoi(text.c_str() + colon + 1);
  if (port <= 0 || port > 65535) return Status::InvalidArgument("bad port in --rm " + text);
  return wire::HostPort{text.substr(0, colon), static_cast<uint16_t>(port)};
}

// Connections that negotiate and make one call each, then stay open until
// this object is destroyed (one distinct user each, so one socket each).
class CallingConnections {
 public:
  CallingConnections() {
    ipc::RpcClientOptions options;
    options.max_idle = std::chrono::hours(1);  // the bench closes them, not the client
    client_ = std::make_unique<ipc::RpcClient>(options);
  }

  Status Open(const wire::HostPort& target, int count, std::chrono::seconds timeout) {
    struct Pending {
      std::mutex mu;
      std::condition_variable done;
      int remaining = 0;
      Status first_error;
    };
    auto pending = std::make_shared<Pending>();
    pending->remaining = count;
    hadoop::yarn::GetClusterMetricsRequestProto request;
    responses_.resize(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
      ipc::ConnectionSpec spec;
      spec.host = target.host;
      spec.port = target.port;
      spec.protocol = kClientProtocol;
      spec.user = "idle-" + std::to_string(i);
      client_->CallAsync(spec, "getClusterMetrics", request, &responses_[static_cast<size_t>(i)],
                         [pending](const Status& s) {
                           std::lock_guard<std::mutex> lock(pending->mu);
                           if (!s.ok() && pending->first_error.ok()) pending->first_error = s;
                           if (--pending->remaining == 0) pending->done.notify_all();
                         });
    }
    std::unique_lock<std::mutex> lock(pending->mu);
    if (!pending->done.wait_for(lock, timeout, [&] { return pending->remaining == 0; })) {
      return Status::TimedOut(std::to_string(pending->remaining) + " of " + std::to_string(count) +
                              " calls unanswered");
    }
    RETURN_NOT_OK(pending->first_error);
    if (client_->connection_count() != static_cast<size_t>(count)) {
      return Status::IoError("expected " + std::to_string(count) + " connections, have " +
                             std::to_string(client_->connection_count()));
    }
    return Status::OK();
  }

  void CloseAll() { client_.reset(); }

 private:
  std::unique_ptr<ipc::RpcClient> client_;
  std::vector<hadoop::yarn::GetClusterMetricsResponseProto> responses_;
};

// Sockets that only connect and never send.
class SilentConnections {
 public:
  Status Open(const wire::HostPort& target, int count) {
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(target.host, ec);
    if (ec) return Status::InvalidArgument("--rm host must be an IP address: " + target.host);
    const asio::ip::tcp::endpoint endpoint(address, target.port);
    for (int i = 0; i < count; ++i) {
      asio::ip::tcp::socket socket(io_);
      socket.connect(endpoint, ec);
      if (ec) return Status::IoError("connection " + std::to_string(i) + ": " + ec.message());
      sockets_.push_back(std::move(socket));
    }
    return Status::OK();
  }

  void CloseAll() {
    boost::system::error_code ignored;
    for (auto& socket : sockets_) socket.close(ignored);
    sockets_.clear();
  }

 private:
  asio::io_context io_;
  std::vector<asio::ip::tcp::socket> sockets_;
};

}  // namespace

Result<IpcIdleBenchResult> RunIpcIdleBench(const IpcIdleBenchOptions& options) {
  if (options.connections < 1 || options.hold_seconds < 0 || options.after_seconds < 0) {
    return Status::InvalidArgument("connections must be >= 1, seconds >= 0");
  }
  wire::RmChild child;
  wire::HostPort target;
  pid_t pid = options.rm_pid;
  if (options.rm.empty()) {
    wire::WireOptions wire_options;
    wire_options.binary = options.binary;
    wire_options.timeout_seconds = options.timeout_seconds;
    const std::string work_dir = std::filesystem::temp_directory_path().string() +
                                 "/spindle-bench-ipc-idle-" + std::to_string(getpid());
    std::error_code ec;
    std::filesystem::create_directories(work_dir, ec);
    if (ec) return Status::IoError("cannot create " + work_dir + ": " + ec.message());
    RETURN_NOT_OK(child.Start(wire_options, work_dir));
    target = child.addresses().client;
    pid = child.pid();
  } else {
    ASSIGN_OR_RETURN(target, ParseHostPort(options.rm));
    if (pid <= 0) return Status::InvalidArgument("--rm needs --rm-pid (whose RSS to read)");
  }
  const auto hold = std::chrono::seconds(options.hold_seconds);
  const auto timeout = std::chrono::seconds(options.timeout_seconds);
  auto open = [&](auto* silent, auto* calling, int count) {
    return options.send_nothing ? silent->Open(target, count)
                                : calling->Open(target, count, timeout);
  };
  IpcIdleBenchResult result;
  result.connections = options.connections;
  Status status;
  if (options.warmup > 0) {
    CallingConnections calling;
    SilentConnections silent;
    status = open(&silent, &calling, options.warmup);
  }
  std::this_thread::sleep_for(hold);  // let start-up allocations settle
  Result<RssFigure> before = Rss(pid);
  if (status.ok()) status = before.status();
  if (status.ok()) {
    result.before = *before;
    CallingConnections calling;
    SilentConnections silent;
    status = open(&silent, &calling, options.connections);
    if (status.ok()) {
      std::this_thread::sleep_for(hold);
      Result<RssFigure> with = Rss(pid);
      status = with.status();
      if (with.ok()) result.with = *with;
    }
  }  // every connection closes here
  if (status.ok()) {
    std::this_thread::sleep_for(std::chrono::seconds(options.after_seconds));
    Result<RssFigure> after = Rss(pid);
    status = after.status();
    if (after.ok()) result.after = *after;
  }
  child.Stop();
  RETURN_NOT_OK(status);
  return result;
}

const CommandSpec& IpcIdleBenchCommand() {
  static const IpcIdleBenchOptions kDefaults;
  static const CommandSpec kSpec{
      "bench ipc-idle",
      "an RM's RSS before, with N idle IPC connections, and after they close",
      {FlagSpec::Int("connections", kDefaults.connections, "idle connections held at once")
           .InRange(1, 1e5),
       FlagSpec::Int("warmup", kDefaults.warmup,
                     "connections used and closed before the 'before' figure")
           .InRange(0, 1e5),
       FlagSpec::Int("hold-seconds", kDefaults.hold_seconds,
                     "idle time before the 'before' and 'with' figures (keep under the RM's "
                     "20 s idle close)")
           .InRange(0, 3600),
       FlagSpec::Int("after-seconds", kDefaults.after_seconds,
                     "time after the last close before the 'after' figure")
           .InRange(0, 3600),
       FlagSpec::Switch("send-nothing", "connect only: no preamble, no call"),
       FlagSpec::String("rm", "HOST:PORT", "",
                        "an RM's client address (default: start a `spindle rm` child)"),
       FlagSpec::Int("rm-pid", -1, "the pid of the --rm RM, whose RSS is read").InRange(-1, 1e9),
       FlagSpec::String("binary", "PATH", kDefaults.binary, "the spindle binary run as the RM"),
       FlagSpec::String("json", "FILE", "", "also write the figures as JSON here")},
      "exit status: 0, or 1 if a connection or call failed"};
  return kSpec;
}

int IpcIdleBenchMain(const CommandLine& flags) {
  IpcIdleBenchOptions options;
  options.connections = static_cast<int>(flags.GetInt("connections"));
  options.warmup = static_cast<int>(flags.GetInt("warmup"));
  options.hold_seconds = static_cast<int>(flags.GetInt("hold-seconds"));
  options.after_seconds = static_cast<int>(flags.GetInt("after-seconds"));
  options.send_nothing = flags.GetBool("send-nothing");
  options.rm = flags.GetString("rm");
  options.rm_pid = static_cast<pid_t>(flags.GetInt("rm-pid"));
  options.binary = flags.GetString("binary");
  options.json_path = flags.GetString("json");

  auto result = RunIpcIdleBench(options);
  if (!result.ok()) return ReportFailure("bench ipc-idle", result.status());
  const IpcIdleBenchResult& r = *result;
  auto per_connection_kb = [&](double mb) {
    return mb * 1024.0 / static_cast<double>(r.connections);
  };
  std::printf("spindle bench ipc-idle: %d idle connections to the RM's client port (%s)\n",
              r.connections,
              options.send_nothing ? "connect only" : "SIMPLE handshake + one call each");
  std::printf("%-26s %9s %9s %12s %12s\n", "phase", "RSS MB", "anon MB", "RSS delta", "anon delta");
  auto row = [&](const std::string& phase, const RssFigure& f) {
    std::printf("%-26s %9.1f %9.1f %+12.1f %+12.1f\n", phase.c_str(), f.rss_mb, f.anon_mb,
                f.rss_mb - r.before.rss_mb, f.anon_mb - r.before.anon_mb);
  };
  row("before", r.before);
  row("with " + std::to_string(r.connections) + " open", r.with);
  row(std::to_string(options.after_seconds) + " s after they closed", r.after);
  std::printf("per open connection: %.1f KB RSS, %.1f KB anon\n",
              per_connection_kb(r.with.rss_mb - r.before.rss_mb),
              per_connection_kb(r.with.anon_mb - r.before.anon_mb));
  if (!options.json_path.empty()) {
    std::ofstream out(options.json_path);
    out << "{\"bench\":\"ipc-idle\",\"connections\":" << r.connections
        << ",\"send_nothing\":" << (options.send_nothing ? "true" : "false")
        << ",\"rss_before_mb\":" << r.before.rss_mb << ",\"rss_with_mb\":" << r.with.rss_mb
        << ",\"rss_after_mb\":" << r.after.rss_mb << ",\"anon_before_mb\":" << r.before.anon_mb
        << ",\"anon_with_mb\":" << r.with.anon_mb << ",\"anon_after_mb\":" << r.after.anon_mb
        << ",\"after_seconds\":" << options.after_seconds << "}\n";
    if (!out) {
      std::fprintf(stderr, "spindle bench ipc-idle: cannot write %s\n", options.json_path.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace spindle::bench

#include "bench/support/mini_zookeeper.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "base/net/free_port.h"

namespace spindle::bench {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

constexpr int kPortAttempts = 5;

// Connects to 127.0.0.1:port, sends `word`, reads until the server closes.
Result<std::string> Ask(uint16_t port, const std::string& word, milliseconds timeout) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Status::IoError("socket failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{};
  tv.tv_sec = timeout.count() / 1000;
  tv.tv_usec = (timeout.count() % 1000) * 1000;
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return Status::Unavailable("connect to 127.0.0.1:" + std::to_string(port) + " failed");
  }
  std::string answer;
  if (send(fd, word.data(), word.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(word.size())) {
    char buf[4096];
    ssize_t n;
    while ((n = recv(fd, buf, sizeof(buf), 0)) > 0) answer.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return answer;
}

}  // namespace

std::string MiniZooKeeper::MissingComponent(const MiniZooKeeperOptions& options) {
  if (!std::filesystem::exists(options.java)) {
    return "Java (" + options.java + ") is not installed; scripts/setup.sh installs it";
  }
  if (!std::filesystem::exists(options.server_jar)) {
    return "Debian's zookeeper package (" + options.server_jar +
           ") is not installed; scripts/setup.sh installs it";
  }
  return "";
}

Result<std::unique_ptr<MiniZooKeeper>> MiniZooKeeper::Start(const MiniZooKeeperOptions& options) {
  if (options.work_dir.empty()) return Status::InvalidArgument("MiniZooKeeper needs a work_dir");
  const std::string missing = MissingComponent(options);
  if (!missing.empty()) return Status::NotFound(missing);
  std::error_code ec;
  std::filesystem::create_directories(options.work_dir + "/data", ec);
  if (ec) return Status::IoError("cannot create " + options.work_dir + "/data: " + ec.message());
  std::unique_ptr<MiniZooKeeper> zk(new MiniZooKeeper(options));
  Status status = Status::OK();
  for (int attempt = 0; attempt < kPortAttempts; ++attempt) {
    // The server binds the port a moment later; Launch() notices if
    // someone else did.
    ASSIGN_OR_RETURN(zk->port_, net::PickFreeLoopbackPort());
    status = zk->Launch();
    if (status.ok()) return zk;
    if (status.code() != Status::Code::kAlreadyExists) return status;
  }
  return status;
}

MiniZooKeeper::~MiniZooKeeper() { Stop(); }

std::string MiniZooKeeper::connect_string() const { return "127.0.0.1:" + std::to_string(port_); }

void MiniZooKeeper::Stop() { server_.Stop(SIGTERM, std::chrono::seconds(5)); }

Status MiniZooKeeper::Restart() {
  Stop();
  return Launch();
}

Result<std::string> MiniZooKeeper::FourLetterWord(const std::string& word) const {
  return Ask(port_, word, std::chrono::seconds(5));
}

Status MiniZooKeeper::WriteConfig() const {
  const std::string path = options_.work_dir + "/zoo.cfg";
  std::ofstream cfg(path, std::ios::trunc);
  cfg << "tickTime=" << options_.tick_ms << "\n"
      << "dataDir=" << options_.work_dir << "/data\n"
      << "clientPort=" << port_ << "\n"
      << "clientPortAddress=127.0.0.1\n"
      << "minSessionTimeout=" << options_.min_session_timeout_ms << "\n"
      << "maxSessionTimeout=" << options_.max_session_timeout_ms
      << "\n"
      // The admin server (Jetty, port 8080 by default) would collide
      // between tests run in parallel.
      << "admin.enableServer=false\n"
      << "4lw.commands.whitelist=srvr,ruok,stat,cons\n";
  cfg.close();
  if (!cfg) return Status::IoError("cannot write " + path);
  return Status::OK();
}

Status MiniZooKeeper::Launch() {
  RETURN_NOT_OK(WriteConfig());
  std::string classpath = options_.server_jar;
  if (std::filesystem::exists(options_.slf4j_simple_jar)) {
    classpath += ":" + options_.slf4j_simple_jar;
  }
  ChildOptions child;
  child.binary = options_.java;
  child.argv0 = "java";
  // A small heap and the client compiler only: this is a test server on a
  // shared machine, started many times.
  child.args = {"-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.net.preferIPv4Stack=true",
                "-Dzookeeper.jmx.log4j.disable=true",
                "-cp",
                classpath,
                "org.apache.zookeeper.server.ZooKeeperServerMain",
                options_.work_dir + "/zoo.cfg"};
  child.log_path = options_.work_dir + "/server.log";
  ASSIGN_OR_RETURN(server_, ChildProcess::Spawn(child));

  const auto deadline = steady_clock::now() + options_.start_timeout;
  while (steady_clock::now() < deadline) {
    if (server_.Exited()) {
      const std::string tail = LogTail();
      if (tail.find("Address already in use") != std::string::npos) {
        return Status::AlreadyExists("port " + std::to_string(port_) + " taken");
      }
      return Status::Unavailable("ZooKeeper server exited at start; server.log ends:\n" + tail);
    }
    Result<std::string> answer = Ask(port_, "srvr", milliseconds(1000));
    // Before it serves, the server answers srvr with "not currently serving".
    if (answer.ok() && answer->find("Mode: standalone") != std::string::npos) {
      return Status::OK();
    }
    std::this_thread::sleep_for(milliseconds(50));
  }
  Stop();
  return Status::Unavailable("ZooKeeper server on port " + std::to_string(port_) +
                             " did not serve in time; server.log ends:\n" + LogTail());
}

std::string MiniZooKeeper::LogTail() const {
  std::ifstream in(options_.work_dir + "/server.log");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  std::ostringstream out;
  for (size_t i = lines.size() > 20 ? lines.size() - 20 : 0; i < lines.size(); ++i) {
    out << lines[i] << "\n";
  }
  return out.str();
}

}  // namespace spindle::bench

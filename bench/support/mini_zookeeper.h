// MiniZooKeeper: a real standalone ZooKeeper server (Debian's `zookeeper`
// package, run as `java ... org.apache.zookeeper.server.ZooKeeperServerMain`)
// for the benchmarks that start an HA pair (`spindle bench wire
// --kill-active-after`) and for unit and integration tests (through
// tests/support/mini_zookeeper.h): on 127.0.0.1, on a port picked at run time,
// with its own data directory, short ticks (fast session expiry) and the
// `srvr`/`ruok` four-letter words enabled. Start() returns once the server
// answers `srvr` as a serving standalone server; the destructor stops it.
// The server is a ChildProcess, so it dies with the process that started it.
//
// Thread-safety: none; one bench run or test owns a server.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "base/child_process.h"
#include "base/result.h"

namespace spindle::bench {

struct MiniZooKeeperOptions {
  // Holds zoo.cfg, data/ and server.log. Required; created if missing.
  std::string work_dir;
  // ZooKeeper's tickTime. Sessions may last 2 to 20 ticks unless the bounds
  // below say otherwise. Default: 200 ms, so expiry shows within a second.
  int tick_ms = 200;
  // minSessionTimeout / maxSessionTimeout. Default: 400 ms / 60 s, so a
  // client asking Hadoop's 10 s default gets it.
  int min_session_timeout_ms = 400;
  int max_session_timeout_ms = 60000;
  // How long Start() waits for the server to serve. Default: 60 s (a JVM on
  // a loaded 2-core machine).
  std::chrono::milliseconds start_timeout = std::chrono::seconds(60);
  // Debian's paths (packages zookeeper / libzookeeper-java, default-jre).
  std::string java = "/usr/bin/java";
  std::string server_jar = "/usr/share/java/zookeeper.jar";
  // Optional, gives the server a readable log (libslf4j-java).
  std::string slf4j_simple_jar = "/usr/share/java/slf4j-simple.jar";
};

class MiniZooKeeper {
 public:
  // Empty if Java and ZooKeeper's server jar are installed; otherwise what
  // is missing, for a GTEST_SKIP message.
  static std::string MissingComponent(const MiniZooKeeperOptions& options = {});

  // Starts a server on a free port (retried on another port if one was
  // taken meanwhile). Unavailable with the tail of server.log if it does not
  // serve in time.
  static Result<std::unique_ptr<MiniZooKeeper>> Start(const MiniZooKeeperOptions& options);

  ~MiniZooKeeper();
  MiniZooKeeper(const MiniZooKeeper&) = delete;
  MiniZooKeeper& operator=(const MiniZooKeeper&) = delete;

  uint16_t port() const { return port_; }
  // "127.0.0.1:<port>", what clients are given.
  std::string connect_string() const;
  pid_t pid() const { return server_.pid(); }

  // Stops the server (SIGTERM, then SIGKILL); the data stays. Idempotent.
  void Stop();
  // Starts it again on the same port and data (after Stop()).
  Status Restart();

  // Sends a four-letter word ("srvr", "ruok") and returns the whole answer.
  Result<std::string> FourLetterWord(const std::string& word) const;

 private:
  explicit MiniZooKeeper(MiniZooKeeperOptions options) : options_(std::move(options)) {}
  Status WriteConfig() const;
  // Spawns the server on port_ and waits until it serves. AlreadyExists if
  // the port was taken.
  Status Launch();
  std::string LogTail() const;

  const MiniZooKeeperOptions options_;
  uint16_t port_ = 0;
  ChildProcess server_;
};

}  // namespace spindle::bench

// One MiniZooKeeper shared by a test suite (a JVM start costs seconds), in a
// temporary directory; each test works under its own znode.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/persist/temp_dir.h"
#include "tests/support/mini_zookeeper.h"

namespace spindle::zk {

class ZkTestServer {
 public:
  // Starts the suite's server once; an empty string if it runs, else why
  // the suite must skip (ZooKeeper not installed) or fail.
  static std::string Ensure() {
    if (server_ != nullptr) return "";
    const std::string missing = testing::MiniZooKeeper::MissingComponent();
    if (!missing.empty()) return missing;
    dir_ = new persist::TempDir();
    testing::MiniZooKeeperOptions options;
    options.work_dir = dir_->path();
    auto started = testing::MiniZooKeeper::Start(options);
    if (!started.ok()) {
      failure_ = started.status().ToString();
      return failure_;
    }
    server_ = started->release();
    return "";
  }
  static void Shutdown() {
    delete server_;
    server_ = nullptr;
    delete dir_;
    dir_ = nullptr;
  }
  static testing::MiniZooKeeper* server() { return server_; }
  static bool failed() { return !failure_.empty(); }

 private:
  static inline testing::MiniZooKeeper* server_ = nullptr;
  static inline persist::TempDir* dir_ = nullptr;
  static inline std::string failure_;
};

// Skips when ZooKeeper is not installed (never in CI, which installs it);
// fails when it is installed but does not start.
#define SPINDLE_REQUIRE_ZOOKEEPER()                                \
  do {                                                             \
    const std::string why = ::spindle::zk::ZkTestServer::Ensure(); \
    if (!why.empty()) {                                            \
      if (::spindle::zk::ZkTestServer::failed()) FAIL() << why;    \
      GTEST_SKIP() << "ZooKeeper server not installed: " << why;   \
    }                                                              \
  } while (false)

}  // namespace spindle::zk

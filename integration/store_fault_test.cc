// The state store under faults, with the real `spindle rm` (RocksDB store)
// driven over the wire by Spindle's own client:
//  - disk full during submissions: the store lives on a 2 MiB tmpfs that the
//    test mounts in a private mount namespace of its own (unshare(2) then
//    mount(2); root only, skipped with a message elsewhere; the namespace
//    dies with the test process). Submissions go on until they fail; each
//    acknowledged one must come back, none may be acknowledged that was not
//    stored, the RM must not abort and logs one FATAL line;
//  - degraded mode (Hadoop 3.3, yarn.resourcemanager.fail-fast off): the RM
//    keeps serving reads, and takes submissions again once space returns;
//  - fail-fast (yarn.resourcemanager.fail-fast on): the RM exits with 1;
//  - a restart on the still-full disk says so in one line and exits 1,
//    leaving the store's files byte for byte as they were; after the disk
//    grows, every acknowledged application is back;
//  - a flipped or truncated write-ahead log, a deleted CURRENT, a deleted
//    CURRENT and log: the restarted RM refuses to start (status 1), naming
//    the file and the two ways out, and changes nothing.
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/child_process.h"
#include "integration/wait_for.h"
#include "tests/persist/dir_snapshot.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

namespace fs = std::filesystem;
namespace y = hadoop::yarn;
using namespace std::chrono_literals;

constexpr char kClient[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class StoreFaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Not under /tmp, which may itself be a small tmpfs.
    work_ = fs::current_path() / ("store-fault-test." + std::to_string(::getpid()));
    fs::remove_all(work_);
    fs::create_directories(work_ / "conf");
    fs::create_directories(work_ / "fs");
    store_ = work_ / "fs/rmstore";
  }
  void TearDown() override {
    rm_.Stop(SIGKILL, 10s);
    if (mounted_) ::umount2((work_ / "fs").c_str(), MNT_DETACH);
    if (!HasFailure() && std::getenv("SPINDLE_KEEP_TEST_DIRS") == nullptr) fs::remove_all(work_);
  }

  // A size-capped tmpfs on work_/fs, in a mount namespace of this process
  // only; false (with the reason in *why) where the machine does not allow it.
  bool MountSmallDisk(std::string* why) {
    if (::geteuid() != 0) {
      *why = "needs root to mount a size-capped tmpfs in a private mount namespace";
      return false;
    }
    if (::unshare(CLONE_NEWNS) != 0) {
      *why = std::string("unshare(CLONE_NEWNS) failed: ") + std::strerror(errno);
      return false;
    }
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("spindle-store-fault", (work_ / "fs").c_str(), "tmpfs", 0, "size=2m") != 0) {
      *why = std::string("cannot mount a tmpfs: ") + std::strerror(errno);
      return false;
    }
    mounted_ = true;
    return true;
  }
  void Resize(const std::string& size) {
    const std::string options = "size=" + size;
    ASSERT_EQ(::mount(nullptr, (work_ / "fs").c_str(), nullptr, MS_REMOUNT, options.c_str()), 0)
        << std::strerror(errno);
  }

  void WriteConf(bool fail_fast) {
    std::ofstream site(work_ / "conf/yarn-site.xml");
    site << "<configuration>\n";
    auto property = [&](const std::string& k, const std::string& v) {
      site << "  <property><name>" << k << "</name><value>" << v << "</value></property>\n";
    };
    for (const char* key : {"address", "scheduler.address", "resource-tracker.address",
                            "admin.address", "webapp.address"}) {
      property(std::string("yarn.resourcemanager.") + key, "127.0.0.1:0");
    }
    property("yarn.resourcemanager.recovery.enabled", "true");
    property("spindle.store.path", store_.string());
    property("yarn.resourcemanager.fail-fast", fail_fast ? "true" : "false");
    site << "</configuration>\n";
  }

  // Starts `spindle rm`; waits until it listens (false if it exited first).
  bool StartRm() {
    ++runs_;
    fs::remove(work_ / "rm.ports");
    ChildOptions options;
    options.binary = SPINDLE_BINARY;
    options.args = {"rm", "--conf", (work_ / "conf").string(), "--ports-file",
                    (work_ / "rm.ports").string()};
    options.log_path = LogPath().string();
    auto child = ChildProcess::Spawn(options);
    EXPECT_TRUE(child.ok()) << child.status().ToString();
    if (!child.ok()) return false;
    rm_ = std::move(*child);
    const bool up = WaitFor([&] { return fs::exists(work_ / "rm.ports") || rm_.Exited(); }, 60s) &&
                    fs::exists(work_ / "rm.ports");
    if (!up) return false;
    std::istringstream lines(ReadAll(work_ / "rm.ports"));
    std::string line;
    while (std::getline(lines, line)) {
      if (line.rfind("client=", 0) == 0) client_port_ = std::stoi(line.substr(7));
    }
    return true;
  }
  // Runs `spindle rm` expecting it to refuse to start: its exit status.
  int StartRefused(std::string* log) {
    EXPECT_FALSE(StartRm()) << "the RM started";
    EXPECT_TRUE(rm_.WaitExit(60s));
    *log = ReadAll(LogPath());
    const int status = rm_.wait_status();
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  fs::path LogPath() const { return work_ / ("rm." + std::to_string(runs_) + ".log"); }

  ipc::ConnectionSpec Client() const {
    return {"127.0.0.1", client_port_, kClient, "alice", std::nullopt};
  }

  // One getNewApplication + submitApplication; the id if acknowledged.
  // Records in *refused the Hadoop exception class of a refusal.
  std::optional<std::string> SubmitOne(std::string* refused) {
    y::GetNewApplicationRequestProto new_request;
    y::GetNewApplicationResponseProto new_response;
    Status s = client_.Call(Client(), "getNewApplication", new_request, &new_response);
    if (!s.ok()) {
      *refused = s.IsRemote() ? s.java_class() : "connection: " + s.ToString();
      return std::nullopt;
    }
    y::SubmitApplicationRequestProto submit;
    auto* context = submit.mutable_application_submission_context();
    *context->mutable_application_id() = new_response.application_id();
    context->set_application_name("store-fault");
    context->set_queue("default");
    context->mutable_resource()->set_memory(128);
    context->mutable_resource()->set_virtual_cores(1);
    context->mutable_am_container_spec()->add_command("sleep 1");
    // Bulk, so that 2 MiB fill up after a few hundred applications.
    auto* env = context->mutable_am_container_spec()->add_environment();
    env->set_key("PAYLOAD");
    env->set_value(std::string(6000, 'p'));
    const std::string id = "application_" +
                           std::to_string(new_response.application_id().cluster_timestamp()) + "_" +
                           std::to_string(new_response.application_id().id());
    y::SubmitApplicationResponseProto submitted;
    s = client_.Call(Client(), "submitApplication", submit, &submitted);
    if (!s.ok()) {
      *refused = s.IsRemote() ? s.java_class() : "connection: " + s.ToString();
      if (!s.IsRemote()) uncertain_.insert(id);
      return std::nullopt;
    }
    return id;
  }

  // Submits until `failures` submissions in a row were refused.
  void SubmitUntilFull(int failures) {
    int in_a_row = 0;
    for (int i = 0; i < 5000 && in_a_row < failures; ++i) {
      std::string refused;
      auto id = SubmitOne(&refused);
      if (id.has_value()) {
        acked_.push_back(*id);
        in_a_row = 0;
        continue;
      }
      ++in_a_row;
      refusals_.insert(refused);
      if (refused.rfind("connection", 0) == 0) break;  // the RM is gone
    }
  }

  bool Known(const std::string& id) {
    y::GetApplicationReportRequestProto request;
    const size_t second = id.rfind('_');
    const size_t first = id.find('_');
    request.mutable_application_id()->set_cluster_timestamp(
        std::stoll(id.substr(first + 1, second - first - 1)));
    request.mutable_application_id()->set_id(std::stoi(id.substr(second + 1)));
    y::GetApplicationReportResponseProto response;
    return client_.Call(Client(), "getApplicationReport", request, &response).ok();
  }
  void ExpectEveryAcknowledgedAppKnown() {
    int missing = 0;
    for (const auto& id : acked_) {
      if (!Known(id)) {
        ++missing;
        ADD_FAILURE() << "acknowledged " << id << " is missing";
        if (missing > 5) break;
      }
    }
  }

  fs::path work_;
  fs::path store_;
  bool mounted_ = false;
  int runs_ = 0;
  uint16_t client_port_ = 0;
  ChildProcess rm_;
  ipc::RpcClient client_{[] {
    ipc::RpcClientOptions o;
    o.connect_timeout = 5s;
    o.call_timeout = 20s;
    return o;
  }()};
  void ExpectDamageRefused(const std::function<void(const fs::path& wal)>& damage,
                           const std::vector<std::string>& mentions);

  std::vector<std::string> acked_;
  std::set<std::string> uncertain_;
  std::set<std::string> refusals_;
};

TEST_F(StoreFaultTest, DiskFullRefusesWritesServesReadsAndRestartsWithEverythingAcknowledged) {
  std::string why;
  if (!MountSmallDisk(&why)) GTEST_SKIP() << why;
  WriteConf(/*fail_fast=*/false);
  ASSERT_TRUE(StartRm()) << ReadAll(LogPath());
  ASSERT_NO_FATAL_FAILURE(SubmitUntilFull(/*failures=*/10));
  ASSERT_FALSE(rm_.Exited()) << "the RM died on a full disk:\n" << ReadAll(LogPath());
  EXPECT_GT(acked_.size(), 20u);
  // Refused in Hadoop's terms, never by a dropped connection.
  EXPECT_EQ(refusals_, std::set<std::string>{"java.io.IOException"});
  std::string log = ReadAll(LogPath());
  EXPECT_EQ(Count(log, "FATAL: the state store at " + store_.string()), 1u) << log;
  EXPECT_NE(log.find("No space left on device"), std::string::npos) << log;
  // Degraded: reads are served.
  ExpectEveryAcknowledgedAppKnown();
  std::printf("[ store    ] %zu submissions acknowledged on a 2 MiB disk\n", acked_.size());

  // A restart on the still-full disk: one line, status 1, nothing changed.
  rm_.Stop(SIGKILL, 10s);
  const auto before = persist::DirSnapshot(store_.string());
  int status = StartRefused(&log);
  EXPECT_EQ(status, 1) << log;
  EXPECT_NE(log.find("spindle rm: cannot open the state store at " + store_.string()),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("no space left"), std::string::npos) << log;
  EXPECT_EQ(persist::DirSnapshot(store_.string()), before)
      << "a restart on a full disk changed the store";

  // Space returns: everything acknowledged is back.
  ASSERT_NO_FATAL_FAILURE(Resize("64m"));
  ASSERT_TRUE(StartRm()) << ReadAll(LogPath());
  ExpectEveryAcknowledgedAppKnown();
  std::string refused;
  EXPECT_TRUE(SubmitOne(&refused).has_value()) << refused;
  rm_.Stop(SIGTERM, 20s);
  EXPECT_TRUE(WIFEXITED(rm_.wait_status()) && WEXITSTATUS(rm_.wait_status()) == 0);
}

TEST_F(StoreFaultTest, WritesResumeOnceSpaceReturns) {
  std::string why;
  if (!MountSmallDisk(&why)) GTEST_SKIP() << why;
  WriteConf(/*fail_fast=*/false);
  ASSERT_TRUE(StartRm()) << ReadAll(LogPath());
  ASSERT_NO_FATAL_FAILURE(SubmitUntilFull(/*failures=*/5));
  ASSERT_FALSE(rm_.Exited()) << ReadAll(LogPath());
  ASSERT_NO_FATAL_FAILURE(Resize("64m"));
  // The store re-checks by itself; submissions succeed again.
  bool resumed = WaitFor(
      [&] {
        std::string refused;
        auto id = SubmitOne(&refused);
        if (id.has_value()) acked_.push_back(*id);
        return id.has_value();
      },
      60s);
  ASSERT_TRUE(resumed) << ReadAll(LogPath());
  EXPECT_NE(ReadAll(LogPath()).find("accepts writes again"), std::string::npos);
  rm_.Stop(SIGTERM, 20s);
  ASSERT_TRUE(StartRm()) << ReadAll(LogPath());
  ExpectEveryAcknowledgedAppKnown();
}

TEST_F(StoreFaultTest, FailFastExitsWithStatus1AndLosesNothingAcknowledged) {
  std::string why;
  if (!MountSmallDisk(&why)) GTEST_SKIP() << why;
  WriteConf(/*fail_fast=*/true);
  ASSERT_TRUE(StartRm()) << ReadAll(LogPath());
  ASSERT_NO_FATAL_FAILURE(SubmitUntilFull(/*failures=*/3));
  ASSERT_TRUE(rm_.WaitExit(60s)) << "the RM did not exit under fail-fast";
  EXPECT_TRUE(WIFEXITED(rm_.wait_status()) && WEXITSTATUS(rm_.wait_status()) == 1)
      << "wait status " << rm_.wait_status();
  const std::string log = ReadAll(LogPath());
  EXPECT_EQ(Count(log, "FATAL: the state store at " + store_.string()), 1u) << log;
  EXPECT_EQ(log.find("Assertion"), std::string::npos) << log;
  ASSERT_NO_FATAL_FAILURE(Resize("64m"));
  ASSERT_TRUE(StartRm()) << ReadAll(LogPath());
  ExpectEveryAcknowledgedAppKnown();
}

// 60 acknowledged submissions, the RM SIGKILLed (they are in the
// write-ahead log only), the store damaged as `damage` does; the restarted RM
// must exit 1 naming each of `mentions` and the two ways out, and leave the
// files as they were.
void StoreFaultTest::ExpectDamageRefused(const std::function<void(const fs::path& wal)>& damage,
                                         const std::vector<std::string>& mentions) {
  WriteConf(/*fail_fast=*/false);
  ASSERT_TRUE(StartRm()) << ReadAll(LogPath());
  for (int i = 0; i < 60; ++i) {
    std::string refused;
    auto id = SubmitOne(&refused);
    ASSERT_TRUE(id.has_value()) << refused;
    acked_.push_back(*id);
  }
  rm_.Stop(SIGKILL, 10s);
  fs::path wal;
  for (const auto& e : fs::directory_iterator(store_)) {
    if (e.path().extension() == ".log" && (wal.empty() || e.path() > wal)) wal = e.path();
  }
  ASSERT_FALSE(wal.empty());
  damage(wal);
  const auto before = persist::DirSnapshot(store_.string());
  std::string log;
  EXPECT_EQ(StartRefused(&log), 1) << log;
  std::vector<std::string> all = mentions;
  all.push_back("restore the directory from a copy");
  all.push_back("spindle rm --format-state-store");
  for (std::string m : all) {
    if (m == "$WAL") m = wal.string();
    EXPECT_NE(log.find(m), std::string::npos) << m << " not in\n" << log;
  }
  EXPECT_EQ(persist::DirSnapshot(store_.string()), before) << "a refused store was modified";
}

TEST_F(StoreFaultTest, FlippedWriteAheadLogIsRefusedUntouched) {
  ExpectDamageRefused(
      [](const fs::path& wal) {
        std::fstream f(wal, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(fs::file_size(wal) / 2));
        f.write("0123456789abcdef", 16);
      },
      {"$WAL", "lost writes it acknowledged"});
}

TEST_F(StoreFaultTest, TruncatedWriteAheadLogIsRefusedUntouched) {
  ExpectDamageRefused(
      [](const fs::path& wal) { fs::resize_file(wal, fs::file_size(wal) * 6 / 10); },
      {"$WAL", "lost writes it acknowledged"});
}

TEST_F(StoreFaultTest, DeletedCurrentIsRefusedUntouched) {
  ExpectDamageRefused([&](const fs::path&) { fs::remove(store_ / "CURRENT"); },
                      {(store_ / "CURRENT").string() + " is missing"});
}

TEST_F(StoreFaultTest, DeletedCurrentAndWriteAheadLogAreRefusedUntouched) {
  ExpectDamageRefused(
      [&](const fs::path& wal) {
        fs::remove(store_ / "CURRENT");
        fs::remove(wal);
      },
      {(store_ / "CURRENT").string() + " is missing"});
}

}  // namespace
}  // namespace spindle

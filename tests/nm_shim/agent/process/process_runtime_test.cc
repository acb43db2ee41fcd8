// Real processes in a temporary directory. Nothing here asserts on wall-clock
// time: every wait is for a condition, with a deadline generous enough for a
// loaded 2-core machine under ASan.
#include "nm_shim/agent/process/process_runtime.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>
#include <vector>

#include "base/mutex.h"

namespace spindle::nm {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr auto kDeadline = std::chrono::seconds(90);
constexpr int64_t kClusterTs = 1700000000000;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

void WriteAll(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

template <typename Pred>
bool Eventually(Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + kDeadline;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

// Gone, or a zombie waiting for whatever reaps orphans here.
bool ProcessGone(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  if (!in) return true;
  std::string line;
  std::getline(in, line);
  const size_t close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] == 'Z';
}

int64_t MtimeMs(const std::string& path) {
  struct stat st;
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
}

class Recorder {
 public:
  ContainerListener Listener() {
    return ContainerListener{[this](const rm::ContainerId& id) {
                               MutexLock lock(&mu_);
                               running_.push_back(id);
                               cv_.SignalAll();
                             },
                             [this](const ContainerExit& exit) {
                               MutexLock lock(&mu_);
                               exits_.push_back(exit);
                               cv_.SignalAll();
                             }};
  }

  // The container's exit; fails the test if it never comes.
  ContainerExit WaitExit(const rm::ContainerId& id) {
    MutexLock lock(&mu_);
    const auto deadline = std::chrono::steady_clock::now() + kDeadline;
    for (;;) {
      for (const ContainerExit& e : exits_) {
        if (e.container == id) return e;
      }
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) break;
      cv_.WaitFor(&mu_, deadline - now);
    }
    ADD_FAILURE() << "no exit for " << id.ToString();
    return ContainerExit{id, 12345, "timed out in test"};
  }

  bool WaitRunning(const rm::ContainerId& id) {
    MutexLock lock(&mu_);
    const auto deadline = std::chrono::steady_clock::now() + kDeadline;
    for (;;) {
      for (const rm::ContainerId& r : running_) {
        if (r == id) return true;
      }
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) return false;
      cv_.WaitFor(&mu_, deadline - now);
    }
  }

  int ExitCount(const rm::ContainerId& id) {
    MutexLock lock(&mu_);
    int n = 0;
    for (const ContainerExit& e : exits_) n += e.container == id ? 1 : 0;
    return n;
  }

  bool RanBeforeExit(const rm::ContainerId& id) {
    MutexLock lock(&mu_);
    for (const rm::ContainerId& r : running_) {
      if (r == id) return true;
    }
    return false;
  }

 private:
  Mutex mu_;
  CondVar cv_;
  std::vector<rm::ContainerId> running_ GUARDED_BY(mu_);
  std::vector<ContainerExit> exits_ GUARDED_BY(mu_);
};

class ProcessRuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/spindle-process-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    fs::create_directories(root_ + "/src");
    options_.node.nm_host = "localhost";
    options_.node.nm_port = 45454;
    options_.node.nm_http_port = 8042;
    options_.node.local_dirs = {root_ + "/local"};
    options_.node.log_dirs = {root_ + "/logs"};
    options_.monitor_interval_ms = 100;
    options_.sigkill_delay_ms = 250;
  }

  void TearDown() override {
    if (runtime_) runtime_->Shutdown();
    runtime_.reset();
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  void Start() {
    Result<std::unique_ptr<ContainerRuntime>> r = NewProcessRuntime(options_, recorder_.Listener());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    runtime_ = std::move(r).value();
  }

  static rm::ApplicationId App(int app = 1) { return rm::ApplicationId{kClusterTs, app}; }

  static ContainerLaunchSpec Spec(int64_t seq, const std::string& command, int app = 1) {
    ContainerLaunchSpec spec;
    spec.container = rm::ContainerId{{App(app), 1}, seq};
    spec.user = "alice";
    spec.memory_mb = 1024;
    spec.vcores = 1;
    spec.commands = {command};
    return spec;
  }

  std::string WorkDir(const ContainerLaunchSpec& spec) const {
    return root_ + "/local/usercache/" + spec.user + "/appcache/" +
           spec.container.attempt.app.ToString() + "/" + spec.container.ToString();
  }
  std::string LogDir(const ContainerLaunchSpec& spec) const {
    return root_ + "/logs/" + spec.container.attempt.app.ToString() + "/" +
           spec.container.ToString();
  }

  // A file:// resource for `path`, with its real size and timestamp.
  static LocalResource FileResource(const std::string& name, const std::string& path) {
    LocalResource r;
    r.name = name;
    r.scheme = "file";
    r.path = path;
    r.size = static_cast<int64_t>(fs::file_size(path));
    r.timestamp = MtimeMs(path);
    return r;
  }

  ContainerExit RunToExit(const ContainerLaunchSpec& spec) {
    runtime_->Launch(spec);
    return recorder_.WaitExit(spec.container);
  }

  std::string root_;
  ProcessRuntimeOptions options_;
  Recorder recorder_;
  std::unique_ptr<ContainerRuntime> runtime_;
};

TEST_F(ProcessRuntimeTest, RunsTheCommandInItsWorkDirWithTheYarnEnvironment) {
  Start();
  ContainerLaunchSpec spec = Spec(1, "env > env.txt && echo done > marker.txt");
  spec.environment = {{"MY_VAR", "hello"}};
  const ContainerExit exit = RunToExit(spec);
  EXPECT_EQ(exit.exit_status, kExitSuccess) << exit.diagnostics;
  EXPECT_TRUE(recorder_.RanBeforeExit(spec.container));
  const std::string work = WorkDir(spec);
  EXPECT_EQ(ReadAll(work + "/marker.txt"), "done\n");
  const std::string env = ReadAll(work + "/env.txt");
  EXPECT_THAT(env, HasSubstr("MY_VAR=hello\n"));
  EXPECT_THAT(env, HasSubstr("CONTAINER_ID=" + spec.container.ToString() + "\n"));
  EXPECT_THAT(env, HasSubstr("NM_HOST=localhost\n"));
  EXPECT_THAT(env, HasSubstr("NM_PORT=45454\n"));
  EXPECT_THAT(env, HasSubstr("NM_HTTP_PORT=8042\n"));
  EXPECT_THAT(env, HasSubstr("USER=alice\n"));
  EXPECT_THAT(env, HasSubstr("LOGNAME=alice\n"));
  EXPECT_THAT(env, HasSubstr("PWD=" + work + "\n"));
  EXPECT_THAT(env, HasSubstr("LOG_DIRS=" + LogDir(spec) + "\n"));
  EXPECT_THAT(env, HasSubstr("HADOOP_TOKEN_FILE_LOCATION=" + work + "/container_tokens\n"));
  EXPECT_THAT(env, HasSubstr("JVM_PID="));
  EXPECT_TRUE(fs::exists(work + "/launch_container.sh"));
  EXPECT_EQ(recorder_.ExitCount(spec.container), 1);
}

// What a JVM-based AM needs of its directory (Hadoop 3.3's
// DefaultContainerExecutor.launchContainer): the container dir under every
// local dir, an empty tmp/ in the work dir (MapReduce passes
// -Djava.io.tmpdir=$PWD/tmp), and the variables that name these dirs.
TEST_F(ProcessRuntimeTest, LaysOutTheContainerDirsAsTheJavaNodeManager) {
  options_.node.local_dirs = {root_ + "/local", root_ + "/local2"};
  options_.node.log_dirs = {root_ + "/logs", root_ + "/logs2"};
  Start();
  // The command writes into tmp/ the way java.io.tmpdir users do, and
  // records what it saw.
  ContainerLaunchSpec spec =
      Spec(1,
           "test -d \"$PWD/tmp\" && echo scratch > \"$PWD/tmp/jetty-probe\" && "
           "ls -A tmp > tmp_listing.txt && env > env.txt");
  const ContainerExit exit = RunToExit(spec);
  ASSERT_EQ(exit.exit_status, kExitSuccess) << exit.diagnostics;
  const std::string work = WorkDir(spec);
  EXPECT_EQ(ReadAll(work + "/tmp_listing.txt"), "jetty-probe\n");
  EXPECT_EQ(fs::status(work + "/tmp").permissions() & fs::perms::all,
            fs::perms::owner_all | fs::perms::group_exec);
  const std::string app = spec.container.attempt.app.ToString();
  const std::string second =
      root_ + "/local2/usercache/alice/appcache/" + app + "/" + spec.container.ToString();
  EXPECT_TRUE(fs::is_directory(second)) << second;
  for (const char* log_root : {"/logs/", "/logs2/"}) {
    EXPECT_TRUE(fs::is_directory(root_ + log_root + app + "/" + spec.container.ToString()));
  }
  const std::string env = ReadAll(work + "/env.txt");
  EXPECT_THAT(env, HasSubstr("PWD=" + work + "\n"));
  EXPECT_THAT(env, HasSubstr("LOCAL_DIRS=" + root_ + "/local/usercache/alice/appcache/" + app +
                             "," + root_ + "/local2/usercache/alice/appcache/" + app + "\n"));
  EXPECT_THAT(env, HasSubstr("LOCAL_USER_DIRS=" + root_ + "/local/usercache/alice/," + root_ +
                             "/local2/usercache/alice/\n"));
  EXPECT_THAT(
      env, HasSubstr("LOG_DIRS=" + root_ + "/logs/" + app + "/" + spec.container.ToString() + "," +
                     root_ + "/logs2/" + app + "/" + spec.container.ToString() + "\n"));
  EXPECT_THAT(env, HasSubstr("HOME=/home/\n"));
  // Hadoop 3.3's debug information and progress lines, in the first log dir.
  const std::string log = root_ + "/logs/" + app + "/" + spec.container.ToString();
  EXPECT_EQ(ReadAll(log + "/launch_container.sh"), ReadAll(work + "/launch_container.sh"));
  const std::string listing = ReadAll(log + "/directory.info");
  EXPECT_THAT(listing, HasSubstr("ls -l:\n"));
  EXPECT_THAT(listing, HasSubstr("./tmp\n"));
  EXPECT_THAT(listing, HasSubstr("container_tokens"));
  EXPECT_EQ(ReadAll(log + "/prelaunch.out"),
            "Setting up env variables\nSetting up job resources\nCopying debugging information\n"
            "Launching container\n");
}

TEST_F(ProcessRuntimeTest, NoDebugInformationWhenTurnedOff) {
  options_.node.log_container_debug_info = false;
  Start();
  const ContainerLaunchSpec spec = Spec(1, "true");
  ASSERT_EQ(RunToExit(spec).exit_status, kExitSuccess);
  EXPECT_TRUE(fs::exists(LogDir(spec) + "/prelaunch.out"));
  EXPECT_FALSE(fs::exists(LogDir(spec) + "/directory.info"));
  EXPECT_FALSE(fs::exists(LogDir(spec) + "/launch_container.sh"));
}

TEST_F(ProcessRuntimeTest, ReportsExitCodesLikeYarn) {
  Start();
  const ContainerLaunchSpec ok = Spec(1, "exit 0");
  const ContainerLaunchSpec three = Spec(2, "echo about to fail >&2; exit 3");
  const ContainerLaunchSpec missing = Spec(3, "no_such_command_spindle_test");
  const ContainerLaunchSpec signalled = Spec(4, "kill -KILL \\$\\$");
  for (const auto* s : {&ok, &three, &missing, &signalled}) runtime_->Launch(*s);

  EXPECT_EQ(recorder_.WaitExit(ok.container).exit_status, 0);
  const ContainerExit e3 = recorder_.WaitExit(three.container);
  EXPECT_EQ(e3.exit_status, 3);
  EXPECT_THAT(e3.diagnostics, HasSubstr("Exit code: 3"));
  EXPECT_THAT(e3.diagnostics, HasSubstr("about to fail"));
  const ContainerExit e127 = recorder_.WaitExit(missing.container);
  EXPECT_EQ(e127.exit_status, 127);
  EXPECT_THAT(e127.diagnostics, HasSubstr("command not found"));
  // Killed by a signal nobody in the agent sent: the shell's 128 + 9.
  EXPECT_EQ(recorder_.WaitExit(signalled.container).exit_status, 137);
}

TEST_F(ProcessRuntimeTest, ExpandsPlaceholdersInCommandsAndEnvironment) {
  Start();
  ContainerLaunchSpec spec = Spec(1, "echo $MY_CP $MY_LOG $MY_REF <LOG_DIR> {{USER}} > expand.txt");
  spec.environment = {
      {"MY_CP", "a<CPS>b"}, {"MY_LOG", "<LOG_DIR>"}, {"MY_REF", "{{CONTAINER_ID}}-x"}};
  const ContainerExit exit = RunToExit(spec);
  ASSERT_EQ(exit.exit_status, 0) << exit.diagnostics;
  const std::string log = LogDir(spec);
  EXPECT_EQ(ReadAll(WorkDir(spec) + "/expand.txt"),
            "a:b " + log + " " + spec.container.ToString() + "-x " + log + " alice\n");
}

TEST_F(ProcessRuntimeTest, AReadonlyShellVariableDoesNotStopTheContainer) {
  Start();
  ContainerLaunchSpec spec = Spec(1, "echo ok > ok.txt");
  spec.environment = {{"UID", "12345"}, {"AFTER", "still-set"}};
  spec.commands = {"echo $AFTER > ok.txt"};
  const ContainerExit exit = RunToExit(spec);
  ASSERT_EQ(exit.exit_status, 0) << exit.diagnostics;
  EXPECT_EQ(ReadAll(WorkDir(spec) + "/ok.txt"), "still-set\n");
  EXPECT_THAT(ReadAll(LogDir(spec) + "/prelaunch.err"), HasSubstr("UID"));
}

TEST_F(ProcessRuntimeTest, WritesTheCredentialsFile) {
  Start();
  ContainerLaunchSpec spec = Spec(1, "cat $HADOOP_TOKEN_FILE_LOCATION > copy.bin");
  spec.credentials = std::string("HDTS\x00\x01\x02\x03", 8) + "token-bytes";
  ContainerExit exit = RunToExit(spec);
  ASSERT_EQ(exit.exit_status, 0) << exit.diagnostics;
  EXPECT_EQ(ReadAll(WorkDir(spec) + "/container_tokens"), spec.credentials);
  EXPECT_EQ(ReadAll(WorkDir(spec) + "/copy.bin"), spec.credentials);

  ContainerLaunchSpec empty = Spec(2, "true");
  exit = RunToExit(empty);
  ASSERT_EQ(exit.exit_status, 0) << exit.diagnostics;
  EXPECT_EQ(ReadAll(WorkDir(empty) + "/container_tokens"), std::string("HDTS\0\0\0", 7));
}

TEST_F(ProcessRuntimeTest, LocalisesFilesAndArchivesUnderTheirNames) {
  Start();
  const std::string src = root_ + "/src";
  WriteAll(src + "/data.txt", "payload\n");
  fs::create_directories(src + "/tree/inner");
  WriteAll(src + "/tree/inner/a.txt", "from-tar\n");
  ASSERT_EQ(system(("tar -czf " + src + "/bundle.tgz -C " + src + "/tree inner").c_str()), 0);

  ContainerLaunchSpec spec = Spec(1,
                                  "test -L data.txt && test -L conf/bundle && cat data.txt "
                                  "conf/bundle/inner/a.txt > seen.txt");
  spec.local_resources.push_back(FileResource("data.txt", src + "/data.txt"));
  LocalResource archive = FileResource("conf/bundle", src + "/bundle.tgz");
  archive.type = LocalResource::Type::kArchive;
  archive.scheme = "";  // scheme-less absolute path
  spec.local_resources.push_back(archive);
  const bool have_zip = system("command -v zip >/dev/null && command -v unzip >/dev/null") == 0;
  if (have_zip) {
    ASSERT_EQ(system(("cd " + src + "/tree && zip -qr " + src + "/z.zip inner").c_str()), 0);
    LocalResource zip = FileResource("z", src + "/z.zip");
    zip.type = LocalResource::Type::kArchive;
    zip.visibility = LocalResource::Visibility::kPrivate;
    spec.local_resources.push_back(zip);
    spec.commands = {spec.commands[0] + " && cat z/inner/a.txt >> seen.txt"};
  }
  const ContainerExit exit = RunToExit(spec);
  ASSERT_EQ(exit.exit_status, 0) << exit.diagnostics;
  EXPECT_EQ(ReadAll(WorkDir(spec) + "/seen.txt"),
            have_zip ? "payload\nfrom-tar\nfrom-tar\n" : "payload\nfrom-tar\n");
  // An APPLICATION resource sits in the app's own file cache.
  const std::string target = fs::read_symlink(WorkDir(spec) + "/data.txt").string();
  EXPECT_THAT(target, HasSubstr("/appcache/" + App().ToString() + "/filecache/"));

  // A second container of the app reuses the cached copy.
  ContainerLaunchSpec again = Spec(2, "cat data.txt > seen.txt");
  again.local_resources.push_back(FileResource("data.txt", src + "/data.txt"));
  ASSERT_EQ(RunToExit(again).exit_status, 0);
  EXPECT_EQ(fs::read_symlink(WorkDir(again) + "/data.txt").string(), target);
}

TEST_F(ProcessRuntimeTest, ACachedCopyRemovedFromDiskIsFetchedAgain) {
  Start();
  const std::string src = root_ + "/src";
  WriteAll(src + "/data.txt", "payload\n");
  LocalResource r = FileResource("data.txt", src + "/data.txt");
  r.visibility = LocalResource::Visibility::kPrivate;
  ContainerLaunchSpec first = Spec(1, "cat data.txt > seen.txt");
  first.local_resources.push_back(r);
  ASSERT_EQ(RunToExit(first).exit_status, 0);
  const std::string private_cache = root_ + "/local/usercache/alice/filecache";
  EXPECT_THAT(fs::read_symlink(WorkDir(first) + "/data.txt").string(), HasSubstr(private_cache));
  fs::remove_all(private_cache);
  ContainerLaunchSpec second = Spec(2, "cat data.txt > seen.txt");
  second.local_resources.push_back(r);
  const ContainerExit exit = RunToExit(second);
  ASSERT_EQ(exit.exit_status, 0) << exit.diagnostics;
  EXPECT_EQ(ReadAll(WorkDir(second) + "/seen.txt"), "payload\n");
}

TEST_F(ProcessRuntimeTest, BadResourcesFailOnlyTheirContainer) {
  Start();
  const std::string src = root_ + "/src";
  WriteAll(src + "/data.txt", "payload\n");
  ContainerLaunchSpec stale = Spec(1, "true");
  LocalResource r = FileResource("data.txt", src + "/data.txt");
  r.timestamp -= 5000;
  stale.local_resources.push_back(r);
  ContainerLaunchSpec resized = Spec(2, "true");
  r = FileResource("data.txt", src + "/data.txt");
  r.size += 1;
  resized.local_resources.push_back(r);
  ContainerLaunchSpec missing = Spec(3, "true");
  r = FileResource("data.txt", src + "/data.txt");
  r.path = src + "/nope.txt";
  missing.local_resources.push_back(r);
  ContainerLaunchSpec hdfs = Spec(4, "true");
  r = FileResource("data.txt", src + "/data.txt");
  r.scheme = "hdfs";
  r.host = "namenode";
  r.port = 8020;
  hdfs.local_resources.push_back(r);
  ContainerLaunchSpec bad_user = Spec(5, "true");
  bad_user.user = "../etc";
  ContainerLaunchSpec good = Spec(6, "cat data.txt > seen.txt");
  good.local_resources.push_back(FileResource("data.txt", src + "/data.txt"));
  for (const auto* s : {&stale, &resized, &missing, &hdfs, &bad_user, &good}) {
    runtime_->Launch(*s);
  }

  const ContainerExit e1 = recorder_.WaitExit(stale.container);
  EXPECT_EQ(e1.exit_status, kExitInvalid);
  EXPECT_THAT(e1.diagnostics, HasSubstr("changed on src filesystem (expected "));
  const ContainerExit e2 = recorder_.WaitExit(resized.container);
  EXPECT_EQ(e2.exit_status, kExitInvalid);
  EXPECT_THAT(e2.diagnostics, HasSubstr("changed on src filesystem (expected size"));
  const ContainerExit e3 = recorder_.WaitExit(missing.container);
  EXPECT_EQ(e3.exit_status, kExitInvalid);
  EXPECT_THAT(e3.diagnostics, HasSubstr("does not exist"));
  const ContainerExit e4 = recorder_.WaitExit(hdfs.container);
  EXPECT_EQ(e4.exit_status, kExitInvalid);
  EXPECT_THAT(e4.diagnostics, HasSubstr("only supports file://"));
  EXPECT_THAT(e4.diagnostics, HasSubstr("hdfs://namenode:8020"));
  const ContainerExit e5 = recorder_.WaitExit(bad_user.container);
  EXPECT_EQ(e5.exit_status, kExitInvalid);
  EXPECT_THAT(e5.diagnostics, HasSubstr("Invalid user name"));
  EXPECT_FALSE(fs::exists(root_ + "/local/etc"));
  const ContainerExit e6 = recorder_.WaitExit(good.container);
  EXPECT_EQ(e6.exit_status, 0) << e6.diagnostics;
  EXPECT_EQ(ReadAll(WorkDir(good) + "/seen.txt"), "payload\n");
  // Containers that never ran are never reported running.
  EXPECT_FALSE(recorder_.RanBeforeExit(stale.container));
}

TEST_F(ProcessRuntimeTest, KillEndsTheWholeTreeWithTheCallersStatus) {
  Start();
  // A background child, and one that leaves the session and ignores
  // SIGTERM, each outlive the shell that started them unless the kill
  // reaches them: the second only the SIGKILL, after its parent is gone.
  const std::string stubborn = root_ + "/src/stubborn.sh";
  WriteAll(stubborn, "trap '' TERM\nwhile true; do sleep 1; done\n");
  const ContainerLaunchSpec spec = Spec(1, "sleep 1000 & echo \\$! > child.pid; setsid /bin/bash " +
                                               stubborn + " & echo \\$! > escaped.pid; wait");
  const ContainerLaunchSpec other = Spec(2, "sleep 1000");
  runtime_->Launch(spec);
  runtime_->Launch(other);
  ASSERT_TRUE(recorder_.WaitRunning(spec.container));
  const std::string work = WorkDir(spec);
  ASSERT_TRUE(Eventually([&] {
    return !ReadAll(work + "/child.pid").empty() && !ReadAll(work + "/escaped.pid").empty();
  }));
  const pid_t child = std::stoi(ReadAll(work + "/child.pid"));
  const pid_t escaped = std::stoi(ReadAll(work + "/escaped.pid"));
  ASSERT_FALSE(ProcessGone(child));

  runtime_->Kill(spec.container, kExitKilledByAppMaster,
                 "Container killed by the ApplicationMaster.");
  const ContainerExit exit = recorder_.WaitExit(spec.container);
  EXPECT_EQ(exit.exit_status, kExitKilledByAppMaster);
  EXPECT_THAT(exit.diagnostics, HasSubstr("Container killed by the ApplicationMaster."));
  EXPECT_TRUE(Eventually([&] { return ProcessGone(child) && ProcessGone(escaped); }));

  ASSERT_TRUE(recorder_.WaitRunning(other.container));
  runtime_->Kill(other.container, kExitKilledByResourceManager, "by the RM");
  runtime_->Kill(other.container, kExitKilledByAppMaster, "second kill is ignored");
  const ContainerExit e2 = recorder_.WaitExit(other.container);
  EXPECT_EQ(e2.exit_status, kExitKilledByResourceManager);
  EXPECT_EQ(recorder_.ExitCount(other.container), 1);
  // Unknown and finished containers are ignored.
  runtime_->Kill(other.container, kExitKilledByAppMaster, "late");
  runtime_->Kill(Spec(99, "").container, kExitKilledByAppMaster, "unknown");
}

TEST_F(ProcessRuntimeTest, SigkillFollowsWhenSigtermIsIgnored) {
  Start();
  const ContainerLaunchSpec spec =
      Spec(1, "trap '' TERM; echo ready > ready.txt; while true; do sleep 1; done");
  runtime_->Launch(spec);
  ASSERT_TRUE(Eventually([&] { return !ReadAll(WorkDir(spec) + "/ready.txt").empty(); }));
  runtime_->Kill(spec.container, kExitKilledByAppMaster, "stop");
  EXPECT_EQ(recorder_.WaitExit(spec.container).exit_status, kExitKilledByAppMaster);
}

TEST_F(ProcessRuntimeTest, TreeOverItsMemoryIsKilledWithMinus104) {
  options_.monitor_interval_ms = 50;
  Start();
  // bash holds the whole 100 MB string, well over the 16 MB limit.
  ContainerLaunchSpec spec = Spec(1, "x=\\$(head -c 100000000 /dev/zero | tr '\\0' a); sleep 1000");
  spec.memory_mb = 16;
  const ContainerExit exit = RunToExit(spec);
  EXPECT_EQ(exit.exit_status, kExitKilledExceededPmem);
  EXPECT_THAT(exit.diagnostics, HasSubstr("Container [pid="));
  EXPECT_THAT(exit.diagnostics, HasSubstr(",containerID=" + spec.container.ToString() +
                                          "] is running beyond physical memory limits."));
  EXPECT_THAT(exit.diagnostics, HasSubstr("of 16 MB physical memory used"));
  EXPECT_THAT(exit.diagnostics, HasSubstr("Killing container."));
}

TEST_F(ProcessRuntimeTest, NoMemoryCheckWhenPmemCheckIsDisabled) {
  options_.monitor_interval_ms = 50;
  options_.pmem_check_enabled = false;
  Start();
  ContainerLaunchSpec spec = Spec(1, "x=\\$(head -c 50000000 /dev/zero | tr '\\0' a); echo done");
  spec.memory_mb = 16;
  const ContainerExit exit = RunToExit(spec);
  EXPECT_EQ(exit.exit_status, 0) << exit.diagnostics;
  EXPECT_EQ(ReadAll(LogDir(spec) + "/stdout"), "done\n");
}

TEST_F(ProcessRuntimeTest, ShutdownKillsEveryContainer) {
  Start();
  std::vector<ContainerLaunchSpec> specs;
  for (int i = 1; i <= 3; ++i) specs.push_back(Spec(i, "sleep 1000"));
  for (const auto& s : specs) runtime_->Launch(s);
  for (const auto& s : specs) ASSERT_TRUE(recorder_.WaitRunning(s.container));
  runtime_->Shutdown();
  // Shutdown returned: every on_exit has been delivered.
  for (const auto& s : specs) {
    EXPECT_EQ(recorder_.ExitCount(s.container), 1);
    EXPECT_EQ(recorder_.WaitExit(s.container).exit_status, kExitKilledByResourceManager);
  }
}

TEST_F(ProcessRuntimeTest, CleanupApplicationRemovesItsCacheButNotItsLogs) {
  Start();
  const ContainerLaunchSpec spec = Spec(1, "echo out; touch scratch");
  const ContainerLaunchSpec other_app = Spec(1, "true", /*app=*/2);
  ASSERT_EQ(RunToExit(spec).exit_status, 0);
  ASSERT_EQ(RunToExit(other_app).exit_status, 0);
  const std::string app_dir = root_ + "/local/usercache/alice/appcache/" + App().ToString();
  ASSERT_TRUE(fs::exists(WorkDir(spec) + "/scratch"));
  runtime_->CleanupApplication(App());
  EXPECT_FALSE(fs::exists(app_dir));
  EXPECT_FALSE(fs::exists(root_ + "/local/nmPrivate/" + App().ToString()));
  EXPECT_EQ(ReadAll(LogDir(spec) + "/stdout"), "out\n");
  EXPECT_TRUE(fs::exists(WorkDir(other_app)));
}

TEST_F(ProcessRuntimeTest, LeftoversOfAFinishedCommandAreTerminated) {
  Start();
  const ContainerLaunchSpec spec = Spec(1, "sleep 1000 & echo \\$! > bg.pid");
  const ContainerExit exit = RunToExit(spec);
  EXPECT_EQ(exit.exit_status, 0) << exit.diagnostics;
  const pid_t bg = std::stoi(ReadAll(WorkDir(spec) + "/bg.pid"));
  EXPECT_TRUE(Eventually([&] { return ProcessGone(bg); }));
}

TEST_F(ProcessRuntimeTest, KillRightAfterLaunchReportsTheKillWhateverTheContainerWasDoing) {
  Start();
  std::vector<ContainerLaunchSpec> specs;
  for (int i = 1; i <= 6; ++i) specs.push_back(Spec(i, "sleep 1000"));
  for (const auto& s : specs) {
    runtime_->Launch(s);
    runtime_->Kill(s.container, kExitKilledByAppMaster, "changed my mind");
  }
  for (const auto& s : specs) {
    const ContainerExit exit = recorder_.WaitExit(s.container);
    EXPECT_EQ(exit.exit_status, kExitKilledByAppMaster);
    EXPECT_THAT(exit.diagnostics, HasSubstr("changed my mind"));
  }
  runtime_->Shutdown();
  for (const auto& s : specs) EXPECT_EQ(recorder_.ExitCount(s.container), 1);
}

TEST_F(ProcessRuntimeTest, PublicResourcesMustBeReadableByEveryone) {
  Start();
  const std::string src = root_ + "/src";
  WriteAll(src + "/shared.txt", "shared\n");
  LocalResource r = FileResource("shared.txt", src + "/shared.txt");
  r.visibility = LocalResource::Visibility::kPublic;
  // mkdtemp made root_ 0700: others cannot reach the file.
  ContainerLaunchSpec hidden = Spec(1, "true");
  hidden.local_resources.push_back(r);
  const ContainerExit e1 = RunToExit(hidden);
  EXPECT_EQ(e1.exit_status, kExitInvalid);
  EXPECT_THAT(e1.diagnostics, HasSubstr("is not publicly accessible"));

  fs::permissions(root_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                             fs::perms::others_read | fs::perms::others_exec);
  fs::permissions(src, fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
  fs::permissions(src + "/shared.txt",
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_read);
  ContainerLaunchSpec visible = Spec(2, "cat shared.txt > seen.txt");
  visible.local_resources.push_back(r);
  const ContainerExit e2 = RunToExit(visible);
  ASSERT_EQ(e2.exit_status, 0) << e2.diagnostics;
  EXPECT_EQ(ReadAll(WorkDir(visible) + "/seen.txt"), "shared\n");
  EXPECT_THAT(fs::read_symlink(WorkDir(visible) + "/shared.txt").string(),
              HasSubstr(root_ + "/local/filecache/"));
}

TEST_F(ProcessRuntimeTest, PatternKeepsMatchingJarEntriesAndTheJar) {
  if (system("command -v zip >/dev/null && command -v unzip >/dev/null") != 0) {
    GTEST_SKIP() << "zip/unzip not installed";
  }
  Start();
  const std::string src = root_ + "/src";
  fs::create_directories(src + "/j/lib");
  fs::create_directories(src + "/j/classes");
  WriteAll(src + "/j/lib/dep.txt", "dep\n");
  WriteAll(src + "/j/classes/A.class", "A\n");
  ASSERT_EQ(system(("cd " + src + "/j && zip -qr " + src + "/app.jar lib classes").c_str()), 0);
  LocalResource r = FileResource("app", src + "/app.jar");
  r.type = LocalResource::Type::kPattern;
  r.pattern = "lib/.*";
  ContainerLaunchSpec spec =
      Spec(1, "cat app/lib/dep.txt > seen.txt && test ! -e app/classes && test -f app/app.jar");
  spec.local_resources.push_back(r);
  const ContainerExit exit = RunToExit(spec);
  ASSERT_EQ(exit.exit_status, 0) << exit.diagnostics;
  EXPECT_EQ(ReadAll(WorkDir(spec) + "/seen.txt"), "dep\n");
}

TEST_F(ProcessRuntimeTest, ConcurrentContainersShareOneDownload) {
  Start();
  const std::string src = root_ + "/src";
  WriteAll(src + "/data.txt", "payload\n");
  std::vector<ContainerLaunchSpec> specs;
  for (int i = 1; i <= 4; ++i) {
    ContainerLaunchSpec s = Spec(i, "cat data.txt > seen.txt");
    s.local_resources.push_back(FileResource("data.txt", src + "/data.txt"));
    specs.push_back(s);
  }
  for (const auto& s : specs) runtime_->Launch(s);
  std::string target;
  for (const auto& s : specs) {
    const ContainerExit exit = recorder_.WaitExit(s.container);
    ASSERT_EQ(exit.exit_status, 0) << exit.diagnostics;
    EXPECT_EQ(ReadAll(WorkDir(s) + "/seen.txt"), "payload\n");
    const std::string t = fs::read_symlink(WorkDir(s) + "/data.txt").string();
    if (target.empty()) target = t;
    EXPECT_EQ(t, target);
  }
}

TEST_F(ProcessRuntimeTest, ListenersMayCallBackIntoTheRuntime) {
  // on_running kills its own container; on_exit launches the next one.
  const ContainerLaunchSpec first = Spec(1, "sleep 1000");
  const ContainerLaunchSpec second = Spec(2, "echo second > second.txt");
  ContainerRuntime* runtime = nullptr;
  ContainerListener inner = recorder_.Listener();
  ContainerListener listener{[&](const rm::ContainerId& id) {
                               inner.on_running(id);
                               if (id == first.container)
                                 runtime->Kill(id, kExitKilledByAppMaster, "from on_running");
                             },
                             [&](const ContainerExit& exit) {
                               inner.on_exit(exit);
                               if (exit.container == first.container) runtime->Launch(second);
                             }};
  Result<std::unique_ptr<ContainerRuntime>> r = NewProcessRuntime(options_, listener);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  runtime_ = std::move(r).value();
  runtime = runtime_.get();
  runtime_->Launch(first);
  EXPECT_EQ(recorder_.WaitExit(first.container).exit_status, kExitKilledByAppMaster);
  EXPECT_EQ(recorder_.WaitExit(second.container).exit_status, 0);
  EXPECT_EQ(ReadAll(WorkDir(second) + "/second.txt"), "second\n");
  runtime_->Shutdown();  // before `listener`'s captures go away
}

TEST_F(ProcessRuntimeTest, RejectsBadOptions) {
  options_.node.local_dirs = {};
  EXPECT_FALSE(NewProcessRuntime(options_, recorder_.Listener()).ok());
  options_.node.local_dirs = {"relative/dir"};
  EXPECT_FALSE(NewProcessRuntime(options_, recorder_.Listener()).ok());
  options_.node.local_dirs = {root_ + "/local"};
  EXPECT_FALSE(NewProcessRuntime(options_, ContainerListener{}).ok());
  options_.shell = "/no/such/shell";
  EXPECT_FALSE(NewProcessRuntime(options_, recorder_.Listener()).ok());
}

}  // namespace
}  // namespace spindle::nm

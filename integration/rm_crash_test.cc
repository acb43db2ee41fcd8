// The RM crash test (work-preserving RM restart): a cell of real processes on
// 127.0.0.1 (`spindle rm` with its RocksDB state store, one `spindle nm`
// running real containers) under a steady stream of submissions and running
// containers, while the RM is SIGKILLed at random moments and started again
// on the same ports (SPINDLE_CRASH_KILLS times, default 20; the seed is
// SPINDLE_CRASH_SEED, else the clock, and is printed).
//
// The test is the client and every ApplicationMaster, over Spindle's own IPC
// client. Each AM container runs a shell command that records its launch,
// hands the AM its AMRM token (a copy of the token file) and waits for a
// "done" file; the test then registers, asks for task containers (`sleep`
// processes) and starts them on the node with its NMTokens, re-registering
// (and asking again) whenever the RM says ApplicationMasterNotRegistered. Each
// application ends one of three ways: its AM unregisters SUCCEEDED after a
// while, the client kills it, or it runs until the end of the test.
//
// After a restart (every other one at least; the others are killed again soon
// after they answer, during their own recovery) the test checks, per
// application whose submission was acknowledged:
//  - it exists, in a state consistent with what was acknowledged (an
//    unregistered app FINISHING/FINISHED, a killed one KILLED, a live one
//    ACCEPTED/RUNNING, a final state never left);
//  - its current attempt is the one whose AM runs, and its AM container was
//    launched once (AMs are never relaunched: none fails in this test);
//  - once the node has resynced, the RM lists exactly the containers the AM
//    runs (getContainers, usage) and their processes are alive; no running
//    container is ever reported completed to its AM;
//  - getNewApplication ids strictly increase across all runs, and no
//    container id is handed out twice.
// At the end every app finishes as planned. Each RM run's log is kept in the
// work dir (SPINDLE_KEEP_TEST_DIRS=1 or a failure keeps it).
#include <glog/logging.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/base64.h"
#include "base/child_process.h"
#include "integration/cell_support.h"
#include "integration/wait_for.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/credentials.h"
#include "rm/security/yarn_id_protos.h"
#include "rm/yarn_exceptions.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;
namespace y = hadoop::yarn;
using SteadyClock = std::chrono::steady_clock;
using cell::IsFinal;
using cell::kAmrmTokenKind;
using cell::kAms;
using cell::kClient;
using cell::kCmp;
using cell::Lines;
using cell::ReadAll;
using cell::Spawn;
using cell::Tail;
using cell::WriteSite;

constexpr int kMaxLiveApps = 16;
constexpr int kMaxLongApps = 4;
constexpr int kMaxShellApps = 2;  // `spindle shell-am` AMs at a time
constexpr int64_t kContainerMb = 128;

int64_t EnvInt(const char* name, int64_t fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  return std::strtoll(value, nullptr, 10);
}

const std::string& Name(y::YarnApplicationStateProto s) {
  return y::YarnApplicationStateProto_Name(s);
}

bool IsConnectionError(const Status& s) { return !s.ok() && !s.IsRemote(); }

enum class Fate { kFinish, kKill, kLong, kShell };

const char* FateName(Fate f) {
  switch (f) {
    case Fate::kFinish:
      return "finish";
    case Fate::kKill:
      return "kill";
    case Fate::kLong:
      return "long";
    case Fate::kShell:
      return "shell";
  }
  return "?";
}

// An application of the test and its AM, as the test plays it.
struct TestApp {
  rm::ApplicationId id;
  Fate fate = Fate::kFinish;
  int tasks_wanted = 1;
  SteadyClock::time_point acked_at;
  std::chrono::milliseconds lifetime{0};
  // The AM, once its container handed over the token.
  std::optional<ipc::ClientToken> amrm;
  std::optional<rm::ContainerId> am_container;
  bool registered = false;
  std::optional<SteadyClock::time_point> first_registered_at;
  int32_t response_id = 0;
  bool send_ask = true;
  std::map<rm::NodeId, hadoop::common::TokenProto> nm_tokens;
  std::set<rm::ContainerId> running;  // started on the node, not completed
  std::vector<rm::ContainerId> to_release;
  int resyncs = 0;
  int rejected_starts = 0;
  // What was acknowledged.
  bool unregistered = false;
  bool killed = false;
  // Asked, answer not (yet) seen: the RM may have done it before it died.
  bool finish_requested = false;
  bool first_finish_sent = false;
  bool kill_requested = false;
  // A failure was recorded: no longer played or checked.
  bool abandoned = false;
  bool done_signalled = false;
  // A shell app (one attempt) whose AM container an RM run placed and died
  // before launching: it ends FAILED (see PollShellApp).
  bool failed_unlaunched = false;
  y::YarnApplicationStateProto last_seen = y::NEW;
  SteadyClock::time_point next_poll;

  bool Over() const { return unregistered || killed || abandoned; }
};

class RmCrashTest : public ::testing::Test {
 protected:
  void SetUp() override {
    kills_ = static_cast<int>(EnvInt("SPINDLE_CRASH_KILLS", 20));
    seed_ = static_cast<uint64_t>(EnvInt("SPINDLE_CRASH_SEED", 0));
    if (seed_ == 0) seed_ = static_cast<uint64_t>(SteadyClock::now().time_since_epoch().count());
    rng_.seed(seed_);
    std::printf("[ crash    ] %d kills, SPINDLE_CRASH_SEED=%llu\n", kills_,
                static_cast<unsigned long long>(seed_));
    work_ = ::testing::TempDir() + "/rm-crash-test-" + std::to_string(getpid());
    std::filesystem::remove_all(work_);
    for (const char* d :
         {"rm-conf", "nm-conf", "am-conf", "nm/local", "nm/logs", "am", "tok", "done"}) {
      std::filesystem::create_directories(work_ + "/" + d);
    }
    ipc::RpcClientOptions options;
    options.connect_timeout = 2s;
    options.call_timeout = 5s;
    client_ = std::make_unique<ipc::RpcClient>(options);
    am_client_ = std::make_unique<ipc::RpcClient>(options);
  }

  void TearDown() override {
    stop_workload_ = true;
    if (workload_.joinable()) workload_.join();
    rm_.Stop(SIGTERM, 5s);
    nm_.Stop(SIGTERM, 5s);
    KillContainerProcesses();
    client_.reset();
    am_client_.reset();
    if (HasFailure() || std::getenv("SPINDLE_KEEP_TEST_DIRS") != nullptr) {
      std::printf("[ crash    ] test files kept in %s\n", work_.c_str());
    } else {
      std::filesystem::remove_all(work_);
    }
  }

  // ---- processes ------------------------------------------------------------

  // The containers the node started run in sessions of their own: end them
  // by the pid files the node wrote.
  void KillContainerProcesses() { cell::KillContainerProcesses(work_ + "/nm/local/nmPrivate"); }

  std::map<std::string, std::string> RmSite(bool fixed_ports) {
    std::map<std::string, std::string> p;
    auto port = [&](uint16_t fixed) {
      return "127.0.0.1:" + std::to_string(fixed_ports ? fixed : 0);
    };
    p["yarn.resourcemanager.address"] = port(client_port_);
    p["yarn.resourcemanager.scheduler.address"] = port(scheduler_port_);
    p["yarn.resourcemanager.resource-tracker.address"] = port(tracker_port_);
    p["yarn.resourcemanager.admin.address"] = port(admin_port_);
    p["yarn.resourcemanager.webapp.address"] = "127.0.0.1:0";
    p["spindle.store.path"] = work_ + "/rmstore";
    p["yarn.resourcemanager.recovery.enabled"] = "true";
    p["yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms"] = "3000";
    p["yarn.scheduler.minimum-allocation-mb"] = "64";
    p["yarn.resourcemanager.nodemanagers.heartbeat-interval-ms"] = "100";
    p["yarn.resourcemanager.am.max-attempts"] = "2";
    p["spindle.scheduler.count"] = "1";
    p["spindle.scheduler.partitions"] = "1";
    // An AM the RM died before launching is given up (and its app's next
    // attempt started) after this long; the test's AMs heartbeat every
    // 30 ms, except while a check runs (at most ~15 s if it fails).
    p["yarn.am.liveness-monitor.expiry-interval-ms"] = "20000";
    return p;
  }

  // Starts `spindle rm` and waits until it listens (its ports file).
  void StartRm() {
    ++rm_starts_;
    const std::string ports = work_ + "/rm.ports." + std::to_string(rm_starts_);
    rm_ = Spawn({SPINDLE_BINARY, "rm", "--conf", work_ + "/rm-conf", "--ports-file", ports},
                RmLog(rm_starts_));
    ASSERT_TRUE(rm_.running());
    const auto started = SteadyClock::now();
    const bool listening =
        WaitFor([&] { return rm_.Exited() || std::filesystem::exists(ports); }, 30s);
    ASSERT_TRUE(listening && rm_.running())
        << "spindle rm run " << rm_starts_ << " did not start:\n"
        << Tail(RmLog(rm_starts_), 30);
    restart_ms_.push_back(
        std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - started)
            .count());
    std::map<std::string, int> listen;
    for (const auto& line : Lines(ports)) {
      const size_t eq = line.find('=');
      if (eq != std::string::npos) listen[line.substr(0, eq)] = std::atoi(line.c_str() + eq + 1);
    }
    if (client_port_ == 0) {
      client_port_ = static_cast<uint16_t>(listen["client"]);
      scheduler_port_ = static_cast<uint16_t>(listen["scheduler"]);
      tracker_port_ = static_cast<uint16_t>(listen["resource-tracker"]);
      admin_port_ = static_cast<uint16_t>(listen["admin"]);
      // Every later run listens where this one does.
      WriteSite(work_ + "/rm-conf/yarn-site.xml", RmSite(/*fixed_ports=*/true));
    } else {
      ASSERT_EQ(listen["client"], client_port_);
      ASSERT_EQ(listen["scheduler"], scheduler_port_);
      ASSERT_EQ(listen["resource-tracker"], tracker_port_);
    }
  }

  // SIGKILL, and the RM must not have died on its own before.
  void KillRm() {
    if (rm_.Exited()) {
      ADD_FAILURE() << "spindle rm run " << rm_starts_ << " exited by itself (status "
                    << rm_.wait_status() << "):\n"
                    << Tail(RmLog(rm_starts_), 30);
    } else {
      rm_.Kill();
    }
  }

  std::string RmLog(int run) const { return work_ + "/rm." + std::to_string(run) + ".log"; }

  void StartNm() {
    std::map<std::string, std::string> p;
    p["yarn.resourcemanager.resource-tracker.address"] =
        "127.0.0.1:" + std::to_string(tracker_port_);
    p["yarn.resourcemanager.scheduler.address"] = "127.0.0.1:" + std::to_string(scheduler_port_);
    p["yarn.resourcemanager.address"] = "127.0.0.1:" + std::to_string(client_port_);
    p["yarn.nodemanager.hostname"] = "127.0.0.1";
    p["yarn.nodemanager.address"] = "127.0.0.1:0";
    p["yarn.nodemanager.webapp.address"] = "127.0.0.1:0";
    p["yarn.nodemanager.resource.memory-mb"] = "16384";
    p["yarn.nodemanager.resource.cpu-vcores"] = "64";
    p["yarn.nodemanager.local-dirs"] = work_ + "/nm/local";
    p["yarn.nodemanager.log-dirs"] = work_ + "/nm/logs";
    p["spindle.nm.heartbeat.initial-interval-ms"] = "100";
    p["spindle.nm.rm-retry.max-interval-ms"] = "200";
    p["yarn.resourcemanager.connect.retry-interval.ms"] = "100";
    p["yarn.resourcemanager.connect.max-wait.ms"] = "60000";
    WriteSite(work_ + "/nm-conf/yarn-site.xml", p);
    nm_ = Spawn({SPINDLE_BINARY, "nm", "--conf", work_ + "/nm-conf"}, work_ + "/nm.log",
                {"HADOOP_CONF_DIR=" + work_ + "/nm-conf"});
    ASSERT_TRUE(nm_.running());
  }

  int RunningNodes() {
    y::GetClusterNodesRequestProto request;
    request.add_nodestates(y::NS_RUNNING);
    y::GetClusterNodesResponseProto response;
    if (!client_->Call(ClientSpec(), "getClusterNodes", request, &response).ok()) return -1;
    return response.nodereports_size();
  }

  // ---- wire helpers ---------------------------------------------------------

  ipc::ConnectionSpec ClientSpec() const {
    return {"127.0.0.1", client_port_, kClient, "alice", std::nullopt};
  }
  ipc::ConnectionSpec AmSpec(const TestApp& app) const {
    return {"127.0.0.1", scheduler_port_, kAms, "ignored", app.amrm};
  }

  // A report, retrying while the RM cannot be reached (it may just be
  // starting).
  Status Report(ipc::RpcClient& client, const rm::ApplicationId& id,
                y::ApplicationReportProto* out) {
    y::GetApplicationReportRequestProto request;
    rm::ToProto(id, request.mutable_application_id());
    Status s;
    WaitFor(
        [&] {
          y::GetApplicationReportResponseProto response;
          s = client.Call(ClientSpec(), "getApplicationReport", request, &response);
          if (s.ok()) *out = response.application_report();
          return !IsConnectionError(s);
        },
        10s);
    return s;
  }

  std::string AmCommand(const rm::ApplicationId& id) const {
    // Launch commands run as `bash -c "..."` unescaped: no double quotes.
    const std::string app = id.ToString();
    const std::string tok = work_ + "/tok/" + app;
    return "echo $CONTAINER_ID >> " + work_ + "/am/" + app + " && cp $HADOOP_TOKEN_FILE_LOCATION " +
           tok + ".tmp && mv " + tok + ".tmp " + tok + " && while [ ! -e " + work_ + "/done/" +
           app + " ]; do sleep 0.3; done";
  }

  // `spindle shell-am` (the AM of `spindle shell`) with 3 containers that
  // sleep 1-4 s and exit 0; it unregisters SUCCEEDED iff all 3 exited 0.
  // Its RM calls are retried every 100 ms (am-conf/yarn-site.xml).
  std::string ShellAmCommand(const rm::ApplicationId& id) {
    const std::string task = "sleep " + std::to_string(Uniform(1, 4));
    return "echo $CONTAINER_ID >> " + work_ + "/am/" + id.ToString() + " && exec " +
           SPINDLE_BINARY + " shell-am --conf " + work_ +
           "/am-conf --rm-scheduler 127.0.0.1:" + std::to_string(scheduler_port_) +
           " --num-containers 3 --memory-mb 128 --vcores 1 --timeout-seconds 150 "
           "--command-base64 " +
           Base64Encode(task) + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr";
  }

  // ---- the workload: submissions and AMs ------------------------------------

  void WorkloadLoop() {
    while (!stop_workload_.load()) {
      {
        std::lock_guard<std::mutex> lock(model_mu_);
        MaybeSubmit();
        for (auto& [id, app] : apps_) StepAm(app);
      }
      std::this_thread::sleep_for(30ms);
    }
  }

  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  void MaybeSubmit() {
    if (!submitting_) return;
    int live = 0;
    int long_lived = 0;
    int shells = 0;
    for (const auto& [id, app] : apps_) {
      if (app.Over()) continue;
      ++live;
      if (app.fate == Fate::kLong) ++long_lived;
      if (app.fate == Fate::kShell) ++shells;
    }
    const auto now = SteadyClock::now();
    if (live >= kMaxLiveApps || now < next_submit_) return;
    next_submit_ = now + std::chrono::milliseconds(Uniform(0, 150));
    y::GetNewApplicationRequestProto new_request;
    y::GetNewApplicationResponseProto new_response;
    Status s = am_client_->Call(ClientSpec(), "getNewApplication", new_request, &new_response);
    if (!s.ok()) {
      if (!IsConnectionError(s)) ADD_FAILURE() << "getNewApplication: " << s.ToString();
      return;
    }
    const rm::ApplicationId id = rm::FromProto(new_response.application_id());
    ++new_ids_;
    // Each RM run takes a later cluster timestamp and counts from 1 again
    // (Hadoop's startActiveServices); within a run the sequence grows. So
    // (timestamp, sequence) only grows and no id is handed out twice.
    EXPECT_GE(id.cluster_timestamp, cluster_timestamp_)
        << id.ToString() << ": an earlier cluster timestamp in RM run " << rm_starts_;
    if (id.cluster_timestamp > cluster_timestamp_) {
      cluster_timestamp_ = id.cluster_timestamp;
      last_app_seq_ = 0;
    }
    EXPECT_GT(id.id, last_app_seq_)
        << "getNewApplication handed out " << id.ToString() << " after application sequence "
        << last_app_seq_ << " (RM run " << rm_starts_ << ")";
    last_app_seq_ = std::max(last_app_seq_, id.id);

    const bool shell = shells < kMaxShellApps && Uniform(0, 99) < 30;
    y::SubmitApplicationRequestProto submit;
    auto* context = submit.mutable_application_submission_context();
    *context->mutable_application_id() = new_response.application_id();
    context->set_application_name(shell ? "crash-test-shell" : "crash-test");
    context->set_queue("default");
    context->mutable_resource()->set_memory(kContainerMb);
    context->mutable_resource()->set_virtual_cores(1);
    // As `spindle shell`: one attempt, so an AM that fails fails the app.
    if (shell) context->set_maxappattempts(1);
    context->mutable_am_container_spec()->add_command(shell ? ShellAmCommand(id) : AmCommand(id));
    y::SubmitApplicationResponseProto submitted;
    s = am_client_->Call(ClientSpec(), "submitApplication", submit, &submitted);
    if (!s.ok()) {
      if (IsConnectionError(s)) {
        uncertain_[id] = shell;  // it may or may not have been stored
      } else {
        ADD_FAILURE() << "submitApplication " << id.ToString() << ": " << s.ToString();
      }
      return;
    }
    TestApp& app = Adopt(id);
    const int roll = Uniform(0, 99);
    if (shell) {
      app.fate = Fate::kShell;
    } else if (roll < 25 && long_lived < kMaxLongApps) {
      app.fate = Fate::kLong;
    } else if (roll < 50) {
      app.fate = Fate::kKill;
      app.lifetime = std::chrono::milliseconds(Uniform(0, 4000));
    } else {
      app.fate = Fate::kFinish;
      app.lifetime = std::chrono::milliseconds(Uniform(200, 5000));
    }
  }

  TestApp& Adopt(const rm::ApplicationId& id) {
    TestApp& app = apps_[id];
    app.id = id;
    app.acked_at = SteadyClock::now();
    app.tasks_wanted = Uniform(1, 3);
    app.fate = Fate::kFinish;
    app.lifetime = std::chrono::milliseconds(Uniform(500, 6000));
    ++submitted_;
    return app;
  }

  // The AM's token and container, once its container has run.
  bool FindAmToken(TestApp& app) {
    const std::string app_name = app.id.ToString();
    const std::string data = ReadAll(work_ + "/tok/" + app_name);
    if (data.empty()) return false;
    auto credentials = rm::Credentials::Parse(data);
    if (!credentials.ok()) {
      ADD_FAILURE() << app_name << ": unreadable token file: " << credentials.status().ToString();
      return false;
    }
    for (const auto& entry : credentials->tokens()) {
      if (entry.token.kind != kAmrmTokenKind) continue;
      app.amrm = ipc::ClientToken{entry.token.identifier, entry.token.password, entry.token.kind,
                                  "127.0.0.1:" + std::to_string(scheduler_port_)};
    }
    const auto launches = Lines(work_ + "/am/" + app_name);
    if (!app.amrm.has_value() || launches.empty()) return false;
    auto container = rm::ContainerId::Parse(launches.front());
    if (!container.ok()) {
      ADD_FAILURE() << app_name << ": AM container id " << launches.front();
      return false;
    }
    app.am_container = *container;
    NoteContainerId(app, *container, /*just_allocated=*/false);
    return true;
  }

  void NoteContainerId(const TestApp& app, const rm::ContainerId& id, bool just_allocated) {
    const bool fresh = handed_out_.insert(id).second;
    EXPECT_TRUE(fresh) << app.id.ToString() << ": container id " << id.ToString()
                       << " handed out twice (RM run " << rm_starts_ << ")";
    // Run r has epoch r - 1 (an answer of the run just killed may arrive
    // after the next one started).
    const int run = rm_starts_.load();
    EXPECT_TRUE(!just_allocated || id.epoch() == run - 1 || id.epoch() == run - 2)
        << app.id.ToString() << ": container " << id.ToString() << " has epoch " << id.epoch()
        << " in RM run " << run;
  }

  void Register(TestApp& app) {
    y::RegisterApplicationMasterRequestProto reg;
    reg.set_host("127.0.0.1");
    reg.set_rpc_port(-1);
    y::RegisterApplicationMasterResponseProto response;
    Status s = am_client_->Call(AmSpec(app), "registerApplicationMaster", reg, &response);
    if (IsConnectionError(s)) return;
    if (!s.ok()) {
      ADD_FAILURE() << app.id.ToString() << " (" << FateName(app.fate)
                    << "): its AM cannot register again in RM run " << rm_starts_ << ": "
                    << s.ToString();
      app.abandoned = true;  // stop playing it; the failure is recorded
      return;
    }
    app.registered = true;
    app.response_id = 0;
    app.send_ask = true;
    if (!app.first_registered_at.has_value()) app.first_registered_at = SteadyClock::now();
  }

  void StepAm(TestApp& app) {
    const auto now = SteadyClock::now();
    if (app.unregistered && !app.done_signalled) {
      std::ofstream(work_ + "/done/" + app.id.ToString()) << "done\n";
      app.done_signalled = true;
    }
    if (app.Over()) return;
    if (app.fate == Fate::kShell) {
      PollShellApp(app);
      return;
    }
    if (app.fate == Fate::kKill && now - app.acked_at >= app.lifetime) {
      y::KillApplicationRequestProto request;
      rm::ToProto(app.id, request.mutable_application_id());
      y::KillApplicationResponseProto response;
      app.kill_requested = true;
      Status s = am_client_->Call(ClientSpec(), "forceKillApplication", request, &response);
      if (s.ok() && response.is_kill_completed()) app.killed = true;
      if (!s.ok() && !IsConnectionError(s)) {
        ADD_FAILURE() << app.id.ToString() << ": forceKillApplication: " << s.ToString();
        app.abandoned = true;
      }
      return;
    }
    if (!app.amrm.has_value() && !FindAmToken(app)) return;
    if (!app.registered) {
      Register(app);
      if (!app.registered) return;
    }
    if (app.fate == Fate::kFinish && now - *app.first_registered_at >= app.lifetime &&
        static_cast<int>(app.running.size()) == app.tasks_wanted) {
      y::FinishApplicationMasterRequestProto request;
      request.set_final_application_status(y::APP_SUCCEEDED);
      y::FinishApplicationMasterResponseProto response;
      app.finish_requested = true;
      Status s = am_client_->Call(AmSpec(app), "finishApplicationMaster", request, &response);
      if (s.ok() && response.isunregistered()) app.unregistered = true;
      if (s.IsUnauthorized() && app.first_finish_sent) {
        // The RM unregistered it and died before answering: the next run
        // recovered the attempt as over and no longer takes its AMRM token
        // (as Hadoop). The checks find out whether it really ended.
        app.unregistered = true;
        ++lost_finish_answers_;
        return;
      }
      app.first_finish_sent = true;
      if (s.IsRemote() && s.java_class() == rm::yarn::kApplicationMasterNotRegistered) {
        ++app.resyncs;
        app.registered = false;
      } else if (!s.ok() && !IsConnectionError(s)) {
        ADD_FAILURE() << app.id.ToString() << ": finishApplicationMaster: " << s.ToString();
        app.abandoned = true;
      }
      return;
    }
    Allocate(app);
  }

  // A `spindle shell-am` app runs by itself; it must end FINISHED/SUCCEEDED.
  void PollShellApp(TestApp& app) {
    const auto now = SteadyClock::now();
    if (now < app.next_poll) return;
    app.next_poll = now + 300ms;
    y::GetApplicationReportRequestProto request;
    rm::ToProto(app.id, request.mutable_application_id());
    y::GetApplicationReportResponseProto response;
    Status s = am_client_->Call(ClientSpec(), "getApplicationReport", request, &response);
    if (!s.ok()) return;  // checked after the restart
    const auto& report = response.application_report();
    if (!IsFinal(report.yarn_application_state())) return;
    app.unregistered = true;
    app.done_signalled = true;
    // Its AM container was placed (the attempt stored) by an RM that died
    // before launching it: the node never ran it, the next RM fails the
    // attempt (as Hadoop 3.3 does, at the latest at the AM expiry), and an
    // app of one attempt is not retried whatever ended it (YARN-5617,
    // RMAppImpl.AttemptFailedTransition): FAILED, as with Hadoop.
    if (report.yarn_application_state() == y::FAILED &&
        Lines(work_ + "/am/" + app.id.ToString()).empty()) {
      app.failed_unlaunched = true;
      never_launched_.insert(app.id);
      return;
    }
    EXPECT_TRUE(report.yarn_application_state() == y::FINISHED &&
                report.final_application_status() == y::APP_SUCCEEDED)
        << app.id.ToString() << " (shell) ended " << Name(report.yarn_application_state()) << "/"
        << y::FinalApplicationStatusProto_Name(report.final_application_status()) << ": "
        << report.diagnostics() << "; its AM's stdout:\n"
        << ShellAmOutput(app.id);
  }

  std::string ShellAmOutput(const rm::ApplicationId& id) {
    std::string out;
    std::error_code ec;
    const std::string dir = work_ + "/nm/logs/" + id.ToString();
    if (!std::filesystem::exists(dir, ec)) return "(no logs)";
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      if (name == "stdout" || name == "stderr") {
        out += e.path().string() + ":\n" + Tail(e.path().string(), 15);
      }
    }
    return out;
  }

  void Allocate(TestApp& app) {
    y::AllocateRequestProto request;
    request.set_response_id(app.response_id);
    const int outstanding = app.tasks_wanted - static_cast<int>(app.running.size());
    if (app.send_ask) {
      auto* ask = request.add_ask();
      ask->mutable_priority()->set_priority(1);
      ask->set_resource_name("*");
      ask->mutable_capability()->set_memory(kContainerMb);
      ask->mutable_capability()->set_virtual_cores(1);
      ask->set_num_containers(std::max(outstanding, 0));
    }
    for (const auto& id : app.to_release) rm::ToProto(id, request.add_release());
    y::AllocateResponseProto response;
    Status s = am_client_->Call(AmSpec(app), "allocate", request, &response);
    if (IsConnectionError(s)) return;
    if (s.IsRemote() && s.java_class() == rm::yarn::kApplicationMasterNotRegistered) {
      // The RM restarted: re-register, ask again for what is missing.
      ++app.resyncs;
      app.registered = false;
      Register(app);
      return;
    }
    if (!s.ok()) {
      ADD_FAILURE() << app.id.ToString() << " (" << FateName(app.fate) << "): allocate in RM run "
                    << rm_starts_ << ": " << s.ToString();
      app.abandoned = true;
      return;
    }
    app.send_ask = false;
    app.to_release.clear();
    app.response_id = response.response_id();
    if (response.has_a_m_command() && response.a_m_command() == y::AM_RESYNC) {
      ++app.resyncs;
      app.registered = false;
      Register(app);
      return;
    }
    for (const auto& t : response.nm_tokens()) app.nm_tokens[rm::FromProto(t.nodeid())] = t.token();
    for (const auto& c : response.allocated_containers()) {
      const rm::ContainerId id = rm::FromProto(c.id());
      NoteContainerId(app, id, /*just_allocated=*/true);
      if (static_cast<int>(app.running.size()) >= app.tasks_wanted) {
        app.to_release.push_back(id);
        continue;
      }
      StartTask(app, c);
    }
    for (const auto& c : response.completed_container_statuses()) {
      const rm::ContainerId id = rm::FromProto(c.container_id());
      if (app.running.erase(id) == 0) continue;
      ADD_FAILURE() << app.id.ToString() << " (" << FateName(app.fate) << "): running container "
                    << id.ToString() << " reported completed in RM run " << rm_starts_
                    << ", exit status " << c.exit_status() << ": " << c.diagnostics();
      app.send_ask = true;
    }
  }

  void StartTask(TestApp& app, const y::ContainerProto& c) {
    const rm::ContainerId id = rm::FromProto(c.id());
    const rm::NodeId node = rm::FromProto(c.nodeid());
    auto token = app.nm_tokens.find(node);
    if (token == app.nm_tokens.end()) {
      ADD_FAILURE() << app.id.ToString() << ": no NMToken for " << node.ToString();
      return;
    }
    y::StartContainersRequestProto request;
    auto* one = request.add_start_container_request();
    *one->mutable_container_token() = c.container_token();
    one->mutable_container_launch_context()->add_command("echo $CONTAINER_ID >> " + work_ +
                                                         "/tasks && exec sleep 600");
    const ipc::ClientToken nm{token->second.identifier(), token->second.password(),
                              token->second.kind(), token->second.service()};
    const ipc::ConnectionSpec spec{node.host, static_cast<uint16_t>(node.port), kCmp, "ignored",
                                   nm};
    y::StartContainersResponseProto response;
    Status s = am_client_->Call(spec, "startContainers", request, &response);
    if (s.ok() && response.succeeded_requests_size() == 1) {
      app.running.insert(id);
      return;
    }
    // A container of an RM run that has ended is refused by the node, as
    // Hadoop's NM does: give it back, ask again.
    const std::string why = s.ok() && response.failed_requests_size() > 0
                                ? response.failed_requests(0).exception().message()
                                : s.ToString();
    ++app.rejected_starts;
    ++rejected_starts_;
    LOG(INFO) << app.id.ToString() << ": could not start " << id.ToString() << ": " << why;
    app.to_release.push_back(id);
    app.send_ask = true;
  }

  // ---- checks after a restart (workload paused) -----------------------------

  bool ProcessAlive(const rm::ContainerId& id) {
    const std::string pid_file = work_ + "/nm/local/nmPrivate/" + id.attempt.app.ToString() + "/" +
                                 id.ToString() + "/" + id.ToString() + ".pid";
    std::ifstream in(pid_file);
    pid_t pid = 0;
    return in >> pid && pid > 1 && kill(pid, 0) == 0;
  }

  // Containers whose process (group) the node runs, by its pid files.
  std::vector<rm::ContainerId> LiveContainerProcesses() {
    std::vector<rm::ContainerId> out;
    std::error_code ec;
    const std::string dir = work_ + "/nm/local/nmPrivate";
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
      if (e.path().extension() != ".pid") continue;
      auto id = rm::ContainerId::Parse(e.path().stem().string());
      if (id.ok() && ProcessAlive(*id)) out.push_back(*id);
    }
    return out;
  }

  void CheckApplications(int kill_number) {
    const std::string when = " after kill " + std::to_string(kill_number) + " (RM run " +
                             std::to_string(rm_starts_) + ")";
    // Submissions whose answer was lost: there or not, both are fine; those
    // that are there are followed from now on.
    for (auto it = uncertain_.begin(); it != uncertain_.end();) {
      y::ApplicationReportProto report;
      Status s = Report(*client_, it->first, &report);
      if (s.ok()) {
        // Played as what was submitted: a shell AM runs by itself.
        TestApp& app = Adopt(it->first);
        if (it->second) app.fate = Fate::kShell;
        ++adopted_;
      }
      if (s.ok() || s.IsRemote()) {
        it = uncertain_.erase(it);
      } else {
        ++it;
      }
    }
    for (auto& [id, app] : apps_) {
      if (app.abandoned) continue;
      const std::string name = id.ToString() + " (" + FateName(app.fate) + ")";
      y::ApplicationReportProto report;
      Status s = Report(*client_, id, &report);
      if (!s.ok()) {
        ADD_FAILURE() << "acknowledged application " << name << " is lost" << when << ": "
                      << s.ToString();
        app.abandoned = true;  // stop playing it
        continue;
      }
      const auto state = report.yarn_application_state();
      const std::string got = Name(state) + " (diagnostics: " + report.diagnostics() + ")";
      if (!app.killed && app.kill_requested && state == y::KILLED) {
        app.killed = true;  // the RM did it before it died; the answer was lost
      }
      if (!app.unregistered && app.finish_requested && state == y::FINISHED) {
        app.unregistered = true;
      }
      if (app.fate == Fate::kShell && !app.unregistered && IsFinal(state)) {
        app.next_poll = {};
        PollShellApp(app);  // it ended while the RM was down: SUCCEEDED?
      }
      if (app.fate == Fate::kShell && app.unregistered) {
        // Its end was checked when it was seen (PollShellApp); it stays.
        if (IsFinal(app.last_seen)) {
          EXPECT_EQ(state, app.last_seen)
              << name << " was " << Name(app.last_seen) << ", is " << got << when;
        } else {
          EXPECT_TRUE(IsFinal(state)) << name << " ended, is " << got << when;
        }
      } else if (app.killed) {
        EXPECT_EQ(state, y::KILLED) << name << " was killed, is " << got << when;
      } else if (app.unregistered || (app.finish_requested && state == y::RUNNING)) {
        EXPECT_TRUE(state == y::RUNNING || state == y::FINISHED)
            << name << " unregistered, is " << got << when;
        if (state == y::FINISHED) {
          EXPECT_EQ(report.final_application_status(), y::APP_SUCCEEDED) << name << when;
        }
      } else if (IsFinal(app.last_seen)) {
        EXPECT_EQ(state, app.last_seen)
            << name << " was " << Name(app.last_seen) << ", is " << got << when;
      } else {
        EXPECT_TRUE(state == y::ACCEPTED || state == y::RUNNING || state == y::SUBMITTED)
            << name << " is live, is " << got << when;
      }
      if (app.last_seen == y::FINISHED) {
        EXPECT_EQ(state, y::FINISHED) << name << when;
      }
      app.last_seen = state;
      // The AM: launched once; still the current attempt.
      const auto launches = Lines(work_ + "/am/" + id.ToString());
      EXPECT_LE(launches.size(), 1u) << name << ": AM container launched more than once" << when;
      auto am = launches.empty() ? Result<rm::ContainerId>(Status::NotFound(""))
                                 : rm::ContainerId::Parse(launches.front());
      if (am.ok() && !app.killed && !IsFinal(state)) {
        const rm::ApplicationAttemptId current =
            rm::FromProto(report.currentapplicationattemptid());
        EXPECT_EQ(current, am->attempt)
            << name << ": its AM runs as " << am->attempt.ToString()
            << " but the RM's current attempt is " << current.ToString() << when;
      }
    }
  }

  // The RM lists the containers each live AM runs, once the node resynced.
  void CheckContainers(int kill_number) {
    const std::string when = " after kill " + std::to_string(kill_number) + " (RM run " +
                             std::to_string(rm_starts_) + ")";
    std::map<rm::ApplicationId, std::string> mismatch;
    const bool agreed = WaitFor(
        [&] {
          mismatch.clear();
          for (auto& [id, app] : apps_) {
            if (app.Over() || app.finish_requested || app.kill_requested ||
                !app.am_container.has_value() || !app.first_registered_at) {
              continue;
            }
            std::set<rm::ContainerId> expected = app.running;
            expected.insert(*app.am_container);
            y::GetContainersRequestProto request;
            rm::ToProto(app.am_container->attempt, request.mutable_application_attempt_id());
            y::GetContainersResponseProto response;
            Status s = client_->Call(ClientSpec(), "getContainers", request, &response);
            std::set<rm::ContainerId> listed;
            std::string states;
            for (const auto& c : response.containers()) {
              if (c.container_state() != y::C_RUNNING) {
                states += " " + rm::FromProto(c.container_id()).ToString() + "=" +
                          y::ContainerStateProto_Name(c.container_state());
              }
              listed.insert(rm::FromProto(c.container_id()));
            }
            y::ApplicationReportProto report;
            Status r = Report(*client_, id, &report);
            const int32_t used = report.app_resource_usage().num_used_containers();
            if (s.ok() && r.ok() && listed == expected && states.empty() &&
                used == static_cast<int32_t>(expected.size())) {
              continue;
            }
            std::string text = "runs";
            for (const auto& c : expected) text += " " + c.ToString();
            text += "; the RM lists";
            for (const auto& c : listed) text += " " + c.ToString();
            text += states.empty() ? "" : "; not running:" + states;
            text += "; num_used_containers " + std::to_string(used);
            if (!s.ok()) text += "; getContainers: " + s.ToString();
            mismatch[id] = text;
          }
          return mismatch.empty();
        },
        8s);
    if (!agreed) {
      for (const auto& [id, text] : mismatch) {
        ADD_FAILURE() << id.ToString() << " (" << FateName(apps_[id].fate) << "): " << text << when;
      }
    }
    for (const auto& [id, app] : apps_) {
      // An app whose unregistration or kill was asked, the answer lost, may
      // have ended before the RM died: its containers are then gone.
      if (app.Over() || app.finish_requested || app.kill_requested) continue;
      for (const auto& c : app.running) {
        // A start the node acknowledged just before the pause may still be
        // launching: the pid file appears when its launch script runs (seen
        // under load: prelaunch.out written, no pid yet). A container that
        // died stays dead, so waiting cannot hide one.
        EXPECT_TRUE(WaitFor([&] { return ProcessAlive(c); }, 10s))
            << id.ToString() << ": container " << c.ToString() << " no longer runs on the node"
            << when;
      }
    }
    // The node's containers are those of the live attempts (its used
    // resources may also hold placements the paused AMs have not picked
    // up). An AM container allocated by an earlier run that never launched
    // (the RM died first) is not on the node: the RM waits for that AM until
    // the AM expiry; such apps are counted, and get a second attempt.
    std::string node_text;
    const bool node_agrees = WaitFor(
        [&] {
          int32_t listed = 0;
          std::string detail;
          for (const auto& [id, app] : apps_) {
            y::ApplicationReportProto report;
            if (!Report(*client_, id, &report).ok()) return false;
            // FINISHING is reported FINISHED (as Hadoop): its AM container
            // (and tasks) run until the AM exits; count what is not complete.
            const bool over = IsFinal(report.yarn_application_state());
            if (!report.has_currentapplicationattemptid()) continue;
            y::GetContainersRequestProto request;
            *request.mutable_application_attempt_id() = report.currentapplicationattemptid();
            y::GetContainersResponseProto response;
            if (!client_->Call(ClientSpec(), "getContainers", request, &response).ok()) {
              return false;
            }
            y::GetApplicationAttemptReportRequestProto attempt_request;
            *attempt_request.mutable_application_attempt_id() =
                report.currentapplicationattemptid();
            y::GetApplicationAttemptReportResponseProto attempt;
            if (!client_
                     ->Call(ClientSpec(), "getApplicationAttemptReport", attempt_request, &attempt)
                     .ok()) {
              return false;
            }
            const auto& am = attempt.application_attempt_report();
            detail += "\n  " + id.ToString() + " " + Name(report.yarn_application_state()) + ":";
            for (const auto& c : response.containers()) {
              const rm::ContainerId cid = rm::FromProto(c.container_id());
              detail +=
                  " " + cid.ToString() + "=" + y::ContainerStateProto_Name(c.container_state());
              if (am.has_am_container_id() && rm::FromProto(am.am_container_id()) == cid &&
                  cid.epoch() < rm_starts_.load() - 1 &&
                  Lines(work_ + "/am/" + id.ToString()).empty()) {
                never_launched_.insert(id);
                detail += "(never launched)";
                continue;
              }
              if (over && c.container_state() == y::C_COMPLETE) continue;
              ++listed;
            }
          }
          y::GetClusterNodesRequestProto request;
          y::GetClusterNodesResponseProto response;
          if (!client_->Call(ClientSpec(), "getClusterNodes", request, &response).ok() ||
              response.nodereports_size() != 1) {
            node_text =
                "getClusterNodes: " + std::to_string(response.nodereports_size()) + " nodes";
            return false;
          }
          const auto& node = response.nodereports(0);
          std::string unlisted;
          for (const auto& c : LiveContainerProcesses()) {
            if (detail.find(c.ToString() + "=") == std::string::npos) {
              auto it = apps_.find(c.attempt.app);
              unlisted += " " + c.ToString() +
                          (it == apps_.end() ? " (app not acknowledged)"
                                             : std::string(" (app ") + FateName(it->second.fate) +
                                                   (it->second.Over() ? ", over)" : ")"));
            }
          }
          if (!unlisted.empty()) detail += "\n  running on the node, not listed:" + unlisted;
          node_text = "the node has " + std::to_string(node.numcontainers()) + " containers, " +
                      std::to_string(node.used().memory()) + " MB used; the applications list " +
                      std::to_string(listed) + " containers:" + detail;
          return node.numcontainers() == listed && node.used().memory() >= listed * kContainerMb;
        },
        // Node heartbeats catch up after the last restart; a loaded CI box
        // (a browser test beside it) needed more than 5 s.
        20s);
    EXPECT_TRUE(node_agrees) << node_text << when;
  }

  int kills_ = 20;
  uint64_t seed_ = 0;
  std::mt19937_64 rng_;
  std::string work_;
  uint16_t client_port_ = 0;
  uint16_t scheduler_port_ = 0;
  uint16_t tracker_port_ = 0;
  uint16_t admin_port_ = 0;
  ChildProcess rm_;
  ChildProcess nm_;
  std::atomic<int> rm_starts_{0};
  std::vector<int64_t> restart_ms_;
  std::unique_ptr<ipc::RpcClient> client_;     // the checks
  std::unique_ptr<ipc::RpcClient> am_client_;  // the workload

  std::thread workload_;
  std::atomic<bool> stop_workload_{false};
  std::mutex model_mu_;  // the workload runs its steps under it
  bool submitting_ = true;
  SteadyClock::time_point next_submit_;
  int64_t cluster_timestamp_ = 0;
  int32_t last_app_seq_ = 0;
  int new_ids_ = 0;
  int submitted_ = 0;
  int adopted_ = 0;
  int rejected_starts_ = 0;
  int lost_finish_answers_ = 0;
  std::map<rm::ApplicationId, TestApp> apps_;
  // Submissions whose answer was lost -> whether it was a shell app.
  std::map<rm::ApplicationId, bool> uncertain_;
  std::set<rm::ContainerId> handed_out_;
  // Apps whose AM container an RM run allocated and died before launching.
  std::set<rm::ApplicationId> never_launched_;
};

TEST_F(RmCrashTest, AcknowledgedWorkSurvivesRandomSigkills) {
  const auto test_start = SteadyClock::now();
  WriteSite(work_ + "/rm-conf/yarn-site.xml", RmSite(/*fixed_ports=*/false));
  WriteSite(work_ + "/rm-conf/capacity-scheduler.xml",
            {{"yarn.scheduler.capacity.root.queues", "default"},
             {"yarn.scheduler.capacity.root.default.capacity", "100"}});
  ASSERT_NO_FATAL_FAILURE(StartRm());
  WriteSite(work_ + "/am-conf/yarn-site.xml",
            {{"yarn.resourcemanager.connect.retry-interval.ms", "100"},
             {"yarn.resourcemanager.connect.max-wait.ms", "60000"}});
  ASSERT_NO_FATAL_FAILURE(StartNm());
  ASSERT_TRUE(WaitFor([&] { return RunningNodes() == 1; })) << "the node registered";
  workload_ = std::thread([this] { WorkloadLoop(); });

  int full_checks = 0;
  bool quick = false;
  for (int k = 1; k <= kills_ && !HasFatalFailure(); ++k) {
    // A random moment: mostly while the cell is busy; after a quick
    // restart, while the new RM is still recovering.
    std::this_thread::sleep_for(
        std::chrono::milliseconds(quick ? Uniform(0, 400) : Uniform(200, 2500)));
    KillRm();
    ASSERT_NO_FATAL_FAILURE(StartRm());
    quick = !quick && k < kills_ && Uniform(0, 99) < 30;
    if (quick) continue;  // killed again soon, mid-recovery; checked after that
    std::lock_guard<std::mutex> lock(model_mu_);
    CheckApplications(k);
    CheckContainers(k);
    ++full_checks;
  }

  // The end: every app finishes as planned.
  {
    std::lock_guard<std::mutex> lock(model_mu_);
    submitting_ = false;
    for (auto& [id, app] : apps_) {
      if (app.fate == Fate::kLong) {
        app.fate = Fate::kFinish;
        app.lifetime = 0ms;
      }
    }
  }
  const bool ended = WaitFor(
      [&] {
        std::lock_guard<std::mutex> lock(model_mu_);
        for (const auto& [id, app] : apps_) {
          if (!app.Over()) return false;
        }
        return true;
      },
      40s);
  stop_workload_ = true;
  workload_.join();
  std::map<y::YarnApplicationStateProto, int> final_states;
  int resyncs = 0;
  int stuck = 0;
  for (auto& [id, app] : apps_) {
    resyncs += app.resyncs;
    if (app.abandoned) continue;  // its failure is recorded
    if (!app.Over()) {
      ++stuck;
      y::ApplicationReportProto report;
      Status s = Report(*client_, id, &report);
      ADD_FAILURE() << id.ToString() << " (" << FateName(app.fate) << ") did not end: "
                    << (s.ok() ? Name(report.yarn_application_state()) + " " + report.diagnostics()
                               : s.ToString())
                    << (app.fate == Fate::kShell ? "; its AM's output:\n" + ShellAmOutput(id)
                        : app.amrm.has_value()   ? ""
                                                 : "; its AM never started");
      continue;
    }
    const y::YarnApplicationStateProto want = app.killed              ? y::KILLED
                                              : app.failed_unlaunched ? y::FAILED
                                                                      : y::FINISHED;
    y::ApplicationReportProto report;
    const rm::ApplicationId app_id = id;  // lambdas cannot capture bindings (clang)
    ASSERT_TRUE(WaitFor([&] {
      return Report(*client_, app_id, &report).ok() && report.yarn_application_state() == want;
    })) << id.ToString()
        << " (" << FateName(app.fate) << ") should end " << Name(want) << ", is "
        << Name(report.yarn_application_state()) << ": " << report.diagnostics();
    ++final_states[want];
    EXPECT_LE(Lines(work_ + "/am/" + id.ToString()).size(), 1u) << id.ToString();
  }
  EXPECT_TRUE(ended);
  // Nothing leaked: with every app over, the node holds nothing.
  std::string node_text;
  EXPECT_TRUE(WaitFor([&] {
    y::GetClusterNodesRequestProto request;
    y::GetClusterNodesResponseProto response;
    if (!client_->Call(ClientSpec(), "getClusterNodes", request, &response).ok() ||
        response.nodereports_size() != 1) {
      return false;
    }
    const auto& node = response.nodereports(0);
    node_text = std::to_string(node.numcontainers()) + " containers, " +
                std::to_string(node.used().memory()) + " MB, " +
                std::to_string(node.used().virtual_cores()) + " vcores";
    return node.numcontainers() == 0 && node.used().memory() == 0 &&
           node.used().virtual_cores() == 0;
  })) << "with every application over the node still has "
      << node_text;

  // Errors the RMs logged, for the record.
  int errors = 0;
  for (int run = 1; run <= rm_starts_; ++run) {
    for (const auto& line : Lines(RmLog(run))) {
      if (line.rfind("F", 0) == 0 && line.find("]") != std::string::npos) {
        ADD_FAILURE() << "RM run " << run << " hit a fatal error: " << line;
      }
      if (line.find("runtime error:") != std::string::npos ||
          line.find("ERROR: AddressSanitizer") != std::string::npos) {
        ADD_FAILURE() << "RM run " << run << ": " << line;
      }
      if (line.rfind("E", 0) == 0 && line.find("]") != std::string::npos && ++errors <= 10) {
        std::printf("[ crash    ] RM run %d logged: %s\n", run, line.c_str());
      }
    }
  }
  for (const auto& line : Lines(work_ + "/nm.log")) {
    if (line.find("runtime error:") != std::string::npos ||
        line.find("ERROR: AddressSanitizer") != std::string::npos ||
        (line.rfind("F", 0) == 0 && line.find("]") != std::string::npos)) {
      ADD_FAILURE() << "the node agent: " << line;
    }
  }
  int64_t max_restart = 0;
  int64_t sum_restart = 0;
  for (size_t i = 1; i < restart_ms_.size(); ++i) {
    max_restart = std::max(max_restart, restart_ms_[i]);
    sum_restart += restart_ms_[i];
  }
  std::printf(
      "[ crash    ] %d kills, %d RM runs, %d full checks, %.1f s; %d ids handed out, %d apps "
      "acknowledged (%d adopted after a lost answer), %d FINISHED, %d KILLED, %d did not end; "
      "%d AM resyncs; %d unregistrations whose answer was lost; %zu container ids; %d container "
      "starts refused; %zu AMs allocated but never launched before a kill; restart to listening "
      "avg %lld ms max %lld ms; %d RM error "
      "lines\n",
      kills_, rm_starts_.load(), full_checks,
      std::chrono::duration<double>(SteadyClock::now() - test_start).count(), new_ids_, submitted_,
      adopted_, final_states[y::FINISHED], final_states[y::KILLED], stuck, resyncs,
      lost_finish_answers_, handed_out_.size(), rejected_starts_, never_launched_.size(),
      static_cast<long long>(restart_ms_.size() > 1 ? sum_restart / (restart_ms_.size() - 1) : 0),
      static_cast<long long>(max_restart), errors);
}

}  // namespace
}  // namespace spindle

// ApplicationManager recovery on the state store: an RM that stops at any
// point of an application's life and a new RM on the same store.
#include <gtest/gtest.h>

#include <map>

#include "persist/memory_state_store.h"
#include "rm/apps/app_manager.h"
#include "rm/recovery/app_records.h"
#include "rm/recovery/rm_state.h"
#include "rm/recovery/store_app_store.h"
#include "rm/yarn_exceptions.h"
#include "tests/rm/apps/app_manager_fakes.h"

namespace spindle::rm {
namespace {

using namespace std::chrono_literals;

constexpr int64_t kClusterTs = 1700000000000;

// An AppStore that refuses every write (a full or failed disk).
class FailingAppStore : public AppStore {
 public:
  Status SaveApp(const RmApp&) override { return Status::IoError("disk full"); }
  Status SaveAttempt(const RmApp&, const RmAttempt&) override {
    return Status::IoError("disk full");
  }
  Status RemoveApp(const ApplicationId&) override { return Status::IoError("disk full"); }
  Status ReserveAppIds(int32_t) override { return Status::OK(); }
  Status SaveAsks(const ApplicationAttemptId&, const std::string&) override {
    return Status::IoError("disk full");
  }
  Status SaveAttemptRows(const ApplicationAttemptId&, const AttemptRowChanges&) override {
    return Status::IoError("disk full");
  }
};

class AppRecoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(store_.Open().ok());
    StartRm();
  }

  // A new RM on the store, as after a crash of the previous one: only what
  // the store holds survives.
  void StartRm(std::vector<std::string> queues = {"root.default"}) {
    manager_.reset();
    containers_.reset();
    pool_.reset();
    launcher_ = FakeLauncher{};
    pool::PoolOptions options;
    options.mode = pool::SyncMode::kMonolithic;
    options.num_schedulers = 1;
    options.num_partitions = 1;
    pool_ = std::move(pool::SchedulerPool::Create(options, &clock_)).value();
    std::vector<pool::QueueSpec> specs;
    for (const auto& name : queues) {
      pool::QueueSpec queue;
      queue.name = name;
      specs.push_back(queue);
    }
    ASSERT_TRUE(pool_->SetQueues(specs).ok());
    auto node = pool_->AddNode({pool::Resource::Of(8192, 8), "/default-rack", 1.0});
    ASSERT_TRUE(node.ok());
    node_ = *node;
    nodes_.nodes.clear();
    nodes_.nodes[node->value()] = NodeInfo{NodeId{"host1", 45454}, "host1:8042", "/default-rack"};

    auto loaded = store_.Load();
    ASSERT_TRUE(loaded.ok());
    auto state = DecodeRmState(*loaded);
    ASSERT_TRUE(state.ok()) << state.status().ToString();
    epoch_ = state->cluster_timestamp.has_value() ? state->epoch + 1 : 0;
    persist::StoreBatch batch;
    batch.SetClusterValue(persist::ClusterField::kClusterTimestamp, kClusterTs);
    batch.SetClusterValue(persist::ClusterField::kEpoch, epoch_);
    ASSERT_TRUE(store_.Apply(batch).ok());

    ApplicationManagerOptions am_options;
    am_options.cluster_timestamp_ms = kClusterTs;
    am_options.epoch = epoch_;
    am_options.am_expiry = 10s;
    am_options.min_allocation = pool::Resource::Of(128, 1);
    am_options.max_completed_apps = max_completed_;
    am_options.app_id_block = 10;
    containers_ = std::make_unique<ContainerRegistry>(pool_.get());
    app_store_ = std::make_unique<StateStoreAppStore>(&store_);
    manager_ = std::make_unique<ApplicationManager>(am_options, pool_.get(), containers_.get(),
                                                    &launcher_, &nodes_, &clock_, app_store_.get());
    manager_->Recover(std::move(state->apps), state->last_app_id);
  }

  Submission NewSubmission(const std::string& queue = "default") {
    return DemoSubmission(manager_.get(), queue);
  }

  void Step() {
    pool_->RunAllOnce(clock_.Now());
    manager_->Tick();
  }

  // Submitted, AM container placed (the attempt is stored), AM launched.
  ApplicationAttemptId LaunchedApp() {
    Submission s = NewSubmission();
    const ApplicationId id = s.id;
    EXPECT_TRUE(manager_->Submit(s).ok());
    Step();
    launcher_.CompleteAll(Status::OK());
    return ApplicationAttemptId{id, 1};
  }

  ApplicationAttemptId RunningApp() {
    const ApplicationAttemptId attempt = LaunchedApp();
    EXPECT_TRUE(manager_->RegisterAm(attempt, "am-host", 1234, "http://am:1").ok());
    return attempt;
  }

  // What the AM container's node reports when it registers again.
  ReportedRunningContainer Reported(const ContainerId& id, pool::Resource resource) {
    ReportedRunningContainer c;
    c.id = id;
    c.node = NodeId{"host1", 45454};
    c.pool_node = node_;
    c.resource = resource;
    c.created_ms = kClusterTs;
    return c;
  }

  RmApp App(const ApplicationId& id) { return manager_->GetApp(id).value(); }
  YarnAppState StateOf(const ApplicationId& id) { return App(id).yarn_state(); }

  ManualClock clock_{TimePoint{}, kClusterTs};
  persist::MemoryStateStore store_;
  std::unique_ptr<StateStoreAppStore> app_store_;
  std::unique_ptr<pool::SchedulerPool> pool_;
  pool::NodeId node_;
  FakeLauncher launcher_;
  FakeNodes nodes_;
  std::unique_ptr<ContainerRegistry> containers_;
  std::unique_ptr<ApplicationManager> manager_;
  int64_t epoch_ = 0;
  int32_t max_completed_ = 100;
};

TEST_F(AppRecoveryTest, SubmissionIsInTheStoreWhenSubmitReturns) {
  Submission s = NewSubmission();
  ASSERT_TRUE(manager_->Submit(s).ok());
  auto loaded = store_.Load();
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->applications.count(s.id.ToString()), 1u);
}

TEST_F(AppRecoveryTest, ASubmissionTheStoreRefusesIsNotAccepted) {
  FailingAppStore failing;
  ApplicationManagerOptions options;
  options.cluster_timestamp_ms = kClusterTs;
  options.min_allocation = pool::Resource::Of(128, 1);
  ApplicationManager manager(options, pool_.get(), containers_.get(), &launcher_, &nodes_, &clock_,
                             &failing);
  Submission s = NewSubmission();
  s.id = manager.NewApplicationId().value();
  Status submitted = manager.Submit(s);
  ASSERT_FALSE(submitted.ok());
  EXPECT_EQ(submitted.java_class(), "java.io.IOException");
  EXPECT_FALSE(manager.GetApp(s.id).ok());
}

TEST_F(AppRecoveryTest, ApplicationIdsNeverRepeatAcrossRestarts) {
  std::vector<ApplicationId> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(manager_->NewApplicationId().value());
  ASSERT_TRUE(manager_->Submit(NewSubmission()).ok());
  StartRm();
  const ApplicationId next = manager_->NewApplicationId().value();
  EXPECT_EQ(next.cluster_timestamp, kClusterTs);
  for (const auto& id : ids) EXPECT_GT(next.id, id.id);
  // Handed out but never submitted before the restart: still not reused
  // (the block of 10 reserved by the first run is skipped).
  EXPECT_EQ(next.id, 11);
}

TEST_F(AppRecoveryTest, AnAppWaitingForItsAmContainerAsksAgain) {
  Submission s = NewSubmission();
  ASSERT_TRUE(manager_->Submit(s).ok());  // stored; the AM ask is with the pool
  StartRm();
  EXPECT_EQ(StateOf(s.id), YarnAppState::kAccepted);
  Step();
  ASSERT_EQ(launcher_.launches.size(), 1u);
  EXPECT_EQ(launcher_.launches[0].attempt, (ApplicationAttemptId{s.id, 1}));
  // The container id carries the new epoch.
  EXPECT_EQ(launcher_.launches[0].container.epoch(), 1);
}

TEST_F(AppRecoveryTest, ARunningAppWaitsForItsAmToRegisterAgain) {
  const ApplicationAttemptId attempt = RunningApp();
  const ContainerId am = App(attempt.app).current_attempt()->am_container->id;
  StartRm();
  EXPECT_EQ(StateOf(attempt.app), YarnAppState::kAccepted);
  const RmApp app = App(attempt.app);
  const RmAttempt* recovered = app.current_attempt();
  ASSERT_NE(recovered, nullptr);
  EXPECT_EQ(recovered->id, attempt);
  EXPECT_EQ(recovered->state, AttemptState::kLaunched);
  EXPECT_EQ(launcher_.launches.size(), 0u);  // the AM is not launched again
  // Its allocate is told to re-register, as Hadoop's RM answers after a restart.
  Status heartbeat = manager_->AmHeartbeat(attempt, 0.5).status();
  EXPECT_EQ(heartbeat.java_class(), yarn::kApplicationMasterNotRegistered);
  // Its container comes back with its node.
  EXPECT_TRUE(manager_->RecoverContainer(Reported(am, pool::Resource::Of(256, 1))));
  EXPECT_EQ(pool_->Metrics().allocated, pool::Resource::Of(256, 1));
  EXPECT_EQ(App(attempt.app).current_attempt()->am_container->created_ms, kClusterTs);
  EXPECT_TRUE(containers_->Get(am).has_value());
  ASSERT_TRUE(manager_->RegisterAm(attempt, "am-host", 1234, "http://am:1").ok());
  EXPECT_EQ(StateOf(attempt.app), YarnAppState::kRunning);
  // New containers carry the new epoch, so no id repeats.
  auto next = manager_->NextContainerId(attempt);
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->epoch(), 1);
  EXPECT_EQ(next->sequence(), 1);
  // Its AM container's exit still ends the attempt.
  EXPECT_TRUE(manager_->OnContainerFinished(am, 0, ""));
  EXPECT_EQ(App(attempt.app).attempts.size(), 2u);
}

TEST_F(AppRecoveryTest, AnAmContainerItsNodeDoesNotReportFailsTheAttemptAtOnce) {
  const ApplicationAttemptId attempt = RunningApp();
  StartRm();
  // Another node coming back says nothing about it.
  manager_->OnNodeReregistered(NodeId{"host2", 45454});
  EXPECT_EQ(App(attempt.app).attempts.size(), 1u);
  // Its own node comes back without it: the attempt fails, the next starts.
  manager_->OnNodeReregistered(NodeId{"host1", 45454});
  const RmApp app = App(attempt.app);
  ASSERT_EQ(app.attempts.size(), 2u);
  EXPECT_EQ(app.attempts[0].state, AttemptState::kFailed);
  EXPECT_NE(app.attempts[0].diagnostics.find("not found on node"), std::string::npos);
}

TEST_F(AppRecoveryTest, AnAmContainerItsNodeReportsIsKept) {
  const ApplicationAttemptId attempt = RunningApp();
  const ContainerId am = App(attempt.app).current_attempt()->am_container->id;
  StartRm();
  ASSERT_TRUE(manager_->RecoverContainer(Reported(am, pool::Resource::Of(256, 1))));
  manager_->OnNodeReregistered(NodeId{"host1", 45454});
  EXPECT_EQ(App(attempt.app).attempts.size(), 1u);
  EXPECT_EQ(App(attempt.app).current_attempt()->state, AttemptState::kLaunched);
}

TEST_F(AppRecoveryTest, ALaunchedAmThatNeverRegistersExpires) {
  const ApplicationAttemptId attempt = LaunchedApp();
  StartRm();
  clock_.Advance(11s);
  manager_->Tick();
  // The first attempt expired; the app (max 2 attempts) starts another.
  const RmApp app = App(attempt.app);
  ASSERT_EQ(app.attempts.size(), 2u);
  EXPECT_EQ(app.attempts[0].state, AttemptState::kFailed);
  EXPECT_EQ(app.yarn_state(), YarnAppState::kAccepted);
}

TEST_F(AppRecoveryTest, ContainersOfUnknownOrFinishedAppsAreNotTakenBack) {
  const ApplicationAttemptId attempt = RunningApp();
  ASSERT_TRUE(manager_->FinishAm(attempt, FinalStatus::kSucceeded, "", "").ok());
  StartRm();
  const ContainerId stray{attempt, 7};
  EXPECT_FALSE(manager_->RecoverContainer(Reported(stray, pool::Resource::Of(128, 1))));
  const ContainerId unknown{ApplicationAttemptId{ApplicationId{kClusterTs, 999}, 1}, 2};
  EXPECT_FALSE(manager_->RecoverContainer(Reported(unknown, pool::Resource::Of(128, 1))));
  EXPECT_EQ(pool_->Metrics().allocated, pool::Resource());
}

TEST_F(AppRecoveryTest, TaskContainersOfALiveAttemptAreTakenBack) {
  const ApplicationAttemptId attempt = RunningApp();
  const ContainerId task = manager_->NextContainerId(attempt).value();
  StartRm();
  ReportedRunningContainer c = Reported(task, pool::Resource::Of(512, 1));
  c.priority = 3;
  c.allocation_request_id = 7;
  ASSERT_TRUE(manager_->RecoverContainer(c));
  auto recovered = containers_->Get(task);
  ASSERT_TRUE(recovered.has_value());
  EXPECT_FALSE(recovered->is_am);
  EXPECT_EQ(recovered->placement.priority, 3);
  EXPECT_EQ(recovered->placement.allocation_request_id, 7);
  EXPECT_EQ(recovered->created_ms, kClusterTs) << "its start is the node's, not the restart's";
  EXPECT_EQ(containers_->LiveContainersOf(attempt).size(), 1u);
  // Reported twice (a second registration): recorded once.
  EXPECT_FALSE(manager_->RecoverContainer(c));
  EXPECT_EQ(pool_->Metrics().allocated, pool::Resource::Of(512, 1));
}

TEST_F(AppRecoveryTest, FinishedAppsComeBackFinished) {
  const ApplicationAttemptId attempt = RunningApp();
  ASSERT_TRUE(manager_->FinishAm(attempt, FinalStatus::kSucceeded, "all good", "http://h").ok());
  const ContainerId am = App(attempt.app).current_attempt()->am_container->id;
  manager_->OnContainerFinished(am, 0, "");
  ASSERT_EQ(StateOf(attempt.app), YarnAppState::kFinished);
  const int64_t finished_at = App(attempt.app).finish_time_ms;
  StartRm();
  const RmApp app = App(attempt.app);
  EXPECT_EQ(app.yarn_state(), YarnAppState::kFinished);
  EXPECT_EQ(app.final_status, FinalStatus::kSucceeded);
  EXPECT_EQ(app.diagnostics, "all good");
  EXPECT_GT(app.finish_time_ms, 0);
  EXPECT_LE(app.finish_time_ms, finished_at);
  ASSERT_EQ(app.attempts.size(), 1u);
  EXPECT_EQ(app.attempts[0].state, AttemptState::kFinished);
  EXPECT_EQ(app.attempts[0].tracking_url, "http://h");
  EXPECT_FALSE(app.in_pool);
}

TEST_F(AppRecoveryTest, UnregisteredAppWhoseAmHadNotExitedIsFinished) {
  const ApplicationAttemptId attempt = RunningApp();
  ASSERT_TRUE(manager_->FinishAm(attempt, FinalStatus::kFailed, "bad input", "").ok());
  ASSERT_EQ(App(attempt.app).state, AppState::kFinishing);
  StartRm();
  EXPECT_EQ(StateOf(attempt.app), YarnAppState::kFinished);
  EXPECT_EQ(App(attempt.app).final_status, FinalStatus::kFailed);
}

// The RM stopped after storing an unregistered app's end and before storing
// its attempt's: the attempt ends as its app (Hadoop 3.3
// RMAppAttemptImpl.AttemptRecoveredTransition, "attempt final state was not
// saved but app final state was saved"), so its AM container is not shown
// running for ever; the node, which still runs it, is told to clean it up.
TEST_F(AppRecoveryTest, AnAttemptWhoseEndWasNotStoredEndsAsItsFinishedApp) {
  const ApplicationAttemptId attempt = RunningApp();
  const RmApp before = App(attempt.app);
  const ContainerId am = before.current_attempt()->am_container->id;
  ASSERT_TRUE(manager_->FinishAm(attempt, FinalStatus::kSucceeded, "done", "").ok());
  // What the store holds had the RM died between the two writes: the app's
  // record says FINISHED, the attempt's is the one made when it launched.
  ASSERT_TRUE(app_store_->SaveAttempt(before, *before.current_attempt()).ok());
  StartRm();
  const RmApp app = App(attempt.app);
  EXPECT_EQ(app.state, AppState::kFinished);
  EXPECT_EQ(app.final_status, FinalStatus::kSucceeded);
  ASSERT_EQ(app.attempts.size(), 1u);
  EXPECT_EQ(app.attempts[0].state, AttemptState::kFinished);
  EXPECT_EQ(app.attempts[0].final_status, FinalStatus::kSucceeded);
  EXPECT_EQ(app.attempts[0].finish_time_ms, app.finish_time_ms);
  EXPECT_FALSE(app.in_pool);
  // The AM still runs on its node: not taken back, and cleaned up.
  EXPECT_FALSE(manager_->RecoverContainer(Reported(am, pool::Resource::Of(128, 1))));
  manager_->OnNodeReregistered(NodeId{"host1", 45454});
  EXPECT_EQ(App(attempt.app).state, AppState::kFinished);
  const NodeContainerActions actions =
      containers_->OnNodeReport(NodeId{"host1", 45454}, {{am, /*complete=*/false, 0, ""}});
  EXPECT_EQ(actions.to_cleanup, std::vector<ContainerId>{am});
  EXPECT_EQ(pool_->Metrics().allocated, pool::Resource());
}

// The same for an app killed or failed under a running attempt.
TEST_F(AppRecoveryTest, AnAttemptWhoseEndWasNotStoredEndsAsItsKilledApp) {
  const ApplicationAttemptId attempt = RunningApp();
  const RmApp before = App(attempt.app);
  ASSERT_TRUE(manager_->Kill(attempt.app, "").ok());
  ASSERT_TRUE(app_store_->SaveAttempt(before, *before.current_attempt()).ok());
  StartRm();
  const RmApp app = App(attempt.app);
  EXPECT_EQ(app.state, AppState::kKilled);
  ASSERT_EQ(app.attempts.size(), 1u);
  EXPECT_EQ(app.attempts[0].state, AttemptState::kKilled);
}

TEST_F(AppRecoveryTest, KilledAppsComeBackKilled) {
  const ApplicationAttemptId attempt = RunningApp();
  ASSERT_TRUE(manager_->Kill(attempt.app, "").ok());
  ASSERT_EQ(StateOf(attempt.app), YarnAppState::kKilled);
  StartRm();
  EXPECT_EQ(StateOf(attempt.app), YarnAppState::kKilled);
  EXPECT_EQ(App(attempt.app).final_status, FinalStatus::kKilled);
  EXPECT_EQ(App(attempt.app).attempts[0].state, AttemptState::kKilled);
}

TEST_F(AppRecoveryTest, RejectedAppsComeBackFailedWithTheirDiagnostics) {
  Submission s = NewSubmission("nosuchqueue");
  ASSERT_TRUE(manager_->Submit(s).ok());
  ASSERT_EQ(StateOf(s.id), YarnAppState::kFailed);
  const std::string diagnostics = App(s.id).diagnostics;
  StartRm();
  EXPECT_EQ(StateOf(s.id), YarnAppState::kFailed);
  EXPECT_EQ(App(s.id).diagnostics, diagnostics);
}

TEST_F(AppRecoveryTest, AFailedAttemptWithRetriesLeftGetsItsSuccessor) {
  const ApplicationAttemptId attempt = RunningApp();
  ASSERT_TRUE(manager_->FailAttempt(attempt, "induced").ok());
  // Attempt 2 is asking for its AM container (not stored yet) when the RM stops.
  ASSERT_EQ(App(attempt.app).attempts.size(), 2u);
  StartRm();
  const RmApp app = App(attempt.app);
  EXPECT_EQ(app.yarn_state(), YarnAppState::kAccepted);
  ASSERT_EQ(app.attempts.size(), 2u);
  EXPECT_EQ(app.attempts[0].state, AttemptState::kFailed);
  EXPECT_EQ(app.attempts[1].id.attempt, 2);
  EXPECT_EQ(app.attempts[1].state, AttemptState::kScheduled);
  Step();
  EXPECT_EQ(launcher_.launches.size(), 1u);
}

TEST_F(AppRecoveryTest, AnAttemptThatFailedJustBeforeTheStopIsRetriedOrFailsTheApp) {
  // Store an app whose last attempt is FAILED while the app record is not
  // final: the RM stopped between the two writes.
  const ApplicationAttemptId attempt = RunningApp();
  RmApp app = App(attempt.app);
  RmAttempt failed = *app.current_attempt();
  failed.state = AttemptState::kFailed;
  ASSERT_TRUE(app_store_->SaveAttempt(app, failed).ok());
  StartRm();
  EXPECT_EQ(App(attempt.app).attempts.size(), 2u);
  EXPECT_EQ(StateOf(attempt.app), YarnAppState::kAccepted);

  // With no attempts left the app fails.
  max_completed_ = 100;
  RmApp last = App(attempt.app);
  last.max_attempts = 1;
  ASSERT_TRUE(app_store_->SaveApp(last).ok());
  ASSERT_TRUE(
      store_.DeleteAttempt(attempt.app.ToString(), ApplicationAttemptId{attempt.app, 2}.ToString())
          .ok());
  StartRm();
  EXPECT_EQ(StateOf(attempt.app), YarnAppState::kFailed);
  StartRm();  // and that is stored
  EXPECT_EQ(StateOf(attempt.app), YarnAppState::kFailed);
}

TEST_F(AppRecoveryTest, MovesAndPriorityUpdatesSurvive) {
  StartRm({"root.default", "root.other"});
  const ApplicationAttemptId attempt = RunningApp();
  ASSERT_TRUE(manager_->Move(attempt.app, "root.other", QueueLimits{"root.other", -1, -1}).ok());
  ASSERT_TRUE(manager_->UpdatePriority(attempt.app, 7).ok());
  StartRm({"root.default", "root.other"});
  EXPECT_EQ(App(attempt.app).submission.queue, "root.other");
  EXPECT_EQ(App(attempt.app).submission.priority, 7);
}

TEST_F(AppRecoveryTest, AnAppWhoseQueueIsGoneFails) {
  StartRm({"root.default", "root.other"});
  Submission s = NewSubmission("root.other");
  ASSERT_TRUE(manager_->Submit(s).ok());
  StartRm({"root.default"});
  EXPECT_EQ(StateOf(s.id), YarnAppState::kFailed);
  EXPECT_NE(App(s.id).diagnostics.find("no longer exists"), std::string::npos);
}

TEST_F(AppRecoveryTest, UnmanagedAmsAreWaitedFor) {
  Submission s = NewSubmission();
  s.unmanaged_am = true;
  ASSERT_TRUE(manager_->Submit(s).ok());
  StartRm();
  const ApplicationAttemptId attempt{s.id, 1};
  EXPECT_EQ(App(s.id).current_attempt()->state, AttemptState::kLaunched);
  EXPECT_TRUE(manager_->RegisterAm(attempt, "client", 1, "").ok());
  EXPECT_EQ(StateOf(s.id), YarnAppState::kRunning);
}

TEST_F(AppRecoveryTest, OnlyTheNewestCompletedAppsAreKept) {
  max_completed_ = 2;
  StartRm();
  std::vector<ApplicationId> ids;
  for (int i = 0; i < 4; ++i) {
    const ApplicationAttemptId attempt = RunningApp();
    ASSERT_TRUE(manager_->Kill(attempt.app, "").ok());
    ids.push_back(attempt.app);
    clock_.Advance(1s);
  }
  auto loaded = store_.Load();
  EXPECT_EQ(loaded->applications.size(), 2u);  // retired ones are removed from the store
  StartRm();
  EXPECT_FALSE(manager_->GetApp(ids[0]).ok());
  EXPECT_FALSE(manager_->GetApp(ids[1]).ok());
  EXPECT_TRUE(manager_->GetApp(ids[2]).ok());
  EXPECT_TRUE(manager_->GetApp(ids[3]).ok());
  // A store from an RM with a larger limit is cut down at start.
  max_completed_ = 1;
  StartRm();
  EXPECT_FALSE(manager_->GetApp(ids[2]).ok());
  EXPECT_EQ(store_.Load()->applications.size(), 1u);
}

}  // namespace
}  // namespace spindle::rm

namespace spindle::rm {
namespace {

// A lifetime set at submission and moved by updateApplicationTimeouts is in
// the store (ApplicationStateDataProto.application_timeouts, as Hadoop keeps
// it): a restarted RM still kills the app when it ends.
TEST_F(AppRecoveryTest, ALifetimeSurvivesARestart) {
  Submission s = NewSubmission();
  s.lifetime_seconds = 60;
  const int64_t submitted = clock_.WallMillis();
  ASSERT_TRUE(manager_->Submit(s).ok());
  EXPECT_EQ(App(s.id).lifetime_expiry_ms, submitted + 60000);
  StartRm();
  EXPECT_EQ(App(s.id).lifetime_expiry_ms, submitted + 60000);

  auto updated = manager_->UpdateLifetime(s.id, submitted + 90000);
  ASSERT_TRUE(updated.ok());
  EXPECT_EQ(*updated, ApplicationManager::LifetimeUpdate::kUpdated);
  StartRm();
  EXPECT_EQ(App(s.id).lifetime_expiry_ms, submitted + 90000);
  clock_.Advance(std::chrono::milliseconds(90000));
  Step();
  EXPECT_EQ(StateOf(s.id), YarnAppState::kAccepted);  // not past it yet
  clock_.Advance(std::chrono::milliseconds(1));
  Step();
  EXPECT_EQ(StateOf(s.id), YarnAppState::kKilled);
  EXPECT_EQ(App(s.id).diagnostics, kLifetimeExceededDiagnostics);
  // The kill is stored too.
  StartRm();
  EXPECT_EQ(StateOf(s.id), YarnAppState::kKilled);
}

TEST_F(AppRecoveryTest, AttemptRowsChangeInPlaceAndComeBackByAttempt) {
  const ApplicationAttemptId attempt = RunningApp();
  AttemptRowChanges first;
  first.put = {{"ask/1", "one"}, {"ask/2", "two"}, {"grant/c1", "container"}};
  ASSERT_TRUE(app_store_->SaveAttemptRows(attempt, first).ok());
  AttemptRowChanges second;
  second.put = {{"ask/1", "one again"}};
  second.erase = {"ask/2", "never-written"};
  ASSERT_TRUE(app_store_->SaveAttemptRows(attempt, second).ok());
  AttemptRowChanges empty_key;
  empty_key.put = {{"", "x"}};
  EXPECT_FALSE(app_store_->SaveAttemptRows(attempt, empty_key).ok());

  auto loaded = store_.Load();
  ASSERT_TRUE(loaded.ok());
  auto state = DecodeRmState(*loaded);
  ASSERT_TRUE(state.ok()) << state.status().ToString();
  const std::map<std::string, std::string> expected{{"ask/1", "one again"},
                                                    {"grant/c1", "container"}};
  EXPECT_EQ(state->attempt_rows[attempt], expected);
  ASSERT_EQ(state->apps.size(), 1u);
  EXPECT_EQ(state->apps[0].attempts.size(), 1u);  // rows are not attempts

  // Rows go with their application.
  ASSERT_TRUE(app_store_->RemoveApp(attempt.app).ok());
  state = DecodeRmState(*store_.Load());
  ASSERT_TRUE(state.ok());
  EXPECT_TRUE(state->attempt_rows.empty());
}

TEST_F(AppRecoveryTest, ARowStoredUnderAnotherApplicationIsCorruption) {
  const ApplicationAttemptId attempt = RunningApp();
  ApplicationAttemptId stranger = attempt;
  stranger.app.id += 7;
  persist::StoreBatch batch;
  batch.PutAttempt(attempt.app.ToString(), AttemptRowRecordId(stranger, "ask/1"), "x");
  ASSERT_TRUE(store_.Apply(batch).ok());
  auto state = DecodeRmState(*store_.Load());
  ASSERT_FALSE(state.ok());
  EXPECT_NE(state.status().message().find("is not of application"), std::string::npos);
}

}  // namespace
}  // namespace spindle::rm

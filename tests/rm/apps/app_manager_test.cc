#include "rm/apps/app_manager.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "rm/yarn_exceptions.h"
#include "tests/rm/apps/app_manager_fakes.h"
#include "tests/rm/one_queue_pool.h"

namespace spindle::rm {
namespace {

using namespace std::chrono_literals;

ApplicationManagerOptions TestOptions() {
  ApplicationManagerOptions options = RigOptions(pool::Resource::Of(128, 1));
  options.am_expiry = 10s;
  return options;
}

class AppManagerTest : public ::testing::Test, protected AppManagerRig {
 protected:
  AppManagerTest() : AppManagerRig(TestOptions(), pool::Resource::Of(8192, 8)) {}

  Submission NewSubmission(const std::string& queue = "default") {
    return DemoSubmission(manager_.get(), queue);
  }

  // Submits and brings the app to RUNNING; returns its attempt.
  ApplicationAttemptId RunningApp() {
    Submission s = NewSubmission();
    const ApplicationId id = s.id;
    EXPECT_TRUE(manager_->Submit(s).ok());
    Step();
    launcher_.CompleteAll(Status::OK());
    const ApplicationAttemptId attempt{id, 1};
    EXPECT_TRUE(manager_->RegisterAm(attempt, "am-host", 1234, "http://am:1").ok());
    return attempt;
  }

  YarnAppState StateOf(const ApplicationId& id) { return manager_->GetApp(id)->yarn_state(); }
};

TEST_F(AppManagerTest, IdsUseTheClusterTimestamp) {
  EXPECT_EQ(manager_->NewApplicationId().value().ToString(), "application_1700000000000_0001");
  EXPECT_EQ(manager_->NewApplicationId().value().ToString(), "application_1700000000000_0002");
}

TEST_F(AppManagerTest, SubmitAllocateLaunchRegisterFinish) {
  Submission s = NewSubmission();
  const ApplicationId id = s.id;
  ASSERT_TRUE(manager_->Submit(s).ok());
  EXPECT_EQ(StateOf(id), YarnAppState::kAccepted);
  EXPECT_EQ(manager_->GetApp(id)->current_attempt()->state, AttemptState::kScheduled);

  Step();
  ASSERT_EQ(launcher_.launches.size(), 1u);
  const AmLaunch& launch = launcher_.launches[0];
  EXPECT_EQ(launch.container.ToString(), "container_1700000000000_0001_01_000001");
  EXPECT_EQ(launch.node.ToString(), "host1:45454");
  EXPECT_EQ(launch.user, "alice");
  EXPECT_EQ(launch.submission_context, "opaque-context");
  ASSERT_TRUE(containers_->Get(launch.container).has_value()) << "recorded for completion";
  EXPECT_TRUE(containers_->Get(launch.container)->is_am);
  EXPECT_EQ(manager_->GetApp(id)->current_attempt()->state, AttemptState::kAllocated);
  // The AM resource was normalised up to a multiple of the minimum (128).
  EXPECT_EQ(manager_->GetApp(id)->current_attempt()->am_container->placement.resource,
            pool::Resource::Of(256, 1));

  const ApplicationAttemptId attempt{id, 1};
  // Before the launch completes the AM cannot register.
  EXPECT_EQ(manager_->RegisterAm(attempt, "h", 1, "").java_class(),
            yarn::kInvalidApplicationMasterRequest);
  launcher_.CompleteAll(Status::OK());
  EXPECT_EQ(manager_->AmHeartbeat(attempt, 0.1f).status().java_class(),
            yarn::kApplicationMasterNotRegistered);
  ASSERT_TRUE(manager_->RegisterAm(attempt, "am-host", 1234, "http://am:1").ok());
  EXPECT_EQ(StateOf(id), YarnAppState::kRunning);
  EXPECT_EQ(manager_->RegisterAm(attempt, "am-host", 1234, "").java_class(),
            yarn::kInvalidApplicationMasterRequest);
  auto heard = manager_->AmHeartbeat(attempt, 0.5f);
  ASSERT_TRUE(heard.ok()) << heard.status().ToString();
  EXPECT_FLOAT_EQ(manager_->GetApp(id)->progress, 0.5f);
  // What the allocate reads of its app comes with the heartbeat.
  const Submission submitted = manager_->GetApp(id)->submission;
  EXPECT_EQ(heard->user, "alice");
  EXPECT_EQ(heard->queue, submitted.queue);
  EXPECT_EQ(heard->priority, submitted.priority);
  EXPECT_EQ(heard->app_label_expression, submitted.app_label_expression);

  auto finished = manager_->FinishAm(attempt, FinalStatus::kSucceeded, "all good", "");
  ASSERT_TRUE(finished.ok());
  EXPECT_TRUE(*finished);
  EXPECT_EQ(StateOf(id), YarnAppState::kFinished) << "FINISHING shows as FINISHED";
  EXPECT_EQ(manager_->GetApp(id)->state, AppState::kFinishing);
  // Repeated finish calls keep answering true.
  EXPECT_TRUE(*manager_->FinishAm(attempt, FinalStatus::kSucceeded, "all good", ""));

  EXPECT_TRUE(manager_->OnContainerFinished(launch.container, 0, ""));
  auto app = manager_->GetApp(id);
  EXPECT_EQ(app->state, AppState::kFinished);
  EXPECT_EQ(app->final_status, FinalStatus::kSucceeded);
  EXPECT_EQ(app->current_attempt()->state, AttemptState::kFinished);
  EXPECT_GT(app->finish_time_ms, 0);
  EXPECT_TRUE(launcher_.cleanups.empty()) << "the AM container already exited";
  EXPECT_EQ(pool_->Metrics().allocated, pool::Resource()) << "its resources are free again";
  EXPECT_FALSE(manager_->OnContainerFinished(launch.container, 0, "")) << "reported once";
}

TEST_F(AppManagerTest, NextContainerIdsReservesARunOfIds) {
  const ApplicationAttemptId attempt = RunningApp();
  auto one = manager_->NextContainerId(attempt);
  ASSERT_TRUE(one.ok());
  auto run = manager_->NextContainerIds(attempt, 3);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->attempt, attempt);
  EXPECT_EQ(run->sequence(), one->sequence() + 1);
  // The three ids of the run are taken: the next one follows them.
  auto after = manager_->NextContainerId(attempt);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->sequence(), run->sequence() + 3);
  EXPECT_EQ(manager_->NextContainerIds(attempt, 0).status().code(), Status::Code::kInvalidArgument);
  EXPECT_FALSE(manager_->NextContainerIds(ApplicationAttemptId{attempt.app, 9}, 2).ok());
}

TEST_F(AppManagerTest, UnknownQueueFailsTheAppWithADiagnostic) {
  Submission s = NewSubmission("nosuchqueue");
  const ApplicationId id = s.id;
  ASSERT_TRUE(manager_->Submit(s).ok()) << "rejected asynchronously, as Hadoop does";
  auto app = manager_->GetApp(id);
  EXPECT_EQ(app->yarn_state(), YarnAppState::kFailed);
  EXPECT_EQ(app->final_status, FinalStatus::kFailed);
  EXPECT_NE(app->diagnostics.find("to unknown queue: nosuchqueue"), std::string::npos);
}

TEST_F(AppManagerTest, SubmitValidation) {
  Submission s = NewSubmission();
  ASSERT_TRUE(manager_->Submit(s).ok());
  EXPECT_EQ(manager_->Submit(s).java_class(), yarn::kYarnException) << "duplicate";
  Submission big = NewSubmission();
  big.am_resource = pool::Resource::Of(100000, 1);
  Status st = manager_->Submit(big);
  EXPECT_EQ(st.java_class(), yarn::kInvalidResourceRequest);
  EXPECT_NE(st.message().find("maxMemory=8192"), std::string::npos);
  Submission many_cores = NewSubmission();
  many_cores.am_resource = pool::Resource::Of(128, 99);
  EXPECT_EQ(manager_->Submit(many_cores).java_class(), yarn::kInvalidResourceRequest);
  EXPECT_EQ(manager_->GetApp(big.id).status().java_class(), yarn::kApplicationNotFound);
}

TEST_F(AppManagerTest, MaxAttemptsAreCapped) {
  Submission s = NewSubmission();
  s.max_attempts = 10;
  ASSERT_TRUE(manager_->Submit(s).ok());
  EXPECT_EQ(manager_->GetApp(s.id)->max_attempts, 2);
  Submission d = NewSubmission();
  d.max_attempts = 0;
  ASSERT_TRUE(manager_->Submit(d).ok());
  EXPECT_EQ(manager_->GetApp(d.id)->max_attempts, 2);
}

TEST_F(AppManagerTest, AmContainerExitRetriesThenFails) {
  const ApplicationAttemptId first = RunningApp();
  const ApplicationId id = first.app;
  const ContainerId am1 = launcher_.launches.back().container;
  ASSERT_TRUE(manager_->OnContainerFinished(am1, 1, "boom"));
  auto app = manager_->GetApp(id);
  EXPECT_EQ(app->yarn_state(), YarnAppState::kAccepted);
  ASSERT_EQ(app->attempts.size(), 2u);
  EXPECT_EQ(app->attempts[0].state, AttemptState::kFailed);
  EXPECT_NE(app->attempts[0].diagnostics.find("exited with  exitCode: 1"), std::string::npos);
  // The second attempt gets a fresh AM container.
  Step();
  ASSERT_EQ(launcher_.launches.size(), 2u);
  EXPECT_EQ(launcher_.launches[1].container.ToString(), "container_1700000000000_0001_02_000001");
  launcher_.CompleteAll(Status::OK());
  // The old attempt may no longer act.
  EXPECT_EQ(manager_->RegisterAm(first, "h", 1, "").java_class(),
            yarn::kApplicationAttemptNotFound);
  ASSERT_TRUE(manager_->RegisterAm({id, 2}, "h", 1, "").ok());
  ASSERT_TRUE(manager_->OnContainerFinished(launcher_.launches[1].container, 137, ""));
  app = manager_->GetApp(id);
  EXPECT_EQ(app->yarn_state(), YarnAppState::kFailed);
  EXPECT_EQ(app->final_status, FinalStatus::kFailed);
  EXPECT_NE(app->diagnostics.find("failed 2 times"), std::string::npos);
}

TEST_F(AppManagerTest, LaunchFailureFailsTheAttempt) {
  Submission s = NewSubmission();
  s.max_attempts = 1;
  ASSERT_TRUE(manager_->Submit(s).ok());
  Step();
  launcher_.CompleteAll(Status::IoError("connection refused"));
  auto app = manager_->GetApp(s.id);
  EXPECT_EQ(app->yarn_state(), YarnAppState::kFailed);
  EXPECT_NE(app->attempts[0].diagnostics.find("connection refused"), std::string::npos);
  ASSERT_EQ(launcher_.cleanups.size(), 1u) << "the RM stops what it tried to start";
}

TEST_F(AppManagerTest, SilentAmExpires) {
  const ApplicationAttemptId attempt = RunningApp();
  clock_.Advance(5s);
  manager_->Tick();
  EXPECT_EQ(StateOf(attempt.app), YarnAppState::kRunning);
  ASSERT_TRUE(manager_->AmHeartbeat(attempt, 0).ok());
  clock_.Advance(9s);
  manager_->Tick();
  EXPECT_EQ(StateOf(attempt.app), YarnAppState::kRunning) << "the heartbeat reset the timer";
  clock_.Advance(2s);
  manager_->Tick();
  auto app = manager_->GetApp(attempt.app);
  EXPECT_EQ(app->attempts[0].state, AttemptState::kFailed);
  EXPECT_NE(app->attempts[0].diagnostics.find("timed out"), std::string::npos);
  EXPECT_EQ(app->attempts.size(), 2u) << "a second attempt starts";
  EXPECT_EQ(launcher_.cleanups.size(), 1u);
}

// Tick walks the apps for silent AMs only once the least recently heard
// live attempt may have expired: an AM started after a walk, and one
// heard of since, still expire on time, each at its own.
TEST_F(AppManagerTest, EverySilentAmExpiresOnTimeWhateverEarlierTicksSkipped) {
  const ApplicationAttemptId first = RunningApp();
  manager_->Tick();
  clock_.Advance(6s);
  const ApplicationAttemptId second = RunningApp();  // heard of at 6 s
  manager_->Tick();
  clock_.Advance(3s);
  ASSERT_TRUE(manager_->AmHeartbeat(first, 0).ok());  // heard of at 9 s
  manager_->Tick();
  clock_.Advance(6s);  // 15 s
  manager_->Tick();
  EXPECT_EQ(StateOf(first.app), YarnAppState::kRunning);
  EXPECT_EQ(StateOf(second.app), YarnAppState::kRunning);
  clock_.Advance(2s);  // 17 s: the second silent for 11 s, the first for 8 s
  manager_->Tick();
  EXPECT_EQ(manager_->GetApp(second.app)->attempts[0].state, AttemptState::kFailed);
  EXPECT_EQ(StateOf(first.app), YarnAppState::kRunning);
  clock_.Advance(2s);  // 19 s: the first silent for 10 s, not more
  manager_->Tick();
  EXPECT_EQ(StateOf(first.app), YarnAppState::kRunning);
  clock_.Advance(1s);
  manager_->Tick();
  EXPECT_EQ(manager_->GetApp(first.app)->attempts[0].state, AttemptState::kFailed);
}

// An attempt whose AM container is not placed yet keeps waiting for it
// over ticks, and so does its next attempt once it starts.
TEST_F(AppManagerTest, AnAmContainerPlacedAfterEarlierTicksIsPickedUp) {
  Submission s = NewSubmission();
  ASSERT_TRUE(manager_->Submit(s).ok());
  manager_->Tick();  // nothing placed yet
  manager_->Tick();
  EXPECT_EQ(manager_->GetApp(s.id)->current_attempt()->state, AttemptState::kScheduled);
  Step();
  EXPECT_EQ(manager_->GetApp(s.id)->current_attempt()->state, AttemptState::kAllocated);
  ASSERT_EQ(launcher_.launches.size(), 1u);
  launcher_.CompleteAll(Status::OK());
  ASSERT_TRUE(manager_->RegisterAm({s.id, 1}, "am-host", 1234, "").ok());
  clock_.Advance(11s);  // silent: the attempt fails, a second one starts
  manager_->Tick();
  ASSERT_EQ(manager_->GetApp(s.id)->attempts.size(), 2u);
  manager_->Tick();
  EXPECT_EQ(manager_->GetApp(s.id)->current_attempt()->state, AttemptState::kScheduled);
  Step();
  EXPECT_EQ(manager_->GetApp(s.id)->current_attempt()->state, AttemptState::kAllocated);
  EXPECT_EQ(launcher_.launches.size(), 2u);
}

TEST_F(AppManagerTest, KillAtEveryStage) {
  // Accepted, AM not yet placed.
  Submission s1 = NewSubmission();
  ASSERT_TRUE(manager_->Submit(s1).ok());
  auto done = manager_->Kill(s1.id, "");
  ASSERT_TRUE(done.ok());
  EXPECT_TRUE(*done);
  EXPECT_EQ(StateOf(s1.id), YarnAppState::kKilled);
  EXPECT_EQ(manager_->GetApp(s1.id)->final_status, FinalStatus::kKilled);
  // Running.
  const ApplicationAttemptId attempt = RunningApp();
  EXPECT_TRUE(*manager_->Kill(attempt.app, "stop it"));
  auto app = manager_->GetApp(attempt.app);
  EXPECT_EQ(app->yarn_state(), YarnAppState::kKilled);
  EXPECT_EQ(app->diagnostics, "stop it");
  EXPECT_EQ(app->attempts[0].state, AttemptState::kKilled);
  EXPECT_EQ(launcher_.cleanups.size(), 1u) << "the AM container is stopped";
  // Its AM may still unregister and exit cleanly.
  EXPECT_TRUE(*manager_->FinishAm(attempt, FinalStatus::kSucceeded, "", ""));
  EXPECT_EQ(manager_->GetApp(attempt.app)->final_status, FinalStatus::kKilled);
  // Killing a finished app is a no-op that reports completion.
  EXPECT_TRUE(*manager_->Kill(attempt.app, ""));
  EXPECT_EQ(manager_->Kill(ApplicationId{1, 999}, "").status().java_class(),
            yarn::kApplicationNotFound);
  // A killed app's attempt can no longer heartbeat.
  EXPECT_FALSE(manager_->AmHeartbeat(attempt, 0).ok());
}

TEST_F(AppManagerTest, UnmanagedAmNeedsNoContainer) {
  Submission s = NewSubmission();
  s.unmanaged_am = true;
  ASSERT_TRUE(manager_->Submit(s).ok());
  Step();
  EXPECT_TRUE(launcher_.launches.empty());
  const ApplicationAttemptId attempt{s.id, 1};
  ASSERT_TRUE(manager_->RegisterAm(attempt, "client-host", 0, "").ok());
  EXPECT_TRUE(*manager_->FinishAm(attempt, FinalStatus::kSucceeded, "", ""));
  auto app = manager_->GetApp(s.id);
  EXPECT_EQ(app->state, AppState::kFinished);
  EXPECT_EQ(app->final_status, FinalStatus::kSucceeded);
}

TEST_F(AppManagerTest, FinishBeforeRegisterIsRefused) {
  Submission s = NewSubmission();
  ASSERT_TRUE(manager_->Submit(s).ok());
  Step();
  launcher_.CompleteAll(Status::OK());
  EXPECT_EQ(manager_->FinishAm({s.id, 1}, FinalStatus::kSucceeded, "", "").status().java_class(),
            yarn::kApplicationMasterNotRegistered);
}

TEST_F(AppManagerTest, CompletedAppsAreRetiredBeyondTheLimit) {
  ApplicationManagerOptions options;
  options.cluster_timestamp_ms = 5;
  options.max_completed_apps = 2;
  ApplicationManager manager(options, pool_.get(), containers_.get(), &launcher_, &nodes_, &clock_);
  std::vector<ApplicationId> ids;
  for (int i = 0; i < 4; ++i) {
    Submission s = NewSubmission("nosuchqueue");  // fails at once
    s.id = manager.NewApplicationId().value();
    ids.push_back(s.id);
    ASSERT_TRUE(manager.Submit(s).ok());
  }
  EXPECT_FALSE(manager.GetApp(ids[0]).ok());
  EXPECT_FALSE(manager.GetApp(ids[1]).ok());
  EXPECT_TRUE(manager.GetApp(ids[2]).ok());
  EXPECT_EQ(manager.ListApps().size(), 2u);
}

}  // namespace
}  // namespace spindle::rm

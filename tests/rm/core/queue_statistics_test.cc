// Where the queue statistics count an application (ClassifyApp / CountApp,
// what getQueueInfo's QueueStatistics, REST /ws/v1/cluster/metrics and the
// JMX QueueMetrics beans report): at the moments Hadoop's QueueMetrics move,
// driven through the real ApplicationManager and a one-queue pool.
#include "rm/core/queue_statistics.h"

#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>

#include "rm/apps/app_manager.h"
#include "tests/rm/apps/app_manager_fakes.h"

namespace spindle::rm {
namespace {

constexpr int64_t kGb = 1024;

struct Counts {
  int64_t submitted = 0;
  int64_t pending = 0;
  int64_t running = 0;
  int64_t completed = 0;
  int64_t failed = 0;
  int64_t killed = 0;
  bool operator==(const Counts&) const = default;
};

void PrintTo(const Counts& c, std::ostream* os) {
  *os << "submitted " << c.submitted << ", pending " << c.pending << ", running " << c.running
      << ", completed " << c.completed << ", failed " << c.failed << ", killed " << c.killed;
}

// submitted, pending, running, completed (failed and killed 0).
Counts Want(int64_t submitted, int64_t pending, int64_t running, int64_t completed) {
  return Counts{submitted, pending, running, completed, 0, 0};
}

class QueueStatisticsTest : public ::testing::TestWithParam<HadoopLine>, protected AppManagerRig {
 protected:
  // maximum-am-resource-percent of the one queue over a 10 GB cluster.
  void SetAmPercent(const std::string& percent) {
    AppManagerRig::SetAmPercent(GetParam(), percent, pool::Resource::Of(10 * kGb, 10));
  }

  ApplicationId Submit(bool unmanaged = false, int32_t max_attempts = 0,
                       const std::string& user = "alice") {
    Submission s = DemoSubmission(manager_.get(), "default");
    s.user = user;
    s.am_resource = pool::Resource::Of(kGb, 1);
    s.unmanaged_am = unmanaged;
    s.max_attempts = max_attempts;
    EXPECT_TRUE(manager_->Submit(s).ok());
    return s.id;
  }

  // QueueMetrics ActiveApplications and ActiveUsers of the one queue.
  std::pair<int64_t, int64_t> Active() const {
    const auto report = manager_->ActivityReport();
    auto it = report.find("default");
    if (it == report.end()) return {0, 0};
    return {it->second.active_apps, static_cast<int64_t>(it->second.users.size())};
  }
  // What AttemptAllocator says after an allocate call.
  void Asks(const ApplicationId& id, bool newly_asking, bool emptied, bool outstanding) {
    ApplicationManager::AskActivity activity;
    activity.newly_asking = newly_asking;
    activity.emptied = emptied;
    activity.outstanding = outstanding;
    manager_->OnAsksUpdated(manager_->GetApp(id)->current_attempt()->id, activity);
  }

  Counts Count() {
    QueueStats stats;
    for (const RmApp& app : manager_->ListApps()) CountApp(app, &stats);
    return Counts{stats.submitted, stats.pending, stats.running,
                  stats.completed, stats.failed,  stats.killed};
  }
};

// TestQueueMetrics#testQueueAppMetricsForMultipleFailures and
// TestLeafQueue#testAppAttemptMetrics (rel/release-3.3.0; release-2.6.0's
// are the same): submitted 1 and pending 1 once the attempt is added;
// running 1, pending 0 at its first container (the AM container); a failed
// attempt is not an application failure and the retry is pending again
// until its own first container; the app's end counts it completed, once.
TEST_P(QueueStatisticsTest, AnAttemptIsPendingUntilItsFirstContainerAndRetriesCountOnce) {
  SetAmPercent("1.0");
  const ApplicationId id = Submit(/*unmanaged=*/false, /*max_attempts=*/2);
  EXPECT_EQ(Count(), Want(1, 1, 0, 0));
  Step();  // the AM container is allocated
  ASSERT_TRUE(manager_->GetApp(id)->current_attempt()->am_container.has_value());
  EXPECT_EQ(manager_->GetApp(id)->yarn_state(), YarnAppState::kAccepted);
  EXPECT_EQ(Count(), Want(1, 0, 1, 0));

  launcher_.CompleteAll(Status::OK());
  ASSERT_TRUE(manager_->RegisterAm({id, 1}, "h", 1, "").ok());
  ASSERT_TRUE(manager_->OnContainerFinished(launcher_.launches.back().container, 1, "boom"));
  ASSERT_EQ(manager_->GetApp(id)->attempts.size(), 2u);
  EXPECT_EQ(Count(), Want(1, 1, 0, 0));  // attempt 2 added, no container yet
  Step();
  EXPECT_EQ(Count(), Want(1, 0, 1, 0));

  launcher_.CompleteAll(Status::OK());
  ASSERT_TRUE(manager_->RegisterAm({id, 2}, "h", 1, "").ok());
  ASSERT_TRUE(manager_->FinishAm({id, 2}, FinalStatus::kSucceeded, "", "").ok());
  // FINISHING (FINISHED to clients): the attempt is in the scheduler until
  // its AM container exits.
  EXPECT_EQ(manager_->GetApp(id)->yarn_state(), YarnAppState::kFinished);
  EXPECT_EQ(Count(), Want(1, 0, 1, 0));
  ASSERT_TRUE(manager_->OnContainerFinished(launcher_.launches.back().container, 0, ""));
  EXPECT_EQ(Count(), Want(1, 0, 0, 1));
}

// The am-limit scenario of the fidelity figure at unit scale: unmanaged AMs
// under a 10% AM limit (one active app of 1 GB). Every attempt is pending
// until a container is allocated for it; an AM that registered (RUNNING)
// but has no container is still pending (Hadoop's QueueStatistics said 2
// running / 3 pending where Spindle said 5 / 0); the held ones stay pending.
TEST_P(QueueStatisticsTest, ARegisteredUnmanagedAmIsPendingUntilAContainerIsAllocated) {
  SetAmPercent("0.1");
  const ApplicationId first = Submit(/*unmanaged=*/true);
  const ApplicationId second = Submit(/*unmanaged=*/true);
  const ApplicationId third = Submit(/*unmanaged=*/true);
  EXPECT_EQ(Count(), Want(3, 3, 0, 0));
  for (const ApplicationId& id : {first, second, third}) {
    ASSERT_TRUE(manager_->RegisterAm({id, 1}, "h", 1, "").ok());
    EXPECT_EQ(manager_->GetApp(id)->yarn_state(), YarnAppState::kRunning);
  }
  EXPECT_EQ(Count(), Want(3, 3, 0, 0));
  const QueueAmReport am = manager_->AmReport("default");
  EXPECT_EQ(am.active_apps, 1);
  EXPECT_EQ(am.pending_apps, 2);

  // The allocate path takes container ids for what the pool placed.
  ASSERT_TRUE(manager_->NextContainerIds({first, 1}, 2).ok());
  EXPECT_EQ(Count(), Want(3, 2, 1, 0));
  EXPECT_EQ(ClassifyApp(*manager_->GetApp(second)), AppCount::kPending);

  ASSERT_TRUE(manager_->FinishAm({first, 1}, FinalStatus::kSucceeded, "", "").ok());
  EXPECT_EQ(Count(), Want(3, 2, 0, 1));
  EXPECT_TRUE(manager_->AmActive({second, 1}));
  EXPECT_EQ(ClassifyApp(*manager_->GetApp(second)), AppCount::kPending) << "active, no container";
}

// ActiveApplications / ActiveUsers (QueueMetrics): an app is active while
// its AM request or the AM's own asks want containers
// (AppSchedulingInfo -> ActiveUsersManager / UsersManager), so an app whose
// AM container is allocated and that asks for nothing is not, and an app
// held by the AM limit is by its AM request -- except on 3.3, whose
// UsersManager.activateApplication ignores a user none of whose apps the AM
// limits let go. Under a 10% AM limit (one 1 GB AM), alice's app goes and
// bob's waits.
TEST_P(QueueStatisticsTest, AppsAreActiveWhileTheyAskAndThreeThreeIgnoresHeldUsers) {
  SetAmPercent("0.1");
  const bool gated = GetParam() == HadoopLine::k3_3;
  const ApplicationId alice = Submit(/*unmanaged=*/false, 0, "alice");
  EXPECT_EQ(Active(), std::make_pair(int64_t{1}, int64_t{1})) << "its AM request";
  const ApplicationId bob = Submit(/*unmanaged=*/false, 0, "bob");
  EXPECT_FALSE(manager_->AmActive({bob, 1}));
  EXPECT_EQ(Active(), gated ? std::make_pair(int64_t{1}, int64_t{1})
                            : std::make_pair(int64_t{2}, int64_t{2}));
  Step();  // alice's AM container: her AM request is served
  ASSERT_TRUE(manager_->GetApp(alice)->current_attempt()->am_container.has_value());
  EXPECT_EQ(Active(), gated ? std::make_pair(int64_t{0}, int64_t{0})
                            : std::make_pair(int64_t{1}, int64_t{1}));
  launcher_.CompleteAll(Status::OK());
  ASSERT_TRUE(manager_->RegisterAm({alice, 1}, "h", 1, "").ok());
  Asks(alice, /*newly_asking=*/true, /*emptied=*/false, /*outstanding=*/true);
  EXPECT_EQ(Active().first, gated ? 1 : 2);
  // Her asks served (checkForDeactivation), then asked for again.
  Asks(alice, false, /*emptied=*/true, /*outstanding=*/false);
  EXPECT_EQ(Active().first, gated ? 0 : 1);
  Asks(alice, true, false, true);
  EXPECT_EQ(Active().first, gated ? 1 : 2);
  // A zero total on one key while another still asks: still active.
  Asks(alice, false, /*emptied=*/true, /*outstanding=*/true);
  EXPECT_EQ(Active().first, gated ? 1 : 2);

  // alice's app ends (LeafQueue.finishApplication); bob's attempt goes, and
  // its AM request, outstanding since it was added, counts on 2.x only: 3.3
  // is not asked again until a request goes from none to some.
  ASSERT_TRUE(manager_->FinishAm({alice, 1}, FinalStatus::kSucceeded, "", "").ok());
  ASSERT_TRUE(manager_->OnContainerFinished(launcher_.launches.back().container, 0, ""));
  EXPECT_TRUE(manager_->AmActive({bob, 1}));
  EXPECT_EQ(Active(), gated ? std::make_pair(int64_t{0}, int64_t{0})
                            : std::make_pair(int64_t{1}, int64_t{1}));
  Step();  // bob's AM container
  EXPECT_EQ(Active(), std::make_pair(int64_t{0}, int64_t{0}));
  launcher_.CompleteAll(Status::OK());
  ASSERT_TRUE(manager_->RegisterAm({bob, 1}, "h", 1, "").ok());
  Asks(bob, true, false, true);
  EXPECT_EQ(Active(), std::make_pair(int64_t{1}, int64_t{1}));
  // The app's end deactivates it whatever it still asks.
  ASSERT_TRUE(manager_->Kill(bob, "test").ok());
  EXPECT_EQ(Active(), std::make_pair(int64_t{0}, int64_t{0}));
}

// What the RM holds between the moments above, as values: an app the
// scheduler rejected never had an attempt (CapacityScheduler.addApplication
// counts submitApp only once LeafQueue.submitApplication accepted it, and
// doneApplication ignores an app it never added); an attempt that left the
// scheduler while the next is not added counts nowhere
// (TestLeafQueue#testAppAttemptMetrics: pending 0, failed 0 after the
// attempt's removal).
TEST(ClassifyAppTest, RejectedAppsAndAttemptsBetweenRetriesAreNotCounted) {
  RmApp rejected;
  rejected.state = AppState::kFailed;
  EXPECT_EQ(ClassifyApp(rejected), AppCount::kUncounted);
  QueueStats stats;
  CountApp(rejected, &stats);
  EXPECT_EQ(stats.submitted, 0);
  EXPECT_EQ(stats.failed, 0);

  RmApp between;
  between.state = AppState::kAccepted;
  between.attempts.emplace_back().state = AttemptState::kFailed;
  between.attempts.back().first_allocation_ms = 1;
  EXPECT_EQ(ClassifyApp(between), AppCount::kUncounted);
  CountApp(between, &stats);
  EXPECT_EQ(stats.submitted, 1);
  EXPECT_EQ(stats.pending + stats.running + stats.failed, 0);

  RmApp failed = between;
  failed.state = AppState::kFailed;
  EXPECT_EQ(ClassifyApp(failed), AppCount::kFailed);
}

INSTANTIATE_TEST_SUITE_P(Lines, QueueStatisticsTest,
                         ::testing::Values(HadoopLine::k2_6, HadoopLine::k2_7, HadoopLine::k3_3));

}  // namespace
}  // namespace spindle::rm

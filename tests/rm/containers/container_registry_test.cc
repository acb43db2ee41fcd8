#include "rm/containers/container_registry.h"

#include <gtest/gtest.h>

#include "rm/yarn_exceptions.h"
#include "tests/rm/one_queue_pool.h"

namespace spindle::rm {
namespace {

class ContainerRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test_support::OneQueuePool made = test_support::MakeOneQueuePool(&clock_);
    pool_ = std::move(made.pool);
    queue_ = made.queue;
    node_ = *pool_->AddNode({pool::Resource::Of(4096, 4), "/default-rack", 1.0});
    ASSERT_TRUE(pool_->AddApp({pool::AppId(1), queue_, 0}).ok());
    registry_ = std::make_unique<ContainerRegistry>(pool_.get());
  }

  // Places one 1 GB container and registers it under `seq`.
  RmContainer Allocate(int64_t seq, const NodeId& node = NodeId{"h1", 45454}) {
    pool::Ask ask;
    ask.capability = pool::Resource::Of(1024, 1);
    ask.count = 1;
    ask.allocation_request_id = seq;
    EXPECT_TRUE(pool_->SetAsks(pool::AppId(1), {ask}).ok());
    pool_->RunAllOnce(clock_.Now());
    std::vector<pool::Placement> placements;
    EXPECT_TRUE(pool_->TakePlacements(pool::AppId(1), &placements).ok());
    EXPECT_EQ(placements.size(), 1u);
    RmContainer c{ContainerId{attempt_, seq}, node, placements.at(0), seq == 1};
    EXPECT_TRUE(registry_->Add(c).ok());
    return c;
  }

  pool::Resource Allocated() { return pool_->cell().GetNode(node_)->allocated; }

  ManualClock clock_;
  std::unique_ptr<pool::SchedulerPool> pool_;
  pool::QueueId queue_;
  pool::NodeId node_;
  std::unique_ptr<ContainerRegistry> registry_;
  const ApplicationAttemptId attempt_{{100, 1}, 1};
  const NodeId h1_{"h1", 45454};
};

TEST_F(ContainerRegistryTest, NodeReportedCompletionFreesOnceAndIsAcknowledged) {
  RmContainer c = Allocate(2);
  EXPECT_EQ(Allocated(), pool::Resource::Of(1024, 1));
  EXPECT_EQ(registry_->Add(c).code(), Status::Code::kAlreadyExists);
  auto running = registry_->OnNodeReport(h1_, {{c.id, false, 0, ""}});
  EXPECT_TRUE(running.completed.empty());
  EXPECT_TRUE(running.to_cleanup.empty());
  auto done = registry_->OnNodeReport(h1_, {{c.id, true, 0, "ok"}});
  ASSERT_EQ(done.completed.size(), 1u);
  EXPECT_EQ(done.completed[0].id, c.id);
  EXPECT_EQ(Allocated(), pool::Resource());
  // Re-reported (the NM keeps it until told to forget it): not completed
  // twice, and not acknowledged before the AM has it.
  auto again = registry_->OnNodeReport(h1_, {{c.id, true, 0, "ok"}});
  EXPECT_TRUE(again.completed.empty());
  EXPECT_TRUE(again.to_remove_from_nm.empty());
  auto completions = registry_->TakeCompleted(attempt_);
  ASSERT_EQ(completions.size(), 1u);
  EXPECT_EQ(completions[0].diagnostics, "ok");
  EXPECT_TRUE(registry_->OnNodeReport(h1_, {{c.id, true, 0, "ok"}}).to_remove_from_nm.empty())
      << "sent to the AM, not yet known to have reached it";
  // The AM's next allocate: it has the completion, the node may forget it.
  EXPECT_TRUE(registry_->TakeCompleted(attempt_).empty()) << "delivered once";
  auto acked = registry_->OnNodeReport(h1_, {{c.id, true, 0, "ok"}});
  EXPECT_EQ(acked.to_remove_from_nm, std::vector<ContainerId>{c.id});
  EXPECT_TRUE(registry_->OnNodeReport(h1_, {}).to_remove_from_nm.empty()) << "acknowledged once";
}

TEST_F(ContainerRegistryTest, AmContainerCompletionIsAcknowledgedAtOnceWithWhatTheAmWasSent) {
  RmContainer am = Allocate(1);
  RmContainer task = Allocate(2);
  registry_->OnNodeReport(h1_, {{task.id, true, 0, ""}});
  ASSERT_EQ(registry_->TakeCompleted(attempt_).size(), 1u);
  auto first = registry_->OnNodeReport(h1_, {{am.id, true, 0, ""}, {task.id, true, 0, ""}});
  ASSERT_EQ(first.completed.size(), 1u);
  EXPECT_TRUE(first.completed[0].is_am);
  auto next = registry_->OnNodeReport(h1_, {{am.id, true, 0, ""}, {task.id, true, 0, ""}});
  EXPECT_EQ(next.to_remove_from_nm, (std::vector<ContainerId>{am.id, task.id}));
  EXPECT_TRUE(registry_->OnNodeReport(h1_, {{am.id, true, 0, ""}}).to_remove_from_nm.empty())
      << "acknowledged once";
}

TEST_F(ContainerRegistryTest, AttemptEndAcknowledgesWhatTheAmWasSent) {
  RmContainer sent = Allocate(2);
  RmContainer unsent = Allocate(3);
  registry_->OnNodeReport(h1_, {{sent.id, true, 0, ""}});
  ASSERT_EQ(registry_->TakeCompleted(attempt_).size(), 1u);
  registry_->OnNodeReport(h1_, {{unsent.id, true, 0, ""}});
  registry_->OnAttemptEnded(attempt_, /*keep_containers=*/false);
  auto actions = registry_->OnNodeReport(h1_, {{sent.id, true, 0, ""}, {unsent.id, true, 0, ""}});
  EXPECT_EQ(actions.to_remove_from_nm, std::vector<ContainerId>{sent.id})
      << "what the AM never got stays on the node until the application is cleaned up";
}

TEST_F(ContainerRegistryTest, ReleaseCompletesAtOnceAndKillsOnTheNode) {
  RmContainer c = Allocate(2);
  ASSERT_TRUE(registry_->Release(attempt_, c.id).ok());
  EXPECT_EQ(Allocated(), pool::Resource());
  auto actions = registry_->OnNodeReport(h1_, {{c.id, false, 0, ""}});
  EXPECT_EQ(actions.to_cleanup, std::vector<ContainerId>{c.id});
  auto completions = registry_->TakeCompleted(attempt_);
  ASSERT_EQ(completions.size(), 1u);
  EXPECT_EQ(completions[0].exit_status, kExitAborted);
  EXPECT_EQ(completions[0].diagnostics, "Container released by application");
  // Another app's attempt may not release it.
  EXPECT_EQ(registry_->Release({{100, 2}, 1}, c.id).java_class(), yarn::kInvalidContainerRelease);
}

TEST_F(ContainerRegistryTest, ReleasingAnUnknownContainerOfTheAppIsIgnored) {
  // After an RM restart an AM re-sends the releases it had no answer for,
  // of containers an earlier run allocated and never saw running: Hadoop's
  // scheduler logs them and goes on, and so does the registry.
  RmContainer c = Allocate(2);
  const pool::Resource before = Allocated();
  EXPECT_TRUE(registry_->Release(attempt_, ContainerId{attempt_, 99}).ok());
  EXPECT_TRUE(registry_
                  ->Release(ApplicationAttemptId{attempt_.app, attempt_.attempt + 1},
                            ContainerId{attempt_, 98})
                  .ok());
  EXPECT_EQ(Allocated(), before);
  EXPECT_TRUE(registry_->TakeCompleted(attempt_).empty());
  EXPECT_TRUE(registry_->Get(c.id).has_value());
}

TEST_F(ContainerRegistryTest, UnknownRunningContainersAreKilled) {
  const ContainerId stranger{{{7, 7}, 1}, 5};
  auto actions = registry_->OnNodeReport(h1_, {{stranger, false, 0, ""}});
  EXPECT_EQ(actions.to_cleanup, std::vector<ContainerId>{stranger});
}

TEST_F(ContainerRegistryTest, LostNodeCompletesItsContainers) {
  RmContainer a = Allocate(2);
  RmContainer b = Allocate(3, NodeId{"h2", 45454});
  auto lost = registry_->OnNodeLost(h1_);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].id, a.id);
  EXPECT_EQ(lost[0].exit_status, kExitAborted);
  EXPECT_TRUE(registry_->Get(b.id).has_value());
  EXPECT_EQ(registry_->LiveContainersOf(attempt_).size(), 1u);
}

TEST_F(ContainerRegistryTest, AttemptEndKillsItsContainersUnlessKept) {
  RmContainer am = Allocate(1);
  RmContainer task = Allocate(2);
  registry_->OnAttemptEnded(attempt_, /*keep_containers=*/true);
  EXPECT_EQ(registry_->LiveContainersOf(attempt_).size(), 1u) << "the task container is kept";
  registry_->OnAttemptEnded(attempt_, /*keep_containers=*/false);
  EXPECT_TRUE(registry_->LiveContainersOf(attempt_).empty());
  EXPECT_EQ(Allocated(), pool::Resource());
  auto actions = registry_->OnNodeReport(h1_, {});
  EXPECT_EQ(actions.to_cleanup.size(), 2u);
  EXPECT_TRUE(registry_->TakeCompleted(attempt_).empty()) << "nobody is left to tell";
  (void)am;
  (void)task;
}

TEST_F(ContainerRegistryTest, FinishedApplicationsAreCleanedUpOnTheirNodes) {
  RmContainer c = Allocate(2);
  registry_->OnNodeReport(h1_, {{c.id, true, 0, ""}});
  registry_->OnApplicationFinished(attempt_.app);
  auto actions = registry_->OnNodeReport(h1_, {});
  EXPECT_EQ(actions.applications_to_cleanup, std::vector<ApplicationId>{attempt_.app});
  EXPECT_FALSE(registry_->Get(c.id).has_value()) << "completed containers are forgotten";
  EXPECT_TRUE(registry_->OnNodeReport(h1_, {}).applications_to_cleanup.empty());
}

// A node's kills, acknowledgements and finished apps are kept together
// (one record per node): one answer hands over all three, once.
TEST_F(ContainerRegistryTest, ANodeGetsItsKillsAcksAndFinishedAppsInOneAnswerOnce) {
  RmContainer acked = Allocate(2);
  RmContainer released = Allocate(3);
  registry_->OnNodeReport(h1_, {{acked.id, true, 0, ""}});
  ASSERT_EQ(registry_->TakeCompleted(attempt_).size(), 1u);
  ASSERT_TRUE(registry_->TakeCompleted(attempt_).empty());  // the AM has it: acknowledged
  ASSERT_TRUE(registry_->Release(attempt_, released.id).ok());
  registry_->OnApplicationFinished(attempt_.app);
  auto actions = registry_->OnNodeReport(h1_, {});
  EXPECT_EQ(actions.to_remove_from_nm, std::vector<ContainerId>{acked.id});
  EXPECT_EQ(actions.to_cleanup, std::vector<ContainerId>{released.id});
  EXPECT_EQ(actions.applications_to_cleanup, std::vector<ApplicationId>{attempt_.app});
  auto again = registry_->OnNodeReport(h1_, {});
  EXPECT_TRUE(again.to_remove_from_nm.empty());
  EXPECT_TRUE(again.to_cleanup.empty());
  EXPECT_TRUE(again.applications_to_cleanup.empty());
}

TEST_F(ContainerRegistryTest, ALostNodeForgetsItsKillsAndAcksButNotItsFinishedApps) {
  RmContainer acked = Allocate(2);
  RmContainer released = Allocate(3);
  registry_->OnNodeReport(h1_, {{acked.id, true, 0, ""}});
  ASSERT_EQ(registry_->TakeCompleted(attempt_).size(), 1u);
  ASSERT_TRUE(registry_->TakeCompleted(attempt_).empty());
  ASSERT_TRUE(registry_->Release(attempt_, released.id).ok());
  registry_->OnApplicationFinished(attempt_.app);
  registry_->OnNodeLost(h1_);
  auto actions = registry_->OnNodeReport(h1_, {});
  EXPECT_TRUE(actions.to_remove_from_nm.empty());
  EXPECT_TRUE(actions.to_cleanup.empty());
  EXPECT_EQ(actions.applications_to_cleanup, std::vector<ApplicationId>{attempt_.app});
}

// OnNodeReports (the wind tunnel's many heartbeats in one call): each node
// is answered as its own OnNodeReport would answer it, in order, with
// everything they complete freed in the pool.
TEST_F(ContainerRegistryTest, NodeReportsAnswerEachNodeAsItsOwnReportWould) {
  RmContainer a = Allocate(2);
  RmContainer b = Allocate(3, NodeId{"h2", 45454});
  RmContainer c = Allocate(4);
  const NodeId h2{"h2", 45454};
  ASSERT_TRUE(registry_->Release(attempt_, c.id).ok());  // released: h1 must kill it
  EXPECT_EQ(Allocated(), pool::Resource::Of(2048, 2));
  const std::vector<ReportedContainer> h1_report{{a.id, true, 0, "a done"}, {c.id, false, 0, ""}};
  const std::vector<ReportedContainer> h2_report{{b.id, true, 0, "b done"}};
  const std::vector<ReportedContainer> h1_again{{a.id, true, 0, "a done"}};
  const std::vector<NodeReportRef> reports{
      {&h1_, &h1_report}, {&h2, &h2_report}, {&h1_, &h1_again}};
  const std::vector<NodeContainerActions> actions = registry_->OnNodeReports(reports);
  ASSERT_EQ(actions.size(), 3u);
  ASSERT_EQ(actions[0].completed.size(), 1u);
  EXPECT_EQ(actions[0].completed[0].id, a.id);
  EXPECT_EQ(actions[0].to_cleanup, std::vector<ContainerId>{c.id});
  ASSERT_EQ(actions[1].completed.size(), 1u);
  EXPECT_EQ(actions[1].completed[0].id, b.id);
  EXPECT_TRUE(actions[1].to_cleanup.empty());
  EXPECT_TRUE(actions[2].completed.empty()) << "completed once, by the first report";
  EXPECT_TRUE(actions[2].to_cleanup.empty()) << "the kill was handed out once";
  EXPECT_EQ(Allocated(), pool::Resource()) << "both completions freed";
  const std::vector<CompletedContainer> delivered = registry_->TakeCompleted(attempt_);
  EXPECT_EQ(delivered.size(), 3u);
}

// A report that completes an AM container ends the batch: the app manager
// must hear of it (and may end the attempt, which changes what later nodes
// are told) before the next node's report is taken.
TEST_F(ContainerRegistryTest, NodeReportsStopAfterAnAmContainerCompletes) {
  RmContainer am = Allocate(1);
  RmContainer task = Allocate(2, NodeId{"h2", 45454});
  const NodeId h2{"h2", 45454};
  registry_->OnNodeReport(h2, {{task.id, true, 0, ""}});
  ASSERT_EQ(registry_->TakeCompleted(attempt_).size(), 1u);  // the AM has it
  const std::vector<ReportedContainer> h1_report{{am.id, true, 0, ""}};
  const std::vector<ReportedContainer> h2_report{{task.id, true, 0, ""}};
  const std::vector<NodeReportRef> reports{{&h1_, &h1_report}, {&h2, &h2_report}};
  const std::vector<NodeContainerActions> first = registry_->OnNodeReports(reports);
  ASSERT_EQ(first.size(), 1u) << "stopped after the AM container's node";
  ASSERT_EQ(first[0].completed.size(), 1u);
  EXPECT_TRUE(first[0].completed[0].is_am);
  // The rest, passed again, is answered as one call per node would have
  // answered it: the AM's completion acknowledged what the AM was sent.
  const std::vector<NodeContainerActions> rest =
      registry_->OnNodeReports(std::span(reports).subspan(1));
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].to_remove_from_nm, std::vector<ContainerId>{task.id});
  EXPECT_EQ(Allocated(), pool::Resource());
}

TEST_F(ContainerRegistryTest, AddAllAddsEachAndNamesTheIdsAlreadyKnown) {
  RmContainer known = Allocate(2);
  RmContainer fresh = known;
  fresh.id = ContainerId{attempt_, 3};
  const std::vector<ContainerId> refused = registry_->AddAll({fresh, known});
  EXPECT_EQ(refused, std::vector<ContainerId>{known.id});
  ASSERT_TRUE(registry_->Get(fresh.id).has_value());
  EXPECT_EQ(registry_->Get(fresh.id)->node, h1_);
  EXPECT_EQ(registry_->LiveContainersOf(attempt_).size(), 2u);
}

TEST_F(ContainerRegistryTest, ReleaseAllCompletesEveryContainerAndFreesItsResources) {
  RmContainer a = Allocate(2);
  RmContainer b = Allocate(3);
  EXPECT_EQ(Allocated(), pool::Resource::Of(2048, 2));
  // An unknown id of the app's own is ignored, as Release ignores it.
  ASSERT_TRUE(registry_->ReleaseAll(attempt_, {a.id, ContainerId{attempt_, 99}, b.id}).ok());
  EXPECT_EQ(Allocated(), pool::Resource());
  auto completions = registry_->TakeCompleted(attempt_);
  ASSERT_EQ(completions.size(), 2u);
  EXPECT_EQ(completions[0].id, a.id);
  EXPECT_EQ(completions[1].id, b.id);
  EXPECT_EQ(completions[1].exit_status, kExitAborted);
  auto actions = registry_->OnNodeReport(h1_, {{a.id, false, 0, ""}, {b.id, false, 0, ""}});
  EXPECT_EQ(actions.to_cleanup, (std::vector<ContainerId>{a.id, b.id}));
  // Released again: nothing is freed twice.
  ASSERT_TRUE(registry_->ReleaseAll(attempt_, {a.id, b.id}).ok());
  EXPECT_TRUE(registry_->TakeCompleted(attempt_).empty());
}

TEST_F(ContainerRegistryTest, ReleaseAllWithAForeignIdReleasesNothing) {
  // RMServerUtils.validateContainerReleaseRequest checks the whole list
  // before the scheduler releases anything.
  RmContainer mine = Allocate(2);
  const ContainerId foreign{ApplicationAttemptId{{100, 7}, 1}, 5};
  EXPECT_EQ(registry_->ReleaseAll(attempt_, {mine.id, foreign}).java_class(),
            yarn::kInvalidContainerRelease);
  EXPECT_EQ(Allocated(), pool::Resource::Of(1024, 1));
  EXPECT_TRUE(registry_->TakeCompleted(attempt_).empty());
}

// The preemption monitor's kill (CapacityScheduler.markContainerForKillable):
// PREEMPTED with SchedulerUtils.PREEMPTED_CONTAINER's text, freed at once,
// killed on its node, handed to the AM, counted in the app's figures
// (RMAppAttemptMetrics.updatePreemptionInfo); an ended container is not
// preempted again.
TEST_F(ContainerRegistryTest, PreemptCompletesAsPreemptedAndCountsIt) {
  registry_ = std::make_unique<ContainerRegistry>(pool_.get(), &clock_);
  RmContainer am = Allocate(1);
  RmContainer task = Allocate(2);
  EXPECT_EQ(registry_->AllLive().size(), 2u);
  clock_.Advance(std::chrono::seconds(10));
  auto done = registry_->Preempt(task.id);
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->exit_status, kExitPreempted);
  EXPECT_EQ(done->diagnostics, "Container preempted by scheduler");
  EXPECT_FALSE(done->is_am);
  EXPECT_FALSE(registry_->IsLive(task.id));
  EXPECT_EQ(Allocated(), pool::Resource::Of(1024, 1)) << "its resources are back";
  EXPECT_EQ(registry_->OnNodeReport(h1_, {}).to_cleanup, std::vector<ContainerId>{task.id});
  auto completions = registry_->TakeCompleted(attempt_);
  ASSERT_EQ(completions.size(), 1u);
  EXPECT_EQ(completions[0].exit_status, -102);
  EXPECT_FALSE(registry_->Preempt(task.id).has_value()) << "already ended";
  ASSERT_TRUE(registry_->Preempt(am.id).has_value());
  const ResourceSeconds figures = registry_->UsageSecondsOf(attempt_.app);
  EXPECT_EQ(figures.preempted, pool::Resource::Of(2048, 2));
  EXPECT_EQ(figures.num_non_am_preempted, 1);
  EXPECT_EQ(figures.num_am_preempted, 1);
  EXPECT_EQ(figures.preempted_memory_seconds, 2 * 1024 * 10);
  EXPECT_EQ(figures.preempted_vcore_seconds, 2 * 10);
  EXPECT_TRUE(registry_->AllLive().empty());
}

}  // namespace
}  // namespace spindle::rm

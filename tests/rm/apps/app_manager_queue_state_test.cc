// Queue states for running apps (ApplicationManager::QueueStateOf): a
// STOPPED or DRAINING leaf takes no new app, the apps in it run to their
// end, and on 3.3 a queue stopped while busy is DRAINING until empty.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "rm/apps/app_manager.h"
#include "rm/yarn_exceptions.h"
#include "tests/rm/apps/app_manager_fakes.h"
#include "tests/rm/capacity_scheduler_conf.h"
#include "tests/rm/one_queue_pool.h"

namespace spindle::rm {
namespace {

using ::testing::HasSubstr;

// Leaves default and b (half each, AMs unlimited); b in `b_state`.
std::shared_ptr<const QueueTree> Tree(const std::string& b_state) {
  return test_support::ParsedTree({{"root.queues", "default,b"},
                                   {"root.default.capacity", "50"},
                                   {"root.b.capacity", "50"},
                                   {"root.b.state", b_state},
                                   {"maximum-am-resource-percent", "1.0"}});
}

class QueueStateTest : public ::testing::TestWithParam<HadoopLine>, protected AppManagerRig {
 protected:
  QueueStateTest() : AppManagerRig(Options(), pool::Resource::Of(8192, 8)) {}

  static ApplicationManagerOptions Options() {
    ApplicationManagerOptions options;
    options.cluster_timestamp_ms = 1700000000000;
    return options;
  }

  void SetUp() override {
    pool::QueueSpec default_queue;
    default_queue.name = "root.default";
    pool::QueueSpec b;
    b.name = "b";
    ASSERT_TRUE(pool_->SetQueues({default_queue, b}).ok());
  }

  void Apply(std::shared_ptr<const QueueTree> tree) {
    tree_ = std::move(tree);
    AmLimitContext context;
    context.line = GetParam();
    context.cluster = pool::Resource::Of(8192, 8);
    manager_->SetAmLimits(tree_, context);
  }

  ApplicationId Submit(const std::string& queue) {
    Submission s = DemoSubmission(manager_.get(), queue);
    EXPECT_TRUE(manager_->Submit(s).ok());
    return s.id;
  }

  QueueState StateOf(const std::string& path) { return manager_->QueueStateOf(*tree_->Find(path)); }

  std::shared_ptr<const QueueTree> tree_;
};

// LeafQueue.validateSubmitApplication, through CapacityScheduler.addApplication
// (APP_REJECTED with ace.toString()) on every line.
TEST_P(QueueStateTest, StoppedQueueRejectsSubmissions) {
  Apply(Tree("STOPPED"));
  const ApplicationId id = Submit("b");
  auto app = manager_->GetApp(id);
  EXPECT_EQ(app->yarn_state(), YarnAppState::kFailed);
  EXPECT_EQ(app->diagnostics,
            "org.apache.hadoop.security.AccessControlException: Queue root.b is STOPPED. Cannot "
            "accept submission of application: " +
                id.ToString());
  EXPECT_EQ(StateOf("root.b"), QueueState::kStopped) << "stopped from the start";
}

// CapacityScheduler.moveApplication: the target's validateSubmitApplication,
// its AccessControlException wrapped in a YarnException.
TEST_P(QueueStateTest, MoveIntoAStoppedQueueIsRefused) {
  Apply(Tree("STOPPED"));
  const ApplicationId id = Submit("default");
  Status moved = manager_->Move(id, "b", QueueLimits{"root.b", -1, -1});
  EXPECT_EQ(moved.java_class(), yarn::kYarnException);
  EXPECT_EQ(moved.message(),
            "org.apache.hadoop.security.AccessControlException: Queue root.b is STOPPED. Cannot "
            "accept submission of application: " +
                id.ToString());
  EXPECT_EQ(manager_->GetApp(id)->submission.queue, "default");
}

// refreshQueues stopping a busy queue: its app runs on (its AM container is
// placed); new apps are refused; on 3.3 the queue is DRAINING until the app
// ends (root, not stopped, stays RUNNING), and may not be set RUNNING
// meanwhile.
TEST_P(QueueStateTest, StoppingABusyQueueLetsItsAppsFinish) {
  Apply(Tree("RUNNING"));
  const ApplicationId running = Submit("b");
  Apply(Tree("STOPPED"));
  const bool v33 = GetParam() == HadoopLine::k3_3;
  EXPECT_EQ(StateOf("root.b"), v33 ? QueueState::kDraining : QueueState::kStopped);
  EXPECT_EQ(StateOf("root"), QueueState::kRunning);
  EXPECT_EQ(StateOf("root.default"), QueueState::kRunning);
  const Status refresh = manager_->CheckQueueRefresh(*Tree("RUNNING"));
  if (v33) {
    EXPECT_EQ(refresh.message(),
              "The queue:root.b is in the Stopping process. Please wait for the queue getting "
              "fully STOPPED.");
  } else {
    EXPECT_TRUE(refresh.ok());
  }
  EXPECT_THAT(manager_->GetApp(Submit("b"))->diagnostics, HasSubstr("is STOPPED"));

  // The app already there runs.
  pool_->RunAllOnce(clock_.Now());
  manager_->Tick();
  EXPECT_TRUE(manager_->GetApp(running)->current_attempt()->am_container.has_value());
  ASSERT_TRUE(manager_->Kill(running, "").ok());
  EXPECT_EQ(StateOf("root.b"), QueueState::kStopped) << "its last app left";
  EXPECT_TRUE(manager_->CheckQueueRefresh(*Tree("RUNNING")).ok());
  Apply(Tree("RUNNING"));
  EXPECT_EQ(manager_->GetApp(Submit("b"))->yarn_state(), YarnAppState::kAccepted);
}

// ParentQueue.stopQueue: stopping a parent stops its leaves; on 3.3 both
// drain while an app remains below (root, still RUNNING, does not).
TEST_P(QueueStateTest, AStoppedParentDrainsWithItsLeaf) {
  auto tree = [](const std::string& p_state) {
    return test_support::ParsedTree({{"root.queues", "default,p"},
                                     {"root.default.capacity", "50"},
                                     {"root.p.capacity", "50"},
                                     {"root.p.queues", "b"},
                                     {"root.p.b.capacity", "100"},
                                     {"root.p.state", p_state},
                                     {"maximum-am-resource-percent", "1.0"}});
  };
  Apply(tree("RUNNING"));
  const ApplicationId running = Submit("b");
  Apply(tree("STOPPED"));
  const QueueState stopping =
      GetParam() == HadoopLine::k3_3 ? QueueState::kDraining : QueueState::kStopped;
  EXPECT_EQ(StateOf("root.p.b"), stopping);
  EXPECT_EQ(StateOf("root.p"), stopping);
  EXPECT_EQ(StateOf("root"), QueueState::kRunning);
  ASSERT_TRUE(manager_->Kill(running, "").ok());
  EXPECT_EQ(StateOf("root.p.b"), QueueState::kStopped);
  EXPECT_EQ(StateOf("root.p"), QueueState::kStopped);
}

INSTANTIATE_TEST_SUITE_P(Lines, QueueStateTest,
                         ::testing::Values(HadoopLine::k2_6, HadoopLine::k2_7, HadoopLine::k3_3));

}  // namespace
}  // namespace spindle::rm

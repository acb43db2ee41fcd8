#include "replay/windtunnel/tunnel_rm.h"

#include <gtest/gtest.h>

#include "rm/config/configuration.h"

namespace spindle::replay {
namespace {

rm::QueueTree Tree() {
  rm::Configuration conf;
  CHECK(conf.AddResourceString(R"(<configuration>
    <property><name>yarn.scheduler.capacity.root.queues</name><value>a,off</value></property>
    <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>100</value></property>
    <property><name>yarn.scheduler.capacity.root.off.capacity</name><value>0</value></property>
    <property><name>yarn.scheduler.capacity.root.off.state</name><value>STOPPED</value></property>
  </configuration>)",
                               "test")
            .ok());
  auto tree = rm::QueueTree::Parse(conf);
  CHECK(tree.ok()) << tree.status().ToString();
  return *std::move(tree);
}

std::vector<TraceNode> Nodes() {
  return {TraceNode{"n1", "/r1", 8192, 8}, TraceNode{"n2", "/r1", 8192, 8}};
}

TraceJob OneTask(int64_t memory_mb, int32_t vcores, const std::string& queue = "a") {
  TraceJob job;
  job.id = "j";
  job.queue = queue;
  TraceStage& stage = job.stages.emplace_back();
  TraceTask task;
  task.memory_mb = memory_mb;
  task.vcores = vcores;
  task.duration_ms = 1000;
  stage.tasks.push_back(task);
  return job;
}

std::unique_ptr<TunnelRm> Make(const rm::QueueTree* tree, rm::ResourceCalculator calculator,
                               const Clock* clock) {
  TunnelRmOptions o;
  o.pool.num_schedulers = 2;
  o.pool.num_partitions = 2;
  o.queues = tree;
  o.calculator = calculator;
  o.min_allocation = pool::Resource::Of(1024, 2);
  auto rm = TunnelRm::Create(o, Nodes(), {}, clock);
  CHECK(rm.ok()) << rm.status().ToString();
  return std::move(rm).value();
}

// The issue's case: a 3-vcore task with a minimum of 2 vcores. Hadoop's
// DefaultResourceCalculator counts memory only (1 vcore), the Dominant one
// rounds every dimension up to the step (4 vcores); memory rounds up to the
// 1024 MB step either way.
TEST(TunnelRmTest, NormalisesWithTheConfiguredCalculator) {
  const rm::QueueTree tree = Tree();
  ManualClock clock;
  const struct {
    rm::ResourceCalculator calculator;
    int64_t memory_mb;
    int32_t vcores;
  } cases[] = {{rm::ResourceCalculator::kDefault, 2048, 1},
               {rm::ResourceCalculator::kDominant, 2048, 4}};
  for (const auto& c : cases) {
    auto rm = Make(&tree, c.calculator, &clock);
    TraceJob job = OneTask(1500, 3);
    auto admitted = rm->Admit(&job);
    ASSERT_TRUE(admitted.ok()) << admitted.status().ToString();
    ASSERT_TRUE(admitted->job.has_value()) << admitted->rejection;
    EXPECT_EQ(job.stages[0].tasks[0].memory_mb, c.memory_mb);
    EXPECT_EQ(job.stages[0].tasks[0].vcores, c.vcores);
    EXPECT_EQ(rm->normalizer().calculator(), c.calculator);
  }
}

TEST(TunnelRmTest, RefusesAsTheRmRefuses) {
  const rm::QueueTree tree = Tree();
  ManualClock clock;
  auto rm = Make(&tree, rm::ResourceCalculator::kDefault, &clock);
  const struct {
    TraceJob job;
    const char* reason;
  } cases[] = {
      {OneTask(1024, 1, "nope"), "unknown or non-leaf queue nope"},
      {OneTask(1024, 1, "root"), "unknown or non-leaf queue root"},
      {OneTask(1024, 1, "off"), "STOPPED"},
      // Checked before normalising, every dimension whatever the
      // calculator (SchedulerUtils.validateResourceRequest).
      {OneTask(9000, 1), "InvalidResourceRequestException"},
      {OneTask(1024, 9), "requestedVirtualCores=9, maxVirtualCores=8"},
      {OneTask(-1, 1), "requestedMemory=-1"},
  };
  for (auto c : cases) {
    auto admitted = rm->Admit(&c.job);
    ASSERT_TRUE(admitted.ok()) << admitted.status().ToString();
    EXPECT_FALSE(admitted->job.has_value()) << c.reason;
    EXPECT_NE(admitted->rejection.find(c.reason), std::string::npos) << admitted->rejection;
  }
  EXPECT_TRUE(rm->apps().ListApps().empty()) << "nothing refused reached the RM";
}

// Jobs admitted one after another are spread over the schedulers in turn
// when the pool pins in id order (the paper's even spread).
TEST(TunnelRmTest, InIdOrderPinningSpreadsJobsInTurn) {
  const rm::QueueTree tree = Tree();
  ManualClock clock;
  TunnelRmOptions o;
  o.pool.num_schedulers = 2;
  o.pool.num_partitions = 2;
  o.pool.pinning = pool::PinningMode::kInIdOrder;
  o.queues = &tree;
  auto rm = TunnelRm::Create(o, Nodes(), {}, &clock);
  ASSERT_TRUE(rm.ok());
  for (int k = 0; k < 6; ++k) {
    TraceJob job = OneTask(1024, 1);
    auto admitted = (*rm)->Admit(&job);
    ASSERT_TRUE(admitted.ok() && admitted->job.has_value());
    EXPECT_EQ(admitted->job->scheduler, k % 2) << "job " << k;
  }
}

TEST(TunnelRmTest, RejectsScoresThatAreNotOnePerNode) {
  const rm::QueueTree tree = Tree();
  ManualClock clock;
  TunnelRmOptions o;
  o.queues = &tree;
  EXPECT_FALSE(TunnelRm::Create(o, Nodes(), {1.0}, &clock).ok());
  EXPECT_FALSE(TunnelRm::Create(o, {}, {}, &clock).ok());
  TunnelRmOptions no_tree;
  EXPECT_FALSE(TunnelRm::Create(no_tree, Nodes(), {}, &clock).ok());
}

}  // namespace
}  // namespace spindle::replay

#include "replay/windtunnel/tunnel_rm.h"

#include <gtest/gtest.h>

#include "rm/config/configuration.h"

namespace spindle::replay {
namespace {

rm::Configuration Conf() {
  rm::Configuration conf;
  CHECK(conf.AddResourceString(R"(<configuration>
    <property><name>yarn.scheduler.capacity.root.queues</name><value>a,off</value></property>
    <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>100</value></property>
    <property><name>yarn.scheduler.capacity.root.off.capacity</name><value>0</value></property>
    <property><name>yarn.scheduler.capacity.root.off.state</name><value>STOPPED</value></property>
  </configuration>)",
                               "test")
            .ok());
  return conf;
}

std::vector<TraceNode> Nodes() {
  return {TraceNode{"n1", "/r1", 8192, 8}, TraceNode{"n2", "/r1", 8192, 8}};
}

TraceJob OneTask(int64_t memory_mb, int32_t vcores, const std::string& queue = "a") {
  TraceJob job;
  job.id = "j";
  job.queue = queue;
  job.user = "u";
  TraceStage& stage = job.stages.emplace_back();
  TraceTask task;
  task.memory_mb = memory_mb;
  task.vcores = vcores;
  task.duration_ms = 1000;
  stage.tasks.push_back(task);
  return job;
}

std::unique_ptr<TunnelRm> Make(rm::ResourceCalculator calculator, const Clock* clock) {
  TunnelRmOptions o;
  o.pool.num_schedulers = 2;
  o.pool.num_partitions = 2;
  o.conf = Conf();
  o.calculator = calculator;
  o.min_allocation = pool::Resource::Of(1024, 2);
  auto rm = TunnelRm::Create(o, Nodes(), {}, clock);
  CHECK(rm.ok()) << rm.status().ToString();
  return std::move(rm).value();
}

// Asks for `shape` as the tunnel's AM does, steps the job's scheduler until
// it placed, and hands back what the AM got.
pool::Placement PlaceOne(TunnelRm* rm, ManualClock* clock, const AdmittedJob& job,
                         const pool::Resource& shape) {
  pool::Ask ask;
  ask.priority = 1;
  ask.allocation_request_id = 0;
  ask.capability = shape;
  ask.count = 1;
  CHECK(rm->SetAsks(job, {ask}).ok());
  std::vector<pool::Placement> got;
  for (int step = 0; step < 50 && got.empty(); ++step) {
    clock->Advance(std::chrono::milliseconds(100));
    rm->pool().RunOnce(job.scheduler, clock->Now());
    CHECK(rm->TakePlacements(job, &got).ok());
  }
  CHECK_EQ(got.size(), 1u);
  return got.front();
}

// The issue's case: a 3-vcore task with a minimum of 2 vcores. The tunnel's
// job gets the container the AM wire's allocate would hand out: the RM's
// one normalisation (rm::ResourceNormalizer with the configured
// calculator). DefaultResourceCalculator counts memory only (1 vcore); the
// Dominant one rounds every dimension up to the step (4 vcores); memory
// rounds up to the 1024 MB step either way.
TEST(TunnelRmTest, AJobGetsTheContainerTheWireWouldHandOut) {
  const struct {
    rm::ResourceCalculator calculator;
    int64_t memory_mb;
    int32_t vcores;
  } cases[] = {{rm::ResourceCalculator::kDefault, 2048, 1},
               {rm::ResourceCalculator::kDominant, 2048, 4}};
  for (const auto& c : cases) {
    ManualClock clock;
    auto rm = Make(c.calculator, &clock);
    const pool::Resource asked = pool::Resource::Of(1500, 3);
    auto admitted = rm->Admit(OneTask(asked.memory_mb(), 3));
    ASSERT_TRUE(admitted.ok()) << admitted.status().ToString();
    ASSERT_TRUE(admitted->job.has_value()) << admitted->rejection;
    const pool::Placement got = PlaceOne(rm.get(), &clock, *admitted->job, asked);
    // What the wire's allocator normalises to, and what Hadoop's rule says.
    const rm::ResourceNormalizer wire = rm->core().attempt_allocator().normalizer();
    EXPECT_EQ(wire.calculator(), c.calculator);
    EXPECT_EQ(got.resource, wire.Normalize(asked));
    EXPECT_EQ(got.resource, rm::ResourceNormalizer(c.calculator, pool::Resource::Of(1024, 2),
                                                   pool::Resource::Of(8192, 8))
                                .Normalize(asked));
    EXPECT_EQ(got.resource.memory_mb(), c.memory_mb);
    EXPECT_EQ(got.resource.vcores(), c.vcores);
    // The RM holds the container as the wire's: live, of the job's attempt.
    const std::vector<rm::RmContainer> live = rm->core().ContainerReports(admitted->job->attempt);
    ASSERT_EQ(live.size(), 1u);
    EXPECT_EQ(live[0].placement.resource, got.resource);
    // The task ends: its node reports the container complete.
    ASSERT_TRUE(rm->Complete({got}).ok());
    EXPECT_TRUE(rm->core().ContainerReports(admitted->job->attempt).empty());
    EXPECT_EQ(rm->pool().cell().Allocated(), pool::Resource());
  }
}

TEST(TunnelRmTest, RefusesAsTheRmRefuses) {
  ManualClock clock;
  auto rm = Make(rm::ResourceCalculator::kDefault, &clock);
  // What allocate answers an AM asking 9 vcores (the largest node has 8).
  rm::ResourceRequest too_wide;
  too_wide.resource_name = rm::kAnyResourceName;
  too_wide.capability = pool::Resource::Of(1024, 9);
  const std::string allocate_refusal =
      rm->core().attempt_allocator().CheckAsk(too_wide).UserMessage();
  ASSERT_NE(allocate_refusal.find("InvalidResourceRequestException"), std::string::npos);
  const struct {
    TraceJob job;
    std::string reason;
    bool reaches_the_rm;
  } cases[] = {
      // As the client wire: an unknown or non-leaf queue is passed on, and
      // the ApplicationManager fails the app (CapacityScheduler's words).
      {OneTask(1024, 1, "nope"), "submitted by user u to unknown queue: nope", true},
      {OneTask(1024, 1, "root"), "to unknown queue: root", true},
      // A STOPPED leaf: accepted, then rejected by the scheduler with the
      // AccessControlException's toString (LeafQueue, every line).
      {OneTask(1024, 1, "off"),
       "org.apache.hadoop.security.AccessControlException: Queue root.off is STOPPED. Cannot "
       "accept submission of application: application_",
       true},
      // Checked as allocate checks every ask, whatever the calculator
      // (SchedulerUtils.validateResourceRequest).
      {OneTask(9000, 1), "InvalidResourceRequestException", false},
      {OneTask(1024, 9), allocate_refusal, false},
      {OneTask(-1, 1), "InvalidResourceRequestException", false},
  };
  size_t in_rm = 0;
  for (const auto& c : cases) {
    auto admitted = rm->Admit(c.job);
    ASSERT_TRUE(admitted.ok()) << admitted.status().ToString();
    EXPECT_FALSE(admitted->job.has_value()) << c.reason;
    EXPECT_NE(admitted->rejection.find(c.reason), std::string::npos) << admitted->rejection;
    if (c.reaches_the_rm) ++in_rm;
  }
  // The apps of unknown and STOPPED queues are the RM's, FAILED; nothing
  // else got in.
  const std::vector<rm::RmApp> apps = rm->core().ApplicationReports();
  ASSERT_EQ(apps.size(), in_rm);
  for (const rm::RmApp& app : apps) EXPECT_EQ(app.state, rm::AppState::kFailed);
}

// Jobs admitted one after another are spread over the schedulers in turn
// when the pool pins in id order (the paper's even spread).
TEST(TunnelRmTest, InIdOrderPinningSpreadsJobsInTurn) {
  ManualClock clock;
  TunnelRmOptions o;
  o.pool.num_schedulers = 2;
  o.pool.num_partitions = 2;
  o.pool.pinning = pool::PinningMode::kInIdOrder;
  o.conf = Conf();
  auto rm = TunnelRm::Create(o, Nodes(), {}, &clock);
  ASSERT_TRUE(rm.ok()) << rm.status().ToString();
  for (int k = 0; k < 6; ++k) {
    auto admitted = (*rm)->Admit(OneTask(1024, 1));
    ASSERT_TRUE(admitted.ok() && admitted->job.has_value());
    EXPECT_EQ(admitted->job->scheduler, k % 2) << "job " << k;
  }
}

// The nodes are the RM's: registered through the node protocol, with their
// racks, and the scores the pool's strategies read.
TEST(TunnelRmTest, NodesRegisterWithTheRm) {
  ManualClock clock;
  TunnelRmOptions o;
  o.conf = Conf();
  auto rm = TunnelRm::Create(o, Nodes(), {2.0, 3.0}, &clock);
  ASSERT_TRUE(rm.ok()) << rm.status().ToString();
  const std::vector<rm::NodeReport> nodes = (*rm)->core().NodeReports();
  ASSERT_EQ(nodes.size(), 2u);
  for (const rm::NodeReport& n : nodes) {
    EXPECT_EQ(n.state, rm::NodeState::kRunning);
    EXPECT_EQ(n.info.rack, "/r1");
  }
  EXPECT_EQ((*rm)->pool().cell().Capacity(), pool::Resource::Of(16384, 16));
  auto second = (*rm)->pool().cell().GetNode((*rm)->node_ids()[1]);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->score, 3.0);
}

// The reporting thread's heartbeats go out a few to a call (Send's
// per_call): every node is answered and keeps its response id, so the
// next round of the same nodes' heartbeats is taken as new, not as a
// repeat of the last.
TEST(TunnelRmTest, HeartbeatsSentOneToACallAreEachAnsweredAndKeepTheirResponseIds) {
  ManualClock clock;
  auto rm = Make(rm::ResourceCalculator::kDefault, &clock);
  for (int round = 0; round < 2; ++round) {
    // A whole node's task each: one on n1, one on n2.
    std::vector<pool::Placement> placed;
    std::vector<AdmittedJob> jobs;
    for (int j = 0; j < 2; ++j) {
      auto admitted = rm->Admit(OneTask(8192, 1));
      ASSERT_TRUE(admitted.ok()) << admitted.status().ToString();
      ASSERT_TRUE(admitted->job.has_value()) << admitted->rejection;
      placed.push_back(PlaceOne(rm.get(), &clock, *admitted->job, pool::Resource::Of(8192, 1)));
      jobs.push_back(*admitted->job);
    }
    ASSERT_NE(placed[0].node, placed[1].node);
    auto heartbeats = rm->HeartbeatsFor(placed);
    ASSERT_TRUE(heartbeats.ok()) << heartbeats.status().ToString();
    ASSERT_EQ(heartbeats->requests.size(), 2u) << "one heartbeat per node";
    ASSERT_TRUE(rm->Send(&*heartbeats, /*per_call=*/1).ok()) << "round " << round;
    for (const AdmittedJob& job : jobs) {
      EXPECT_TRUE(rm->core().ContainerReports(job.attempt).empty()) << "round " << round;
      rm->Finish(job);  // the next round's jobs take their place
    }
    EXPECT_EQ(rm->pool().cell().Allocated(), pool::Resource()) << "round " << round;
  }
}

TEST(TunnelRmTest, RejectsScoresThatAreNotOnePerNode) {
  ManualClock clock;
  TunnelRmOptions o;
  o.conf = Conf();
  EXPECT_FALSE(TunnelRm::Create(o, Nodes(), {1.0}, &clock).ok());
  EXPECT_FALSE(TunnelRm::Create(o, {}, {}, &clock).ok());
}

}  // namespace
}  // namespace spindle::replay

// getQueueInfo's QueueStatistics checked against the node reports, with
// containers running in two queues, as `yarn top` adds them up (it sums the
// statistics of root's children, TopCLI.getQueueMetrics). What each field
// means is Hadoop 3.3's (queue_statistics.h): available = the queue's
// guaranteed share minus what it holds, so available + allocated = the share
// and the top-level queues add up to the cluster (less Hadoop's truncation of
// each share).
#include <gtest/gtest.h>

#include <utility>

#include "tests/am_protocol/client_service/client_rm_service_fixture.h"

namespace spindle::client_service {
namespace {

class QueueStatisticsTest : public ClientRmServiceTest {
 protected:
  // Gives `id`'s running attempt `count` more containers of `size` through
  // the pool, as an AM's allocate would, and records them as live.
  void AddTaskContainers(const rm::ApplicationId& id, int count, pool::Resource size) {
    const auto app = rm_.apps().GetApp(id);
    ASSERT_TRUE(app.ok());
    pool::Ask ask;
    ask.priority = 1;
    ask.allocation_request_id = 0;
    ask.capability = size;
    ask.count = count;
    ASSERT_TRUE(rm_.pool().SetAsks(app->pool_app, {ask}).ok());
    rm_.pool().RunAllOnce(rm_.clock().Now());
    std::vector<pool::Placement> placements;
    ASSERT_TRUE(rm_.pool().TakePlacements(app->pool_app, &placements).ok());
    ASSERT_EQ(placements.size(), static_cast<size_t>(count));
    for (const pool::Placement& p : placements) {
      auto next = rm_.apps().NextContainerId(app->current_attempt()->id);
      ASSERT_TRUE(next.ok());
      ASSERT_TRUE(rm_.containers().Add({*next, rm::NodeId{"host1", 45454}, p, false}).ok());
    }
  }

  // An app in default with its AM and 2 x 1024 MB/1 vcore, one in batch with
  // its AM and 1 x 512 MB/2 vcores.
  std::pair<rm::ApplicationId, rm::ApplicationId> TwoRunningApps() {
    const rm::ApplicationId in_default = SubmitNew("default");
    const rm::ApplicationId in_batch = SubmitNew("batch");
    Run(in_default);
    EXPECT_TRUE(rm_.apps().RegisterAm({in_batch, 1}, "am2", 1, "").ok());
    AddTaskContainers(in_default, 2, pool::Resource::Of(1024, 1));
    AddTaskContainers(in_batch, 1, pool::Resource::Of(512, 2));
    return {in_default, in_batch};
  }

  y::QueueInfoProto Info(const std::string& queue) {
    y::GetQueueInfoRequestProto request;
    request.set_queuename(queue);
    request.set_includechildqueues(true);
    request.set_recursive(true);
    y::GetQueueInfoResponseProto response;
    EXPECT_TRUE(rm_.Call("getQueueInfo", request, &response).ok());
    return response.queueinfo();
  }

  y::GetClusterNodesResponseProto Nodes() {
    y::GetClusterNodesResponseProto nodes;
    EXPECT_TRUE(rm_.Call("getClusterNodes", y::GetClusterNodesRequestProto(), &nodes).ok());
    return nodes;
  }
};

TEST_F(QueueStatisticsTest, StatisticsAddUpToTheNodeReports) {
  TwoRunningApps();
  // A third app waits for its AM container: what is pending.
  // (carol is in "engineers", who may submit to root.eng.)
  const rm::ApplicationId waiting = NewId("carol");
  ASSERT_TRUE(Submit(Context(waiting, "adhoc"), "carol").ok());

  const y::GetClusterNodesResponseProto nodes = Nodes();
  ASSERT_EQ(nodes.nodereports_size(), 1);
  const y::NodeReportProto& node = nodes.nodereports(0);
  // 2 AMs (256 MB, 1 vcore each) + 2 x 1024/1 + 512/2.
  EXPECT_EQ(node.used().memory(), 2 * 256 + 2 * 1024 + 512);
  EXPECT_EQ(node.used().virtual_cores(), 2 + 2 + 2);
  EXPECT_EQ(node.numcontainers(), 5);

  const y::QueueInfoProto root = Info("root");
  // What `yarn top` shows: the sums over root's children.
  int64_t available_mb = 0, allocated_mb = 0, available_vcores = 0, allocated_vcores = 0;
  int64_t containers = 0, pending_containers = 0;
  for (const y::QueueInfoProto& child : root.childqueues()) {
    const y::QueueStatisticsProto& s = child.queuestatistics();
    available_mb += s.availablememorymb();
    allocated_mb += s.allocatedmemorymb();
    available_vcores += s.availablevcores();
    allocated_vcores += s.allocatedvcores();
    containers += s.allocatedcontainers();
    pending_containers += s.pendingcontainers();
  }
  EXPECT_EQ(allocated_mb, node.used().memory());
  EXPECT_EQ(allocated_vcores, node.used().virtual_cores());
  EXPECT_EQ(containers, node.numcontainers());
  // Each share is cluster x absolute capacity truncated, as Hadoop's
  // Resources.multiply makes effectiveMinResource: 3276 + 4915 + 0 MB, 3 + 4
  // + 0 vcores of 8192 MB and 8 vcores.
  EXPECT_EQ(available_mb + allocated_mb, 3276 + 4915);
  EXPECT_EQ(available_vcores + allocated_vcores, 3 + 4);
  EXPECT_LE(node.capability().memory() - (available_mb + allocated_mb), root.childqueues_size());
  EXPECT_LE(node.capability().virtual_cores() - (available_vcores + allocated_vcores),
            root.childqueues_size());
  EXPECT_EQ(pending_containers, 1);
  // Root itself says the same.
  EXPECT_EQ(root.queuestatistics().allocatedmemorymb(), node.used().memory());
  EXPECT_EQ(root.queuestatistics().allocatedcontainers(), node.numcontainers());
  EXPECT_EQ(root.queuestatistics().availablememorymb(),
            node.capability().memory() - node.used().memory());

  // Each queue: available + allocated = its share (cluster x absolute
  // capacity, rounded down) while it is within it.
  const y::QueueInfoProto& dflt = root.childqueues(0);
  ASSERT_EQ(dflt.queuename(), "default");
  const y::QueueStatisticsProto& d = dflt.queuestatistics();
  EXPECT_EQ(d.allocatedmemorymb(), 256 + 2 * 1024);
  EXPECT_EQ(d.allocatedcontainers(), 3);
  EXPECT_EQ(d.availablememorymb() + d.allocatedmemorymb(), 3276);  // 8192 x 0.4
  EXPECT_EQ(d.availablevcores() + d.allocatedvcores(), 3);         // 8 x 0.4
  EXPECT_EQ(d.pendingcontainers(), 0);
  const y::QueueInfoProto& batch = root.childqueues(1).childqueues(0);
  ASSERT_EQ(batch.queuename(), "batch");
  const y::QueueStatisticsProto& b = batch.queuestatistics();
  EXPECT_EQ(b.allocatedcontainers(), 2);
  EXPECT_EQ(b.allocatedmemorymb(), 256 + 512);
  EXPECT_EQ(b.availablememorymb() + b.allocatedmemorymb(), 3440);  // 8192 x 0.6 x 0.7
  const y::QueueInfoProto& adhoc = root.childqueues(1).childqueues(1);
  ASSERT_EQ(adhoc.queuename(), "adhoc");
  EXPECT_EQ(adhoc.queuestatistics().pendingcontainers(), 1);
  EXPECT_EQ(adhoc.queuestatistics().pendingmemorymb(), 256);
  EXPECT_EQ(adhoc.queuestatistics().pendingvcores(), 1);
  EXPECT_EQ(adhoc.queuestatistics().allocatedcontainers(), 0);

  // Active users live in the leaves' QueueMetrics only (QueueMetrics.
  // incrActiveUsers does not propagate, 3.3): root and eng report 0, as the
  // Java RM 3.3.6 showed `yarn top` with an app running. A user is active
  // while an app of hers has outstanding requests: carol's AM request in
  // adhoc; default's app has what it asked for.
  EXPECT_EQ(d.numactiveusers(), 0);
  EXPECT_EQ(adhoc.queuestatistics().numactiveusers(), 1);
  EXPECT_EQ(root.childqueues(1).queuestatistics().numactiveusers(), 0);
  EXPECT_EQ(root.queuestatistics().numactiveusers(), 0);
}

// SchedulerApplicationAttempt.getResourceUsageReport (3.3), DefaultResource-
// Calculator: used memory over cluster x the leaf's capacity *relative to its
// parent* (QueueInfo.getCapacity), truncated, and over the cluster. The Java
// RM reported 0 for neither while Spindle reported 0 for both.
TEST_F(QueueStatisticsTest, ReportsCarryTheAppsShareOfItsQueueAndOfTheCluster) {
  const auto [in_default, in_batch] = TwoRunningApps();
  // default: 40% of 8192 MB -> 3276 MB; 256 + 2 x 1024 used.
  const y::ApplicationResourceUsageReportProto d = Report(in_default)->app_resource_usage();
  EXPECT_FLOAT_EQ(d.queue_usage_percentage(), 2304.0f / 3276.0f * 100);
  EXPECT_FLOAT_EQ(d.cluster_usage_percentage(), 2304.0f / 8192.0f * 100);
  // batch: 70% of its parent, taken of the whole cluster: 5734 MB (not
  // 8192 x 0.6 x 0.7), as Hadoop computes it; 256 + 512 used.
  const y::ApplicationResourceUsageReportProto b = Report(in_batch)->app_resource_usage();
  EXPECT_FLOAT_EQ(b.queue_usage_percentage(), 768.0f / 5734.0f * 100);
  EXPECT_FLOAT_EQ(b.cluster_usage_percentage(), 768.0f / 8192.0f * 100);
}

TEST_F(QueueStatisticsTest, AQueueBeyondItsShareHasNothingAvailable) {
  // default's share is 40% (3276 MB); it may grow to its maximum (100%).
  const rm::ApplicationId id = SubmitNew("default");
  Run(id);
  AddTaskContainers(id, 3, pool::Resource::Of(1024, 1));  // 256 + 3072 > 3276
  const y::QueueStatisticsProto s = Info("default").queuestatistics();
  EXPECT_EQ(s.allocatedmemorymb(), 256 + 3 * 1024);
  EXPECT_EQ(s.availablememorymb(), 0);
  EXPECT_EQ(s.availablevcores(), 0);
  EXPECT_EQ(s.allocatedcontainers(), 4);
}

}  // namespace
}  // namespace spindle::client_service

#include "replay/cell/tenant_census.h"

#include <gtest/gtest.h>

namespace spindle::replay {
namespace {

namespace y = hadoop::yarn;

y::ApplicationReportProto App(const std::string& queue, const std::string& user,
                              y::YarnApplicationStateProto state, int64_t memory_mb, int32_t vcores,
                              int32_t containers, const std::string& name = "") {
  y::ApplicationReportProto a;
  a.set_name(name);
  a.set_queue(queue);
  a.set_user(user);
  a.set_yarn_application_state(state);
  auto* usage = a.mutable_app_resource_usage();
  usage->mutable_used_resources()->set_memory(memory_mb);
  usage->mutable_used_resources()->set_virtual_cores(vcores);
  usage->set_num_used_containers(containers);
  return a;
}

TEST(TenantCensusTest, QueuesThenTheirUsersFromTheReports) {
  const std::vector<y::ApplicationReportProto> apps = {
      App("default", "bob", y::RUNNING, 4096, 4, 4),
      App("root.default", "alice", y::RUNNING, 2048, 2, 2),  // a path names the leaf
      App("default", "alice", y::ACCEPTED, 0, 0, 0),
      App("default", "alice", y::FINISHED, 9999, 9, 9),  // ended: counts nowhere
      App("other", "carol", y::SUBMITTED, 0, 0, 0),
  };
  PreemptionCounts preempted;
  preempted[{"default", "bob"}] = {3, 2};
  const TenantSample s = CountTenants(12.5, apps, preempted);
  EXPECT_DOUBLE_EQ(s.at_s, 12.5);
  ASSERT_EQ(s.rows.size(), 5u);
  const TenantRow& queue = s.rows[0];
  EXPECT_EQ(queue.queue, "default");
  EXPECT_EQ(queue.user, "");
  EXPECT_EQ(queue.memory_mb, 6144);
  EXPECT_EQ(queue.vcores, 6);
  EXPECT_EQ(queue.containers, 6);
  EXPECT_EQ(queue.apps_running, 2);
  EXPECT_EQ(queue.apps_pending, 1);
  EXPECT_EQ(queue.preempted, 3);
  EXPECT_EQ(queue.preemption_messages, 2);
  EXPECT_EQ(queue.scheduler_apps_pending, -1) << "filled from QueueStatistics by the driver";
  const TenantRow& alice = s.rows[1];
  EXPECT_EQ(alice.user, "alice");
  EXPECT_EQ(alice.memory_mb, 2048);
  EXPECT_EQ(alice.apps_running, 1);
  EXPECT_EQ(alice.apps_pending, 1);
  EXPECT_EQ(alice.preempted, 0);
  const TenantRow& bob = s.rows[2];
  EXPECT_EQ(bob.user, "bob");
  EXPECT_EQ(bob.memory_mb, 4096);
  EXPECT_EQ(bob.preempted, 3);
  EXPECT_EQ(s.rows[3].queue, "other");
  EXPECT_EQ(s.rows[3].user, "");
  EXPECT_EQ(s.rows[3].apps_pending, 1);
  EXPECT_EQ(s.rows[4].user, "carol");
}

TEST(TenantCensusTest, APreemptedTenantStaysAfterItsAppsEnded) {
  PreemptionCounts preempted;
  preempted[{"a", "u"}] = {1, 0};
  const TenantSample s = CountTenants(1, {}, preempted);
  ASSERT_EQ(s.rows.size(), 2u);
  EXPECT_EQ(s.rows[0].preempted, 1);
  EXPECT_EQ(s.rows[1].user, "u");
  EXPECT_EQ(s.rows[1].memory_mb, 0);
}

TEST(TenantCensusTest, AJavaRmsDummyUsageCountsAsNothing) {
  // An accepted application the scheduler does not hold yet: -1 everywhere.
  const TenantSample s = CountTenants(0, {App("q", "u", y::ACCEPTED, -1, -1, -1)}, {});
  ASSERT_EQ(s.rows.size(), 2u);
  EXPECT_EQ(s.rows[0].memory_mb, 0);
  EXPECT_EQ(s.rows[0].vcores, 0);
  EXPECT_EQ(s.rows[0].containers, 0);
  EXPECT_EQ(s.rows[0].apps_pending, 1);
}

// The per-job figures of the fidelity figure: each application not ended,
// by the job it was submitted for, a Java RM's -1 read as nothing.
TEST(TenantCensusTest, WhatEachJobHolds) {
  const TenantSample s = CountTenants(
      3,
      {App("q", "u", y::RUNNING, 3072, 3, 3, "j2"), App("q", "u", y::RUNNING, 1024, 1, 1, "j1"),
       App("q", "u", y::ACCEPTED, -1, -1, -1, "j3"), App("q", "u", y::FINISHED, 512, 1, 1, "j0")},
      {});
  EXPECT_TRUE(s.jobs_counted);
  ASSERT_EQ(s.jobs.size(), 3u) << "the ended j0 is not listed";
  EXPECT_EQ(s.jobs[0].job, "j1");
  EXPECT_EQ(s.jobs[0].memory_mb, 1024);
  EXPECT_EQ(s.jobs[1].job, "j2");
  EXPECT_EQ(s.jobs[1].memory_mb, 3072);
  EXPECT_EQ(s.jobs[2].job, "j3");
  EXPECT_EQ(s.jobs[2].memory_mb, 0);
}

TEST(TenantCensusTest, LeafQueueName) {
  EXPECT_EQ(LeafQueueName("root.a.b"), "b");
  EXPECT_EQ(LeafQueueName("default"), "default");
}

}  // namespace
}  // namespace spindle::replay

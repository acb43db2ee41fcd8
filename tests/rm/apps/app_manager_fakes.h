// Test doubles at the ApplicationManager's seams (the AM launcher and the
// node directory), and the rig the manager's fixtures share.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rm/apps/am_launcher.h"
#include "rm/apps/app_manager.h"
#include "rm/nodes/node_directory.h"
#include "tests/rm/capacity_scheduler_conf.h"
#include "tests/rm/one_queue_pool.h"

namespace spindle::rm {

// AmLauncher test double: records launches; the test decides their outcome.
class FakeLauncher : public AmLauncher {
 public:
  void Launch(const AmLaunch& launch, std::function<void(Status)> done) override {
    launches.push_back(launch);
    pending.push_back(std::move(done));
  }
  void Cleanup(const AmLaunch& launch) override { cleanups.push_back(launch); }
  void CompleteAll(Status status) {
    auto callbacks = std::move(pending);
    pending.clear();
    for (auto& done : callbacks) done(status);
  }
  std::vector<AmLaunch> launches;
  std::vector<AmLaunch> cleanups;
  std::vector<std::function<void(Status)>> pending;
};

class FakeNodes : public NodeDirectory {
 public:
  std::optional<NodeInfo> Find(pool::NodeId node) const override {
    auto it = nodes.find(node.value());
    if (it == nodes.end()) return std::nullopt;
    return it->second;
  }
  int32_t NumUsableNodes() const override { return static_cast<int32_t>(nodes.size()); }
  std::map<uint32_t, NodeInfo> nodes;
};

// A small managed app for `queue`, with the next id `manager` hands out.
inline Submission DemoSubmission(ApplicationManager* manager, const std::string& queue) {
  Submission s;
  s.id = manager->NewApplicationId().value();
  s.user = "alice";
  s.name = "demo";
  s.queue = queue;
  s.am_resource = pool::Resource::Of(200, 1);
  s.context_bytes = "opaque-context";
  return s;
}

// The options of AppManagerRig's manager unless a fixture passes its own:
// Hadoop's cluster timestamp of the tests, `min_allocation`.
inline ApplicationManagerOptions RigOptions(pool::Resource min_allocation = pool::Resource::Of(1024,
                                                                                               1)) {
  ApplicationManagerOptions options;
  options.cluster_timestamp_ms = 1700000000000;
  options.min_allocation = min_allocation;
  return options;
}

// A base for fixtures: an ApplicationManager (`options`) over the one-queue
// pool with a node `node` per name in `hosts` (port 45454), the fakes above
// and a manual clock. Step() lets the pool place, then the manager pick up
// AM placements.
class AppManagerRig {
 protected:
  explicit AppManagerRig(const ApplicationManagerOptions& options = RigOptions(),
                         pool::Resource node = pool::Resource::Of(10 * 1024, 10),
                         const std::vector<std::string>& hosts = {"host1"}) {
    pool_ = test_support::MakeOneQueuePool(&clock_).pool;
    for (const std::string& host : hosts) {
      auto id = pool_->AddNode({node, "/default-rack", 1.0});
      EXPECT_TRUE(id.ok());
      if (id.ok()) {
        nodes_.nodes[id->value()] = NodeInfo{NodeId{host, 45454}, host + ":8042", "/default-rack"};
      }
    }
    containers_ = std::make_unique<ContainerRegistry>(pool_.get());
    manager_ = std::make_unique<ApplicationManager>(options, pool_.get(), containers_.get(),
                                                    &launcher_, &nodes_, &clock_);
  }

  void Step() {
    pool_->RunAllOnce(clock_.Now());
    manager_->Tick();
  }

  // The AM limits of the one queue, root.default (100%), with
  // maximum-am-resource-percent `am_percent`, on `line` over `cluster`.
  void SetAmPercent(HadoopLine line, const std::string& am_percent, pool::Resource cluster) {
    AmLimitContext context;
    context.line = line;
    context.min_allocation = pool::Resource::Of(1024, 1);
    context.cluster = cluster;
    manager_->SetAmLimits(
        test_support::ParsedTree({{"root.queues", "default"},
                                  {"root.default.capacity", "100"},
                                  {"root.default.maximum-am-resource-percent", am_percent}}),
        context);
  }

  ManualClock clock_{TimePoint{}, 1700000000000};
  std::unique_ptr<pool::SchedulerPool> pool_;
  FakeLauncher launcher_;
  FakeNodes nodes_;
  std::unique_ptr<ContainerRegistry> containers_;
  std::unique_ptr<ApplicationManager> manager_;
};

}  // namespace spindle::rm

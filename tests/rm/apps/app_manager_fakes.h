// Test doubles at the ApplicationManager's seams: the AM launcher and the
// node directory.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rm/apps/am_launcher.h"
#include "rm/apps/app_manager.h"
#include "rm/nodes/node_directory.h"

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

}  // namespace spindle::rm

// What one run of the preemption policy costs (rm/preemption): a cluster of
// `--containers` live 1 GB containers in `--apps` applications spread over
// `--leaves` leaf queues of equal guarantee, the first leaf starved (all its
// apps pending, none running) and the others over their guarantee, so that
// each pass computes the ideal assignment and selects containers. Prints the
// median and p99 of `--passes` passes of ComputePreemption (what the monitor
// does every monitoring_interval besides copying the live containers).
//   preemption_policy_bench [--containers 10000] [--apps 1000] [--leaves 10] [--passes 200]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "rm/preemption/proportional_policy.h"

namespace {

using spindle::pool::Resource;
namespace pre = spindle::rm::preemption;

int64_t Flag(int argc, char** argv, const char* name, int64_t fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return std::atoll(argv[i + 1]);
  }
  return fallback;
}

pre::PolicyInput Build(int64_t containers, int64_t apps, int64_t leaves) {
  pre::PolicyInput in;
  const int64_t total_mb = containers * 1024;
  in.cluster = Resource::Of(total_mb, containers);
  pre::QueueInput root;
  root.path = "root";
  root.guaranteed = root.maximum = in.cluster;
  root.used = in.cluster;
  in.queues.push_back(root);
  for (int64_t q = 0; q < leaves; ++q) {
    pre::QueueInput leaf;
    leaf.path = "root.q" + std::to_string(q);
    leaf.parent = 0;
    leaf.guaranteed = Resource::Of(total_mb / leaves, containers / leaves);
    leaf.maximum = in.cluster;
    leaf.maximum_am_fraction = 0.1;
    if (q == 0) leaf.pending = leaf.guaranteed;
    in.queues.push_back(leaf);
  }
  // Every container in the leaves 1..n-1, evenly.
  const int64_t busy = std::max<int64_t>(leaves - 1, 1);
  const int64_t per_app = std::max<int64_t>(containers / apps, 1);
  int64_t placed = 0;
  for (int64_t a = 0; a < apps && placed < containers; ++a) {
    pre::AppInput app;
    app.attempt = spindle::rm::ApplicationAttemptId{
        spindle::rm::ApplicationId{1, static_cast<int32_t>(a)}, 1};
    app.queue = static_cast<int>(1 + (leaves > 1 ? 1 + a % busy : 0));
    if (app.queue >= static_cast<int>(in.queues.size())) app.queue = 1;
    for (int64_t c = 0; c < per_app && placed < containers; ++c, ++placed) {
      app.containers.push_back(pre::ContainerInput{spindle::rm::ContainerId{app.attempt, c + 1},
                                                   Resource::Of(1024, 1), 1, 0, c == 0});
      in.queues[static_cast<size_t>(app.queue)].used += Resource::Of(1024, 1);
    }
    in.apps.push_back(std::move(app));
  }
  return in;
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t containers = Flag(argc, argv, "--containers", 10000);
  const int64_t apps = Flag(argc, argv, "--apps", 1000);
  const int64_t leaves = Flag(argc, argv, "--leaves", 10);
  const int64_t passes = Flag(argc, argv, "--passes", 200);
  const pre::PolicyInput input = Build(containers, apps, leaves);
  pre::PreemptionOptions options;  // Hadoop's defaults
  std::vector<double> micros;
  size_t selected = 0;
  for (int64_t i = 0; i < passes; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const pre::PolicyOutcome out = pre::ComputePreemption(input, options);
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
    selected = out.selected.size();
  }
  std::sort(micros.begin(), micros.end());
  std::printf(
      "preemption policy: %lld containers, %lld apps, %lld leaves: %zu selected per pass; "
      "median %.0f us, p99 %.0f us over %lld passes\n",
      static_cast<long long>(containers), static_cast<long long>(apps),
      static_cast<long long>(leaves), selected, micros[micros.size() / 2],
      micros[std::min(micros.size() - 1, micros.size() * 99 / 100)],
      static_cast<long long>(passes));
  return 0;
}

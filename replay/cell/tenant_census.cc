#include "replay/cell/tenant_census.h"

#include <algorithm>

namespace spindle::replay {
namespace {

namespace y = hadoop::yarn;

void Add(TenantRow* to, const TenantRow& from) {
  to->memory_mb += from.memory_mb;
  to->vcores += from.vcores;
  to->containers += from.containers;
  to->apps_running += from.apps_running;
  to->apps_pending += from.apps_pending;
  to->preempted += from.preempted;
  to->preemption_messages += from.preemption_messages;
}

}  // namespace

std::string LeafQueueName(const std::string& queue) {
  const size_t dot = queue.rfind('.');
  return dot == std::string::npos ? queue : queue.substr(dot + 1);
}

TenantSample CountTenants(double at_s, const std::vector<y::ApplicationReportProto>& apps,
                          const PreemptionCounts& preemptions) {
  std::map<std::pair<std::string, std::string>, TenantRow> users;
  std::map<std::string, int64_t> jobs;
  for (const y::ApplicationReportProto& app : apps) {
    const y::YarnApplicationStateProto state = app.yarn_application_state();
    const bool pending =
        state == y::NEW || state == y::NEW_SAVING || state == y::SUBMITTED || state == y::ACCEPTED;
    const bool running = state == y::RUNNING;
    if (!pending && !running) continue;
    TenantRow& row = users[{LeafQueueName(app.queue()), app.user()}];
    if (pending) ++row.apps_pending;
    if (running) ++row.apps_running;
    // A Java RM reports -1 for each figure of an application the scheduler
    // does not hold yet (RMServerUtils.DUMMY_APPLICATION_RESOURCE_USAGE_REPORT).
    const y::ApplicationResourceUsageReportProto& usage = app.app_resource_usage();
    row.memory_mb += std::max<int64_t>(0, usage.used_resources().memory());
    row.vcores += std::max<int64_t>(0, usage.used_resources().virtual_cores());
    row.containers += std::max<int64_t>(0, usage.num_used_containers());
    jobs[app.name()] += std::max<int64_t>(0, usage.used_resources().memory());
  }
  for (const auto& [tenant, count] : preemptions) {
    TenantRow& row = users[tenant];
    row.preempted += count.containers;
    row.preemption_messages += count.messages;
  }
  TenantSample sample;
  sample.at_s = at_s;
  sample.jobs_counted = true;
  for (const auto& [job, memory_mb] : jobs) sample.jobs.push_back({job, memory_mb});
  std::string queue;
  size_t queue_row = 0;
  for (auto& [tenant, row] : users) {
    if (sample.rows.empty() || tenant.first != queue) {
      queue = tenant.first;
      queue_row = sample.rows.size();
      TenantRow total;
      total.queue = queue;
      sample.rows.push_back(total);
    }
    row.queue = tenant.first;
    row.user = tenant.second;
    Add(&sample.rows[queue_row], row);
    sample.rows.push_back(row);
  }
  return sample;
}

}  // namespace spindle::replay

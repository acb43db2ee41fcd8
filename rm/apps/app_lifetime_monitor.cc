#include "rm/apps/app_lifetime_monitor.h"

namespace spindle::rm {

void AppLifetimeMonitor::Register(const ApplicationId& app, int64_t expiry_ms) {
  Unregister(app);
  expiry_[app] = expiry_ms;
  by_time_.emplace(expiry_ms, app);
}

void AppLifetimeMonitor::Unregister(const ApplicationId& app) {
  auto it = expiry_.find(app);
  if (it == expiry_.end()) return;
  by_time_.erase({it->second, app});
  expiry_.erase(it);
}

std::optional<int64_t> AppLifetimeMonitor::ExpiryOf(const ApplicationId& app) const {
  auto it = expiry_.find(app);
  if (it == expiry_.end()) return std::nullopt;
  return it->second;
}

std::vector<ApplicationId> AppLifetimeMonitor::Expired(int64_t now_ms) const {
  std::vector<ApplicationId> out;
  for (const auto& [expiry, app] : by_time_) {
    if (expiry >= now_ms) break;
    out.push_back(app);
  }
  return out;
}

}  // namespace spindle::rm

// AppLifetimeMonitor: the applications that have a lifetime (Hadoop's
// ApplicationTimeoutType LIFETIME) and when each one ends, as Hadoop 3.3's
// RMAppLifetimeMonitor keeps them. An app is registered with an absolute
// expiry time (wall ms) when it is saved at submission (submit time + its
// lifetime in seconds) or recovered, moved by updateApplicationTimeouts, and
// unregistered once it reaches a final state. The ApplicationManager asks
// for the expired ones on each Tick and kills them with
// kLifetimeExceededDiagnostics.
//
// An app expires once the clock is past its expiry time (Hadoop's
// AbstractLivelinessMonitor: current time > expire time, with an expire
// interval of 0). Hadoop checks every
// yarn.resourcemanager.application-timeouts.monitor.interval-ms (3 s);
// Spindle checks on every Tick of the ApplicationManager.
//
// Thread contract: not thread-safe; the ApplicationManager calls it under
// its own mutex.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "rm/records/yarn_ids.h"

namespace spindle::rm {

// The diagnostics of an application killed at the end of its lifetime
// (RMAppLifetimeMonitor.expire, Hadoop 3.3).
inline constexpr char kLifetimeExceededDiagnostics[] =
    "Application is killed by ResourceManager as it has exceeded the lifetime period.";

class AppLifetimeMonitor {
 public:
  // Starts (or moves) the watch of `app` to end at `expiry_ms`.
  void Register(const ApplicationId& app, int64_t expiry_ms);
  void Unregister(const ApplicationId& app);
  // The expiry time of `app`, if watched.
  std::optional<int64_t> ExpiryOf(const ApplicationId& app) const;
  // The watched apps whose expiry time is before `now_ms`, earliest first.
  // They stay watched until unregistered (a kill that cannot happen yet is
  // tried again on the next call).
  std::vector<ApplicationId> Expired(int64_t now_ms) const;
  size_t size() const { return expiry_.size(); }

 private:
  std::map<ApplicationId, int64_t> expiry_;
  std::set<std::pair<int64_t, ApplicationId>> by_time_;
};

}  // namespace spindle::rm

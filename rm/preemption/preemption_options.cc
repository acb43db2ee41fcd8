#include "rm/preemption/preemption_options.h"

namespace spindle::rm::preemption {

namespace {

Status Invalid(const std::string& key, const std::string& why) {
  return Status::InvalidArgument(key + ": " + why);
}

// A fraction in [0, upper].
Result<double> Fraction(const Configuration& conf, const std::string& key, double fallback,
                        double upper) {
  ASSIGN_OR_RETURN(double value, conf.GetDouble(key, fallback));
  if (!(value >= 0 && value <= upper)) {
    return Invalid(
        key, "must be between 0 and " + std::to_string(upper) + ", got " + std::to_string(value));
  }
  return value;
}

Result<std::chrono::milliseconds> Millis(const Configuration& conf, const std::string& key,
                                         std::chrono::milliseconds fallback, bool positive) {
  ASSIGN_OR_RETURN(int64_t value, conf.GetInt(key, fallback.count()));
  if (value < 0 || (positive && value == 0)) {
    return Invalid(key, std::string("must be ") + (positive ? "positive" : "at least 0") +
                            ", got " + std::to_string(value));
  }
  return std::chrono::milliseconds(value);
}

}  // namespace

Result<PreemptionOptions> PreemptionOptions::FromConfiguration(const Configuration& conf) {
  PreemptionOptions o;
  ASSIGN_OR_RETURN(o.line, HadoopLineOf(conf));
  ASSIGN_OR_RETURN(o.enabled, conf.GetBool(kMonitorEnableKey, false));
  if (o.enabled) {
    // SchedulingMonitorManager instantiates each listed class; the only one
    // a CapacityScheduler runs here is the proportional policy.
    const std::string policies =
        conf.GetTrimmed(kMonitorPoliciesKey).value_or(kProportionalPolicyClass);
    size_t start = 0;
    while (start <= policies.size()) {
      size_t end = policies.find(',', start);
      if (end == std::string::npos) end = policies.size();
      std::string name = policies.substr(start, end - start);
      name.erase(0, name.find_first_not_of(" \t\n"));
      name.erase(name.find_last_not_of(" \t\n") + 1);
      if (!name.empty() && name != kProportionalPolicyClass) {
        return Invalid(
            kMonitorPoliciesKey,
            "Spindle runs only " + std::string(kProportionalPolicyClass) + ", not " + name);
      }
      start = end + 1;
    }
  }
  ASSIGN_OR_RETURN(
      o.monitoring_interval,
      Millis(conf, "yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval",
             o.monitoring_interval, true));
  ASSIGN_OR_RETURN(
      o.max_wait_before_kill,
      Millis(conf, "yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill",
             o.max_wait_before_kill, false));
  ASSIGN_OR_RETURN(
      o.total_preemption_per_round,
      Fraction(conf, "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round",
               0.1, 1.0));
  ASSIGN_OR_RETURN(
      o.max_ignored_over_capacity,
      Fraction(conf, "yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity",
               0.1, 1e9));
  ASSIGN_OR_RETURN(
      o.natural_termination_factor,
      Fraction(conf, "yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor",
               0.2, 1.0));
  ASSIGN_OR_RETURN(
      o.observe_only,
      conf.GetBool("yarn.resourcemanager.monitor.capacity.preemption.observe_only", false));
  // One literal per key (the key catalogue's test finds them so).
  // clang-format off
  for (const char* unsupported : {
           "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled",
           "yarn.resourcemanager.monitor.capacity.preemption.preemption-to-balance-queue-after-satisfied.enabled",
           "yarn.resourcemanager.monitor.capacity.preemption.select_based_on_reserved_containers",
           "yarn.resourcemanager.monitor.capacity.preemption.additional_res_balance_based_on_reserved_containers"}) {
    // clang-format on
    ASSIGN_OR_RETURN(bool on, conf.GetBool(unsupported, false));
    if (on) return Invalid(unsupported, "is not supported by Spindle");
  }
  ASSIGN_OR_RETURN(bool lazy,
                   conf.GetBool("yarn.scheduler.capacity.lazy-preemption-enabled", false));
  if (lazy) {
    return Invalid("yarn.scheduler.capacity.lazy-preemption-enabled",
                   "is not supported by Spindle");
  }
  return o;
}

}  // namespace spindle::rm::preemption

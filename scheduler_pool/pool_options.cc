#include "scheduler_pool/pool_options.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace spindle::pool {

namespace {

Status Bad(const std::string& key, const std::string& value, const std::string& why) {
  return Status::InvalidArgument(std::string(kPoolKeyPrefix) + key + ": '" + value + "' " + why);
}

Result<int64_t> ParseInt(const std::string& key, const std::string& value) {
  if (value.empty()) return Bad(key, value, "is not an integer");
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(value.c_str(), &end, 10);
  if (errno != 0 || end == value.c_str() || *end != '\0') {
    return Bad(key, value, "is not an integer");
  }
  return static_cast<int64_t>(v);
}

Result<double> ParseDouble(const std::string& key, const std::string& value) {
  if (value.empty()) return Bad(key, value, "is not a number");
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (errno != 0 || end == value.c_str() || *end != '\0' || !std::isfinite(v)) {
    return Bad(key, value, "is not a number");
  }
  return v;
}

Result<std::pair<int, int>> ParseRange(const std::string& key, const std::string& value) {
  const auto dash = value.find('-');
  if (dash == std::string::npos) {
    ASSIGN_OR_RETURN(int64_t one, ParseInt(key, value));
    return std::make_pair(static_cast<int>(one), static_cast<int>(one));
  }
  auto first = ParseInt(key, value.substr(0, dash));
  auto last = ParseInt(key, value.substr(dash + 1));
  if (!first.ok() || !last.ok()) {
    return Bad(key, value, "is not a scheduler range like '0-3'");
  }
  return std::make_pair(static_cast<int>(*first), static_cast<int>(*last));
}

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t comma = s.find(',', start);
    std::string item =
        s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto b = item.find_first_not_of(" \t");
    const auto e = item.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// HOST:PORT as Hadoop's NetUtils.createSocketAddr reads it (the RM parses
// it again with rm::ParseSocketAddress, which scheduler_pool may not use):
// a non-empty host, then a decimal port in 0..65535 after the last ':'.
bool IsHostPort(const std::string& value) {
  const size_t colon = value.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == value.size()) return false;
  if (value.size() - colon - 1 > 5) return false;
  int64_t port = 0;
  for (size_t i = colon + 1; i < value.size(); ++i) {
    if (value[i] < '0' || value[i] > '9') return false;
    port = port * 10 + (value[i] - '0');
  }
  return port <= 65535;
}

}  // namespace

Result<SyncMode> ParseSyncMode(const std::string& s) {
  if (s == "parsync" || s == "diffsync") return SyncMode::kParSync;
  if (s == "samesync") return SyncMode::kSameSync;
  if (s == "statesync") return SyncMode::kStateSync;
  if (s == "monolithic") return SyncMode::kMonolithic;
  return Status::InvalidArgument("'" + s + "' is not one of parsync, samesync, statesync, " +
                                 "monolithic");
}

Result<StrategyKind> ParseStrategy(const std::string& s) {
  if (s == "latency-first") return StrategyKind::kLatencyFirst;
  if (s == "quality-first") return StrategyKind::kQualityFirst;
  if (s == "adaptive") return StrategyKind::kAdaptive;
  if (s == "score-sampling") return StrategyKind::kScoreSampling;
  return Status::InvalidArgument(
      "'" + s + "' is not one of latency-first, quality-first, adaptive, score-sampling");
}

Status PoolOptions::Validate() const {
  const auto bad = [](const std::string& key, auto value, const std::string& why) {
    return Bad(key, std::to_string(value), why);
  };
  if (num_schedulers < 1 || num_schedulers > 1024) {
    return bad("count", num_schedulers, "must be in 1..1024");
  }
  if (num_partitions < 1 || static_cast<uint32_t>(num_partitions) > NodeId::kMaxPartitions) {
    return bad("partitions", num_partitions, "must be in 1..1024");
  }
  if ((mode == SyncMode::kParSync || mode == SyncMode::kSameSync) &&
      num_partitions < num_schedulers) {
    return bad("partitions", num_partitions,
               "must be >= spindle.scheduler.count (" + std::to_string(num_schedulers) +
                   ") for parsync and samesync");
  }
  const int64_t gap_ms = std::chrono::duration_cast<std::chrono::milliseconds>(sync_gap).count();
  if (sync_gap.count() <= 0) return bad("sync-gap-ms", gap_ms, "must be > 0");
  if (sync_gap.count() / num_schedulers <= 0) {
    return bad("sync-gap-ms", gap_ms, "is too small to split among the schedulers");
  }
  if (tau.count() <= 0) {
    return bad("adaptive.tau-ms",
               std::chrono::duration_cast<std::chrono::milliseconds>(tau).count(), "must be > 0");
  }
  if (!(ema_alpha > 0 && ema_alpha <= 1))
    return bad("adaptive.ema-alpha", ema_alpha, "must be in (0, 1]");
  if (max_tasks_per_step < 1) return bad("max-tasks-per-step", max_tasks_per_step, "must be >= 1");
  if (max_retries < 0) return bad("max-retries", max_retries, "must be >= 0");
  // The remote slots follow the in-process schedulers: a group may name
  // them (a queue whose apps the remote schedulers place).
  const int slots = num_schedulers + std::max(0, remote_schedulers);
  for (const auto& [queue, range] : queue_groups) {
    if (range.first < 0 || range.second < range.first || range.second >= slots) {
      return Bad("queue-group." + queue,
                 std::to_string(range.first) + "-" + std::to_string(range.second),
                 "must be a range within 0-" + std::to_string(slots - 1));
    }
  }
  if (!min_unit.IsPositive()) {
    return Bad("min-unit.memory-mb", min_unit.ToString(), "must be positive");
  }
  if (change_log_entries < 1) return bad("change-log-entries", change_log_entries, "must be >= 1");
  if (remote_schedulers < 0 || remote_schedulers > 1024) {
    return bad("remote.count", remote_schedulers, "must be in 0..1024");
  }
  if (remote_lease.count() <= 0) {
    return bad("remote.lease-ms",
               std::chrono::duration_cast<std::chrono::milliseconds>(remote_lease).count(),
               "must be > 0");
  }
  if (series_seconds < 1) return bad("metrics.series-seconds", series_seconds, "must be >= 1");
  if (emulated_decision_cost.count() < 0) {
    return Status::InvalidArgument("emulated decision cost must be >= 0");
  }
  if (!(emulated_quality_cost_factor > 0)) {
    return Status::InvalidArgument("emulated quality-first cost factor must be > 0");
  }
  auto types = ResourceTypes::Create(resource_types);
  if (!types.ok()) {
    std::string joined;
    for (const auto& t : resource_types) joined += (joined.empty() ? "" : ",") + t;
    return Bad("resource-types", joined, types.status().message());
  }
  return Status::OK();
}

Result<PoolOptions> PoolOptions::FromMap(const std::map<std::string, std::string>& config) {
  PoolOptions o;
  const std::string prefix = kPoolKeyPrefix;
  bool remote_count_set = false;
  for (const auto& entry : config) {
    // (Not a structured binding: clang 14 cannot capture those in lambdas.)
    const std::string& full_key = entry.first;
    const std::string& value = entry.second;
    if (full_key.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string key = full_key.substr(prefix.size());
    const auto as_int = [&](int64_t lo, int64_t hi) -> Result<int64_t> {
      ASSIGN_OR_RETURN(int64_t v, ParseInt(key, value));
      if (v < lo || v > hi) {
        return Bad(key, value, "must be in " + std::to_string(lo) + ".." + std::to_string(hi));
      }
      return v;
    };
    if (key == "count") {
      ASSIGN_OR_RETURN(o.num_schedulers, as_int(1, 1024));
    } else if (key == "partitions") {
      ASSIGN_OR_RETURN(o.num_partitions, as_int(1, NodeId::kMaxPartitions));
    } else if (key == "sync-gap-ms") {
      ASSIGN_OR_RETURN(int64_t ms, as_int(1, 3'600'000));
      o.sync_gap = std::chrono::milliseconds(ms);
    } else if (key == "mode") {
      auto m = ParseSyncMode(value);
      if (!m.ok()) return Status::InvalidArgument(full_key + ": " + m.status().message());
      o.mode = *m;
    } else if (key == "strategy") {
      auto s = ParseStrategy(value);
      if (!s.ok()) return Status::InvalidArgument(full_key + ": " + s.status().message());
      o.strategy = *s;
    } else if (key == "adaptive.tau-ms") {
      ASSIGN_OR_RETURN(int64_t ms, as_int(1, 3'600'000));
      o.tau = std::chrono::milliseconds(ms);
    } else if (key == "adaptive.ema-alpha") {
      ASSIGN_OR_RETURN(o.ema_alpha, ParseDouble(key, value));
    } else if (key == "transaction") {
      if (value == "incremental") {
        o.transaction = TransactionMode::kIncremental;
      } else if (value == "all-or-nothing") {
        o.transaction = TransactionMode::kAllOrNothing;
      } else {
        return Bad(key, value, "is not one of incremental, all-or-nothing");
      }
    } else if (key == "conflict-detection") {
      if (value == "fine-grained") {
        o.conflict = ConflictMode::kFineGrained;
      } else if (value == "coarse-grained") {
        o.conflict = ConflictMode::kCoarseGrained;
      } else {
        return Bad(key, value, "is not one of fine-grained, coarse-grained");
      }
    } else if (key == "max-tasks-per-step") {
      ASSIGN_OR_RETURN(o.max_tasks_per_step, as_int(1, 1'000'000));
    } else if (key == "max-retries") {
      ASSIGN_OR_RETURN(o.max_retries, as_int(0, 1000));
    } else if (key == "pinning") {
      if (value == "hash") {
        o.pinning = PinningMode::kHash;
      } else if (value == "queue-groups") {
        o.pinning = PinningMode::kQueueGroups;
      } else {
        return Bad(key, value, "is not one of hash, queue-groups");
      }
    } else if (key.compare(0, 12, "queue-group.") == 0 && key.size() > 12) {
      ASSIGN_OR_RETURN(auto range, ParseRange(key, value));
      o.queue_groups[key.substr(12)] = range;
    } else if (key == "min-unit.memory-mb") {
      ASSIGN_OR_RETURN(int64_t v, as_int(1, int64_t{1} << 40));
      o.min_unit.Set(kMemoryIndex, v);
    } else if (key == "min-unit.vcores") {
      ASSIGN_OR_RETURN(int64_t v, as_int(0, int64_t{1} << 30));
      o.min_unit.Set(kVcoresIndex, v);
    } else if (key == "resource-types") {
      o.resource_types = SplitCommas(value);
    } else if (key == "change-log-entries") {
      ASSIGN_OR_RETURN(o.change_log_entries, as_int(1, 1 << 24));
    } else if (key == "metrics.series-seconds") {
      ASSIGN_OR_RETURN(o.series_seconds, as_int(1, 86'400));
    } else if (key == "remote.address") {
      if (!IsHostPort(value)) return Bad(key, value, "is not HOST:PORT (port 0..65535)");
      o.remote_address = value;
    } else if (key == "remote.count") {
      ASSIGN_OR_RETURN(o.remote_schedulers, as_int(0, 1024));
      remote_count_set = true;
    } else if (key == "remote.lease-ms") {
      ASSIGN_OR_RETURN(int64_t ms, as_int(1, 3'600'000));
      o.remote_lease = std::chrono::milliseconds(ms);
    } else if (key == "seed") {
      ASSIGN_OR_RETURN(int64_t v, ParseInt(key, value));
      o.seed = static_cast<uint64_t>(v);
    } else {
      return Status::InvalidArgument("unknown configuration key " + full_key);
    }
  }
  // Remote slots nobody serves would hold their apps forever.
  if (o.remote_address.empty() && o.remote_schedulers > 0) {
    return Bad("remote.count", std::to_string(o.remote_schedulers),
               "needs spindle.scheduler.remote.address (no cell-state service to serve its apps)");
  }
  if (!o.remote_address.empty()) {
    if (!remote_count_set) o.remote_schedulers = 1;
    if (o.remote_schedulers == 0) {
      return Bad("remote.count", "0", "must be >= 1 with spindle.scheduler.remote.address");
    }
  }
  RETURN_NOT_OK(o.Validate());
  return o;
}

}  // namespace spindle::pool

// Metrics of the pool, as the ParSync paper reports them: scheduling delay
// (ask to commit) percentiles, quality (share of tasks on preferred slots),
// conflicts, throughput, staleness, backlog of uncommitted tasks and
// utilisation, per scheduler and overall, plus a 1 s time series.
//
// LatencyHistogram: log-linear buckets (16 per power of two, <= 6.25%
// error) over nanoseconds; mergeable.
// MetricsSeries: the pool's per-second points, fed by every scheduler when
// it closes a second; keeps the last N seconds.
//
// Thread-safety: LatencyHistogram and the snapshot structs are values;
// MetricsSeries is thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "scheduler_pool/strategies/placement_strategy.h"

namespace spindle::pool {

class LatencyHistogram {
 public:
  static constexpr int kSubBits = 4;
  static constexpr int kSub = 1 << kSubBits;
  static constexpr int kMaxExponent = 42;  // ~73 minutes in ns
  static constexpr int kBuckets = (kMaxExponent - kSubBits + 1) * kSub + kSub;

  void Record(Duration d) { RecordNanos(d.count() < 0 ? 0 : static_cast<uint64_t>(d.count())); }
  void RecordNanos(uint64_t ns) {
    ++buckets_[static_cast<size_t>(BucketOf(ns))];
    ++count_;
    sum_ += ns;
    if (ns > max_) max_ = ns;
  }
  void Merge(const LatencyHistogram& o);
  void Clear() { *this = LatencyHistogram(); }

  int64_t count() const { return static_cast<int64_t>(count_); }
  Duration max() const { return Duration(static_cast<int64_t>(max_)); }
  Duration mean() const { return Duration(count_ == 0 ? 0 : static_cast<int64_t>(sum_ / count_)); }
  // The q-quantile (q in [0, 1]), as the midpoint of its bucket (exact
  // below 16 ns); 0 when empty.
  Duration Percentile(double q) const;
  // Samples below `ns`: exact when `ns` is a bucket boundary (BucketLow of
  // some bucket, e.g. any power of two); otherwise the samples of the
  // buckets wholly below it. For Prometheus histograms (web/metrics).
  int64_t CountBelow(uint64_t ns) const {
    int64_t n = 0;
    for (int b = 0; b < kBuckets && BucketHigh(b) <= ns; ++b) {
      n += buckets_[static_cast<size_t>(b)];
    }
    return n;
  }
  // The sum of every sample, in ns.
  uint64_t sum_nanos() const { return sum_; }

  static int BucketOf(uint64_t ns);
  static uint64_t BucketLow(int bucket);
  static uint64_t BucketHigh(int bucket);  // exclusive

 private:
  std::array<uint32_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t max_ = 0;
};

// Counters of one scheduler (or, summed, of the pool).
struct SchedulerMetrics {
  int scheduler = -1;  // -1: the whole pool
  int64_t steps = 0;
  int64_t placements = 0;       // committed tasks
  int64_t conflicts = 0;        // claims refused by the cell state
  int64_t transactions = 0;     // commits sent
  int64_t partition_syncs = 0;  // partitions refreshed
  int64_t full_syncs = 0;       // ... of which copied whole
  int64_t with_preference = 0;  // placements whose ask had preferences
  int64_t preferred = 0;        // ... that landed on a preferred slot
  double score_sum = 0;         // sum of chosen nodes' scores
  int64_t backlog = 0;          // outstanding (uncommitted) tasks now
  int64_t busy_nanos = 0;       // time spent choosing and committing
  double staleness_sum_ms = 0;  // sum over steps of average staleness
  int64_t staleness_samples = 0;
  double max_staleness_ms = 0;
  LatencyHistogram delay;  // ask -> commit, per task
  StrategyKind active_strategy = StrategyKind::kLatencyFirst;

  double quality() const {
    return with_preference == 0 ? 0 : static_cast<double>(preferred) / with_preference;
  }
  double mean_score() const { return placements == 0 ? 0 : score_sum / placements; }
  double conflicts_per_1000() const {
    return placements == 0 ? 0 : 1000.0 * static_cast<double>(conflicts) / placements;
  }
  double mean_staleness_ms() const {
    return staleness_samples == 0 ? 0 : staleness_sum_ms / staleness_samples;
  }
  // Adds another scheduler's counters (backlog and staleness included).
  void Add(const SchedulerMetrics& o);
};

// One second of the time series.
struct SeriesPoint {
  int64_t second = 0;  // since the pool's epoch
  int64_t placements = 0;
  int64_t conflicts = 0;
  Duration delay_p50{0};
  Duration delay_p90{0};
  Duration delay_p99{0};
  int64_t backlog = 0;           // summed over the schedulers that reported
  double mean_staleness_ms = 0;  // averaged over them
  double utilisation = 0;        // of the cell at the end of the second
  double quality = 0;
};

// What one scheduler reports when it closes a second.
struct SecondReport {
  int64_t second = 0;
  int64_t placements = 0;
  int64_t conflicts = 0;
  int64_t with_preference = 0;
  int64_t preferred = 0;
  int64_t backlog = 0;
  double staleness_sum_ms = 0;
  int64_t staleness_samples = 0;
  double utilisation = 0;
  const LatencyHistogram* delay = nullptr;
};

class MetricsSeries {
 public:
  explicit MetricsSeries(int seconds) : capacity_(seconds < 1 ? 1 : seconds) {}
  void Add(const SecondReport& report);
  // Oldest first.
  std::vector<SeriesPoint> Points() const;

 private:
  struct Entry {
    int64_t second = 0;
    int64_t placements = 0;
    int64_t conflicts = 0;
    int64_t with_preference = 0;
    int64_t preferred = 0;
    int64_t backlog = 0;
    double staleness_sum_ms = 0;
    int64_t staleness_samples = 0;
    double utilisation = 0;
    LatencyHistogram delay;
  };
  const size_t capacity_;
  mutable Mutex mu_;
  std::deque<Entry> entries_ GUARDED_BY(mu_);  // sorted by second
};

}  // namespace spindle::pool

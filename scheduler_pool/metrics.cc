#include "scheduler_pool/metrics.h"

#include <algorithm>
#include <bit>

namespace spindle::pool {

int LatencyHistogram::BucketOf(uint64_t ns) {
  if (ns < static_cast<uint64_t>(kSub)) return static_cast<int>(ns);
  int e = 63 - std::countl_zero(ns);
  if (e > kMaxExponent) return kBuckets - 1;
  const int sub = static_cast<int>((ns >> (e - kSubBits)) & (kSub - 1));
  return (e - kSubBits + 1) * kSub + sub;
}

uint64_t LatencyHistogram::BucketLow(int bucket) {
  if (bucket < kSub) return static_cast<uint64_t>(bucket);
  const int e = bucket / kSub + kSubBits - 1;
  const int sub = bucket % kSub;
  return static_cast<uint64_t>(kSub + sub) << (e - kSubBits);
}

uint64_t LatencyHistogram::BucketHigh(int bucket) {
  if (bucket < kSub) return static_cast<uint64_t>(bucket) + 1;
  const int e = bucket / kSub + kSubBits - 1;
  return BucketLow(bucket) + (uint64_t{1} << (e - kSubBits));
}

void LatencyHistogram::Merge(const LatencyHistogram& o) {
  for (size_t i = 0; i < buckets_.size(); ++i) buckets_[i] += o.buckets_[i];
  count_ += o.count_;
  sum_ += o.sum_;
  max_ = std::max(max_, o.max_);
}

Duration LatencyHistogram::Percentile(double q) const {
  if (count_ == 0) return Duration(0);
  q = std::clamp(q, 0.0, 1.0);
  // The smallest value v with at least ceil(q * count) samples <= v.
  uint64_t rank = static_cast<uint64_t>(q * static_cast<double>(count_) + 0.999999);
  if (rank == 0) rank = 1;
  uint64_t seen = 0;
  for (int b = 0; b < kBuckets; ++b) {
    seen += buckets_[static_cast<size_t>(b)];
    if (seen >= rank) {
      if (b < kSub) return Duration(static_cast<int64_t>(b));
      const uint64_t mid = (BucketLow(b) + BucketHigh(b)) / 2;
      return Duration(static_cast<int64_t>(std::min(mid, max_)));
    }
  }
  return max();
}

void SchedulerMetrics::Add(const SchedulerMetrics& o) {
  steps += o.steps;
  placements += o.placements;
  conflicts += o.conflicts;
  transactions += o.transactions;
  partition_syncs += o.partition_syncs;
  full_syncs += o.full_syncs;
  with_preference += o.with_preference;
  preferred += o.preferred;
  score_sum += o.score_sum;
  backlog += o.backlog;
  busy_nanos += o.busy_nanos;
  staleness_sum_ms += o.staleness_sum_ms;
  staleness_samples += o.staleness_samples;
  max_staleness_ms = std::max(max_staleness_ms, o.max_staleness_ms);
  delay.Merge(o.delay);
}

void MetricsSeries::Add(const SecondReport& r) {
  MutexLock lock(&mu_);
  auto it = std::lower_bound(entries_.begin(), entries_.end(), r.second,
                             [](const Entry& e, int64_t s) { return e.second < s; });
  if (it == entries_.end() || it->second != r.second) {
    if (entries_.size() >= capacity_ && it == entries_.begin()) return;  // too old
    Entry e;
    e.second = r.second;
    it = entries_.insert(it, std::move(e));
  }
  Entry& e = *it;
  e.placements += r.placements;
  e.conflicts += r.conflicts;
  e.with_preference += r.with_preference;
  e.preferred += r.preferred;
  e.backlog += r.backlog;
  e.staleness_sum_ms += r.staleness_sum_ms;
  e.staleness_samples += r.staleness_samples;
  e.utilisation = std::max(e.utilisation, r.utilisation);
  if (r.delay != nullptr) e.delay.Merge(*r.delay);
  while (entries_.size() > capacity_) entries_.pop_front();
}

std::vector<SeriesPoint> MetricsSeries::Points() const {
  MutexLock lock(&mu_);
  std::vector<SeriesPoint> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) {
    SeriesPoint p;
    p.second = e.second;
    p.placements = e.placements;
    p.conflicts = e.conflicts;
    p.delay_p50 = e.delay.Percentile(0.50);
    p.delay_p90 = e.delay.Percentile(0.90);
    p.delay_p99 = e.delay.Percentile(0.99);
    p.backlog = e.backlog;
    p.mean_staleness_ms = e.staleness_samples == 0
                              ? 0
                              : e.staleness_sum_ms / static_cast<double>(e.staleness_samples);
    p.utilisation = e.utilisation;
    p.quality = e.with_preference == 0 ? 0 : static_cast<double>(e.preferred) / e.with_preference;
    out.push_back(p);
  }
  return out;
}

}  // namespace spindle::pool

#include "replay/report/replay_recorder.h"

#include <algorithm>
#include <cmath>

namespace spindle::replay {

namespace {

double Seconds(Duration d) { return std::chrono::duration<double>(d).count(); }
double Millis(Duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double Percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double rank = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double f = rank - static_cast<double>(lo);
  return sorted[lo] * (1 - f) + sorted[hi] * f;
}

// Jain's index of `x`: (sum x)^2 / (n sum x^2); -1 for fewer than two
// values or all zero.
double Jain(const std::vector<double>& x) {
  if (x.size() < 2) return -1;
  double sum = 0;
  double sq = 0;
  for (double v : x) {
    sum += v;
    sq += v * v;
  }
  if (sq <= 0) return -1;
  return sum * sum / (static_cast<double>(x.size()) * sq);
}

}  // namespace

SampleSummary Summarize(std::vector<double>* values) {
  SampleSummary d;
  std::sort(values->begin(), values->end());
  d.count = static_cast<int64_t>(values->size());
  if (values->empty()) return d;
  double sum = 0;
  for (double v : *values) sum += v;
  d.mean = sum / static_cast<double>(values->size());
  d.p50 = Percentile(*values, 0.50);
  d.p90 = Percentile(*values, 0.90);
  d.p99 = Percentile(*values, 0.99);
  d.max = values->back();
  constexpr size_t kPoints = 200;
  const size_t n = values->size();
  const size_t step = std::max<size_t>(1, n / kPoints);
  for (size_t i = step - 1; i < n; i += step) {
    d.cdf.emplace_back((*values)[i], static_cast<double>(i + 1) / static_cast<double>(n));
  }
  if (d.cdf.empty() || d.cdf.back().second < 1.0) d.cdf.emplace_back(values->back(), 1.0);
  return d;
}

ReplayRecorder::ReplayRecorder(RecorderOptions options) : options_(std::move(options)) {
  MutexLock lock(&mu_);
  for (const QueueShareSpec& q : options_.queues) {
    queue_names_.push_back(q.name);
    queue_guaranteed_.push_back(q.guaranteed);
  }
}

ReplayRecorder::Bucket& ReplayRecorder::BucketAt(Duration at) {
  const int64_t i = std::max<int64_t>(0, at / options_.bucket);
  if (static_cast<size_t>(i) >= buckets_.size()) buckets_.resize(static_cast<size_t>(i) + 1);
  return buckets_[static_cast<size_t>(i)];
}

ReplayRecorder::JobRecord& ReplayRecorder::Job(int64_t job) {
  if (static_cast<size_t>(job) >= jobs_.size()) jobs_.resize(static_cast<size_t>(job) + 1);
  return jobs_[static_cast<size_t>(job)];
}

int32_t ReplayRecorder::QueueIndex(const std::string& name) {
  for (size_t i = 0; i < queue_names_.size(); ++i) {
    if (queue_names_[i] == name) return static_cast<int32_t>(i);
  }
  queue_names_.push_back(name);
  queue_guaranteed_.push_back(0);
  return static_cast<int32_t>(queue_names_.size() - 1);
}

ReplayRecorder::QueueWindow& ReplayRecorder::WindowAt(Duration at, int32_t queue) {
  const int64_t w = std::max<int64_t>(0, at / options_.fairness_window);
  if (static_cast<size_t>(w) >= windows_.size()) windows_.resize(static_cast<size_t>(w) + 1);
  auto& row = windows_[static_cast<size_t>(w)];
  if (static_cast<size_t>(queue) >= row.size()) row.resize(static_cast<size_t>(queue) + 1);
  return row[static_cast<size_t>(queue)];
}

void ReplayRecorder::ChangeUsage(Duration at, int32_t queue, int64_t memory_mb, int64_t vcores) {
  at = std::max(at, Duration(0));
  Bucket& b = BucketAt(at);
  const Duration bucket_end = (at / options_.bucket + 1) * options_.bucket;
  const double left = Seconds(bucket_end - at);
  b.memory_delta += static_cast<double>(memory_mb);
  b.memory_partial += static_cast<double>(memory_mb) * left;
  b.vcores_delta += static_cast<double>(vcores);
  b.vcores_partial += static_cast<double>(vcores) * left;
  QueueWindow& w = WindowAt(at, queue);
  const Duration window_end = (at / options_.fairness_window + 1) * options_.fairness_window;
  w.delta += static_cast<double>(memory_mb);
  w.partial += static_cast<double>(memory_mb) * Seconds(window_end - at);
  if (memory_mb > 0) w.demand = true;
}

void ReplayRecorder::OnJobSubmitted(int64_t job, const std::string& trace_id,
                                    const std::string& queue, int64_t tasks, Duration at) {
  MutexLock lock(&mu_);
  JobRecord& j = Job(job);
  j.trace_id = trace_id;
  j.queue = QueueIndex(queue);
  j.tasks = tasks;
  j.submitted = at;
  ++BucketAt(at).submitted_jobs;
}

void ReplayRecorder::OnJobRejected(int64_t job, const std::string& reason, Duration at) {
  MutexLock lock(&mu_);
  JobRecord& j = Job(job);
  j.rejected = true;
  j.finished = at;
  rejections_.push_back(j.trace_id + ": " + reason);
}

void ReplayRecorder::OnTasksAsked(int64_t job, int64_t count, Duration at) {
  MutexLock lock(&mu_);
  Bucket& b = BucketAt(at);
  b.asked += count;
  const JobRecord& j = Job(job);
  if (j.queue >= 0) WindowAt(at, j.queue).demand = true;
}

void ReplayRecorder::OnTaskPlaced(int64_t job, Duration asked, Duration placed, int64_t node,
                                  int64_t memory_mb, int64_t vcores, bool with_preference,
                                  bool preferred) {
  (void)node;
  MutexLock lock(&mu_);
  JobRecord& j = Job(job);
  ++j.placed;
  if (j.first_placed < Duration(0)) j.first_placed = placed;
  j.last_placed = std::max(j.last_placed, placed);
  Bucket& b = BucketAt(placed);
  ++b.placed;
  const double delay = std::max(0.0, Millis(placed - asked));
  b.delays_ms.push_back(delay);
  all_delays_ms_.push_back(delay);
  if (with_preference) {
    ++b.with_preference;
    if (preferred) ++b.preferred;
  }
  ChangeUsage(placed, std::max(j.queue, 0), memory_mb, vcores);
}

void ReplayRecorder::OnTaskEnded(int64_t job, Duration at, int64_t memory_mb, int64_t vcores) {
  MutexLock lock(&mu_);
  JobRecord& j = Job(job);
  ++j.ended;
  ++BucketAt(at).ended;
  ChangeUsage(at, std::max(j.queue, 0), -memory_mb, -vcores);
}

void ReplayRecorder::OnJobFinished(int64_t job, Duration at) {
  MutexLock lock(&mu_);
  Job(job).finished = at;
}

void ReplayRecorder::OnConflicts(Duration at, int64_t count) {
  if (count <= 0) return;
  MutexLock lock(&mu_);
  BucketAt(at).conflicts += count;
}

ReplayModeResult ReplayRecorder::Finish(Duration end) const {
  MutexLock lock(&mu_);
  ReplayModeResult r;
  r.end_s = Seconds(end);
  r.queues = queue_names_;
  r.queue_guaranteed = queue_guaranteed_;
  r.rejections = rejections_;

  // Jobs.
  std::vector<double> jct;
  Duration first_submit = Duration::max();
  Duration last_finish{0};
  for (const JobRecord& j : jobs_) {
    if (j.submitted < Duration(0)) continue;
    ++r.jobs_submitted;
    first_submit = std::min(first_submit, j.submitted);
    if (j.rejected) {
      ++r.jobs_rejected;
      continue;
    }
    if (j.finished >= Duration(0)) {
      ++r.jobs_finished;
      jct.push_back(Seconds(j.finished - j.submitted));
      last_finish = std::max(last_finish, j.finished);
    }
  }
  r.jct_s = Summarize(&jct);
  if (r.jobs_finished > 0) r.makespan_s = Seconds(last_finish - first_submit);

  // Tasks, series.
  std::vector<double> delays = all_delays_ms_;
  r.delay_ms = Summarize(&delays);
  const double bucket_s = Seconds(options_.bucket);
  const auto buckets = static_cast<size_t>(
      std::max<int64_t>(static_cast<int64_t>(buckets_.size()),
                        (end + options_.bucket - Duration(1)) / options_.bucket));
  int64_t with_pref = 0;
  int64_t preferred = 0;
  int64_t asked = 0;
  int64_t placed = 0;
  int64_t ended = 0;
  r.series.resize(buckets);
  for (size_t i = 0; i < buckets; ++i) {
    ReplaySeriesRow& row = r.series[i];
    row.second = static_cast<int64_t>(i);
    if (i < buckets_.size()) {
      const Bucket& b = buckets_[i];
      row.jobs_submitted = b.submitted_jobs;
      row.asked = b.asked;
      row.placed = b.placed;
      row.ended = b.ended;
      row.conflicts = b.conflicts;
      std::vector<double> d = b.delays_ms;
      std::sort(d.begin(), d.end());
      row.delay_p50_ms = Percentile(d, 0.5);
      row.delay_p99_ms = Percentile(d, 0.99);
      if (b.with_preference > 0) {
        row.quality = static_cast<double>(b.preferred) / static_cast<double>(b.with_preference);
      }
      with_pref += b.with_preference;
      preferred += b.preferred;
      r.conflicts += b.conflicts;
      asked += b.asked;
      placed += b.placed;
      ended += b.ended;
    }
    row.backlog = asked - placed;
    row.running = placed - ended;
  }
  r.tasks_asked = asked;
  r.tasks_placed = placed;
  r.tasks_ended = ended;
  if (with_pref > 0) r.quality = static_cast<double>(preferred) / static_cast<double>(with_pref);
  if (r.end_s > 0) r.conflicts_per_s = static_cast<double>(r.conflicts) / r.end_s;

  // Utilisation: the integral of allocated resources over each bucket is
  // the level at its start times its length plus its changes' partials.
  const double cap_mb = static_cast<double>(std::max<int64_t>(1, options_.capacity_memory_mb));
  const double cap_vc = static_cast<double>(std::max<int64_t>(1, options_.capacity_vcores));
  double memory = 0;
  double vcores = 0;
  double memory_total = 0;
  double vcores_total = 0;
  for (size_t i = 0; i < buckets; ++i) {
    double memory_s = memory * bucket_s;
    double vcores_s = vcores * bucket_s;
    if (i < buckets_.size()) {
      memory_s += buckets_[i].memory_partial;
      vcores_s += buckets_[i].vcores_partial;
      memory += buckets_[i].memory_delta;
      vcores += buckets_[i].vcores_delta;
    }
    r.series[i].utilisation_memory = memory_s / (cap_mb * bucket_s);
    r.series[i].utilisation_vcores = vcores_s / (cap_vc * bucket_s);
    // The run ends inside the last bucket: what it held after the end is
    // not part of the run.
    const double past_end = Seconds(options_.bucket * static_cast<int64_t>(i + 1) - end);
    if (past_end > 0) {
      memory_s -= memory * past_end;
      vcores_s -= vcores * past_end;
    }
    memory_total += memory_s;
    vcores_total += vcores_s;
  }
  if (r.end_s > 0) {
    r.utilisation_memory = memory_total / (cap_mb * r.end_s);
    r.utilisation_vcores = vcores_total / (cap_vc * r.end_s);
  }
  // Queue shares per window, the same way.
  const size_t queues = queue_names_.size();
  const auto windows =
      static_cast<size_t>((std::max(end, Duration(1)) + options_.fairness_window - Duration(1)) /
                          options_.fairness_window);
  const double window_s = Seconds(options_.fairness_window);
  std::vector<double> level(queues, 0);
  std::vector<std::vector<double>> queue_mb_s(windows, std::vector<double>(queues, 0));
  std::vector<std::vector<uint8_t>> demand(windows, std::vector<uint8_t>(queues, 0));
  for (size_t w = 0; w < windows; ++w) {
    for (size_t q = 0; q < queues; ++q) {
      double mb_s = level[q] * window_s;
      demand[w][q] = level[q] > 0;
      if (w < windows_.size() && q < windows_[w].size()) {
        const QueueWindow& qw = windows_[w][q];
        mb_s += qw.partial;
        level[q] += qw.delta;
        if (qw.demand) demand[w][q] = 1;
      }
      const double past_end = Seconds(options_.fairness_window * static_cast<int64_t>(w + 1) - end);
      if (past_end > 0) mb_s -= level[q] * past_end;
      queue_mb_s[w][q] = mb_s;
    }
  }
  double jain_sum = 0;
  int jain_n = 0;
  for (size_t w = 0; w < windows; ++w) {
    FairnessWindow fw;
    fw.start_s = Seconds(options_.fairness_window * static_cast<int64_t>(w));
    fw.end_s = std::min(r.end_s, Seconds(options_.fairness_window * static_cast<int64_t>(w + 1)));
    const double span = std::max(1e-9, fw.end_s - fw.start_s);
    std::vector<double> normalised;
    for (size_t q = 0; q < queues; ++q) {
      const double share = queue_mb_s[w][q] / (cap_mb * span);
      fw.share.push_back(share);
      if (demand[w][q] && queue_guaranteed_[q] > 0) {
        normalised.push_back(share / queue_guaranteed_[q]);
      }
    }
    fw.jain = Jain(normalised);
    if (fw.jain >= 0) {
      jain_sum += fw.jain;
      ++jain_n;
      r.jain_min = r.jain_min < 0 ? fw.jain : std::min(r.jain_min, fw.jain);
    }
    r.windows.push_back(std::move(fw));
  }
  if (jain_n > 0) r.jain_mean = jain_sum / jain_n;
  return r;
}

}  // namespace spindle::replay

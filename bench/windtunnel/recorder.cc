#include "bench/windtunnel/recorder.h"

#include <algorithm>

namespace spindle::windtunnel {

namespace {

constexpr Duration kSecond = std::chrono::seconds(1);

double Ms(Duration d) { return std::chrono::duration<double, std::milli>(d).count(); }
double Sec(Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

void Recorder::Window::Merge(const Window& o) {
  submitted += o.submitted;
  committed += o.committed;
  conflicts += o.conflicts;
  with_preference += o.with_preference;
  preferred += o.preferred;
  score_sum += o.score_sum;
  delay.Merge(o.delay);
  util_sum += o.util_sum;
  util_samples += o.util_samples;
  if (o.backlog_at >= backlog_at) {
    backlog_at = o.backlog_at;
    backlog_end = o.backlog_end;
  }
  backlog_max = std::max(backlog_max, o.backlog_max);
  jobs += o.jobs;
  jobs_scheduled += o.jobs_scheduled;
  jobs_done += o.jobs_done;
  jsd.Merge(o.jsd);
  jct.Merge(o.jct);
}

Recorder::Recorder(std::vector<PhaseSpec> phases, int64_t total_slots)
    : phases_(std::move(phases)), total_slots_(total_slots), windows_(phases_.size() + 1) {}

int Recorder::WindowAt(Duration t) const {
  for (size_t i = 0; i < phases_.size(); ++i) {
    if (t < phases_[i].end) return static_cast<int>(i);
  }
  return static_cast<int>(phases_.size());
}

Recorder::Window& Recorder::Second(Duration t) {
  const auto s = static_cast<size_t>(std::max<int64_t>(0, t / kSecond));
  if (seconds_.size() <= s) seconds_.resize(s + 1);
  return seconds_[s];
}

void Recorder::OnSubmit(Duration at, int64_t tasks) {
  windows_[static_cast<size_t>(WindowAt(at))].submitted += tasks;
  windows_[static_cast<size_t>(WindowAt(at))].jobs += 1;
  Second(at).submitted += tasks;
}

void Recorder::OnCommit(Duration asked, Duration committed, bool with_preference, bool preferred,
                        double score) {
  for (Window* w : {&windows_[static_cast<size_t>(WindowAt(committed))], &Second(committed)}) {
    ++w->committed;
    w->delay.Record(committed - asked);
    w->with_preference += with_preference;
    w->preferred += with_preference && preferred;
    w->score_sum += score;
  }
}

void Recorder::OnConflicts(Duration at, int64_t count) {
  if (count <= 0) return;
  windows_[static_cast<size_t>(WindowAt(at))].conflicts += count;
  Second(at).conflicts += count;
}

void Recorder::OnJobScheduled(Duration submitted, Duration last_commit) {
  Window& w = windows_[static_cast<size_t>(WindowAt(submitted))];
  ++w.jobs_scheduled;
  w.jsd.Record(last_commit - submitted);
}

void Recorder::OnJobDone(Duration submitted, Duration last_end) {
  Window& w = windows_[static_cast<size_t>(WindowAt(submitted))];
  ++w.jobs_done;
  w.jct.Record(last_end - submitted);
}

void Recorder::OnSample(Duration at, int64_t backlog, int64_t held_slots,
                        int quality_first_schedulers) {
  const double util =
      total_slots_ <= 0 ? 0 : static_cast<double>(held_slots) / static_cast<double>(total_slots_);
  // A sample at the end of a second describes that second (and window).
  const Duration t = at > Duration(0) ? at - Duration(1) : at;
  for (Window* w : {&windows_[static_cast<size_t>(WindowAt(t))], &Second(t)}) {
    w->util_sum += util;
    ++w->util_samples;
    if (at >= w->backlog_at) {
      w->backlog_at = at;
      w->backlog_end = backlog;
    }
    w->backlog_max = std::max(w->backlog_max, backlog);
    w->quality_first = quality_first_schedulers;
  }
}

void Recorder::Fill(const Window& w, double seconds, PhaseResult* out) {
  out->submitted = w.submitted;
  out->committed = w.committed;
  out->throughput = seconds > 0 ? static_cast<double>(w.committed) / seconds : 0;
  out->delay_mean_ms = Ms(w.delay.mean());
  out->delay_p50_ms = Ms(w.delay.Percentile(0.50));
  out->delay_p90_ms = Ms(w.delay.Percentile(0.90));
  out->delay_p99_ms = Ms(w.delay.Percentile(0.99));
  out->delay_max_ms = Ms(w.delay.max());
  out->backlog_end = w.backlog_end;
  out->backlog_max = w.backlog_max;
  out->conflicts = w.conflicts;
  out->conflicts_per_s = seconds > 0 ? static_cast<double>(w.conflicts) / seconds : 0;
  out->quality = w.with_preference == 0 ? 0 : static_cast<double>(w.preferred) / w.with_preference;
  out->mean_score = w.committed == 0 ? 0 : w.score_sum / static_cast<double>(w.committed);
  out->utilisation = w.util_samples == 0 ? 0 : w.util_sum / static_cast<double>(w.util_samples);
  out->jobs = w.jobs;
  out->jobs_scheduled = w.jobs_scheduled;
  out->jobs_done = w.jobs_done;
  out->jsd_mean_ms = Ms(w.jsd.mean());
  out->jsd_p99_ms = Ms(w.jsd.Percentile(0.99));
  out->jct_mean_s = Sec(w.jct.mean());
  out->jct_p99_s = Sec(w.jct.Percentile(0.99));
}

void Recorder::Finish(Duration end, ModeResult* out) const {
  out->phases.clear();
  Window all;
  const Duration phases_end = phases_.empty() ? Duration(0) : phases_.back().end;
  for (size_t i = 0; i <= phases_.size(); ++i) {
    const Window& w = windows_[i];
    all.Merge(w);
    PhaseResult r;
    if (i < phases_.size()) {
      r.name = std::to_string(i + 1);
      r.fraction = phases_[i].fraction;
      r.offered_rate = phases_[i].rate;
      r.start_s = Sec(phases_[i].start);
      r.end_s = Sec(phases_[i].end);
    } else {
      r.name = "drain";
      r.start_s = Sec(phases_end);
      r.end_s = Sec(std::max(end, phases_end));
    }
    Fill(w, r.end_s - r.start_s, &r);
    out->phases.push_back(r);
  }
  out->total = PhaseResult();
  out->total.name = "all";
  out->total.end_s = Sec(std::max(end, phases_end));
  Fill(all, out->total.end_s, &out->total);
  if (out->total.end_s > 0 && phases_end > Duration(0)) {
    out->total.offered_rate = static_cast<double>(all.submitted) / Sec(phases_end);
  }

  out->series.clear();
  const auto seconds =
      std::min<size_t>(seconds_.size(), static_cast<size_t>(std::max<int64_t>(0, end / kSecond)));
  for (size_t s = 0; s < seconds; ++s) {
    const Window& w = seconds_[s];
    SeriesRow row;
    row.second = static_cast<int64_t>(s);
    row.phase = WindowAt(static_cast<int64_t>(s) * kSecond) + 1;
    row.submitted = w.submitted;
    row.committed = w.committed;
    row.conflicts = w.conflicts;
    row.backlog = w.backlog_end;
    row.utilisation = w.util_samples == 0 ? 0 : w.util_sum / static_cast<double>(w.util_samples);
    row.delay_p50_ms = Ms(w.delay.Percentile(0.50));
    row.delay_p90_ms = Ms(w.delay.Percentile(0.90));
    row.delay_p99_ms = Ms(w.delay.Percentile(0.99));
    row.quality = w.with_preference == 0 ? 0 : static_cast<double>(w.preferred) / w.with_preference;
    row.mean_score = w.committed == 0 ? 0 : w.score_sum / static_cast<double>(w.committed);
    row.quality_first_schedulers = w.quality_first;
    out->series.push_back(row);
  }
}

}  // namespace spindle::windtunnel

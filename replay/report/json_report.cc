#include "base/json/json_writer.h"
#include "replay/report/replay_writers.h"

namespace spindle::replay {

using json::JsonWriter;

namespace {

void WriteSummary(JsonWriter* w, const std::string& key, const SampleSummary& d) {
  w->Key(key);
  w->BeginObject();
  w->Field("count", d.count);
  w->Field("mean", d.mean);
  w->Field("p50", d.p50);
  w->Field("p90", d.p90);
  w->Field("p99", d.p99);
  w->Field("max", d.max);
  w->Key("cdf");
  w->BeginArray();
  for (const auto& [v, f] : d.cdf) {
    w->BeginArray();
    w->Num(v);
    w->Num(f);
    w->EndArray();
  }
  w->EndArray();
  w->EndObject();
}

void WriteMode(JsonWriter* w, const ReplayModeResult& m) {
  w->BeginObject();
  w->Field("label", m.label);
  w->Field("driver", m.driver);
  w->Field("wall_seconds", m.wall_seconds);
  w->Field("end_s", m.end_s);
  w->Field("jobs_submitted", m.jobs_submitted);
  w->Field("jobs_rejected", m.jobs_rejected);
  w->Field("jobs_finished", m.jobs_finished);
  w->Field("tasks_asked", m.tasks_asked);
  w->Field("tasks_placed", m.tasks_placed);
  w->Field("tasks_ended", m.tasks_ended);
  WriteSummary(w, "delay_ms", m.delay_ms);
  WriteSummary(w, "jct_s", m.jct_s);
  w->Field("quality", m.quality);
  w->Field("conflicts", m.conflicts);
  w->Field("conflicts_per_s", m.conflicts_per_s);
  w->Field("utilisation_memory", m.utilisation_memory);
  w->Field("utilisation_vcores", m.utilisation_vcores);
  w->Field("makespan_s", m.makespan_s);
  w->Field("jain_mean", m.jain_mean);
  w->Field("jain_min", m.jain_min);
  w->Key("queues");
  w->BeginArray();
  for (size_t q = 0; q < m.queues.size(); ++q) {
    w->BeginObject();
    w->Field("name", m.queues[q]);
    w->Field("guaranteed", q < m.queue_guaranteed.size() ? m.queue_guaranteed[q] : 0.0);
    w->EndObject();
  }
  w->EndArray();
  w->Key("windows");
  w->BeginArray();
  for (const FairnessWindow& fw : m.windows) {
    w->BeginObject();
    w->Field("start_s", fw.start_s);
    w->Field("end_s", fw.end_s);
    w->Field("jain", fw.jain);
    w->Key("share");
    w->BeginArray();
    for (double s : fw.share) w->Num(s);
    w->EndArray();
    w->EndObject();
  }
  w->EndArray();
  w->Key("series");
  w->BeginArray();
  for (const ReplaySeriesRow& r : m.series) {
    w->BeginObject();
    w->Field("second", r.second);
    w->Field("jobs_submitted", r.jobs_submitted);
    w->Field("asked", r.asked);
    w->Field("placed", r.placed);
    w->Field("ended", r.ended);
    w->Field("conflicts", r.conflicts);
    w->Field("backlog", r.backlog);
    w->Field("running", r.running);
    w->Field("utilisation_memory", r.utilisation_memory);
    w->Field("utilisation_vcores", r.utilisation_vcores);
    w->Field("delay_p50_ms", r.delay_p50_ms);
    w->Field("delay_p99_ms", r.delay_p99_ms);
    w->Field("quality", r.quality);
    w->EndObject();
  }
  w->EndArray();
  if (!m.rm.empty()) w->Field("rm", m.rm);
  if (m.failover.ha) {
    const RmFailoverSummary& f = m.failover;
    w->Key("rm_failover");
    w->BeginObject();
    w->Field("rm_ids", f.rm_ids);
    w->Field("client_failovers", f.client_failovers);
    w->Field("am_failovers", f.am_failovers);
    w->Field("am_resyncs", f.am_resyncs);
    w->Field("resubmissions", f.resubmissions);
    w->Field("finishes_seen_in_report", f.finishes_seen_in_report);
    w->Field("first_failover_s", f.first_failover_s);
    w->Field("serving_at_end", f.serving_at_end);
    w->EndObject();
  }
  w->Key("tenants");
  w->BeginArray();
  for (const TenantSample& t : m.tenants) {
    w->BeginObject();
    w->Field("at_s", t.at_s);
    w->Key("rows");
    w->BeginArray();
    for (const TenantRow& r : t.rows) {
      w->BeginObject();
      w->Field("queue", r.queue);
      w->Field("user", r.user);
      w->Field("memory_mb", r.memory_mb);
      w->Field("vcores", r.vcores);
      w->Field("containers", r.containers);
      w->Field("apps_running", r.apps_running);
      w->Field("apps_pending", r.apps_pending);
      w->Field("preempted", r.preempted);
      w->Field("preemption_messages", r.preemption_messages);
      if (r.user.empty()) {
        w->Field("scheduler_apps_running", r.scheduler_apps_running);
        w->Field("scheduler_apps_pending", r.scheduler_apps_pending);
      }
      w->EndObject();
    }
    w->EndArray();
    if (t.jobs_counted) {
      w->Key("jobs");
      w->BeginArray();
      for (const JobHolding& j : t.jobs) {
        w->BeginObject();
        w->Field("job", j.job);
        w->Field("memory_mb", j.memory_mb);
        w->EndObject();
      }
      w->EndArray();
    }
    w->EndObject();
  }
  w->EndArray();
  w->Field("cut", m.cut);
  for (const auto* list : {&m.violations, &m.rejections}) {
    w->Key(list == &m.violations ? "violations" : "rejections");
    w->BeginArray();
    for (const std::string& v : *list) w->Str(v);
    w->EndArray();
  }
  w->EndObject();
}

}  // namespace

std::string ToJson(const ReplayReport& report) {
  JsonWriter w;
  w.BeginObject();
  w.Field("title", report.title);
  w.Key("settings");
  w.BeginObject();
  for (const ReplaySetting& s : report.settings) w.Field(s.key, s.value);
  w.EndObject();
  for (const auto* list : {&report.warnings, &report.not_run}) {
    w.Key(list == &report.warnings ? "warnings" : "not_run");
    w.BeginArray();
    for (const std::string& v : *list) w.Str(v);
    w.EndArray();
  }
  w.Key("modes");
  w.BeginArray();
  for (const ReplayModeResult& m : report.modes) WriteMode(&w, m);
  w.EndArray();
  w.EndObject();
  return w.Take() + "\n";
}

}  // namespace spindle::replay

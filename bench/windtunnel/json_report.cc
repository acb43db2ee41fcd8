#include "bench/windtunnel/json_report.h"

#include <cmath>
#include <cstdio>

#include "base/json/json_writer.h"

namespace spindle::windtunnel {

using json::JsonWriter;

namespace {

void WritePhase(JsonWriter& w, const PhaseResult& p) {
  w.BeginObject();
  w.Field("name", p.name);
  w.Field("fraction", p.fraction);
  w.Field("offered_rate", p.offered_rate);
  w.Field("start_s", p.start_s);
  w.Field("end_s", p.end_s);
  w.Field("submitted", p.submitted);
  w.Field("committed", p.committed);
  w.Field("throughput", p.throughput);
  w.Field("delay_mean_ms", p.delay_mean_ms);
  w.Field("delay_p50_ms", p.delay_p50_ms);
  w.Field("delay_p90_ms", p.delay_p90_ms);
  w.Field("delay_p99_ms", p.delay_p99_ms);
  w.Field("delay_max_ms", p.delay_max_ms);
  w.Field("backlog_end", p.backlog_end);
  w.Field("backlog_max", p.backlog_max);
  w.Field("conflicts", p.conflicts);
  w.Field("conflicts_per_s", p.conflicts_per_s);
  w.Field("quality", p.quality);
  w.Field("mean_score", p.mean_score);
  w.Field("utilisation", p.utilisation);
  w.Field("jobs", p.jobs);
  w.Field("jobs_scheduled", p.jobs_scheduled);
  w.Field("jobs_done", p.jobs_done);
  w.Field("jsd_mean_ms", p.jsd_mean_ms);
  w.Field("jsd_p99_ms", p.jsd_p99_ms);
  w.Field("jct_mean_s", p.jct_mean_s);
  w.Field("jct_p99_s", p.jct_p99_s);
  w.EndObject();
}

void WriteMode(JsonWriter& w, const ModeResult& m) {
  w.BeginObject();
  w.Field("label", m.label);
  w.Field("mode", m.mode);
  w.Field("strategy", m.strategy);
  w.Field("clock", m.clock);
  w.Field("schedulers", m.schedulers);
  w.Field("submitted", m.submitted);
  w.Field("committed", m.committed);
  w.Field("uncommitted_at_end", m.uncommitted_at_end);
  w.Field("last_commit_s", m.last_commit_s);
  w.Field("all_committed", m.all_committed);
  w.Field("decisions", m.decisions);
  w.Field("wall_seconds", m.wall_seconds);
  w.Field("invariants_ok", m.invariants_ok);
  w.Field("staleness_mean_ms", m.staleness_mean_ms);
  w.Field("staleness_max_ms", m.staleness_max_ms);
  w.Field("remote_members", m.remote_members);
  if (m.remote_members > 0) {
    w.Field("remote_rtt_us", m.remote_rtt_us);
    w.Field("member_placements", m.member_placements);
    w.Field("wire_calls", m.wire_calls);
    w.Field("wire_bytes", m.wire_bytes);
    w.Field("wire_bytes_per_s", m.wire_bytes_per_s);
    w.Field("wire_bytes_per_placement", m.wire_bytes_per_placement);
    w.Field("member_staleness_mean_ms", m.member_staleness_mean_ms);
    w.Field("member_staleness_max_ms", m.member_staleness_max_ms);
  }
  w.Key("phases");
  w.BeginArray();
  for (const PhaseResult& p : m.phases) WritePhase(w, p);
  w.EndArray();
  w.Key("total");
  WritePhase(w, m.total);
  w.Key("series");
  w.BeginArray();
  for (const SeriesRow& s : m.series) {
    w.BeginObject();
    w.Field("second", s.second);
    w.Field("phase", s.phase);
    w.Field("submitted", s.submitted);
    w.Field("committed", s.committed);
    w.Field("conflicts", s.conflicts);
    w.Field("backlog", s.backlog);
    w.Field("utilisation", s.utilisation);
    w.Field("delay_p50_ms", s.delay_p50_ms);
    w.Field("delay_p90_ms", s.delay_p90_ms);
    w.Field("delay_p99_ms", s.delay_p99_ms);
    w.Field("quality", s.quality);
    w.Field("mean_score", s.mean_score);
    w.Field("quality_first_schedulers", s.quality_first_schedulers);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace

std::string ToJson(const WindTunnelReport& r) {
  JsonWriter w;
  w.BeginObject();
  w.Field("bench", "windtunnel");
  w.Field("clock", r.clock);
  w.Key("settings");
  w.BeginObject();
  for (const Setting& s : r.settings) w.Field(s.key, s.value);
  w.EndObject();
  w.Key("modes");
  w.BeginArray();
  for (const ModeResult& m : r.modes) WriteMode(w, m);
  w.EndArray();
  w.Key("ratios");
  w.BeginArray();
  for (const RatioRow& x : ComputeRatios(r, "parsync/latency-first")) {
    w.BeginObject();
    w.Field("mode", x.label);
    w.Field("reference", x.reference);
    w.Field("phase", x.phase);
    w.Field("delay_p99", x.delay_p99);
    w.Field("delay_mean", x.delay_mean);
    w.Field("conflicts", x.conflicts);
    w.Field("throughput", x.throughput);
    w.Field("quality", x.quality);
    w.Field("jsd_mean", x.jsd_mean);
    w.EndObject();
  }
  w.EndArray();
  w.Key("figures");
  w.BeginArray();
  for (const FigureTable& t : r.figures) {
    w.BeginObject();
    w.Field("id", t.id);
    w.Field("title", t.title);
    w.Field("x_label", t.x_label);
    w.Field("max_percent", t.max_percent);
    w.Field("seeds", t.seeds);
    w.Key("xs");
    w.BeginArray();
    for (double x : t.xs) w.Num(x);
    w.EndArray();
    w.Key("series");
    w.BeginArray();
    for (size_t s = 0; s < t.series.size(); ++s) {
      w.BeginObject();
      w.Field("name", t.series[s]);
      w.Key("extra_percent");
      w.BeginArray();
      for (double v : t.extra_percent[s]) {
        if (v < 0) {
          w.Num(NAN);  // not enough even at max_percent: null
        } else {
          w.Num(v);
        }
      }
      w.EndArray();
      w.Key("extra_slots");
      w.BeginArray();
      for (double v : t.extra_slots[s]) {
        if (v < 0) {
          w.Num(NAN);
        } else {
          w.Num(v);
        }
      }
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("figure5");
  w.BeginArray();
  for (const PhaseFigure& f : r.phase_figures) {
    w.BeginObject();
    w.Field("id", f.id);
    w.Field("title", f.title);
    w.Field("metric", f.metric);
    w.Field("unit", f.unit);
    w.Key("phases");
    w.BeginArray();
    for (size_t i = 0; i < f.phases.size(); ++i) {
      w.BeginObject();
      w.Field("name", f.phases[i]);
      w.Field("fraction", f.fractions[i]);
      w.EndObject();
    }
    w.EndArray();
    w.Key("series");
    w.BeginArray();
    for (size_t s = 0; s < f.series.size(); ++s) {
      w.BeginObject();
      w.Field("name", f.series[s]);
      w.Key("values");
      w.BeginArray();
      for (double v : f.values[s]) w.Num(v);
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("trends");
  w.BeginArray();
  for (const TrendCheck& t : r.trends) {
    w.BeginObject();
    w.Field("figure", t.figure);
    w.Field("claim", t.claim);
    w.Field("holds", t.holds);
    w.Field("detail", t.detail);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  std::string out = w.Take();
  out += '\n';
  return out;
}

}  // namespace spindle::windtunnel

#include "bench/windtunnel/text_report.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <functional>

namespace spindle::windtunnel {

namespace {

void Append(std::string* out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void Append(std::string* out, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  if (n > 0) out->append(buf, static_cast<size_t>(std::min<int>(n, sizeof(buf) - 1)));
}

std::string PhaseName(const PhaseResult& p) {
  if (p.fraction > 0) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%s@%.0f%%", p.name.c_str(), p.fraction * 100);
    return buf;
  }
  return p.name;
}

const ModeResult* Find(const WindTunnelReport& r, const std::string& label) {
  for (const ModeResult& m : r.modes) {
    if (m.label == label) return &m;
  }
  return nullptr;
}

const PhaseResult* PeakPhase(const ModeResult& m) {
  const PhaseResult* best = nullptr;
  for (const PhaseResult& p : m.phases) {
    if (p.fraction > 0 && (best == nullptr || p.fraction > best->fraction)) best = &p;
  }
  return best;
}

}  // namespace

std::string FormatModeTable(const ModeResult& m) {
  std::string out;
  Append(&out, "%s (%s clock, N=%d)%s\n", m.label.c_str(), m.clock.c_str(), m.schedulers,
         m.invariants_ok ? "" : "  [CELL INVARIANTS BROKEN]");
  Append(&out, "%-8s %8s %8s %9s %9s %9s %9s %8s %8s %7s %6s %5s %6s %9s %7s\n", "phase", "offer/s",
         "thru/s", "mean ms", "p50 ms", "p90 ms", "p99 ms", "backlog", "confl/s", "quality",
         "score", "util", "jobs", "JSD ms", "JCT s");
  auto row = [&](const PhaseResult& p) {
    // Job figures only where some job of the window was scheduled / done.
    char jsd[32] = "-";
    char jct[32] = "-";
    if (p.jobs_scheduled > 0) std::snprintf(jsd, sizeof(jsd), "%.1f", p.jsd_mean_ms);
    if (p.jobs_done > 0) std::snprintf(jct, sizeof(jct), "%.2f", p.jct_mean_s);
    Append(&out,
           "%-8s %8.0f %8.0f %9.1f %9.1f %9.1f %9.1f %8lld %8.0f %7.3f %6.2f %5.2f %6lld %9s %7s\n",
           PhaseName(p).c_str(), p.offered_rate, p.throughput, p.delay_mean_ms, p.delay_p50_ms,
           p.delay_p90_ms, p.delay_p99_ms, static_cast<long long>(p.backlog_end), p.conflicts_per_s,
           p.quality, p.mean_score, p.utilisation, static_cast<long long>(p.jobs), jsd, jct);
  };
  for (const PhaseResult& p : m.phases) row(p);
  row(m.total);
  Append(&out, "  submitted %lld, committed %lld, uncommitted at end %lld, last commit at %.1f s",
         static_cast<long long>(m.submitted), static_cast<long long>(m.committed),
         static_cast<long long>(m.uncommitted_at_end), m.last_commit_s);
  if (m.decisions > 0) Append(&out, ", %lld decisions", static_cast<long long>(m.decisions));
  Append(&out, ", %.1f s wall\n", m.wall_seconds);
  return out;
}

std::string FormatSummary(const WindTunnelReport& r) {
  std::string out;
  if (r.modes.empty()) return out;
  const ModeResult& first = r.modes.front();
  struct Metric {
    const char* title;
    const char* fmt;
    std::function<double(const PhaseResult&)> get;
  };
  const Metric metrics[] = {
      {"p99 scheduling delay (ms)", "%10.1f", [](const PhaseResult& p) { return p.delay_p99_ms; }},
      {"mean scheduling delay (ms)", "%10.1f",
       [](const PhaseResult& p) { return p.delay_mean_ms; }},
      {"backlog at phase end (tasks)", "%10.0f",
       [](const PhaseResult& p) { return static_cast<double>(p.backlog_end); }},
      {"conflicts per second", "%10.0f", [](const PhaseResult& p) { return p.conflicts_per_s; }},
      {"throughput (tasks/s)", "%10.0f", [](const PhaseResult& p) { return p.throughput; }},
      {"quality (share on preferred nodes)", "%10.3f",
       [](const PhaseResult& p) { return p.quality; }},
      {"utilisation", "%10.3f", [](const PhaseResult& p) { return p.utilisation; }},
      {"job scheduling delay, mean (ms)", "%10.1f",
       [](const PhaseResult& p) { return p.jsd_mean_ms; }},
      {"job completion time, mean (s)", "%10.2f",
       [](const PhaseResult& p) { return p.jct_mean_s; }},
  };
  for (const Metric& metric : metrics) {
    Append(&out, "%s\n%-26s", metric.title, "mode \\ phase");
    for (const PhaseResult& p : first.phases) Append(&out, " %10s", PhaseName(p).c_str());
    Append(&out, " %10s\n", "all");
    for (const ModeResult& m : r.modes) {
      Append(&out, "%-26s", m.label.c_str());
      for (const PhaseResult& p : m.phases) Append(&out, metric.fmt, metric.get(p));
      Append(&out, metric.fmt, metric.get(m.total));
      out += "\n";
    }
  }
  return out;
}

std::string FormatRemoteComparison(const WindTunnelReport& r) {
  std::string out;
  for (const ModeResult& remote : r.modes) {
    if (remote.remote_members == 0) continue;
    const ModeResult* local = nullptr;
    for (const ModeResult& m : r.modes) {
      if (m.remote_members == 0 && m.mode == remote.mode && m.strategy == remote.strategy) {
        local = &m;
      }
    }
    if (local == nullptr) continue;
    Append(&out, "\n%s: in-process (N=%d) vs %d of them remote", local->label.c_str(),
           local->schedulers, remote.remote_members);
    if (remote.remote_rtt_us > 0) Append(&out, " (RTT %.0f us modelled)", remote.remote_rtt_us);
    Append(&out, "\n%-8s %21s %21s %21s %21s\n", "phase", "tasks/s in | remote",
           "p50 ms in | remote", "p99 ms in | remote", "conflicts in | remote");
    const size_t n = std::min(local->phases.size(), remote.phases.size());
    const auto row = [&](const PhaseResult& a, const PhaseResult& b) {
      Append(&out, "%-8s %10.0f %10.0f %10.1f %10.1f %10.1f %10.1f %10lld %10lld\n",
             PhaseName(a).c_str(), a.throughput, b.throughput, a.delay_p50_ms, b.delay_p50_ms,
             a.delay_p99_ms, b.delay_p99_ms, static_cast<long long>(a.conflicts),
             static_cast<long long>(b.conflicts));
    };
    for (size_t i = 0; i < n; ++i) row(local->phases[i], remote.phases[i]);
    row(local->total, remote.total);
    Append(&out,
           "staleness mean / max (ms): in-process %.1f / %.1f; remote run: pool threads %.1f / "
           "%.1f, members %.1f / %.1f\n",
           local->staleness_mean_ms, local->staleness_max_ms, remote.staleness_mean_ms,
           remote.staleness_max_ms, remote.member_staleness_mean_ms,
           remote.member_staleness_max_ms);
    Append(&out,
           "members' wire: %lld calls, %lld bytes (%.0f B/s over the run, %.0f B per member "
           "placement; %lld member placements of %lld)\n",
           static_cast<long long>(remote.wire_calls), static_cast<long long>(remote.wire_bytes),
           remote.wire_bytes_per_s, remote.wire_bytes_per_placement,
           static_cast<long long>(remote.member_placements),
           static_cast<long long>(remote.committed));
  }
  return out;
}

std::string FormatRatios(const WindTunnelReport& r, const std::string& reference) {
  std::string out;
  const std::vector<RatioRow> rows = ComputeRatios(r, reference);
  if (rows.empty()) return out;
  Append(&out, "ratios to %s (x = mode / reference)\n", rows.front().reference.c_str());
  Append(&out, "%-26s %-8s %9s %9s %9s %9s %9s %9s\n", "mode", "phase", "p99", "mean", "confl",
         "thru", "quality", "JSD");
  for (const RatioRow& x : rows) {
    Append(&out, "%-26s %-8s %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f\n", x.label.c_str(),
           x.phase.c_str(), x.delay_p99, x.delay_mean, x.conflicts, x.throughput, x.quality,
           x.jsd_mean);
  }
  return out;
}

std::string FormatFigureTable(const FigureTable& t) {
  std::string out;
  Append(&out, "%s: %s\n", t.id.c_str(), t.title.c_str());
  Append(&out,
         "  extra slots needed, %% of R x T (full-scale slots), mean of %d seed%s; '>%.0f%%' = not "
         "enough\n",
         t.seeds, t.seeds == 1 ? "" : "s", t.max_percent);
  Append(&out, "  %-18s", t.x_label.c_str());
  for (double x : t.xs) Append(&out, " %14g", x);
  out += "\n";
  for (size_t s = 0; s < t.series.size(); ++s) {
    Append(&out, "  %-18s", t.series[s].c_str());
    for (size_t i = 0; i < t.xs.size(); ++i) {
      const double pct = t.extra_percent[s][i];
      char cell[64];
      if (pct < 0) {
        std::snprintf(cell, sizeof(cell), ">%.0f%%", t.max_percent);
      } else {
        std::snprintf(cell, sizeof(cell), "%.1f%% (%.0fk)", pct, t.extra_slots[s][i] / 1000);
      }
      Append(&out, " %14s", cell);
    }
    out += "\n";
  }
  return out;
}

std::string FormatPhaseFigure(const PhaseFigure& f) {
  std::string out;
  Append(&out, "%s (%s)\n%-26s", f.title.c_str(), f.unit.c_str(), "mode \\ phase");
  for (const std::string& p : f.phases) Append(&out, " %10s", p.c_str());
  out += "\n";
  const char* fmt = f.metric == "quality" ? " %10.3f" : " %10.1f";
  for (size_t s = 0; s < f.series.size(); ++s) {
    Append(&out, "%-26s", f.series[s].c_str());
    for (double v : f.values[s]) Append(&out, fmt, v);
    out += "\n";
  }
  return out;
}

std::string FormatTrends(const std::vector<TrendCheck>& trends) {
  std::string out;
  if (trends.empty()) return out;
  // This run's own verdicts; tests/bench/windtunnel/figure5_test asserts
  // them on a fixed-seed virtual run.
  Append(&out, "the paper's Figure 5 and Table 1 trends in this run\n");
  for (const TrendCheck& t : trends) {
    Append(&out, "  [%s] %s: %s\n      %s\n", t.figure.c_str(), t.claim.c_str(),
           t.holds ? "yes" : "NO", t.detail.c_str());
  }
  return out;
}

std::string FormatTargets(const WindTunnelReport& r, double tau_ms) {
  std::string out;
  Append(&out, "targets (%s clock; figures to report against, not asserts)\n", r.clock.c_str());
  const ModeResult* lf = Find(r, "parsync/latency-first");
  if (lf != nullptr) {
    double worst_p99 = 0;
    bool keeps_up = true;
    for (const PhaseResult& p : lf->phases) {
      if (p.fraction <= 0) continue;
      worst_p99 = std::max(worst_p99, p.delay_p99_ms);
      // Keeping up: at each phase end, at most 250 ms of arrivals waiting,
      // and the driver delivered the offer (at least 95% of the phase's
      // rate was submitted: a driver that falls behind submits less, which
      // leaves no backlog and is not keeping up either).
      if (static_cast<double>(p.backlog_end) > std::max(1000.0, 0.25 * p.offered_rate)) {
        keeps_up = false;
      }
      const double window_s = p.end_s - p.start_s;
      if (window_s > 0 && static_cast<double>(p.submitted) < 0.95 * p.offered_rate * window_s) {
        keeps_up = false;
      }
    }
    Append(&out,
           "  parsync/latency-first keeps up in every phase: %s; worst phase p99 %.1f ms (%s <= 50 "
           "ms)\n",
           keeps_up ? "yes" : "NO", worst_p99, worst_p99 <= 50 ? "meets" : "MISSES");
  }
  for (const char* strategy : {"latency-first", "quality-first", "adaptive"}) {
    const ModeResult* par = Find(r, std::string("parsync/") + strategy);
    const ModeResult* st = Find(r, std::string("statesync/") + strategy);
    if (par == nullptr || st == nullptr) continue;
    const double c = par->total.conflicts == 0
                         ? 0
                         : static_cast<double>(st->total.conflicts) / par->total.conflicts;
    const double d =
        par->total.delay_mean_ms == 0 ? 0 : st->total.delay_mean_ms / par->total.delay_mean_ms;
    Append(&out,
           "  statesync vs parsync (%s): conflicts x%.2f, mean delay x%.2f, p99 %.1f vs %.1f ms\n",
           strategy, c, d, st->total.delay_p99_ms, par->total.delay_p99_ms);
  }
  const ModeResult* qf = Find(r, "parsync/quality-first");
  if (qf != nullptr && !qf->phases.empty()) {
    const PhaseResult* peak = PeakPhase(*qf);
    const PhaseResult& first = qf->phases.front();
    if (peak != nullptr) {
      Append(&out,
             "  parsync/quality-first: mean delay %.1f ms at %.0f%% vs %.1f ms at %.0f%% (x%.1f), "
             "backlog %lld -> %lld\n",
             peak->delay_mean_ms, peak->fraction * 100, first.delay_mean_ms, first.fraction * 100,
             first.delay_mean_ms == 0 ? 0 : peak->delay_mean_ms / first.delay_mean_ms,
             static_cast<long long>(first.backlog_end), static_cast<long long>(peak->backlog_end));
    }
  }
  const ModeResult* ad = Find(r, "parsync/adaptive");
  if (ad != nullptr) {
    const PhaseResult* peak = PeakPhase(*ad);
    if (peak != nullptr) {
      Append(&out,
             "  parsync/adaptive: mean delay %.1f ms, p50 %.1f ms at %.0f%% (tau %.0f ms: %s)\n",
             peak->delay_mean_ms, peak->delay_p50_ms, peak->fraction * 100, tau_ms,
             peak->delay_p50_ms <= 1.25 * tau_ms ? "bounded near/below tau" : "ABOVE tau");
    }
  }
  const ModeResult* mono = Find(r, "monolithic/latency-first");
  const ModeResult* sts = Find(r, "statesync/latency-first");
  if (mono != nullptr && sts != nullptr && sts->total.delay_mean_ms > 0) {
    Append(&out,
           "  monolithic vs statesync (latency-first): mean delay x%.2f, uncommitted at end %lld "
           "vs %lld\n",
           mono->total.delay_mean_ms / sts->total.delay_mean_ms,
           static_cast<long long>(mono->uncommitted_at_end),
           static_cast<long long>(sts->uncommitted_at_end));
  }
  return out;
}

}  // namespace spindle::windtunnel

#include "bench/windtunnel/figure5.h"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace spindle::windtunnel {

namespace {

std::string PhaseLabel(const PhaseResult& p) {
  if (p.fraction <= 0) return p.name;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%s@%.0f%%", p.name.c_str(), p.fraction * 100);
  return buf;
}

std::string Values(const std::vector<double>& v, const std::vector<size_t>& at, const char* fmt) {
  std::string out;
  for (size_t i : at) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), fmt, v[i]);
    out += (out.empty() ? "" : " / ") + std::string(buf);
  }
  return out;
}

std::string Format(const char* fmt, double a, double b) {
  char buf[160];
  std::snprintf(buf, sizeof(buf), fmt, a, b);
  return buf;
}

PhaseFigure MakeFigure(const std::vector<const ModeResult*>& modes, const std::string& id,
                       const std::string& title, const std::string& metric, const std::string& unit,
                       const std::function<double(const PhaseResult&)>& get) {
  PhaseFigure f;
  f.id = id;
  f.title = title;
  f.metric = metric;
  f.unit = unit;
  for (const PhaseResult& p : modes.front()->phases) {
    f.phases.push_back(PhaseLabel(p));
    f.fractions.push_back(p.fraction);
  }
  for (const ModeResult* m : modes) {
    f.series.push_back(m->label);
    std::vector<double> row;
    for (size_t i = 0; i < f.phases.size(); ++i) {
      row.push_back(i < m->phases.size() ? get(m->phases[i]) : 0);
    }
    f.values.push_back(std::move(row));
  }
  return f;
}

// The row of `label` in `f`, or null.
const std::vector<double>* Row(const PhaseFigure& f, const std::string& label) {
  for (size_t s = 0; s < f.series.size(); ++s) {
    if (f.series[s] == label) return &f.values[s];
  }
  return nullptr;
}

}  // namespace

void AddFigure5(WindTunnelReport* report, double tau_ms) {
  report->phase_figures.clear();
  report->trends.clear();
  std::vector<const ModeResult*> modes;
  for (const ModeResult& m : report->modes) {
    // Remote-member runs are compared with their in-process run elsewhere
    // (FormatRemoteComparison), not plotted beside it.
    if ((m.mode == "parsync" || m.mode == "statesync") && !m.phases.empty() &&
        m.remote_members == 0) {
      modes.push_back(&m);
    }
  }
  if (modes.empty()) return;
  const PhaseFigure delay =
      MakeFigure(modes, "5a", "Figure 5a: average scheduling delay per phase", "delay_mean_ms",
                 "ms", [](const PhaseResult& p) { return p.delay_mean_ms; });
  const PhaseFigure quality =
      MakeFigure(modes, "5b", "Figure 5b: scheduling quality per phase (share on preferred slots)",
                 "quality", "share", [](const PhaseResult& p) { return p.quality; });

  // The load phases (not the drain), and the peak: the first of the highest.
  std::vector<size_t> load;
  size_t peak = 0;
  for (size_t i = 0; i < delay.fractions.size(); ++i) {
    if (delay.fractions[i] <= 0) continue;
    if (load.empty() || delay.fractions[i] > delay.fractions[peak]) peak = i;
    load.push_back(i);
  }
  std::vector<TrendCheck>& trends = report->trends;
  const auto add = [&](const char* figure, const char* claim, bool holds, std::string detail) {
    trends.push_back(TrendCheck{figure, claim, holds, std::move(detail)});
  };
  const std::vector<double>* lf = Row(delay, "parsync/latency-first");
  const std::vector<double>* qf = Row(delay, "parsync/quality-first");
  const std::vector<double>* ad = Row(delay, "parsync/adaptive");
  // The paper's StateSync: ours with latency-first (its lowest-delay
  // strategy) when the run has it, else the first statesync mode.
  std::string ss_label;
  for (const ModeResult* m : modes) {
    if (m->mode == "statesync" && (ss_label.empty() || m->strategy == "latency-first")) {
      ss_label = m->label;
    }
  }
  const std::vector<double>* ss = ss_label.empty() ? nullptr : Row(delay, ss_label);

  if (!load.empty() && lf != nullptr && delay.series.size() > 1) {
    bool holds = true;
    std::vector<double> best_other(delay.phases.size(), 0);
    for (size_t i : load) {
      double best = -1;
      for (size_t s = 0; s < delay.series.size(); ++s) {
        if (&delay.values[s] == lf) continue;
        if (best < 0 || delay.values[s][i] < best) best = delay.values[s][i];
      }
      best_other[i] = best;
      holds &= (*lf)[i] <= best;
    }
    add("5a", "parsync/latency-first has the lowest average delay in every phase", holds,
        "latency-first " + Values(*lf, load, "%.1f") + " ms; lowest other " +
            Values(best_other, load, "%.1f") + " ms");
  }
  if (!load.empty() && ad != nullptr) {
    double worst = 0;
    for (size_t i : load) worst = std::max(worst, (*ad)[i]);
    add("5a", "parsync/adaptive's average delay is bounded by tau", worst <= tau_ms,
        Format("worst phase %.1f ms, tau %.0f ms", worst, tau_ms));
  }
  if (!load.empty() && qf != nullptr && lf != nullptr) {
    const size_t first = load.front();
    const auto growth = [&](const std::vector<double>& v) {
      return v[first] > 0 ? v[peak] / v[first] : 0.0;
    };
    bool holds = (*qf)[peak] > (*lf)[peak] && growth(*qf) > growth(*lf);
    std::string detail = Format("at the peak quality-first %.1f ms vs latency-first %.1f ms",
                                (*qf)[peak], (*lf)[peak]);
    if (ad != nullptr) {
      holds &= (*qf)[peak] > (*ad)[peak] && growth(*qf) > growth(*ad);
      detail +=
          Format(" and adaptive %.1f ms; growth from phase 1 x%.1f", (*ad)[peak], growth(*qf));
      detail += Format(" vs x%.1f and x%.1f", growth(*lf), growth(*ad));
    } else {
      detail += Format("; growth from phase 1 x%.1f vs x%.1f", growth(*qf), growth(*lf));
    }
    add("5a",
        "parsync/quality-first's delay rises faster into the peak than latency-first's "
        "and adaptive's",
        holds, detail);
  }
  if (!load.empty() && qf != nullptr && ss != nullptr) {
    add("5a", "parsync/quality-first's delay at the peak stays below StateSync's",
        (*qf)[peak] < (*ss)[peak],
        Format("%.1f ms vs %.1f ms (", (*qf)[peak], (*ss)[peak]) + ss_label + ")");
  }
  if (load.size() >= 2 && ss != nullptr) {
    bool rising = (*ss)[load[1]] > (*ss)[load[0]];
    size_t top = load.front();
    for (size_t k = 1; k < load.size(); ++k) {
      if (load[k] <= peak) rising &= (*ss)[load[k]] >= (*ss)[load[k - 1]];
      if ((*ss)[load[k]] > (*ss)[top]) top = load[k];
    }
    const bool holds = rising && top >= peak && (*ss)[load.back()] < (*ss)[top];
    add("5a", "StateSync's delay rises from phase 2 on and drops only after the peak", holds,
        ss_label + " " + Values(*ss, load, "%.1f") + " ms");
  }
  const std::vector<double>* lq = Row(quality, "parsync/latency-first");
  const std::vector<double>* qq = Row(quality, "parsync/quality-first");
  const std::vector<double>* sq = ss_label.empty() ? nullptr : Row(quality, ss_label);
  if (!load.empty() && lq != nullptr && qq != nullptr) {
    bool holds = true;
    for (size_t i : load) holds &= (*qq)[i] > (*lq)[i];
    add("5b", "parsync/quality-first's quality is above latency-first's in every phase", holds,
        "quality-first " + Values(*qq, load, "%.3f") + "; latency-first " +
            Values(*lq, load, "%.3f"));
  }
  const std::vector<double>* aq = Row(quality, "parsync/adaptive");
  if (!load.empty() && lq != nullptr && aq != nullptr) {
    bool holds = true;
    for (size_t i : load) holds &= (*aq)[i] > (*lq)[i];
    add("5b", "parsync/adaptive's quality is above latency-first's in every phase", holds,
        "adaptive " + Values(*aq, load, "%.3f") + "; latency-first " + Values(*lq, load, "%.3f"));
  }
  if (!load.empty() && lq != nullptr && sq != nullptr) {
    double ss_sum = 0;
    double lf_sum = 0;
    for (size_t i : load) {
      ss_sum += (*sq)[i];
      lf_sum += (*lq)[i];
    }
    add("5b", "StateSync's quality is good (not below parsync/latency-first's)", ss_sum >= lf_sum,
        Format("mean over phases %.3f vs %.3f", ss_sum / static_cast<double>(load.size()),
               lf_sum / static_cast<double>(load.size())) +
            " (" + ss_label + ")");
  }
  report->phase_figures = {delay, quality};
}

}  // namespace spindle::windtunnel
